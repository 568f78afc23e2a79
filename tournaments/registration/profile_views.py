"""Merging two profiles of one person: the organizer's (or staff's) page.

Who may: staff and superusers, and an organizer of a tournament where one of the two
profiles plays (``permissions.can_merge_profiles``). The work is ``scoring.people.profiles``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.access import permissions
from scoring.core.errors import ServiceError
from scoring.people.profiles import describe, merge_profiles
from tournaments.registration.profile_fields import NEW, add_profile_fields, chosen_profile


class MergeForm(forms.Form):
    """The profile kept and the profile merged into it, each found by name."""

    intro = gettext_lazy("Every tournament entry and rating row of the second profile moves to "
                         "the first; its empty club, city, birth year and federation id are "
                         "filled from the second. Results do not change. Links to the second "
                         "profile lead to the first.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_profile_fields(self, "keep", new_label=gettext_lazy("— choose a profile —"))
        add_profile_fields(self, "other", new_label=gettext_lazy("— choose a profile —"))
        self.fields["keep_profile"].label = gettext_lazy("The profile kept")
        self.fields["other_profile"].label = gettext_lazy("The profile merged into it")

    def sections(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The two profiles under their headings."""
        return [(str(gettext_lazy("Keep")), [self["keep_find"], self["keep_profile"]]),
                (str(gettext_lazy("Merge into it")), [self["other_find"], self["other_profile"]])]

    def clean(self) -> dict[str, Any]:
        """Both profiles chosen."""
        super().clean()
        data = self.cleaned_data
        for prefix in ("keep", "other"):
            if (data.get(f"{prefix}_profile") or NEW) == NEW:
                self.add_error(f"{prefix}_profile", _("Choose a profile."))
        return data


def _initial(request: HttpRequest) -> dict[str, Any] | None:
    """Both profiles preset from ``?keep=&other=`` (a link from elsewhere), else nothing."""
    keep, other = request.GET.get("keep", ""), request.GET.get("other", "")
    if not (keep.isdigit() and other.isdigit()):
        return None
    return {"keep_profile": keep, "other_profile": other}


@login_required
def merge_page(request: HttpRequest) -> HttpResponse:
    """Choose two profiles of one person and merge them."""
    if not permissions.can_see_profile_details(request.user):
        raise PermissionDenied
    form = MergeForm(request.POST or _initial(request))
    if request.method == "POST" and form.is_valid():
        keep, other = chosen_profile(form, "keep"), chosen_profile(form, "other")
        if keep is None or other is None or not permissions.can_merge_profiles(
                request.user, keep, other):
            raise PermissionDenied
        try:
            merge_profiles(keep, other, actor=request.user)
        except ServiceError as err:
            form.add_error(f"{err.field}_profile" if err.field in ("keep", "other")
                           else None, err.message)
        else:
            messages.success(request, _("%(other)s was merged into %(keep)s.")
                             % {"other": describe(other), "keep": describe(keep)})
            return redirect("tournaments:profile_merge")
    status = 400 if form.errors and request.method == "POST" else 200
    return render(request, "tournaments/form.html", {
        "form": form, "title": _("Merge two profiles of one person")}, status=status)

