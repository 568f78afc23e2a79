"""The player area: my next table and opponents, my parties and results, the protocols
waiting for my signature (signed from here), my warnings and fines, and a link to my record
across tournaments (my profile's page).

A player opens it logged in to his own account, or through his personal link (an
unguessable key per player, no login needed). The link shows the same area but signs
nothing: a protocol is signed on the player's own login (or with his PIN on the referee's
table device), so that a forwarded link cannot sign for him. Organizers hand the links out
(with QR codes to print) and renew one that went astray.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.core.timezones import activate_tournament_zone
from scoring.models import Match, Party, Player, Profile, Protocol, SigningPin, Tournament
from scoring.stages.knockout import rounds_of
from scoring.stages.sheet import match_title
from tournaments.checkin.scan_views import area_state
from tournaments.pages import tournament_for
from tournaments.public.history import HistoryRow, player_history
from tournaments.public.team_rows import team_match_line
from tournaments.qr import absolute, qr_svgs
from tournaments.registration.services import renew_personal_link
from tournaments.timetable import minutes_until, next_round_start, timetable

PRIVATE_HEADERS = {
    "Cache-Control": "private, no-store",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
}


def _private(response: HttpResponse) -> HttpResponse:
    """A page with personal keys: kept by no cache, sent to no other site, indexed nowhere."""
    for header, value in PRIVATE_HEADERS.items():
        response.headers[header] = value
    return response


def personal_link(player: Player) -> str:
    """The absolute address of a player's personal link."""
    return absolute(reverse("tournaments:personal_area", args=[player.access_token]))


def awaiting_signature(player: Player, rows: list[HistoryRow]) -> list[HistoryRow]:
    """The finished parties whose current protocol still waits for this player's signature."""
    finished = [
        row for row in rows
        if row.party.status == Party.Status.FINISHED and not row.party.is_bye
    ]
    current = {
        protocol.party_id: protocol
        for protocol in Protocol.objects.filter(party__in=[row.party for row in finished])
        .exclude(status=Protocol.Status.SUPERSEDED)
        .prefetch_related("signatures")
    }
    waiting = []
    for row in finished:
        protocol = current.get(row.party.pk)
        if protocol is None or (
            protocol.status == Protocol.Status.AWAITING
            and all(s.player_id != player.pk for s in protocol.signatures.all())
        ):
            waiting.append(row)
    return waiting


def my_penalties(player: Player, rows: list[HistoryRow]) -> list[tuple[HistoryRow, Any]]:
    """Warnings, fines and disqualifications given to the player, or to his pair unnamed."""
    return [
        (row, penalty)
        for row in rows
        for penalty in row.party.penalties.all()
        if penalty.player_id == player.pk
        or (penalty.player_id is None and penalty.side == row.side)
    ]


def knockout_match(party: Party) -> str:
    """What a party of the finals plays for the player ("quarter-final"), else empty."""
    if party.match_id is None:
        return ""
    match = Match.objects.select_related("stage").get(pk=party.match_id)
    return match_title(match, rounds_of(match.stage))


def next_party(ahead: list[HistoryRow]) -> HistoryRow | None:
    """The party the player plays next: of the latest round not finished, the first half
    still to play (a team match of two halves seats him twice in a round)."""
    if not ahead:
        return None
    latest = ahead[-1].party.round_id
    return min((row for row in ahead if row.party.round_id == latest),
               key=lambda row: (row.party.half, row.party.pk))


