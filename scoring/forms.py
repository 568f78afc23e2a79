"""Page forms: the party page's new-deal entry, protocol verification and signing PINs.

Correcting or annulling a deal goes through the referee desk (``referee.corrections``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import MAX_DEAL_POINTS
from scoring.plays import parse_plays

SEAT_LABELS = {
    "a1": _("A, first player"),
    "a2": _("A, second player"),
    "b1": _("B, first player"),
    "b2": _("B, second player"),
}


SEATS = ("a1", "b1", "a2", "b2")


class DealForm(forms.Form):
    """How a deal ended and its points, or the pips left per player.

    Every rule set's fields: the side or the player who won, each player's points where every
    player keeps his own score (Kozel's deal totals), the scoring plays of All Fives and UDL,
    the seat that led (the Latin pairs game). ``party`` (optional) names the players.
    """

    OUTCOMES = [
        ("domino", _("Domino")),
        ("fish", _("Fish")),
        ("referee", _("Ended by the referee")),
        ("stopped", _("Stopped: the game ended during the hand")),
    ]
    outcome = forms.ChoiceField(label=_("How it ended"), choices=OUTCOMES)
    winner = forms.ChoiceField(
        label=_("Winning pair"),
        required=False,
        choices=[("", "—"), ("a", _("Pair A")), ("b", _("Pair B")), *SEAT_LABELS.items()],
    )
    went_out = forms.ChoiceField(
        label=_("Went out"), required=False, choices=[("", "—"), *SEAT_LABELS.items()]
    )
    points_a = forms.IntegerField(
        label=_("Points of pair A"), required=False, min_value=0, max_value=MAX_DEAL_POINTS
    )
    points_b = forms.IntegerField(
        label=_("Points of pair B"), required=False, min_value=0, max_value=MAX_DEAL_POINTS
    )
    pips_a1 = forms.IntegerField(label=SEAT_LABELS["a1"], required=False, min_value=0)
    pips_a2 = forms.IntegerField(label=SEAT_LABELS["a2"], required=False, min_value=0)
    pips_b1 = forms.IntegerField(label=SEAT_LABELS["b1"], required=False, min_value=0)
    pips_b2 = forms.IntegerField(label=SEAT_LABELS["b2"], required=False, min_value=0)
    points_a1 = forms.IntegerField(
        label=SEAT_LABELS["a1"], required=False, min_value=0, max_value=MAX_DEAL_POINTS
    )
    points_b1 = forms.IntegerField(
        label=SEAT_LABELS["b1"], required=False, min_value=0, max_value=MAX_DEAL_POINTS
    )
    points_a2 = forms.IntegerField(
        label=SEAT_LABELS["a2"], required=False, min_value=0, max_value=MAX_DEAL_POINTS
    )
    points_b2 = forms.IntegerField(
        label=SEAT_LABELS["b2"], required=False, min_value=0, max_value=MAX_DEAL_POINTS
    )
    plays = forms.CharField(
        label=_("Scoring plays"),
        required=False,
        max_length=400,
        help_text=_("All Fives and UDL: each play's player and points, like a1:10 b1:5."),
    )
    led = forms.ChoiceField(
        label=_("Led the deal"),
        required=False,
        choices=[("", "—"), *SEAT_LABELS.items()],
        help_text=_("The Latin pairs game: a fish with equal pips goes to his pair."),
    )
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    client_id = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args: Any, party: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if party is not None:
            for seat, player in party.seat_players().items():
                label = f"{seat.upper()} · {player.name}"
                for name in (f"pips_{seat}", f"points_{seat}"):
                    self.fields[name].label = label

    def clean_plays(self) -> list[list[Any]] | None:
        """The plays typed, as [player, points] pairs (the rules check the points)."""
        text = self.cleaned_data.get("plays") or ""
        plays = parse_plays(text)
        if plays is None:
            raise forms.ValidationError(
                _("Enter each scoring play as a player and his points, like a1:10.")
            )
        return plays or None

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned values as arguments of scoring.services.record_deal."""
        data = self.cleaned_data
        pips = {
            seat: data[f"pips_{seat}"]
            for seat in SEATS
            if data.get(f"pips_{seat}") is not None
        }
        points = None
        if data.get("points_a") is not None or data.get("points_b") is not None:
            points = {"a": data.get("points_a") or 0, "b": data.get("points_b") or 0}
        per_seat = {
            seat: data[f"points_{seat}"]
            for seat in SEATS
            if data.get(f"points_{seat}") is not None
        }
        points = per_seat or points
        return {
            "outcome": data["outcome"],
            "winner": data.get("winner") or None,
            "went_out": data.get("went_out") or None,
            "pips": pips or None,
            "points": None if pips else points,
            "plays": data.get("plays") or None,
            "led": data.get("led") or None,
            "number": data.get("number"),
            "client_id": data.get("client_id") or "",
            "expected_version": data.get("version"),
        }

    def add_service_error(self, field: str, message: str) -> None:
        """Attach a service error to the matching field (pips errors to the pips fields)."""
        if field in self.fields and not self.fields[field].widget.is_hidden:
            self.add_error(field, message)
        elif field.startswith("pips") and "pips_a1" in self.fields:
            self.add_error(None, message)
            self.add_error("pips_a1", message)
        else:
            self.add_error(None, message)


class VerifyForm(forms.Form):
    """The verification page: a protocol's short code, or the PDF file itself."""

    code = forms.CharField(label=_("Short code"), max_length=20, required=False)
    pdf = forms.FileField(label=_("Protocol PDF"), required=False)

    not_found = False

    def clean(self) -> dict[str, Any]:
        """Either a code or a file."""
        data = super().clean()
        if not data.get("code") and not data.get("pdf"):
            raise forms.ValidationError(_("Type the short code or choose the PDF file."))
        return data


class PinForm(forms.Form):
    """A player's personal signing PIN, typed twice."""

    pin = forms.CharField(label=_("PIN (4 to 8 digits)"), min_length=4, max_length=8,
                          widget=forms.PasswordInput(attrs={"inputmode": "numeric",
                                                            "autocomplete": "new-password"}))
    again = forms.CharField(label=_("The PIN again"), max_length=8,
                            widget=forms.PasswordInput(attrs={"inputmode": "numeric",
                                                              "autocomplete": "new-password"}))

    def clean(self) -> dict[str, Any]:
        """Both entries must match."""
        data = super().clean()
        if data.get("pin") and data.get("pin") != data.get("again"):
            self.add_error("again", _("The two PINs differ."))
        return data
