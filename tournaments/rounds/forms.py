"""Forms of the round flow: a generated draw's seed, two tables to swap, a draw made by hand."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.pairing.groups import group_names
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


class GroupsProposalForm(forms.Form):
    """How the rounds page proposes the groups (its query): how many, and whether the snake
    seeding keeps a club's pairs apart."""

    group_count = forms.IntegerField(label=_("Groups"), min_value=1, max_value=32, initial=4)
    avoid_same_club = forms.BooleanField(label=_("No two pairs of one club in a group"),
                                         required=False)


class GroupsForm(forms.Form):
    """Draw the round-robin groups: per pair (best first) the group it plays in, the snake
    proposal as the organizer left or changed it; posted without them, the snake seeding of
    ``group_count`` groups."""

    group_count = forms.IntegerField(min_value=1, max_value=32, widget=forms.HiddenInput)
    avoid_same_club = forms.BooleanField(required=False, widget=forms.HiddenInput)
    groups = forms.Field(required=False, widget=forms.HiddenInput)
    """Never posted: the field the service's refusal of the split names."""

    def __init__(self, *args: Any, entrants: list[tuple[int, str]], count: int,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order = [pk for pk, _name in entrants]
        self.letters = group_names(max(1, min(count, 32)))
        choices = [("", "—"), *((letter, letter) for letter in self.letters)]
        for pk, name in entrants:
            self.fields[f"pair_{pk}"] = forms.ChoiceField(label=name, choices=choices,
                                                          required=False)

    @property
    def by_hand(self) -> bool:
        """Whether the groups come from the pairs' choices (an unbound form shows them)."""
        return not self.is_bound or any(f"pair_{pk}" in self.data for pk in self.order)

    def group_rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Each group's letter with its pairs' fields (best first), as proposed or as posted;
        the pairs in no group last (letter "")."""
        if not self.by_hand:
            return []
        rows: dict[str, list[forms.BoundField]] = {letter: [] for letter in self.letters}
        rows[""] = []
        for pk in self.order:
            field = self[f"pair_{pk}"]
            rows.get(str(field.value() or ""), rows[""]).append(field)
        return [(letter, fields) for letter, fields in rows.items() if fields or letter]

    def clean(self) -> dict[str, Any]:
        """The groups by hand (pair ids per group, best first; a pair left in no group is
        in none), or None for the snake seeding."""
        super().clean()
        data = self.cleaned_data
        if not self.by_hand:
            data["groups"] = None
            return data
        split: dict[str, list[int]] = {letter: [] for letter in self.letters}
        for pk in self.order:
            letter = data.get(f"pair_{pk}")
            if letter in split:
                split[letter].append(pk)
        data["groups"] = list(split.values())
        return data
