"""Pages of import and export: the roster import with its preview, the downloads, and the
whole-tournament file in both directions. Thin: the work is in ``tournaments.transfer``."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from referee.accounts import make_player_accounts
from scoring.access import permissions
from scoring.models import Round, Tournament
from scoring.people.profiles import describe
from tournaments.pages import tournament_for
from tournaments.registration.people_views import say_reused
from tournaments.setup.services import registers_sides
from tournaments.transfer import archive, exports, roster
from tournaments.transfer.sheets import CONTENT_TYPES, size_error
from tournaments.transfer.sheets import render as render_sheet


def _download(content: bytes, filename: str, content_type: str) -> HttpResponse:
    """A file to save (never shown inline)."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


# -- roster import -------------------------------------------------------------------------


class RosterUploadForm(forms.Form):
    """A roster file (or the one being previewed, carried in the page) and the skip choice."""

    file = forms.FileField(label=gettext_lazy("File (CSV or XLSX)"), required=False)
    content = forms.CharField(widget=forms.HiddenInput, required=False)
    filename = forms.CharField(widget=forms.HiddenInput, required=False, max_length=200)
    skip_bad_rows = forms.BooleanField(
        label=gettext_lazy("Skip bad rows (import the good ones)"), required=False
    )

    def clean(self) -> dict[str, Any]:
        """Read the file (a new upload, else the previewed one) into ``upload``: name, bytes."""
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        if upload is not None:
            if size_error(upload.size):
                raise forms.ValidationError({"file": size_error(upload.size)})
            data["upload"] = (upload.name, upload.read())
            return data
        try:
            content = base64.b64decode(data.get("content") or "", validate=True)
        except (binascii.Error, ValueError):
            content = b""
        if size_error(len(content)):
            raise forms.ValidationError({"file": size_error(len(content))})
        if not content:
            raise forms.ValidationError({"file": _("Choose a file.")})
        data["upload"] = (data.get("filename") or "upload.csv", content)
        return data


def review_rows(report: roster.RosterReport, choices: dict[int, str]) -> list[dict[str, Any]]:
    """The review step: each doubtful row with its candidates (the profiles the importing user
    may see) and the choice made so far; a candidate's birth year and federation id only where
    he may read them (``report.readable``)."""
    rows = [row for row in report.rows
            if row.match is not None and row.match.doubtful and row.status == "ok"
            and not row.errors]
    return [{"row": row, "reason": REVIEW_REASONS.get(row.match.reason, ""),
             "chosen": choices.get(row.number, ""),
             "options": [(str(p.pk), describe(p, private=p.pk in report.readable))
                         for p in row.match.candidates]}
            for row in rows if row.match is not None]


REVIEW_REASONS = {
    "several": gettext_lazy("Several profiles have this name."),
    "name_only": gettext_lazy("A profile has this name; the row gives no club or birth year."),
    "other_details": gettext_lazy("A profile has this name, with another club or birth year."),
}


