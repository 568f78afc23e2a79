"""The organizer's entry pages: the entries (accept, refuse, withdraw), one entry's changes,
and the entry settings (window, places, limits, the mails switched off)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.core.errors import ServiceError
from scoring.models import Entry
from scoring.people import entries as rules
from scoring.people.profiles import describe, seen_by
from tournaments.entries.decisions import (
    DECISIONS,
    decide_entry,
    edit_entry,
    update_entry_settings,
)
from tournaments.entries.forms import EntryEditForm, EntrySettingsForm
from tournaments.pages import show_refusal, tournament_for

ORDER = {status: n for n, status in enumerate(
    ("received", "partner", "waiting", "signup", "accepted", "refused", "withdrawn",
     "expired"))}
"""The entries in the order the organizer works on them: to decide first."""


def entries_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's entries by status, each with its decisions."""
    tournament = tournament_for(request, slug, manage=True)
    conf = rules.settings_of(tournament)
    entries = sorted(Entry.objects.filter(tournament=tournament).select_related("profile"),
                     key=lambda e: (ORDER[e.status], e.queued_at or e.created_at, e.pk))
    return render(request, "entries/manage.html", {
        "tournament": tournament, "conf": conf, "entries": entries,
        "taken": rules.places_taken(tournament, conf), "state": rules.window_state(conf),
        "waiting": rules.waiting_count(tournament)})


@require_POST
def entry_decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Accept, refuse or withdraw one entry; the waiting list moves up by itself."""
    tournament = tournament_for(request, slug, manage=True)
    decision = request.POST.get("decision", "")
    if not Entry.objects.filter(pk=pk, tournament=tournament).exists() or (
            decision not in DECISIONS):
        raise Http404
    try:
        entry, promoted = decide_entry(pk, decision, actor=request.user,
                                       note=request.POST.get("note", ""))
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("%(entry)s: %(status)s.")
                         % {"entry": entry.label, "status": entry.get_status_display()})
        for moved in promoted:
            messages.info(request, _("%(entry)s moved up from the waiting list.")
                          % {"entry": moved.label})
    return redirect("tournaments:entries_manage", tournament.slug)


@require_http_methods(["GET", "POST"])
def entry_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Change an entry, or choose the profile of a doubtful match."""
    tournament = tournament_for(request, slug, manage=True)
    entry = Entry.objects.filter(pk=pk, tournament=tournament).first()
    if entry is None:
        raise Http404
    seen = {p.pk: p for p in seen_by(request.user).filter(
        pk__in=[pk for ids in entry.doubts.values() for pk in ids])}
    candidates = {field: [(str(i), describe(seen[i])) for i in ids if i in seen]
                  for field, ids in entry.doubts.items()}
    form = EntryEditForm(request.POST or None, instance=entry, candidates=candidates)
    if request.method == "POST" and form.is_valid():
        changes = {name: form.cleaned_data[name] for name in form.changed_data
                   if not name.endswith("_choice")}
        for field in ("profile", "partner_profile"):
            if form.cleaned_data.get(f"{field}_choice"):
                changes[field] = form.cleaned_data[f"{field}_choice"]
        try:
            edit_entry(entry.pk, actor=request.user, **changes)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("The entry is saved."))
            return redirect("tournaments:entries_manage", tournament.slug)
    return render(request, "tournaments/form.html", {
        "tournament": tournament, "form": form,
        "title": _("Entry: %(entry)s") % {"entry": entry.label}})


@require_http_methods(["GET", "POST"])
def entry_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """Open or close entries, their places, limits and mails."""
    tournament = tournament_for(request, slug, manage=True)
    conf = rules.settings_of(tournament)
    form = EntrySettingsForm(request.POST or None, instance=conf)
    if request.method == "POST" and form.is_valid():
        try:
            _conf, promoted = update_entry_settings(tournament.pk, actor=request.user,
                                                    **form.cleaned_data)
        except ServiceError as err:
            show_refusal(form, err)
        else:
            messages.success(request, _("Entry settings saved."))
            for moved in promoted:
                messages.info(request, _("%(entry)s moved up from the waiting list.")
                              % {"entry": moved.label})
            return redirect("tournaments:entries_manage", tournament.slug)
    return render(request, "tournaments/form.html", {
        "tournament": tournament, "form": form, "title": _("Entry settings")})
