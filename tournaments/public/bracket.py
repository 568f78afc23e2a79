"""The knockout bracket's public page (live like the standings, 304 while nothing changed) and
its wall PDF (A3 or A4 landscape, in the tournament's language)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.core.web import page_or_fragment
from scoring.models import Stage, Tournament
from scoring.protocols.bracket_pdf import RUSSIAN_LABELS, bracket_pdf
from scoring.stages.common import knockout_stage
from scoring.stages.sheet import bracket_sheet
from scoring.standings.bracket import BracketSheet
from tournaments.public.load import public_load, public_tournament

PDF_PAGES = ("A3", "A4")


def tournament_bracket(tournament: Tournament, subtitle: str = "") -> tuple[Stage, BracketSheet]:
    """The tournament's knockout stage and its sheet in the active language (404 without
    finals)."""
    stage = knockout_stage(tournament)
    if stage is None:
        raise Http404
    stage.tournament = tournament
    return stage, bracket_sheet(stage, subtitle=subtitle)


def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The bracket of the finals with every match's sides, scores and tables; the final
    placings beneath once the last match is decided (a constant number of queries)."""
    load = public_load(request, slug, "standings")  # 404 when hidden
    tournament = load.tournament
    stage, sheet = tournament_bracket(tournament)
    context = {
        "tournament": tournament,
        "sheet": sheet,
        "live": stage.status != Stage.Status.FINISHED,
        "pdf_pages": PDF_PAGES,
    }
    return page_or_fragment(request, "public/bracket.html", "tournaments/_bracket.html",
                            context)


def bracket_pdf_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The bracket as one landscape page for the wall (``?page=A3`` or ``A4``), its words in
    the tournament's language."""
    tournament = public_tournament(request, slug, "standings")
    page = request.GET.get("page", "A3").upper()
    if page not in PDF_PAGES:
        raise Http404
    with translation.override(tournament.language):
        _stage, sheet = tournament_bracket(tournament, _("Finals"))
    labels = RUSSIAN_LABELS if tournament.language == "ru" else None
    response = HttpResponse(bracket_pdf(sheet, page, labels=labels),
                            content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slug}-bracket-{page}.pdf"'
    return response
