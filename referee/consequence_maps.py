"""The texts the party screen's forms carry: what each choice of an irreversible action will
do, drawn with the panel (the dialog's text), by the same ``Consequences.of`` the server's
confirmation step asks."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial

from django.utils.translation import gettext as _

from referee.consequences import POINT_SAMPLES, POINTS_MARK, SIDES, Consequences
from referee.rulings import PRESET_UDL, table_seats
from scoring.core.errors import ServiceError
from scoring.models import Penalty, Ruling
from scoring.rules import RuleError


class PanelConsequences(Consequences):
    """``Consequences`` with the maps the panel's forms carry: per seat, per choice."""

    def seat_texts(self) -> dict[str, dict[str, str]]:
        """Per seat: the texts of its reshuffle, touched-tile misfit and false-pass buttons."""
        return {
            seat: {
                "reshuffle": self.of("out-of-turn", {"seat": seat, "choice": "reshuffle"}),
                "misfit": self.of("touched-tile", {"seat": seat, "fits": False}),
                "false_pass": self.of("false-pass", {"seat": seat}),
            }
            for seat in self.seats()
        }

    def disqualify_map(self, by_seat: bool) -> tuple[str, str]:
        """The disqualification form's texts by its choices, and the names of its fields."""
        texts: dict[str, str] = {}
        scopes = (Ruling.Choice.PARTY, Ruling.Choice.TOURNAMENT)
        if by_seat and not self.cfg.kozel_pairs:
            for seat in self.seats():
                for scope in scopes:
                    texts[f"{seat}|{scope}"] = self.of(
                        "disqualify", {"side": seat[0], "seat": seat, "scope": scope}
                    )
            return json.dumps(texts, ensure_ascii=False), "seat,scope"
        for side in SIDES:
            seats = [s for s in table_seats(self.rule_set, self.cfg, side) if s in self.players]
            for seat in ["", *seats]:
                for scope in scopes:
                    texts[f"{side}|{seat}|{scope}"] = self.of(
                        "disqualify", {"side": side, "seat": seat, "scope": scope}
                    )
        return json.dumps(texts, ensure_ascii=False), "side,seat,scope"

    def fine_map(self, by_seat: bool) -> tuple[str, str]:
        """The fine form's texts by its choices; each with the sentences for typed points.

        An entry holds the text with the regulations' points (``default``) and, for each of
        ``POINT_SAMPLES``, the sentence of that number's plural form with ``{points}`` to fill.
        """
        keys = ["seat"] if by_seat else ["side"]
        categories: list[str] = [""]
        if self.preset.code == PRESET_UDL:  # slow play is fined otherwise: paid to the opponent
            keys.append("category")
            categories = list(Penalty.Category.values)
        texts: dict[str, dict[str, str]] = {}
        whos = self.seats() if by_seat else [side for side in SIDES if self.party.pair(side)]
        for who in whos:
            for category in categories:
                data = {"side": who[0], "seat": who if by_seat else "", "category": category}
                entry = {"default": self._safe(partial(self._fine, data))}
                for n in POINT_SAMPLES:
                    entry[str(n)] = self._safe(
                        partial(self._fine, {**data, "points": n}, POINTS_MARK)
                    )
                key = "|".join([who, category] if category else [who])
                texts[key] = entry
        return json.dumps(texts, ensure_ascii=False), ",".join(keys)

    def udl_map(self) -> tuple[str, str]:
        """The UDL violation form's texts by player and violation ("" where none is needed)."""
        texts = {
            f"{seat}|{code}": self.of("udl-violation", {"seat": seat, "side": seat[0],
                                                         "violation": code})
            for seat in self.seats()
            for code in self.rule_set.violations
        }
        return json.dumps(texts, ensure_ascii=False), "seat,violation"

    @staticmethod
    def _safe(make: Callable[[], str]) -> str:
        """A text, or the plain warning when the rules refuse these choices."""
        try:
            return make()
        except (RuleError, ServiceError, KeyError, ValueError):
            return _("This cannot be undone.")
