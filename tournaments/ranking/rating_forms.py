"""Forms of rating lists: a list and its rated tournaments; seeding a draw from a list."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import RatingList, Tournament
from scoring.ranking.rating_lists import ratable_tournaments, visible_lists
from tournaments.setup.typed_fields import form_field

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


class RatedTournamentsField(forms.ModelMultipleChoiceField):
    """The tournaments a list rates, each named with its start date."""

    def label_from_instance(self, obj: Tournament) -> str:
        """The tournament's name and start date."""
        return f"{obj.name} · {obj.start_date.isoformat()}"


class RatingListForm(forms.ModelForm):
    """A rating list's fields and the tournaments it rates (public ones and the user's)."""

    class Meta:
        model = RatingList
        fields = ["name", "slug", "system", "subject", "parameters", "public", "tournaments"]
        field_classes = {"tournaments": RatedTournamentsField}
        widgets = {
            "tournaments": forms.CheckboxSelectMultiple(attrs={"class": "choices"}),
            "parameters": forms.Textarea(attrs={"rows": 2}),
        }

    def __init__(self, *args: Any, user: User | AnonymousUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tournaments = form_field(self, "tournaments", forms.ModelMultipleChoiceField)
        tournaments.queryset = ratable_tournaments(
            user, self.instance if self.instance.pk else None
        ).order_by("-start_date", "name")
        tournaments.help_text = _(
            "One rating period each, in the order of their start dates."
        )
        self.fields["parameters"].help_text = _(
            'Empty for the defaults. Elo: {"initial": 1500, "k_new": 40, "new_games": 30, '
            '"k": 20, "k_top": 10, "top": 2400}; Glicko-2: {"initial": 1500, '
            '"deviation": 350, "volatility": 0.06, "tau": 0.5}.'
        )

    def service_fields(self) -> dict[str, Any]:
        """The list's own fields for the service (without the tournaments)."""
        data = dict(self.cleaned_data)
        data.pop("tournaments", None)
        data["parameters"] = data.get("parameters") or {}
        return data


class TakeRatingsForm(forms.Form):
    """The players' list whose current ratings seed this tournament's entrants."""

    rating_list = forms.ModelChoiceField(
        label=_("Rating list"),
        queryset=RatingList.objects.none(),
        help_text=_(
            "Each player linked to a profile gets his current rating in the list, rounded; "
            "each pair the mean of its players'. Others keep their rating."
        ),
    )

    def __init__(self, *args: Any, user: User | AnonymousUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        lists = form_field(self, "rating_list", forms.ModelChoiceField)
        lists.queryset = visible_lists(user).filter(subject=RatingList.Subject.PLAYERS)
