"""The entry forms: a player's entry (signing up without a login), the organizer's settings
and his changes to an entry."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import MAIL_KINDS, Entry, EntrySettings, Season


class EntryForm(forms.Form):
    """A player enters: himself (name and address unless logged in), and his partner."""

    name = forms.CharField(label=_("Your name"), max_length=200)
    email = forms.EmailField(label=_("Your email"))
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    birth_year = forms.IntegerField(label=_("Birth year"), required=False, min_value=1900,
                                    max_value=2100)
    partner_search = forms.CharField(
        label=_("Find your partner"), max_length=200, required=False,
        help_text=_("A player who played here before: type his name and press Find."))
    partner_profile = forms.TypedChoiceField(label=_("Your partner is"), required=False,
                                             coerce=int, empty_value=None,
                                             widget=forms.RadioSelect)
    partner_name = forms.CharField(label=_("Partner's name"), max_length=200, required=False)
    partner_email = forms.EmailField(
        label=_("Partner's email"), required=False,
        help_text=_("He gets a link to confirm that he plays with you."))

    def __init__(self, *args: Any, pairs: bool, user: Any = None,
                 found: list[tuple[int, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not pairs:
            for name in ("partner_search", "partner_profile", "partner_name", "partner_email"):
                del self.fields[name]
        elif found:
            choice = self.fields["partner_profile"]
            assert isinstance(choice, forms.ChoiceField)
            choice.choices = [("", _("Not among them: by name and email")), *found]
        else:
            del self.fields["partner_profile"]
        if user is not None and user.is_authenticated:
            self.fields["email"].required = False
            self.fields["email"].disabled = True
            self.fields["email"].initial = user.email
            profile = getattr(user, "profile", None)
            self.fields["name"].initial = (profile.name if profile else
                                           user.get_full_name() or user.username)
            if profile is not None:
                for field in ("name", "club", "city", "birth_year"):
                    self.fields[field].disabled = True
                    self.fields[field].required = False
                    self.fields[field].initial = getattr(profile, field)


    def clean(self) -> dict[str, Any]:
        """A pair names the partner: a profile found, or his name."""
        data = super().clean() or {}
        if "partner_name" in self.fields and not (data.get("partner_profile")
                                                  or data.get("partner_name")):
            self.add_error("partner_name", _("Name your partner: a pair enters together."))
        return data


class EntrySettingsForm(forms.ModelForm):
    """The organizer's entry settings, and the mails he switches off."""

    disabled_mails = forms.MultipleChoiceField(
        label=_("Mails switched off"), choices=MAIL_KINDS, required=False,
        widget=forms.CheckboxSelectMultiple)

    class Meta:
        model = EntrySettings
        fields = ["open", "opens_at", "closes_at", "mode", "capacity", "rating_min",
                  "rating_max", "season", "confirm_hours", "disabled_mails"]
        widgets = {"opens_at": forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                   format="%Y-%m-%dT%H:%M"),
                   "closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                    format="%Y-%m-%dT%H:%M")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        season = self.fields["season"]
        assert isinstance(season, forms.ModelChoiceField)
        season.queryset = Season.objects.order_by("-pk")


class EntryEditForm(forms.ModelForm):
    """The organizer changes an entry: names, addresses, note; the doubtful profiles."""

    profile_choice = forms.ChoiceField(label=_("Player's profile"), required=False)
    partner_profile_choice = forms.ChoiceField(label=_("Partner's profile"), required=False)

    class Meta:
        model = Entry
        fields = ["name", "email", "club", "city", "birth_year", "partner_name",
                  "partner_email", "note"]

    def __init__(self, *args: Any, candidates: dict[str, list[tuple[str, str]]],
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in ("profile", "partner_profile"):
            offered = candidates.get(field)
            if offered:
                choice = self.fields[f"{field}_choice"]
                assert isinstance(choice, forms.ChoiceField)
                choice.choices = [
                    ("", _("— choose —")), ("new", _("A new profile")), *offered]
            else:
                del self.fields[f"{field}_choice"]
        if not self.instance.partner_name:
            del self.fields["partner_name"], self.fields["partner_email"]
