"""The player's entry pages: the entry form, the entry's own page (its status, withdraw),
the sign-up's address confirmation and the partner's confirmation (signed links)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.core.errors import ServiceError
from scoring.core.timezones import activate_tournament_zone
from scoring.models import Entry, Profile
from scoring.people import entries as rules
from scoring.people.profiles import describe, search_profiles
from tournaments.entries.decisions import withdraw_own_entry
from tournaments.entries.forms import EntryForm
from tournaments.entries.services import (
    Person,
    confirm_partner,
    confirm_signup,
    create_entry,
    partner_entry,
)
from tournaments.entries.throttle import signup_allowed
from tournaments.entries.tokens import make_token, read_token
from tournaments.pages import show_refusal, tournament_for


def _entry_page(entry: Entry) -> HttpResponse:
    """Redirect to the entry's own page (its signed link)."""
    return redirect("tournaments:entry_page", make_token("entry", entry.pk))


@require_http_methods(["GET", "POST"])
def enter(request: HttpRequest, slug: str) -> HttpResponse:
    """The entry form: a logged-in player enters at once; a visitor signs up (a mail)."""
    tournament = tournament_for(request, slug)
    conf = rules.settings_of(tournament)
    pairs = rules.enters_as_pair(tournament, conf)
    user = request.user if request.user.is_authenticated else None
    text = request.POST.get("partner_search", "").strip() if pairs else ""
    found = [(p.pk, describe(p, private=False))
             for p in search_profiles(text, limit=10, viewer=request.user)] if text else []
    form = EntryForm(request.POST or None, pairs=pairs, user=user, found=found)
    state = rules.window_state(conf)
    if request.method == "POST" and "find" in request.POST:
        form.errors.clear()  # a search, not an entry: nothing is checked yet
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        allowed, field = (True, "") if user else signup_allowed(request, data["email"])
        if not allowed:
            form.add_error(field, _("Too many entries from here; try again later."))
        else:
            try:
                entry = create_entry(
                    tournament.pk,
                    Person(name=data["name"], email=data.get("email") or "",
                           club=data.get("club") or "", city=data.get("city") or "",
                           birth_year=data.get("birth_year")),
                    _partner(data) if pairs else None,
                    user=user)
            except ServiceError as err:
                show_refusal(form, err)
            else:
                if entry.status == Entry.Status.SIGNUP:
                    return render(request, "entries/check_mail.html",
                                  {"tournament": tournament, "entry": entry})
                return _entry_page(entry)
    return render(request, "entries/enter.html", {
        "tournament": tournament, "form": form, "conf": conf, "state": state, "pairs": pairs,
        "taken": (taken := rules.places_taken(tournament, conf)),
        "places_left": max(conf.capacity - taken, 0), "waiting": rules.waiting_count(tournament),
    })


def _partner(data: dict) -> Person:
    """The partner named on the form: the profile found, or his name (and his address)."""
    profile = None
    if data.get("partner_profile"):
        profile = Profile.objects.filter(pk=data["partner_profile"]).first()
    return Person(name=data.get("partner_name", ""), email=data.get("partner_email", ""),
                  profile=profile)


def _refused(request: HttpRequest, err: ServiceError) -> HttpResponse:
    """A forged or expired link: said plainly, with a way back (400)."""
    return render(request, "entries/link_refused.html", {"message": err.message}, status=400)


@require_http_methods(["GET", "POST"])
def entry_page(request: HttpRequest, token: str) -> HttpResponse:
    """The entry's own page: its status, its place on the waiting list; withdraw it."""
    try:
        entry = Entry.objects.select_related("tournament").get(pk=read_token("entry", token))
    except (ServiceError, Entry.DoesNotExist) as err:
        return _refused(request, err if isinstance(err, ServiceError)
                        else ServiceError("token", _("This link is not valid.")))
    activate_tournament_zone(entry.tournament)
    if request.method == "POST":
        try:
            withdraw_own_entry(entry.pk)
        except ServiceError as err:
            messages.error(request, err.message)
        else:
            messages.success(request, _("Your entry is withdrawn."))
        return redirect(request.path)
    ahead = None
    if entry.status == Entry.Status.WAITING:
        ahead = Entry.objects.filter(tournament=entry.tournament, status=Entry.Status.WAITING,
                                     queued_at__lt=entry.queued_at).count() + 1
    return render(request, "entries/entry.html", {
        "entry": entry, "tournament": entry.tournament, "position": ahead,
        "can_withdraw": entry.status in Entry.LIVE})


@require_http_methods(["GET", "POST"])
def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The sign-up confirms his address (a button, so a mail scanner confirms nothing)."""
    try:
        read_token("signup", token)
        if request.method == "POST":
            return _entry_page(confirm_signup(token))
    except ServiceError as err:
        return _refused(request, err)
    return render(request, "entries/confirm.html", {
        "title": _("Confirm your address"), "button": _("Confirm my address")})


@require_http_methods(["GET", "POST"])
def partner_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The partner confirms that he plays in the pair."""
    try:
        entry = partner_entry(token)
        if request.method == "POST":
            entry = confirm_partner(token)
            messages.success(request, _("Thank you: you are confirmed as the partner."))
            return render(request, "entries/entry.html", {
                "entry": entry, "tournament": entry.tournament, "position": None,
                "can_withdraw": False})
    except ServiceError as err:
        return _refused(request, err)
    return render(request, "entries/confirm.html", {
        "title": _("Confirm that you play in this pair"), "entry": entry,
        "tournament": entry.tournament, "button": _("I confirm: I play in this pair")})
