"""The organizer's page of read-only API tokens: issue one (its key shown once), revoke one."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.access import api_tokens, permissions
from scoring.core.errors import ServiceError


class TokenForm(forms.Form):
    """What or who the token is for."""

    name = forms.CharField(
        label=gettext_lazy("Name of the token"), max_length=100,
        help_text=gettext_lazy("What or who will use it, e.g. “Club website results”."))


def _organizer(request: HttpRequest) -> None:
    """Organizers only (403 for anyone else)."""
    if not permissions.is_organizer(request.user):
        raise PermissionDenied


@login_required
def token_list(request: HttpRequest) -> HttpResponse:
    """The user's read-only tokens; POST issues one and shows its key this once."""
    _organizer(request)
    form = TokenForm(request.POST or None)
    issued = None
    if request.method == "POST" and form.is_valid():
        try:
            token, key = api_tokens.issue_token(request.user, form.cleaned_data["name"])
        except ServiceError as err:
            form.add_error("name", err.message)
        else:
            issued = {"token": token, "key": key}
            form = TokenForm()
    return render(request, "tournaments/api_tokens.html", {
        "form": form, "issued": issued, "tokens": api_tokens.tokens_of(request.user),
    }, status=201 if issued else 200)


@login_required
@require_POST
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of the user's tokens (another's is not found)."""
    _organizer(request)
    token = get_object_or_404(api_tokens.tokens_of(request.user), pk=pk)
    api_tokens.revoke_token(token)
    messages.success(request, _("Token “%(name)s” revoked: its key no longer works.")
                     % {"name": token.name})
    return redirect("tournaments:api_tokens")
