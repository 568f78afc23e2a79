"""The roles page of a tournament (referees, the chief: assign, make accounts, invite, revoke)
and the invitation pages: set one's password through the link, invitation slips to print.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import PasswordResetConfirmView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _

from referee import access, accounts, services
from referee.account_questions import (
    account_question,
    remove_question,
    reset_question,
    revoke_question,
)
from referee.api import referee_roles
from referee.serializers import RefereeSettingsSerializer
from referee.views import _error_text, _login_first
from scoring.core import asking
from scoring.core.errors import ServiceError
from scoring.core.site import site_url
from scoring.models import IssuedAccount, RefereeSettings, Tournament, TournamentRole
from scoring.protocols.slips import Slip, render_slips


def invitation_link(user: Any) -> str:
    """The absolute address of a fresh invitation link for ``user`` (at the site's address, as
    the protocols' links: ``scoring.core.site.site_url``)."""
    return site_url() + accounts.invitation_path(user)


def account_rows(request: HttpRequest, tournament: Tournament, users: list[Any]
                 ) -> dict[int, dict[str, Any]]:
    """Per user id: the issued account of this tournament (or None), its invitation link, and
    the questions its reset and revoke buttons ask."""
    issued = {a.user_id: a for a in IssuedAccount.objects.filter(
        tournament=tournament, user__in=[u.pk for u in users]).select_related("user")}
    rows = {}
    for user in users:
        account = issued.get(user.pk)
        waiting = account is not None and accounts.invitable(account)
        rows[user.pk] = {"issued": account, "revoked": not user.is_active,
                         "link": invitation_link(user) if waiting else "",
                         "ask_reset": reset_question(user), "ask_revoke": revoke_question(user)}
    return rows


def invitation_slips(request: HttpRequest, tournament: Tournament, users: list[Any],
                     filename: str) -> HttpResponse:
    """A PDF of invitation slips (login, link, its QR code), in the tournament's language."""
    until = accounts.invitation_expires().strftime("%d.%m.%Y")
    slips = []
    with translation.override(tournament.language):
        for user in users:
            link = invitation_link(user)
            slips.append(Slip(
                heading=_("%(tournament)s · invitation") % {"tournament": tournament.name},
                name=user.first_name or user.username, code_label=_("Your login"),
                code=user.username,
                lines=[_("Scan the code or open the link and choose your password. The link "
                         "works once, until %(until)s.") % {"until": until}, link],
                qr_url=link))
        title = _("Invitations")
    pdf = render_slips(slips, title=title, language=tournament.language)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def referees(request: HttpRequest, slug: str) -> HttpResponse:
    """Organizers assign referees (optionally to tables), make and invite their accounts,
    revoke access, and set the penalty rules."""
    if (login := _login_first(request)) is not None:
        return login
    tournament = access.tournament_for_referee(request.user, manage=True, slug=slug)
    if request.method == "POST":
        pdf = _change_referees(request, tournament)
        return pdf or redirect("referee:referees", slug=slug)
    roles = list(referee_roles(tournament.pk))
    rows = account_rows(request, tournament, [r.user for r in roles])
    return render(
        request,
        "referee/referees.html",
        {
            "tournament": tournament,
            "roles": [(role, rows[role.user_id], remove_question(role)) for role in roles],
            "tables": tournament.tables.all(),
            "settings": services.referee_settings(tournament),
            "presets": RefereeSettings.Preset.choices,
            "Role": TournamentRole.Role,
        },
    )


def _assigned(request: HttpRequest, user: Any, role: str) -> None:
    name = user.get_full_name() or user.username
    if role == TournamentRole.Role.CHIEF:
        messages.success(request, _("%(name)s is the chief referee now.") % {"name": name})
    else:
        messages.success(request, _("%(name)s is a referee now.") % {"name": name})


ACCOUNT_ACTIONS = ("revoke", "invite", "mail", "slip")
"""The buttons of an issued account (each posts the account's user id)."""


def account_action(request: HttpRequest, tournament: Tournament, back: str
                   ) -> HttpResponse | None:
    """Invite again, mail the invitation, print its slip (the PDF) or revoke access.

    A reset or a revoke not yet confirmed is answered with its question (``back``: where
    cancelling leads).
    """
    post = request.POST
    if not asking.confirmed(request) and (question := account_question(tournament, post)):
        return asking.ask_page(request, question, back, title=tournament.name)
    if "revoke" in post:
        account = accounts.revoke_access(tournament, post["revoke"], actor=request.user)
        messages.success(request, _("%(name)s can no longer log in.")
                         % {"name": account.user.username})
    elif "invite" in post:
        account = accounts.invite(tournament, post["invite"], actor=request.user)
        messages.success(request, _("%(name)s can be invited again: print the invitation.")
                         % {"name": account.user.username})
    elif "mail" in post:
        account = accounts.issued_account(tournament, post["mail"])
        accounts.mail_invitation(tournament, account.user_id,
                                 invitation_link(account.user), actor=request.user)
        messages.success(request, _("The invitation was sent to %(email)s.")
                         % {"email": account.user.email})
    elif "slip" in post:
        account = accounts.issued_account(tournament, post["slip"])
        if not accounts.invitable(account):
            raise ServiceError("user", _("This person has already set a password."))
        return invitation_slips(request, tournament, [account.user],
                                f"invitation-{account.user.username}.pdf")
    return None


def _change_referees(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """Apply the referees page's form: assign, remove, make an account, the account actions,
    or save the penalty rules."""
    post = request.POST
    try:
        back = reverse("referee:referees", args=[tournament.slug])
        if any(key in post for key in ACCOUNT_ACTIONS):
            return account_action(request, tournament, back)
        if "remove" in post:
            return _remove(request, tournament, back)
        elif "penalty_preset" in post:
            _save_settings(request, tournament)
        else:
            _assign(request, tournament)
    except ServiceError as err:
        messages.error(request, err.message)
    return None


def _remove(request: HttpRequest, tournament: Tournament, back: str) -> HttpResponse | None:
    """Remove a referee (or the chief) from the tournament, once the organizer confirmed."""
    role = (TournamentRole.objects.select_related("user")
            .filter(pk=_number(request.POST["remove"]), tournament=tournament,
                    role__in=[TournamentRole.Role.REFEREE, TournamentRole.Role.CHIEF]).first())
    if role is None:
        raise ServiceError("remove", _("This referee is no longer assigned."))
    if not asking.confirmed(request):
        return asking.ask_page(request, remove_question(role), back,
                               title=tournament.name)
    role.delete()
    messages.success(request, _("The referee was removed."))
    return None


def _save_settings(request: HttpRequest, tournament: Tournament) -> None:
    serializer = RefereeSettingsSerializer(data=request.POST)
    if serializer.is_valid():
        services.save_referee_settings(tournament, **serializer.validated_data)
        messages.success(request, _("Saved."))
    else:
        messages.error(request, _error_text(serializer.errors))


def _assign(request: HttpRequest, tournament: Tournament) -> None:
    """Assign an existing login, or make a new account (``new``) and assign it."""
    post = request.POST
    role = post.get("role", "")
    tables = list(tournament.tables.filter(pk__in=map(_number, post.getlist("tables"))))
    if "new" in post:
        user = accounts.create_referee_account(
            tournament, actor=request.user, full_name=post.get("full_name", ""), role=role,
            tables=tables, email=post.get("email", ""), username=post.get("username", ""))
        _assigned(request, user, role)
        messages.info(request, _("Invite %(name)s: copy the link, print the slip or mail it.")
                      % {"name": user.username})
        return
    user = get_user_model().objects.filter(username=post.get("username", "").strip()).first()
    if user is None:
        raise ServiceError("username", _("No user with that name."))
    services.assign_referee(tournament, user=user, role=role, tables=tables)
    _assigned(request, user, role)


class InvitationView(PasswordResetConfirmView):
    """The invitation link: the person chooses his password and is logged in.

    Django's password-reset confirmation with the invitation tokens: the link moves into the
    session at once (no token in later Referer headers) and works once.
    """

    token_generator = accounts.invitation_tokens
    template_name = "registration/invitation.html"
    post_reset_login = True
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"
    success_url = reverse_lazy("tournaments:home")

    def form_valid(self, form: Any) -> HttpResponse:
        """Set the password, log in, and say so."""
        response = super().form_valid(form)
        messages.success(self.request, _("Your password is set. Welcome!"))
        return response


def _number(value: str) -> int:
    """A record id of a form (0, which matches nothing, when it is not a number)."""
    return int(value) if value.isascii() and value.isdigit() else 0
