"""What an irreversible action of the referee desk will do, in words with the names at the table.

The party screen asks before such an action (time up, finish, a no-show forfeit, a
disqualification, a reshuffle, a fine, a warning that becomes a fine) with a question that
names the consequence: "Second warning (Talking): pair Рыбаки is fined 25 points." One method,
``Consequences.of``, says it for an action's validated data: the server's confirmation step
asks it for the form that arrived, the panel asks it for every form it draws (the dialog's
text, ``referee.consequence_maps``), so both say the same. Read-only: nothing here changes
the party.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from referee import services
from referee.rulings import (
    FINE,
    PenaltyDecision,
    PenaltyPreset,
    fine_decision,
    forfeit_result,
    offender_side,
)
from referee.sides import rules_of
from scoring.core.errors import ServiceError
from scoring.models import Party, Penalty, Ruling, Tournament
from scoring.party.ending import party_decision
from scoring.rules import FINE_AWARD, RuleError, penalty_for
from scoring.rules import udl as udl_rules
from scoring.totals.compute import party_totals

SIDES = ("a", "b")

IRREVERSIBLE = frozenset({
    "time-up", "game-time-up", "finish", "no-show", "disqualify", "out-of-turn", "false-pass",
    "touched-tile", "fine", "warning", "udl-violation", "player-timeout",
})
"""The page actions that may be irreversible; ``Consequences.of`` says which instance is."""

ORDINAL_WARNINGS = {
    1: gettext_lazy("First warning"),
    2: gettext_lazy("Second warning"),
    3: gettext_lazy("Third warning"),
    4: gettext_lazy("Fourth warning"),
    5: gettext_lazy("Fifth warning"),
}
POINT_SAMPLES = (1, 2, 5)
"""Numbers whose plural forms cover English and Russian: the fine form's dialog picks the
sentence of the typed number's form (``Intl.PluralRules``) and puts the number in."""
POINTS_MARK = "{points}"


def _clock(seconds: float) -> str:
    """Seconds as the clock shows them, "37:49"."""
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


