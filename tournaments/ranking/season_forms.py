"""The organizer's season form: name, scoring rule, points by place, tie-breaks, tournaments."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.access import permissions
from scoring.models import Season, Tournament
from scoring.standings.season import TIE_BREAKS
from tournaments.setup.typed_fields import form_field

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

TIE_BREAK_NAMES = {
    "wins": _("more tournaments won"),
    "best": _("the best single result"),
    "played": _("more tournaments played"),
}
TIE_BREAK_SLOTS = len(TIE_BREAKS)


class SeasonForm(forms.Form):
    """Create or change a season; the tournaments offered are the user's own."""

    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Short name"), max_length=80, allow_unicode=True, required=False,
        help_text=_("The season's address ends with it; empty: made from the name."),
    )
    scoring = forms.ChoiceField(label=_("Scoring"), choices=Season.Scoring.choices)
    best_n = forms.IntegerField(
        label=_("Results counted"), min_value=1, required=False,
        help_text=_("Only the best N tournaments of each player count; empty counts all."),
    )
    place_points = forms.CharField(
        label=_("Points by place"), required=False,
        help_text=_("Season points for 1st, 2nd, 3rd… place, separated by commas, e.g. "
                    "25, 20, 16, 13, 11; places beyond the list score 0."),
    )
    public = forms.BooleanField(label=_("Public season table"), required=False, initial=True)
    tournaments = forms.ModelMultipleChoiceField(
        label=_("Tournaments"), queryset=Tournament.objects.none(), required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, user: User | AnonymousUser, season: Season | None = None,
                 **kwargs: Any) -> None:
        """Offer the user's tournaments; start from the season's values when editing."""
        if season is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": season.name, "slug": season.slug, "scoring": season.scoring,
                "best_n": season.best_n, "public": season.public,
                "place_points": ", ".join(_number(p) for p in season.place_points or []),
                "tournaments": list(season.tournaments.values_list("pk", flat=True)),
                **{f"tie_break_{n}": key for n, key in
                   enumerate(season.tie_breaks or [], start=1)},
            }
        super().__init__(*args, **kwargs)
        form_field(self, "tournaments", forms.ModelMultipleChoiceField).queryset = (
            permissions.managed_tournaments(user).order_by("-start_date", "name"))
        choices = [("", "—"), *((key, TIE_BREAK_NAMES[key]) for key in TIE_BREAKS)]
        for n in range(1, TIE_BREAK_SLOTS + 1):
            self.fields[f"tie_break_{n}"] = forms.ChoiceField(
                label=_("Tie-break %(n)d") % {"n": n}, choices=choices, required=False,
                initial=TIE_BREAKS[n - 1] if season is None else "",
            )

    def clean_place_points(self) -> list[float]:
        """The comma-separated points as numbers."""
        text = self.cleaned_data["place_points"].replace(";", ",")
        points: list[float] = []
        for part in filter(None, (p.strip() for p in text.split(","))):
            try:
                value = float(part.replace(" ", ""))
            except ValueError:
                raise forms.ValidationError(_("Write numbers separated by commas.")) from None
            points.append(int(value) if value == int(value) else value)
        return points

    def clean(self) -> dict[str, Any]:
        """Gather the tie-breaks in order, each once."""
        super().clean()
        data = self.cleaned_data
        breaks = [data.get(f"tie_break_{n}") for n in range(1, TIE_BREAK_SLOTS + 1)]
        breaks = [key for key in breaks if key]
        if len(set(breaks)) != len(breaks):
            self.add_error("tie_break_1", _("Each tie-break once."))
        data["tie_breaks"] = breaks
        return data

    def service_fields(self) -> dict[str, Any]:
        """The fields the season services take."""
        data = self.cleaned_data
        return {
            "name": data["name"], "slug": data["slug"], "scoring": data["scoring"],
            "best_n": data["best_n"], "place_points": data["place_points"],
            "tie_breaks": data["tie_breaks"], "public": data["public"],
            "tournaments": list(data["tournaments"]),
        }


def _number(value: float) -> str:
    """A number without a needless ".0"."""
    return str(int(value)) if float(value) == int(value) else str(value)
