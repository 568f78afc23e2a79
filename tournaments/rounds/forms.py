"""Forms of the round flow: a generated draw's seed, two tables to swap, a draw made by hand."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.setup.typed_fields import form_field


class GenerateDrawForm(forms.Form):
    """Options of a generated draw: a seed reproduces a draw by lot."""

    seed = forms.IntegerField(
        label=_("Random seed of the draw (optional)"),
        required=False,
        min_value=0,
        help_text=_("Leave empty for a new random draw; the number recorded with a draw "
                    "reproduces it."),
    )


class SwapTablesForm(forms.Form):
    """Two tables whose parties change places (or a party moved to a free table)."""

    first = forms.TypedChoiceField(label=_("Table"), coerce=int)
    second = forms.TypedChoiceField(label=_("with table"), coerce=int)

    def __init__(self, *args: Any, tables: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(n, n) for n in tables]
        form_field(self, "first", forms.ChoiceField).choices = choices
        form_field(self, "second", forms.ChoiceField).choices = choices


class DrawEditForm(forms.Form):
    """A draw made or changed by hand: per row a table and its sides, and the byes.

    Pairs tournaments have two sides (``a``, ``b``) per row; individual tournaments four
    players (``a1``, ``a2`` against ``b1``, ``b2``), or three (``seats=3``: ``b2`` left out)
    where every player plays for himself. Empty rows are ignored.
    """

    def __init__(
        self,
        *args: Any,
        entrants: list[tuple[int, str]],
        tables: list[int],
        rows: int,
        individual: bool,
        seats: int = 4,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sides = ("a1", "a2", "b1", "b2")[:seats] if individual else ("a", "b")
        self.row_count = rows
        blank: list[tuple[int | str, str]] = [("", "—")]
        for i in range(rows):
            self.fields[f"table_{i}"] = forms.TypedChoiceField(
                label=_("Table"), choices=blank + [(n, n) for n in tables], coerce=int,
                required=False,
            )
            for side in self.sides:
                self.fields[f"{side}_{i}"] = forms.TypedChoiceField(
                    label=side.upper(), choices=[*blank, *entrants], coerce=int, required=False
                )
        self.fields["byes"] = forms.TypedMultipleChoiceField(
            label=_("Byes"),
            choices=entrants,
            coerce=int,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )

    def rows(self) -> list[list[forms.BoundField]]:
        """The bound fields of each row, the table first (for the template)."""
        return [
            [self[f"table_{i}"], *(self[f"{side}_{i}"] for side in self.sides)]
            for i in range(self.row_count)
        ]

    def clean(self) -> dict[str, Any]:
        """A row is either empty or complete."""
        super().clean()
        data = self.cleaned_data
        parties: list[tuple[int, int | tuple[int, int], int | tuple[int, ...]]] = []
        for i in range(self.row_count):
            names = [f"table_{i}", *(f"{side}_{i}" for side in self.sides)]
            values = [data.get(name) for name in names]
            if all(v in (None, "") for v in values):
                continue
            numbers = [v for v in values if isinstance(v, int)]  # empty choices are ""
            if len(numbers) < len(values):
                raise forms.ValidationError(
                    _("Row %(row)s is incomplete: choose its table and every side."),
                    params={"row": i + 1},
                )
            table, *sides = numbers
            if len(sides) > 2:
                parties.append((table, (sides[0], sides[1]), tuple(sides[2:])))
            else:
                parties.append((table, sides[0], sides[1]))
        data["parties"] = parties
        return data


class FinalsForm(forms.Form):
    """Start the finals: the bracket's size, a match for third place, best of N, and the
    qualifiers (ticked, best first in the standings' order) the organizer confirmed."""

    bracket_size = forms.IntegerField(
        label=_("Pairs in the bracket"), min_value=2, max_value=128, initial=8,
        help_text=_("Not a power of two: the best seeds get byes."),
    )
    third_place = forms.BooleanField(label=_("Match for third place"), required=False,
                                     initial=True)
    best_of = forms.TypedChoiceField(
        label=_("A match is the best of"), coerce=int, initial=1,
        choices=[(n, n) for n in (1, 3, 5, 7)],
    )
    qualifiers = forms.TypedMultipleChoiceField(
        label=_("Qualifiers"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("The qualifying standings' best are ticked: untick a pair and tick "
                    "another to replace it."),
    )

    def __init__(self, *args: Any, entrants: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order = [pk for pk, _name in entrants]
        form_field(self, "qualifiers", forms.MultipleChoiceField).choices = entrants
        if not entrants:
            del self.fields["qualifiers"]

    def clean(self) -> dict[str, Any]:
        """The ticked pairs in the standings' order, as many as the bracket takes."""
        super().clean()
        data = self.cleaned_data
        ticked = set(data.get("qualifiers") or ())
        size = data.get("bracket_size")
        if ticked and size is not None and len(ticked) != size:
            self.add_error("qualifiers", _(
                "Tick as many pairs as the bracket takes (%(size)s): %(ticked)s ticked."
            ) % {"size": size, "ticked": len(ticked)})
        data["qualifiers"] = [pk for pk in self.order if pk in ticked] or None
        return data


class GroupsForm(forms.Form):
    """Draw the round-robin groups: how many, and whether to keep a club's pairs apart."""

    group_count = forms.IntegerField(label=_("Groups"), min_value=1, max_value=32, initial=4)
    avoid_same_club = forms.BooleanField(label=_("No two pairs of one club in a group"),
                                         required=False)
