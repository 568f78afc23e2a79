"""What an event of the party's log did, in one line of the user's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring.rules import ALL_REDEAL_REASONS, SEATS

from .deals import Deal
from .party import Party
from .referee import Penalty, Ruling


def _who(value: object, names: Mapping[str, str] | None) -> str:
    """A side or seat by name where the party's names are known ("Рыбаки", "Алиса Белова"),
    else as "pair A" or "B1"; several sides ("ab") joined by commas."""
    text = str(value or "")
    names = names or {}
    if text in names:
        return names[text]
    if len(text) == 2 and text[1].isdigit():
        return text.upper()
    return ", ".join(
        names.get(side) or _("pair %(side)s") % {"side": side.upper()} for side in text
    )


def uncollected_text(held: Mapping[str, int], who: Mapping[str, str] | None = None) -> str:
    """What a deal scored but did not collect (UDL: nothing on the board yet), per side: by
    name where ``who`` knows it, else by letter; "" when it collected everything."""
    return " · ".join(
        _("%(side)s: %(points)s not collected, no points on the board")
        % {"side": (who or {}).get(side) or side.upper(), "points": points}
        for side, points in sorted(held.items())
    )


def _points(points: dict[str, Any]) -> str:
    """Points per side as "A : B", or per player as "A1 0 · B1 15 · …" (seats)."""
    if set(points) <= {"a", "b"}:
        return f"{points.get('a', 0)} : {points.get('b', 0)}"
    order = {seat: n for n, seat in enumerate(SEATS)}  # playing order, whatever the storage's
    keys = sorted(points, key=lambda key: (order.get(key, len(order)), key))
    return " · ".join(f"{key.upper()} {points[key]}" for key in keys)


def _score(data: dict[str, Any], prefix: str = "") -> str:
    """Points of a deal as "A : B", or per player where every player scores for himself."""
    values = data.get(prefix) if prefix else data
    values = values or {}
    if values.get("scores"):
        return _points(values["scores"])
    return f"{values.get('points_a', 0)} : {values.get('points_b', 0)}"


def redeal_reason_text(code: object) -> str:
    """A redeal's reason in the user's language ("five or more doubles"; "" if unknown)."""
    label = ALL_REDEAL_REASONS.get(str(code), "")
    return _(label) if label else ""  # noqa: INT001 - the rule sets' labels are marked


def _label(choices: Any, value: object) -> str:
    """The translated label of a choice value (the value itself if unknown)."""
    return str(dict(choices).get(value, value or ""))


def _undone(d: dict[str, Any], names: Mapping[str, str] | None) -> str:
    """What an undo took back, and who undid it."""
    record, by = d.get("record"), d.get("by", "")
    if record == "deal":
        what = _("deal %(deal)s annulled") % {"deal": d.get("deal")}
    elif record == "penalty":
        what = _("%(kind)s to %(who)s cancelled (%(category)s)") % {
            "kind": _label(Penalty.Kind.choices, d.get("kind")),
            "who": d.get("player") or _who(d.get("side"), names),
            "category": _label(Penalty.Category.choices, d.get("category")),
        }
    else:
        what = " · ".join(
            part
            for part in (
                _label(Ruling.Kind.choices, d.get("kind")),
                _who(d.get("seat") or d.get("side"), names) if d.get("seat") or d.get("side")
                else "",
            )
            if part
        )
    return _("Undone by %(user)s: %(what)s") % {"user": by, "what": what}


def describe_event(
    kind: str, data: dict[str, Any], names: Mapping[str, str] | None = None
) -> str:
    """One line, in the user's language, saying what an event of the log did.

    ``names``: the party's pairs and players by side and seat (``referee.sides.who_names``);
    without them a side is "pair A" and a seat "B1".
    """
    d = {**data}
    who = d.get("player") or _who(d.get("seat") or d.get("side"), names)
    texts = {
        "party_started": lambda: _("Party started"),
        "clock_paused": lambda: _("Clock paused"),
        "clock_resumed": lambda: _("Clock resumed"),
        "pause_reason": lambda: _("Reason for the pause given"),
        "action_undone": lambda: _undone(d, names),
        "time_expired": lambda: _("Time is up: the deal in play is the last one"),
        "game_time_expired": lambda: _(
            "Game %(game)s: time is up, the deal in play is the last one of the game"
        )
        % {"game": d.get("game")},
        "party_reopened": lambda: _("Party reopened"),
        "party_finished": lambda: (
            _("Party finished: the Goat is %(loser)s, %(points)s")
            % {"loser": _who(d.get("loser"), names), "points": _points(d.get("points") or {})}
            if d.get("loser")
            else _("Party finished: %(winner)s wins, %(points)s")
            % {"winner": _who(d.get("winner"), names), "points": _points(d.get("points") or {})}
        ),
        "forfeit": lambda: _("No-show of %(absent)s: %(winner)s wins by forfeit")
        % {"absent": _who(d.get("absent"), names), "winner": _who(d.get("winner"), names)},
        "deal_recorded": lambda: " · ".join(filter(None, [
            (
                _("Deal %(deal)s: %(outcome)s, %(winner)s won, %(score)s")
                if d.get("winner")
                else _("Deal %(deal)s: %(outcome)s, %(score)s")
            )
            % {
                "deal": d.get("deal"),
                "outcome": _label(Deal.Outcome.choices, d.get("outcome")),
                "winner": _who(d.get("winner"), names),
                "score": _score(d),
            },
            uncollected_text(d.get("uncollected") or {}, names),
            _("played before time-up, before deal %(deal)s (now %(now)s)")
            % {"deal": d["moved_on"][0], "now": d["moved_on"][0] + 1}
            if d.get("moved_on") else "",
        ])),
        "deal_corrected": lambda: _("Deal %(deal)s corrected: %(before)s → %(after)s")
        % {"deal": d.get("deal"), "before": _score(d, "before"), "after": _score(d, "after")},
        "deal_annulled": lambda: (
            _("Deal %(deal)s annulled in play") % {"deal": d.get("deal")}
            if d.get("in_play")
            else _("Deal %(deal)s annulled (was %(before)s)")
            % {"deal": d.get("deal"), "before": _score(d, "before")}
        ),
        "check_in": lambda: (
            _("Present: %(who)s") if d.get("present") else _("Not present: %(who)s")
        )
        % {"who": _who(d.get("seat") or d.get("side"), names)},
        "no_show_candidate": lambda: _("No-show candidate: %(absent)s")
        % {"absent": _who(d.get("absent"), names)},
        "warning": lambda: _("Warning to %(who)s: %(category)s")
        % {"who": who, "category": _label(Penalty.Category.choices, d.get("category"))},
        "fine": lambda: _("Fine to %(who)s: %(category)s, %(points)s points, %(mode)s")
        % {
            "who": who,
            "category": _label(Penalty.Category.choices, d.get("category")),
            "points": d.get("points"),
            "mode": _label(Penalty.Mode.choices, d.get("mode")),
        },
        "disqualification": lambda: _("Disqualification of %(who)s") % {"who": who},
        "first_mover": lambda: _("First move (the draw): %(who)s") % {"who": who},
        "ruling_redeal": lambda: _("Deal %(deal)s dealt again: %(who)s held %(why)s")
        % {"deal": d.get("deal"), "who": who,
           "why": redeal_reason_text(d.get("redeal_reason"))},
        "player_timeout": lambda: _("%(who)s timed out: the game stops, the Goat is %(loser)s")
        % {"who": who, "loser": _who(d.get("loser"), names)},
        "protocol_opened": lambda: _("Protocol version %(version)s opened for signatures")
        % {"version": d.get("version")},
        "protocol_signed": lambda: _("Protocol signed by %(player)s")
        % {"player": d.get("player", "")},
        "protocol_refused": lambda: _("%(player)s refused to sign the protocol")
        % {"player": d.get("player", "")},
        "protocol_countersigned": lambda: _(
            "Protocol version %(version)s countersigned: the party is locked"
        )
        % {"version": d.get("version")},
        "team_sheet_signed": lambda: _("Team match sheet signed for %(team)s by %(player)s")
        % {"team": d.get("team", ""), "player": d.get("player", "")},
        "team_sheet_countersigned": lambda: _(
            "Team match sheet version %(version)s countersigned"
        )
        % {"version": d.get("version")},
        "protocol_superseded": lambda: _(
            "Protocol version %(version)s superseded by version %(new_version)s"
        )
        % {"version": d.get("version"), "new_version": d.get("new_version")},
        "penalty_cancelled": lambda: _("%(kind)s cancelled (%(who)s, %(category)s)")
        % {
            "kind": _label(Penalty.Kind.choices, d.get("kind")),
            "who": who,
            "category": _label(Penalty.Category.choices, d.get("category")),
        },
    }
    if kind in texts:
        return str(texts[kind]())
    if kind.startswith("ruling_"):
        ruling = _label(Ruling.Kind.choices, kind.removeprefix("ruling_"))
        choice = _label(Ruling.Choice.choices, d.get("choice")) if d.get("choice") else ""
        whom = _who(d.get("seat") or d.get("side"), names) if d.get("seat") or d.get("side") else ""
        return " · ".join(part for part in (ruling, whom, choice) if part)
    return _label(Party.EndReason.choices, kind) or kind