@login_required
def roster_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a roster, see the row-by-row report, then import (organizers only)."""
    tournament = tournament_for(request, slug)
    if not permissions.can_import_roster(request.user, tournament):
        raise PermissionDenied
    form = RosterUploadForm(request.POST or None, request.FILES or None)
    report = None
    status = 200
    context: dict[str, Any] = {"tournament": tournament, "form": form,
                               "columns": roster.COLUMNS,
                               "individual": tournament.format == Tournament.Format.INDIVIDUAL,
                               "teams": tournament.format == Tournament.Format.TEAMS}
    if request.method == "POST" and not form.is_valid():
        status = 400
    elif request.method == "POST":
        filename, content = form.cleaned_data["upload"]
        confirm = request.POST.get("action") == "import"
        skip = form.cleaned_data["skip_bad_rows"]
        choices = {int(key[8:]): request.POST.get(key, "") for key in request.POST
                   if key.startswith("profile_") and key[8:].isdigit()}
        report = roster.import_roster(tournament, filename, content, viewer=request.user,
                                      skip_bad_rows=skip, dry_run=not confirm, choices=choices)
        if report.imported:
            if registers_sides(tournament):
                added = _("Players added, each as a side: %(players)s.")
            else:
                added = _("Players added: %(players)s; pairs added: %(pairs)s.")
            if report.teams:
                added += " " + _("Teams made or joined: %(teams)s.")
            messages.success(request, added % {"players": report.players,
                                               "pairs": report.pairs, "teams": report.teams})
            if request.POST.get("make_accounts"):
                done = make_player_accounts(tournament, actor=request.user)
                made = done.made
                messages.success(request, ngettext(
                    "%(count)d player account was made: print the invitations.",
                    "%(count)d player accounts were made: print the invitations.", len(made))
                    % {"count": len(made)})
                say_reused(request, done)
                return redirect("tournaments:people", slug=tournament.slug)
            if report.skipped:
                count = len(report.skipped)
                messages.warning(request, ngettext("%(count)s row was skipped.",
                                                   "%(count)s rows were skipped.", count)
                                 % {"count": count})
            return redirect(tournament)
        status = 400 if report.refused else 200
        context.update(
            report=report,
            carried=base64.b64encode(content).decode("ascii"),
            filename=filename,
            skip=skip,
            good_rows=len(report.rows) - len(report.bad_rows),
            review=review_rows(report, choices),
        )
    return render(request, "tournaments/import.html", context, status=status)


@login_required
def roster_template(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """A roster file to fill in, with the header and example rows."""
    tournament = tournament_for(request, slug)
    if fmt not in CONTENT_TYPES or not permissions.can_import_roster(request.user, tournament):
        raise Http404
    return _download(roster.template_file(tournament, fmt), f"players-template.{fmt}",
                     CONTENT_TYPES[fmt])


# -- exports -------------------------------------------------------------------------------


def _int_param(request: HttpRequest, name: str) -> int | None:
    """A whole-number query parameter (None when absent; 404 when it is not a number)."""
    value = request.GET.get(name) or ""
    if not value:
        return None
    if not value.isdigit():
        raise Http404
    return int(value)


def export_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every download of a tournament: standings, results, deals; the tournament file."""
    tournament = tournament_for(request, slug)
    allowed = [what for what in exports.EXPORTS
               if permissions.can_export(request.user, tournament, what)]
    numbers = list(tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number")
                   .values_list("number", flat=True))
    return render(request, "tournaments/export.html", {
        "tournament": tournament,
        "allowed": allowed,
        "formats": exports.FORMATS,
        "numbers": numbers,
        "individual": tournament.format == Tournament.Format.INDIVIDUAL,
        "can_download": permissions.can_download_tournament(request.user, tournament),
    })


def export_download(request: HttpRequest, slug: str, what: str, fmt: str) -> HttpResponse:
    """``standings``, ``results`` or ``deals`` as CSV or XLSX (``?after_round=``, ``?by=``)."""
    tournament = tournament_for(request, slug)
    if what not in exports.EXPORTS or fmt not in exports.FORMATS:
        raise Http404
    if not permissions.can_export(request.user, tournament, what):
        raise Http404
    after_round = _int_param(request, "after_round") if what == "standings" else None
    per_player = None
    if what == "standings" and request.GET.get("by") == "player":
        per_player = True
    sheet = exports.export_sheet(tournament, what, language=request.GET.get("lang"),
                                 after_round=after_round, per_player=per_player)
    return _download(render_sheet(sheet, fmt),
                     exports.export_filename(tournament, what, fmt, after_round),
                     CONTENT_TYPES[fmt])


# -- the whole tournament ------------------------------------------------------------------


@login_required
def tournament_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole tournament as one JSON file (organizers only)."""
    tournament = tournament_for(request, slug)
    if not permissions.can_download_tournament(request.user, tournament):
        raise PermissionDenied
    try:
        content = archive.export_bytes(tournament)
    except archive.ArchiveError as err:
        messages.error(request, err.message)
        return redirect("tournaments:export", slug=tournament.slug)
    return _download(content, archive.export_filename(tournament),
                     "application/json; charset=utf-8")


class TournamentFileForm(forms.Form):
    """A tournament file to import, and optionally the short name to give it."""

    file = forms.FileField(label=gettext_lazy("Tournament file (.json)"))
    slug = forms.SlugField(
        label=gettext_lazy("New short name"), required=False, max_length=80,
        allow_unicode=True,
        help_text=gettext_lazy("Leave empty to keep the file's; if a tournament here has it, "
                               "“-2” is added."),
    )


@login_required
def tournament_upload(request: HttpRequest) -> HttpResponse:
    """Import a whole tournament from a file another installation exported."""
    if not permissions.can_import_tournament(request.user):
        raise PermissionDenied
    form = TournamentFileForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if archive.size_error(upload.size):
                raise archive.ArchiveError(archive.size_error(upload.size))
            tournament = archive.import_tournament(
                upload.read(), slug=form.cleaned_data["slug"] or None, actor=request.user)
        except archive.ArchiveError as err:
            form.add_error("file", err.message)
        else:
            messages.success(request, _("The tournament was imported as “%(slug)s”.")
                             % {"slug": tournament.slug})
            return redirect(tournament)
    status = 400 if form.errors else 200
    return render(request, "tournaments/import_tournament.html", {"form": form}, status=status)
