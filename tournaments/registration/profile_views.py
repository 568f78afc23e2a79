"""Merging two profiles of one person, and undoing a merge: the organizer's (or staff's) page.

Who may: staff and superusers, and an organizer for whom both profiles play only in
tournaments he organizes (``scoring.access.profiles.can_merge_profiles``); a merge is undone
by whoever could have made it (``can_unmerge_profiles``). The work is
``scoring.people.merges``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from scoring.access import profiles as access
from scoring.access.permissions import managed_tournaments
from scoring.core.errors import ServiceError
from scoring.models import Profile, ProfileMerge
from scoring.people.merges import last_merge, merge_profiles, unmerge_profiles
from scoring.people.profiles import describe, live_profiles
from tournaments.registration.profile_fields import NEW, add_profile_fields, chosen_profile

#: How many recent merges the page offers to undo.
RECENT_MERGES = 20


class MergeForm(forms.Form):
    """The profile kept and the profile merged into it, each found by name."""

    intro = gettext_lazy("Every tournament entry and rating row of the second profile moves to "
                         "the first; its empty club, city, birth year and federation id are "
                         "filled from the second. Results do not change. Links to the second "
                         "profile lead to the first. A merge can be undone below.")

    def __init__(self, *args: Any, viewer: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        label = gettext_lazy("— choose a profile —")
        add_profile_fields(self, "keep", viewer=viewer, new_label=label)
        add_profile_fields(self, "other", viewer=viewer, new_label=label)
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


def _posted(request: HttpRequest) -> tuple[Profile | None, Profile | None]:
    """The two live profiles a posted form names (None where it names none)."""
    found = []
    for name in ("keep_profile", "other_profile"):
        value = request.POST.get(name, "") if request.method == "POST" else ""
        found.append(live_profiles().filter(pk=int(value)).first() if value.isdigit() else None)
    return found[0], found[1]


def undoable_merges(user: Any) -> list[ProfileMerge]:
    """The recent merges the user may undo (newest first), each with its two profiles."""
    found = ProfileMerge.objects.filter(undone_at=None).select_related("kept", "merged")
    if not access.is_staff(user):
        found = found.filter(kept__entries__tournament__in=managed_tournaments(user))
    recent = list(found.distinct().order_by("-pk")[:RECENT_MERGES])
    return [merge for merge in recent if access.can_unmerge_profiles(user, merge)]


@login_required
def merge_page(request: HttpRequest) -> HttpResponse:
    """Choose two profiles of one person and merge them; the recent merges, to undo."""
    if not access.can_use_profile_tools(request.user):
        raise PermissionDenied
    keep, other = _posted(request)
    if keep is not None and other is not None and not access.can_merge_profiles(
            request.user, keep, other):
        raise PermissionDenied  # as the API: a profile he may not merge is refused, not offered
    form = MergeForm(request.POST or _initial(request), viewer=request.user)
    if request.method == "POST" and form.is_valid():
        keep, other = chosen_profile(form, "keep"), chosen_profile(form, "other")
        if keep is None or other is None or not access.can_merge_profiles(
                request.user, keep, other):
            raise PermissionDenied
        try:
            merge_profiles(keep, other, actor=request.user)
        except ServiceError as err:
            form.add_error(f"{err.field}_profile" if err.field in ("keep", "other")
                           else None, err.message)
        else:
            messages.success(request, _("%(other)s was merged into %(keep)s.")
                             % {"other": other.name, "keep": describe(keep, private=False)})
            return redirect("tournaments:profile_merge")
    status = 400 if form.errors and request.method == "POST" else 200
    return render(request, "tournaments/profile_merge.html", {
        "form": form, "title": _("Merge two profiles of one person"),
        "merges": undoable_merges(request.user)}, status=status)


@require_POST
@login_required
def unmerge_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo the merge of profile ``pk`` into another: everything it moved goes back."""
    merge = last_merge(pk)
    if merge is None:
        raise Http404
    if not access.can_unmerge_profiles(request.user, merge):
        raise PermissionDenied
    try:
        done = unmerge_profiles(merge, actor=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, ngettext(
            "The merge is undone: %(restored)s is a profile of its own again, with "
            "%(count)s tournament entry.",
            "The merge is undone: %(restored)s is a profile of its own again, with "
            "%(count)s tournament entries.", done.entries)
            % {"restored": done.restored.name, "count": done.entries})
    return redirect("tournaments:profile_merge")
