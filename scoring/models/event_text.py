"""What an event of the party's log did, in one line of the user's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.rules import SEATS

from .deals import Deal
from .party import Party
from .referee import Penalty, Ruling


def _side(value: object) -> str:
    """A side or seat as shown ("A", "B", "A, B", "B1")."""
    text = str(value or "")
    if len(text) == 2 and text[1].isdigit():
        return text.upper()
    return ", ".join(text.upper())


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


def _label(choices: Any, value: object) -> str:
    """The translated label of a choice value (the value itself if unknown)."""
    return str(dict(choices).get(value, value or ""))


def _undone(d: dict[str, Any]) -> str:
    """What an undo took back, and who undid it."""
    record, by = d.get("record"), d.get("by", "")
    if record == "deal":
        what = _("deal %(deal)s annulled") % {"deal": d.get("deal")}
    elif record == "penalty":
        what = _("%(kind)s to %(who)s cancelled (%(category)s)") % {
            "kind": _label(Penalty.Kind.choices, d.get("kind")),
            "who": d.get("player") or _("pair %(side)s") % {"side": _side(d.get("side"))},
            "category": _label(Penalty.Category.choices, d.get("category")),
        }
    else:
        what = " · ".join(
            part
            for part in (
                _label(Ruling.Kind.choices, d.get("kind")),
                str(d.get("seat") or d.get("side") or "").upper(),
            )
            if part
        )
    return _("Undone by %(user)s: %(what)s") % {"user": by, "what": what}


def describe_event(kind: str, data: dict[str, Any]) -> str:
    """One line, in the user's language, saying what an event of the log did."""
    d = {**data}
    who = d.get("player") or _("pair %(side)s") % {"side": _side(d.get("side"))}
    texts = {
        "party_started": lambda: _("Party started"),
        "clock_paused": lambda: _("Clock paused"),
        "clock_resumed": lambda: _("Clock resumed"),
        "pause_reason": lambda: _("Reason for the pause given"),
        "action_undone": lambda: _undone(d),
        "time_expired": lambda: _("Time is up: the deal in play is the last one"),
        "game_time_expired": lambda: _(
            "Game %(game)s: time is up, the deal in play is the last one of the game"
        )
        % {"game": d.get("game")},
        "party_reopened": lambda: _("Party reopened"),
        "party_finished": lambda: (
            _("Party finished: the Goat is %(loser)s, %(points)s")
            % {"loser": _side(d.get("loser")), "points": _points(d.get("points") or {})}
            if d.get("loser")
            else _("Party finished: pair %(winner)s wins, %(a)s : %(b)s")
            % {
                "winner": _side(d.get("winner")),
                "a": (d.get("points") or {}).get("a", 0),
                "b": (d.get("points") or {}).get("b", 0),
            }
            if set(d.get("points") or {}) <= {"a", "b"}
            else _("Party finished: %(winner)s wins, %(points)s")
            % {"winner": _side(d.get("winner")), "points": _points(d.get("points") or {})}
        ),
        "forfeit": lambda: _("No-show of pair %(absent)s: pair %(winner)s wins by forfeit")
        % {"absent": _side(d.get("absent")), "winner": _side(d.get("winner"))},
        "deal_recorded": lambda: _("Deal %(deal)s: %(outcome)s, %(score)s")
        % {
            "deal": d.get("deal"),
            "outcome": _label(Deal.Outcome.choices, d.get("outcome")),
            "score": _score(d),
        },
        "deal_corrected": lambda: _("Deal %(deal)s corrected: %(before)s → %(after)s")
        % {"deal": d.get("deal"), "before": _score(d, "before"), "after": _score(d, "after")},
        "deal_annulled": lambda: (
            _("Deal %(deal)s annulled in play") % {"deal": d.get("deal")}
            if d.get("in_play")
            else _("Deal %(deal)s annulled (was %(before)s)")
            % {"deal": d.get("deal"), "before": _score(d, "before")}
        ),
        "check_in": lambda: (
            _("Pair %(side)s present") if d.get("present") else _("Pair %(side)s not present")
        )
        % {"side": _side(d.get("side"))},
        "no_show_candidate": lambda: _("No-show candidate: pair %(absent)s")
        % {"absent": _side(d.get("absent"))},
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
        "protocol_superseded": lambda: _(
            "Protocol version %(version)s superseded by version %(new_version)s"
        )
        % {"version": d.get("version"), "new_version": d.get("new_version")},
        "penalty_cancelled": lambda: _("%(kind)s cancelled (pair %(side)s, %(category)s)")
        % {
            "kind": _label(Penalty.Kind.choices, d.get("kind")),
            "side": _side(d.get("side")),
            "category": _label(Penalty.Category.choices, d.get("category")),
        },
    }
    if kind in texts:
        return str(texts[kind]())
    if kind.startswith("ruling_"):
        ruling = _label(Ruling.Kind.choices, kind.removeprefix("ruling_"))
        choice = _label(Ruling.Choice.choices, d.get("choice")) if d.get("choice") else ""
        seat = d.get("seat", "").upper()
        return " · ".join(part for part in (ruling, seat or _side(d.get("side")), choice) if part)
    return _label(Party.EndReason.choices, kind) or kind
