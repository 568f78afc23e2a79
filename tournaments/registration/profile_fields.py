"""Choosing a player's profile on the organizer's forms: a search field and the profiles found.

Each player of a form gets two fields: ``<prefix>_find`` (a name to search; htmx asks
``tournaments:profile_search`` as the organizer types and swaps in the choices) and
``<prefix>_profile``, radio buttons: a new profile (the default) or one of the profiles found,
each shown with club, city and birth year so that namesakes are told apart. No inline script:
the search field carries htmx attributes only.

The organizer finds and chooses only the people he may see (``scoring.access.profiles.
visible_profiles``: those playing in a tournament he may see), with the birth year and the
federation id only of those playing in a tournament he organizes, and each one's tournaments
counted among those he may see.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.access import profiles as access
from scoring.models import Profile
from scoring.people.profiles import describe, live_profiles, search_profiles, seen_by

if TYPE_CHECKING:
    from django.http import QueryDict
    from django_stubs_ext import StrOrPromise

NEW = "new"
PREFIX = re.compile(r"^[a-z][a-z0-9_]{0,19}$")


def profile_options(text: str, chosen: str = "", *, viewer: Any,
                    new_label: StrOrPromise | None = None) -> list[tuple[str, str]]:
    """The radio choices: a new profile, the profiles found for ``text``, the one chosen (the
    ones ``viewer`` may see)."""
    found = search_profiles(text, viewer=viewer) if text else []
    if chosen.isdigit() and all(str(p.pk) != chosen for p in found):
        found = [*seen_by(viewer).filter(pk=int(chosen)), *found]
    details = access.profiles_with_details(viewer, [p.pk for p in found])
    return [(NEW, str(new_label or _("A new profile"))),
            *((str(p.pk), describe(p, private=p.pk in details)) for p in found)]


def add_profile_fields(form: forms.BaseForm, prefix: str, *, viewer: Any,
                       new_label: StrOrPromise | None = None) -> None:
    """Add ``<prefix>_find`` and ``<prefix>_profile`` to a form (choices from its data, among
    the profiles ``viewer`` may see)."""
    data = form.data if form.is_bound else {}
    text = str(data.get(f"{form.add_prefix(prefix)}_find", ""))
    chosen = str(data.get(f"{form.add_prefix(prefix)}_profile", ""))
    url = reverse("tournaments:profile_search")
    form.fields[f"{prefix}_find"] = forms.CharField(
        label=_("Find the player's profile"), required=False, max_length=200,
        help_text=_("Type a name: the profiles of other tournaments appear below."),
        widget=forms.TextInput(attrs={
            "type": "search", "autocomplete": "off",
            "hx-get": f"{url}?for={prefix}", "hx-trigger": "input changed delay:300ms, search",
            "hx-target": f"#id_{prefix}_profile", "hx-swap": "outerHTML",
        }))
    form.fields[f"{prefix}_profile"] = forms.ChoiceField(
        label=_("Profile"), required=False, initial=NEW,
        choices=profile_options(text, chosen, viewer=viewer, new_label=new_label),
        widget=forms.RadioSelect(attrs={"class": "profile-choices"}),
        help_text=_("The same person in other tournaments; a new profile if none is."))


def chosen_profile(form: forms.BaseForm, prefix: str) -> Profile | None:
    """The profile chosen on a valid form (None: a new one); the choices were only profiles
    the form's user may see."""
    value = form.cleaned_data.get(f"{prefix}_profile") or NEW
    if value == NEW:
        return None
    return live_profiles().filter(pk=int(value)).first()


class _PickForm(forms.Form):
    """The two fields of one player, to render the choices the search found."""

    def __init__(self, prefix: str, data: QueryDict, viewer: Any) -> None:
        data = data.copy()
        data.setdefault(f"{prefix}_profile", NEW)
        super().__init__(data)
        add_profile_fields(self, prefix, viewer=viewer)


@login_required
def profile_search(request: HttpRequest) -> HttpResponse:
    """The profile choices for a name (an htmx fragment; organizers and staff only)."""
    if not access.can_use_profile_tools(request.user):
        raise PermissionDenied
    prefix = request.GET.get("for", "")
    if not PREFIX.match(prefix):
        raise Http404
    form = _PickForm(prefix, request.GET, request.user)
    response = HttpResponse(str(form[f"{prefix}_profile"]))
    response["Cache-Control"] = "private, no-store"
    return response