def _area(request: HttpRequest, tournament: Tournament, player: Player, *,
          via_link: bool) -> HttpResponse:
    """The player area of ``player`` (queries do not grow with the tournament's size)."""
    rows = player_history(tournament, player)
    ahead = [row for row in rows if row.party.status != Party.Status.FINISHED]
    waiting = awaiting_signature(player, rows)
    signs_here = permissions.can_use_player_area(request.user, player)
    following = next_party(ahead)
    coming = next_round_start(timetable(tournament))
    return _private(render(request, "player/area.html", {
        "coming": coming,
        "coming_minutes": minutes_until(coming.starts_at) if coming else None,
        "knockout": knockout_match(following.party) if following else "",
        "team_match": team_match_line(following) if following else None,
        "tournament": tournament,
        "player": player,
        "next": following,
        "rows": rows,
        "waiting": waiting,
        "penalties": my_penalties(player, rows),
        "via_link": via_link,
        "signs_here": signs_here,
        "personal_link": personal_link(player) if signs_here else "",
        "has_pin": signs_here and SigningPin.objects.filter(player=player).exists(),
        "Status": Party.Status,
        "live": tournament.status == Tournament.Status.RUNNING,
        "profile_id": player.profile_id,
        "checkin": area_state(tournament, player),
        "checkin_url": reverse("tournaments:checkin_personal", args=[player.access_token])
        if via_link else reverse("tournaments:checkin_me", args=[tournament.slug]),
    }))


@login_required
def my_tournaments(request: HttpRequest) -> HttpResponse:
    """The tournaments the logged-in user plays in, each leading to his player area."""
    user = _logged_in(request)
    players = (
        Player.objects.filter(user=user)
        .select_related("tournament")
        .order_by("-tournament__start_date", "tournament__name")
    )
    return render(request, "player/mine.html", {
        "players": players, "profile": own_profile(user, players),
    })


def _logged_in(request: HttpRequest) -> User:
    """The user of a view behind ``login_required`` (who is never anonymous there)."""
    if not isinstance(request.user, User):
        raise PermissionDenied
    return request.user


def own_profile(user: User, players: Iterable[Player]) -> Profile | None:
    """The user's own profile: the one his account holds, else the one his entries link to."""
    profile = Profile.objects.filter(user=user).first()
    if profile is None:
        linked = [player.profile_id for player in players if player.profile_id]
        profile = Profile.objects.filter(pk=linked[0]).first() if linked else None
    return profile


@login_required
def tournament_area(request: HttpRequest, slug: str) -> HttpResponse:
    """The logged-in player's area in one tournament (404 for anyone who does not play)."""
    tournament = tournament_for(request, slug)
    player = Player.objects.filter(tournament=tournament, user=_logged_in(request)).first()
    if player is None or not permissions.can_use_player_area(request.user, player):
        raise Http404
    return _area(request, tournament, player, via_link=False)


def personal_area(request: HttpRequest, token: str) -> HttpResponse:
    """The player area through the player's personal link (no login)."""
    player = (
        Player.objects.select_related("tournament__regulations")
        .filter(access_token=token)
        .first()
        if len(token) >= 20
        else None
    )
    if player is None:
        raise Http404
    activate_tournament_zone(player.tournament)
    return _area(request, player.tournament, player, via_link=True)


@login_required
def personal_links(request: HttpRequest, slug: str) -> HttpResponse:
    """Organizers: every player's personal link with a QR code to print; renew one."""
    tournament = tournament_for(request, slug, manage=True)
    if request.method == "POST":
        pk = request.POST.get("player", "")
        found = (
            Player.objects.filter(tournament=tournament, pk=int(pk)).first()
            if pk.isdigit() else None
        )
        if found is None:
            raise Http404
        try:
            renew_personal_link(found.pk, actor=request.user)
        except ServiceError as err:
            messages.error(request, err.message)
        else:
            messages.success(
                request, _("%(name)s has a new personal link; the old one no longer opens.")
                % {"name": found.name},
            )
        return redirect(f"{request.path}#player-{found.pk}")
    players = list(tournament.players.order_by("name"))
    links = {player.pk: personal_link(player) for player in players}
    svgs = qr_svgs(links.values())
    return _private(render(request, "player/links.html", {
        "tournament": tournament,
        "lines": [(player, links[player.pk], svgs[links[player.pk]]) for player in players],
    }))
