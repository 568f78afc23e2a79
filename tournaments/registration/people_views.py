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
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee import accounts
from referee.staff_views import ACCOUNT_ACTIONS, account_action, account_rows, invitation_slips
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


def _post(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """Run one of the page's actions; a PDF to download, or None to show the page again."""
    post, actor = request.POST, request.user
    if "pins" in post:
        made = pins.generate_pins(tournament.pk, actor=actor, only_missing=post["pins"] != "all")
        if not made:
            raise ServiceError("pins", _("Every player has a signing PIN already."))
        return pin_slips(tournament, made)
    if "make_accounts" in post:
        made_for = accounts.make_player_accounts(tournament, actor=actor)
        messages.success(request, ngettext("%(count)d player account was made.",
                                           "%(count)d player accounts were made.", len(made_for))
                         % {"count": len(made_for)})
    elif "make_account" in post:
        accounts.make_player_accounts(
            tournament, actor=actor, player_ids=[int(post["make_account"])])
        messages.success(request, _("The account was made: print the invitation."))
    elif "invitations" in post:
        waiting = [a.user for a in tournament.issued_accounts.select_related("user")
                   .filter(user__players__tournament=tournament).order_by("user__first_name")
                   if accounts.invitable(a)]
        if not waiting:
            raise ServiceError("user", _("No player waits for an invitation."))
        return invitation_slips(request, tournament, waiting,
                                f"invitations-{tournament.slug}.pdf")
    elif any(key in post for key in ACCOUNT_ACTIONS):
        return account_action(request, tournament)
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
        "tournament": tournament, "lines": lines,
        "counts": {
            "players": len(players),
            "accounts": sum(1 for p in players if p.user_id),
            "logged_in": sum(1 for p in players if p.user is not None and p.user.last_login),
            "waiting": sum(1 for account in accounts_of if account and account["link"]),
            "pins": len(with_pin),
        },
    })
