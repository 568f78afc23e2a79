"""The players' accounts and signing PINs of a tournament, for its organizer: make accounts,
print their invitations, revoke access, generate PINs and print them as slips.

A generated PIN is shown once, on the slips' PDF answered to the request that made it; the
site keeps only its hash.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee import accounts
from referee.account_questions import pins_question
from referee.staff_views import ACCOUNT_ACTIONS, account_action, account_rows, invitation_slips
from scoring.core import asking
from scoring.core.errors import ServiceError
from scoring.models import SigningPin, Tournament
from scoring.protocols.slips import Slip, render_slips
from scoring.signoff import pins
from tournaments.pages import tournament_for


def pin_slips(tournament: Tournament, made: list[pins.GeneratedPin]) -> HttpResponse:
    """The PDF of PIN slips, one per player, in the tournament's language."""
    with translation.override(tournament.language):
        slips = [Slip(
            heading=_("%(tournament)s · signing PIN") % {"tournament": tournament.name},
            name=item.player.name, code_label=_("Your signing PIN"), code=item.pin,
            lines=[_("You type it on the referee's device to sign your party's protocol. "
                     "Keep it to yourself; you can change it in your area.")])
            for item in made]
        pdf = render_slips(slips, title=_("Signing PINs"), language=tournament.language)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="pins-{tournament.slug}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


def say_reused(request: HttpRequest, done: accounts.PlayerLogins) -> None:
    """Name the players who got the login their profile already has (no second login)."""
    if done.reused:
        messages.info(request, ngettext(
            "%(count)d player already has a login on his profile; it is used here too: "
            "%(names)s.",
            "%(count)d players already have a login on their profile; it is used here too: "
            "%(names)s.", len(done.reused)) % {"count": len(done.reused), "names": ", ".join(
                f"{p.name} ({p.user.username})" for p in done.reused if p.user is not None)})


def _said(request: HttpRequest, done: accounts.PlayerLogins, *, single: bool) -> None:
    """Say which logins were made and which players got the login their profile has."""
    if single and done.made:
        messages.success(request, _("The account was made: print the invitation."))
    elif done.made or not done.reused:
        messages.success(request, ngettext("%(count)d player account was made.",
                                           "%(count)d player accounts were made.", len(done.made))
                         % {"count": len(done.made)})
    say_reused(request, done)


def _post(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """Run one of the page's actions; a PDF to download, or None to show the page again."""
    post, actor = request.POST, request.user
    back = reverse("tournaments:people", args=[tournament.slug])
    if "pins" in post:
        every = post["pins"] == "all"
        if every and not asking.confirmed(request) and (question := pins_question(tournament)):
            return asking.ask_page(request, question, back, title=tournament.name)
        made = pins.generate_pins(tournament.pk, actor=actor, only_missing=not every)
        if not made:
            raise ServiceError("pins", _("Every player has a signing PIN already."))
        return pin_slips(tournament, made)
    if "make_accounts" in post:
        _said(request, accounts.make_player_accounts(tournament, actor=actor), single=False)
    elif "make_account" in post:
        _said(request, accounts.make_player_accounts(
            tournament, actor=actor, player_ids=[int(post["make_account"])]), single=True)
    elif "invitations" in post:
        waiting = [a.user for a in tournament.issued_accounts.select_related("user")
                   .filter(user__players__tournament=tournament).order_by("user__first_name")
                   if accounts.invitable(a)]
        if not waiting:
            raise ServiceError("user", _("No player waits for an invitation."))
        return invitation_slips(request, tournament, waiting,
                                f"invitations-{tournament.slug}.pdf")
    elif any(key in post for key in ACCOUNT_ACTIONS):
        return account_action(request, tournament, back)
    return None


@login_required
def people(request: HttpRequest, slug: str) -> HttpResponse:
    """Players' accounts (who logged in), invitations and signing PINs (organizers only)."""
    tournament = tournament_for(request, slug, manage=True)
    if request.method == "POST":
        try:
            answer = _post(request, tournament)
        except ServiceError as err:
            messages.error(request, err.message)
            answer = None
        return answer or redirect("tournaments:people", slug=slug)
    players = list(tournament.players.select_related("user").order_by("name", "pk"))
    with_pin = set(SigningPin.objects.filter(player__tournament=tournament)
                   .values_list("player_id", flat=True))
    rows = account_rows(request, tournament, [p.user for p in players if p.user_id])
    accounts_of = [rows.get(p.user_id) if p.user_id else None for p in players]
    lines = [{"player": p, "pin": p.pk in with_pin, "account": account}
             for p, account in zip(players, accounts_of, strict=True)]
    return render(request, "tournaments/people.html", {
        "tournament": tournament, "lines": lines, "ask_pins": pins_question(tournament),
        "counts": {
            "players": len(players),
            "accounts": sum(1 for p in players if p.user_id),
            "logged_in": sum(1 for p in players if p.user is not None and p.user.last_login),
            "waiting": sum(1 for account in accounts_of if account and account["link"]),
            "pins": len(with_pin),
        },
    })
