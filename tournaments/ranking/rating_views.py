"""Rating list pages: the public list and its CSV, the organizer's list form, seeding a draw."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import RatingList
from scoring.ranking import rating_pages
from scoring.ranking.rating_lists import (
    can_create_list,
    can_edit_list,
    can_see_list,
    save_rating_list,
    take_ratings,
    visible_lists,
)
from scoring.ranking.rating_runs import RatingLine, rating_lines
from tournaments.pages import show_refusal, tournament_for, url_root
from tournaments.public.conditional import conditional_headers
from tournaments.public.paging import (
    asked_query,
    cached_render,
    page_of,
    page_size,
    page_url,
    paging,
)
from tournaments.ranking.rating_forms import RatingListForm, TakeRatingsForm
from tournaments.registration.services import rate_teams
from tournaments.transfer.sheets import CSV_TYPE, Sheet, to_csv


def _list_for(request: HttpRequest, slug: str, edit: bool = False) -> RatingList:
    """A list the visitor may see (404 otherwise) or edit (403)."""
    rating_list = get_object_or_404(RatingList, slug=slug)
    if not can_see_list(request.user, rating_list):
        raise Http404
    if edit and not can_edit_list(request.user, rating_list):
        raise PermissionDenied
    return rating_list


def rating_list_index(request: HttpRequest) -> HttpResponse:
    """Every rating list the visitor may see."""
    return render(request, "tournaments/rating_lists.html", {
        "lists": visible_lists(request.user).order_by("name"),
        "can_create": can_create_list(request.user),
    })


def _rows(rating_list: RatingList, lines: list[RatingLine]) -> list[dict[str, object]]:
    """The lines for the page: names, links and the figures shown (one ``reverse`` for all
    the profiles' addresses)."""
    root = url_root("tournaments:profile")
    rows = []
    for line in lines:
        entry = line.entry
        rows.append({
            "anchor": subject_anchor(entry.subject),
            "rank": line.rank,
            "name": entry.profile.name,
            "url": f"{root}{entry.profile_id}/",
            "partner": entry.partner.name if entry.partner else "",
            "partner_url": "" if entry.partner_id is None else f"{root}{entry.partner_id}/",
            "club": entry.profile.club,
            "rating": round(entry.rating),
            "deviation": None if entry.deviation is None else round(entry.deviation),
            "parties": line.parties,
            "tournaments": line.tournaments,
        })
    return rows


def subject_anchor(subject: str) -> str:
    """The id of a subject's row on the list's page ("my place" links to it)."""
    return f"s-{subject}"


def _section(request: HttpRequest, rating_list: RatingList, total: int) -> dict[str, object]:
    """The list's table rendered: every line of a short list (``total`` lines), one page of a
    long one (or of a search by name), with the visitor's place."""
    query = asked_query(request)
    context: dict[str, object] = {
        "rating_list": rating_list,
        "pairs": rating_list.subject == RatingList.Subject.PAIRS,
        "glicko": rating_list.system == RatingList.System.GLICKO2,
        "paging": None,
        "searchable": total > page_size() or bool(query),
    }
    if total <= page_size() and not query:
        lines = rating_lines(rating_list)
    else:
        if query:
            found = rating_pages.found(rating_list, query)
            page = paging(request, len(found), query)
            lines = rating_pages.found_lines(rating_list, found[page.start:page.end])
        else:
            page = paging(request, total)
            lines = rating_pages.page_lines(rating_list, page.start, page.end)
        context["paging"] = page
        mine = rating_pages.place_of(rating_list, request.user)
        if mine is not None:
            rank, entry = mine
            anchor = "#" + subject_anchor(entry.subject)
            context["mine"] = {"rank": rank, "url": page_url(
                request, page_of(rank - 1), query=False, anchor=anchor)}
    context["rows"] = _rows(rating_list, lines)
    return {"html": render_to_string("tournaments/_rating_table.html", context, request)}


def rating_list_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A list's public page: rank, name, club, rating, RD and parties of every subject; a
    long list in pages with a search by name. Answered 304 while its ETag holds; the table
    is cached under it (``paging.cached_render``)."""
    rating_list = _list_for(request, slug)
    version, total = rating_pages.list_version(rating_list)
    parts = (version, request.user.pk,
             getattr(request, "LANGUAGE_CODE", ""), request.get_full_path())
    etag = '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        section = cached_render(request, f"rating:{rating_list.pk}", etag,
                                lambda: _section(request, rating_list, total))
        response = render(request, "tournaments/rating_list.html", {
            "rating_list": rating_list,
            "section": mark_safe(section["html"]),  # noqa: S308 - rendered by a template
            "tournaments": rating_list.tournaments.order_by("start_date", "id"),
            "can_edit": can_edit_list(request.user, rating_list),
        })
    return conditional_headers(response, etag)


def csv_sheet(rating_list: RatingList) -> Sheet:
    """The list as a sheet: every cell through ``spreadsheet_safe`` when written."""
    header = [_("Rank"), _("Name"), _("Partner"), _("Club"), _("Rating"), _("RD"),
              _("Parties"), _("Tournaments")]
    rows = [
        [row["rank"], row["name"], row["partner"], row["club"], row["rating"],
         row["deviation"], row["parties"], row["tournaments"]]
        for row in _rows(rating_list, rating_lines(rating_list))
    ]
    return Sheet(title=rating_list.name, header=header, rows=rows)  # type: ignore[arg-type]


def csv_response(rating_list: RatingList) -> HttpResponse:
    """The list's CSV file to save."""
    response = HttpResponse(to_csv(csv_sheet(rating_list)), content_type=CSV_TYPE)
    filename = slugify(rating_list.slug) or "rating"
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def rating_list_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The list as CSV (UTF-8 with BOM)."""
    return csv_response(_list_for(request, slug))


def _edit(request: HttpRequest, rating_list: RatingList | None) -> HttpResponse:
    """The list form: create or change, then the list's page."""
    form = RatingListForm(request.POST or None, instance=rating_list, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            saved = save_rating_list(
                actor=request.user, rating_list=rating_list,
                tournaments=form.cleaned_data["tournaments"], **form.service_fields(),
            )
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("The rating list was saved and recomputed."))
            return redirect(saved.get_absolute_url())
    title = _("New rating list") if rating_list is None else _("Edit %(list)s") % {
        "list": rating_list.name}
    return render(request, "tournaments/form.html", {"form": form, "title": title})


@login_required
def rating_list_create(request: HttpRequest) -> HttpResponse:
    """A new rating list (organizers)."""
    if not can_create_list(request.user):
        raise PermissionDenied
    return _edit(request, None)


@login_required
def rating_list_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Change a list and its rated tournaments (its creator only)."""
    return _edit(request, _list_for(request, slug, edit=True))


@login_required
def take_ratings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer's action: seed the entrants' ratings from a players' list."""
    tournament = tournament_for(request, slug, manage=True)
    form = TakeRatingsForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            count = take_ratings(tournament, form.cleaned_data["rating_list"],
                                 actor=request.user)
            rate_teams(tournament.pk)  # the teams' ratings follow their pairs' ratings
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("Ratings taken for %(count)s players.") % {
                "count": count})
            return redirect(tournament.get_absolute_url())
    return render(request, "tournaments/form.html", {
        "form": form, "tournament": tournament, "title": _("Take ratings from a list")})