class Consequences:
    """The consequences of the party's actions in words, with its pairs' and players' names.

    ``warnings_by_kind`` (the desk state's counts per side or seat and kind), ``deal_in_play``
    and ``preset`` save queries when the panel is drawn; without them they are read.
    """

    def __init__(
        self,
        party: Party,
        warnings_by_kind: Mapping[str, Mapping[str, int]] | None = None,
        deal_in_play: int | None = None,
        preset: PenaltyPreset | None = None,
    ) -> None:
        self.party = party
        self.rule_set, self.cfg = rules_of(party)
        self.preset = preset or services.penalty_preset(party.round.tournament)
        self.by_kind = warnings_by_kind
        self.players = party.seat_players()
        self._deal = deal_in_play
        self._names: dict[str, str] = {}

    # -- names --------------------------------------------------------------------------------

    def who(self, key: str) -> str:
        """A side or seat in words: "pair Рыбаки", or the player's name."""
        if key not in self._names:
            self._names[key] = self._name(key)
        return self._names[key]

    def _name(self, key: str) -> str:
        """``who`` before it is remembered."""
        if key in SIDES:
            pair = self.party.pair(key)
            if pair is None:
                return _("bye")
            if self.rule_set.side_size(self.cfg) == 2:
                return _("pair %(name)s") % {"name": pair.display_name}
            return pair.display_name
        player = self.players.get(key)
        return player.name if player is not None else key.upper()

    def others(self, offender: str) -> str:
        """Who gets the points a fine of ``offender`` awards: the other side, or the others."""
        if offender in SIDES:
            return self.who("b" if offender == "a" else "a")
        return _("the other players")

    def table(self) -> str:
        """The party's sides, "Рыбаки – Кузнецы"."""
        return " – ".join(
            pair.display_name
            for pair in (self.party.pair_a, self.party.pair_b)
            if pair is not None
        )

    def seats(self) -> list[str]:
        """The seats at the table with a player on them, in playing order."""
        return [seat for seat in self.rule_set.seats_for(self.cfg) if seat in self.players]

    @property
    def deal(self) -> int:
        """The number of the deal in play."""
        if self._deal is None:
            self._deal = services.deal_in_play(self.party)
        return self._deal

    # -- the parts of a sentence ----------------------------------------------------------------

    def fined(self, offender: str, decision: PenaltyDecision, shown: str | None = None) -> str:
        """What a fine does: "pair Рыбаки is fined 25 points" (points to whom, in award mode).

        ``shown`` replaces the number in the sentence (the dialog's mark for typed points).
        """
        count = decision.points
        values = {
            "who": self.who(offender),
            "points": count if shown is None else shown,
            "other": self.others(offender),
        }
        if self.rule_set.layout_for(self.cfg).accounts:
            return ngettext(
                "%(who)s gets %(points)s penalty point on his account",
                "%(who)s gets %(points)s penalty points on his account",
                count,
            ) % values
        if decision.mode == FINE_AWARD:
            return ngettext(
                "%(who)s is fined %(points)s point, which goes to %(other)s",
                "%(who)s is fined %(points)s points, which go to %(other)s",
                count,
            ) % values
        return ngettext(
            "%(who)s is fined %(points)s point", "%(who)s is fined %(points)s points", count
        ) % values

    def ruling_fine(self, offender: str) -> str:
        """The fine a ruling gives (the regulations' points and mode), in words."""
        return self.fined(offender, fine_decision(self.rule_set, self.cfg, offender))

    def forfeit(self, offenders: Iterable[str], finished_before: bool = False) -> str:
        """Who wins the party a ruling ends against ``offenders``, with the forfeit score."""
        offenders = list(offenders)
        if finished_before:
            return _("the result of this party stands")
        winner, _loser = forfeit_result(self.rule_set, self.cfg, offenders)
        if not winner:
            return _("%(who)s loses this party") % {"who": self.who(offenders[0])}
        points = self.rule_set.forfeit(winner, self.cfg)
        if set(points) == set(SIDES):
            other = "b" if winner == "a" else "a"
            return _("%(winner)s wins this party by forfeit, %(score)s") % {
                "winner": self.who(winner), "score": f"{points[winner]} : {points[other]}",
            }
        return _("%(winner)s wins this party by forfeit") % {"winner": self.who(winner)}

    def _warnings_before(self, offender: str, category: str) -> int | None:
        """The offender's active warnings of a kind from the desk's counts (None: count them)."""
        if self.by_kind is None:
            return None
        return self.by_kind.get(offender, {}).get(category, 0)

    def next_warning(self, category: str, offender: str) -> PenaltyDecision:
        """What the next warning of ``category`` to ``offender`` will do (the services' rule)."""
        return services.next_warning(
            self.party, category=category, offender=offender, preset=self.preset,
            warnings_before=self._warnings_before(offender, category),
        )

    # -- the actions ------------------------------------------------------------------------------

    def of(self, name: str, data: Mapping[str, Any]) -> str:
        """The consequence of the page action ``name`` with its validated ``data``, in words.

        "" when this action is not irreversible (a warning that stays a warning, play that
        continues after a tile out of turn, a touched tile that fits).
        """
        method: Callable[[Mapping[str, Any]], str] | None = getattr(
            self, "_" + name.replace("-", "_"), None
        )
        if name not in IRREVERSIBLE or method is None:
            return ""
        try:
            return method(data)
        except (RuleError, ServiceError, KeyError, ValueError):
            return _("This cannot be undone.")

    def _time_up(self, data: Mapping[str, Any]) -> str:
        """Time is up: the deal in play is the last one (and how much the clock still shows)."""
        if (
            self.party.status != Party.Status.IN_PROGRESS
            or self.party.time_expired_at
            or not self.party.has_clock
        ):
            return ""  # nothing would happen (the service refuses or changes nothing)
        text = _("Time is up for %(party)s: deal %(deal)s, in play, is the last one.") % {
            "party": self.table(), "deal": self.deal,
        }
        left = self.party.seconds_left() if self.party.started_at else 0
        if left is not None and left >= 1:
            text += " " + _("The clock still shows %(left)s.") % {"left": _clock(left)}
        return text

    def _game_time_up(self, data: Mapping[str, Any]) -> str:
        """The game's time is up: the deal in play is the game's last one."""
        if not self.rule_set.plays_games or self.party.game_expired_at is not None:
            return ""  # no game clock (refused), or declared already (nothing happens)
        return _(
            "Game %(game)s of %(party)s: time is up, deal %(deal)s, in play, is the last one "
            "of the game."
        ) % {"game": self.party.game, "party": self.table(), "deal": self.deal}

    def _finish(self, data: Mapping[str, Any]) -> str:
        """Finishing the party with the result the regulations give."""
        if self.party.status != Party.Status.IN_PROGRESS:
            return ""  # refused by the service
        decision = party_decision(self.party)
        if decision.state != "finished" or not decision.winner:
            return _("Finish the party %(party)s now.") % {"party": self.table()}
        points = party_totals(self.party).points
        score = " : ".join(str(points.get(key, 0)) for key in self.rule_set.sides_for(self.cfg))
        return _("Finish the party: %(winner)s wins, %(score)s.") % {
            "winner": self.who(decision.winner), "score": score,
        }

    def _no_show(self, data: Mapping[str, Any]) -> str:
        """A no-show: the absent side forfeits."""
        absent = data.get("side") or str(data.get("seat") or " ")[0]
        return _("Absent: %(absent)s. %(result)s.") % {
            "absent": self.who(absent), "result": self._capital(self.forfeit([absent])),
        }

    def _disqualify(self, data: Mapping[str, Any]) -> str:
        """A disqualification from the party or the whole tournament."""
        side, seat = data["side"], data.get("seat") or ""
        offender = offender_side(self.rule_set, self.cfg, side, seat, whole_pair=True)
        who = self.who(seat or offender)
        finished = self.party.status == Party.Status.FINISHED
        result = self.forfeit([offender], finished_before=finished)
        if data.get("scope") == Ruling.Choice.TOURNAMENT:
            pairs = self.party.round.tournament.format == Tournament.Format.PAIRS
            gone = self.who(side) if (not seat or pairs) else who
            return _(
                "Disqualify %(who)s from the whole tournament: %(result)s; %(gone)s plays no "
                "further round."
            ) % {"who": who, "result": result, "gone": gone}
        return _("Disqualify %(who)s from this party: %(result)s.") % {
            "who": who, "result": result,
        }

    def _player_timeout(self, data: Mapping[str, Any]) -> str:
        """Kozel: a player timed out; the game stops and the timeout rule rates it."""
        seat = data["seat"]
        timeout = getattr(self.rule_set, "timeout", None)
        if timeout is None:  # not Kozel: nothing to confirm, the service refuses the ruling
            return ""
        decision = timeout(party_totals(self.party), seat, self.cfg)
        return _(
            "%(who)s timed out: the game stops now and %(goat)s is the Goat. %(who)s gets no "
            "rating; every other player gets at least 1."
        ) % {"who": self.who(seat), "goat": self.who(decision.loser)}

    def _offender_of_seat(self, seat: str) -> str:
        """The engine side a ruling about the player on ``seat`` is given to."""
        return offender_side(self.rule_set, self.cfg, seat[0], seat)

    def _out_of_turn(self, data: Mapping[str, Any]) -> str:
        """A reshuffle after a tile out of turn: the deal is annulled and the pair fined."""
        if data.get("choice") != Ruling.Choice.RESHUFFLE:
            return ""
        seat = data["seat"]
        return _(
            "Out of turn by %(player)s: deal %(deal)s is annulled and dealt again; %(fined)s."
        ) % {"player": self.who(seat), "deal": self.deal,
             "fined": self.ruling_fine(self._offender_of_seat(seat))}

    def _touched_tile(self, data: Mapping[str, Any]) -> str:
        """A touched tile that does not fit: a fine."""
        if data.get("fits", True):
            return ""
        seat = data["seat"]
        return _("The tile %(player)s touched does not fit: %(fined)s.") % {
            "player": self.who(seat), "fined": self.ruling_fine(self._offender_of_seat(seat)),
        }

    def _false_pass(self, data: Mapping[str, Any]) -> str:
        """A false pass: the deal ends and the pair is fined."""
        seat = data["seat"]
        return _("False pass by %(player)s: deal %(deal)s ends here; %(fined)s.") % {
            "player": self.who(seat), "deal": self.deal,
            "fined": self.ruling_fine(self._offender_of_seat(seat)),
        }

    def _fine(self, data: Mapping[str, Any], shown: str | None = None) -> str:
        """A fine given directly: the regulations' points, or the referee's."""
        offender = offender_side(self.rule_set, self.cfg, data["side"], data.get("seat") or "")
        decision = fine_decision(
            self.rule_set, self.cfg, offender, data.get("points"), preset=self.preset,
            category=data.get("category", ""),
        )
        return _("Fine: %(fined)s.") % {"fined": self.fined(offender, decision, shown)}

    def _warning(self, data: Mapping[str, Any]) -> str:
        """A warning that becomes a fine (the kind repeated), in words; "" for a warning."""
        category = data["category"]
        offender = offender_side(self.rule_set, self.cfg, data["side"], data.get("seat") or "")
        decision = self.next_warning(category, offender)
        if not decision.is_fine:
            return ""
        before = self._warnings_before(offender, category)
        if before is None:
            before = services.active_warnings(self.party, offender, category)
        number = before + 1
        warning = ORDINAL_WARNINGS.get(number) or _("Warning %(n)s") % {"n": number}
        return _("%(warning)s (%(category)s): %(fined)s.") % {
            "warning": warning, "category": Penalty.Category(category).label,
            "fined": self.fined(offender, decision),
        }

    def _udl_violation(self, data: Mapping[str, Any]) -> str:
        """A UDL violation: slow play repeated pays the opponent; some disqualify."""
        violation = data["violation"]
        side = data.get("side") or str(data.get("seat") or " ")[0]
        seat = data.get("seat") or f"{side}1"
        earlier = 0
        if violation == udl_rules.SLOW_PLAY:
            category = Penalty.Category.MOVE_TIME
            before = self._warnings_before(side, category)
            if before is None:
                before = services.active_warnings(self.party, side, category)
            earlier = before
        consequence = penalty_for(violation, earlier, self.cfg)
        label = _(self.rule_set.violations[violation])  # noqa: INT001 - the rule set's catalogue
        if consequence.ends_match:
            scope = (
                Ruling.Choice.TOURNAMENT if consequence.ends_tournament else Ruling.Choice.PARTY
            )
            return f"{label}: " + self._disqualify({"side": side, "seat": seat, "scope": scope})
        if consequence.kind != udl_rules.POINTS_TO_OPPONENT:
            return ""
        decision = PenaltyDecision(FINE, consequence.points, FINE_AWARD)
        return _("%(violation)s, again: %(fined)s.") % {
            "violation": label, "fined": self.fined(side, decision),
        }

    @staticmethod
    def _capital(text: str) -> str:
        """The text with its first letter in capitals (a sentence's start)."""
        return text[:1].upper() + text[1:]
