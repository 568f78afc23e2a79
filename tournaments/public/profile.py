"""A player's public record across tournaments: ``/players/<pk>/`` (a profile's page).

Name, club and city (never the birth year or the account), his tournaments with places, his
parties, partners and opponents, the figures of :mod:`scoring.people.career_figures` and two plots
(rating over time, points per deal). A merged profile's address redirects to the profile that
holds the results. A constant number of queries, whatever the number of tournaments.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from scoring.access.profiles import can_see_profile
from scoring.people import career_figures as figures
from scoring.people.careers import load_career, resolve_profile
from tournaments.public.common import RESULT_LABELS
from tournaments.public.plots import BarPlot, RatingPlot


def profile_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The public record of one player profile (404 for a person the visitor sees in no
    tournament: one entered only in hidden tournaments)."""
    profile = resolve_profile(pk)
    if profile is None or not can_see_profile(request.user, profile):
        raise Http404
    if profile.pk != pk:
        return redirect(profile)
    record = load_career(profile)
    names = {line.tournament.pk: line.tournament for line in record.tournaments}
    averages = figures.average_points_by_tournament(record.deals, record.parties)
    parties = [
        (names[line.tournament_id], line, RESULT_LABELS[line.result]) for line in record.parties
    ]
    return render(request, "public/profile.html", {
        "profile": profile,
        "record": record,
        "figures": figures.summary(record),
        "parties": parties,
        "partners": figures.partners(record.parties),
        "opponents": figures.opponents(record.parties),
        "rating_plot": RatingPlot(figures.rating_lines(record.ratings)),
        "points_plot": BarPlot(figures.points_histogram(record.deals)),
        "averages": [
            (line.tournament, averages[line.tournament.pk])
            for line in record.tournaments if line.tournament.pk in averages
        ],
    })
