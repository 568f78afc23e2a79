"""A knockout stage's bracket as it is shown and printed (``scoring.standings.bracket``): the
matches with their sides' names, scores and tables, the rounds named in the active language.

A constant number of queries whatever the bracket's size: the matches with their pairs, their
parties with tables, and the parties' stored totals.
"""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from scoring.models import Match, Party, PartyTotals, Stage
from scoring.stages.knockout import rounds_of
from scoring.standings.bracket import (
    BYE,
    DECIDED,
    EMPTY,
    PLAYING,
    READY,
    WAITING,
    BracketSheet,
    SheetMatch,
    SheetRound,
    SheetSlot,
)
from scoring.standings.knockout import MatchResult, final_placings, round_key


def round_title(bracket_round: int, rounds: int) -> str:
    """A bracket round's name in the active language ("Quarter-finals", "Round of 16")."""
    key, entrants = round_key(bracket_round, rounds)
    if key == "final":
        return _("Final")
    if key == "semi_finals":
        return _("Semi-finals")
    if key == "quarter_finals":
        return _("Quarter-finals")
    return _("Round of %(entrants)s") % {"entrants": entrants}


def match_title(match: Match, rounds: int) -> str:
    """One match of a bracket of ``rounds`` rounds named in the active language, as a player
    calls his own ("quarter-final", "match for third place")."""
    if match.third_place:
        return _("match for third place")
    key, entrants = round_key(match.bracket_round, rounds)
    if key == "final":
        return _("final")
    if key == "semi_finals":
        return _("semi-final")
    if key == "quarter_finals":
        return _("quarter-final")
    return _("match of the round of %(entrants)s (1/%(part)s)") % {
        "entrants": entrants, "part": entrants // 2}


def _score(match: Match, side: str, parties: list[Party], points: dict[int, tuple[int, int]],
           best_of: int) -> str:
    """A side's score: its points in a one-party match, its parties won in a best of N."""
    finished = [p for p in parties if p.status == Party.Status.FINISHED]
    if not finished:
        return ""
    if best_of == 1:
        found = points.get(finished[-1].pk)
        return "" if found is None else str(found[0 if side == "a" else 1])
    return str(sum(1 for p in finished if p.winner[:1] == side))


def _slot(match: Match, side: str, parties: list[Party], points: dict[int, tuple[int, int]],
          best_of: int) -> SheetSlot:
    """One side of a match as the sheet shows it."""
    pair = match.pair(side)
    if pair is None:
        return BYE if match.bye else EMPTY
    return SheetSlot(
        seed=match.seed_a if side == "a" else match.seed_b, name=pair.display_name,
        score=_score(match, side, parties, points, best_of),
        winner=match.winner_id is not None and match.winner_id == pair.pk, bye=False,
    )


def _status(match: Match, parties: list[Party]) -> str:
    """The sheet's status of a match: decided, playing (a party under way), ready, waiting."""
    if match.status == Match.Status.DECIDED:
        return DECIDED
    if any(p.status == Party.Status.IN_PROGRESS for p in parties):
        return PLAYING
    return READY if match.pair_a_id and match.pair_b_id else WAITING


def _placings(stage: Stage, matches: list[Match], rounds: int) -> list[tuple[int, str]]:
    """The places the finished bracket decided, (place, name) best first: ties inside an
    elimination round broken by the seeds (the previous stage's order)."""
    if stage.status != Stage.Status.FINISHED:
        return []
    names = {pair.pk: pair.display_name for m in matches for pair in (m.pair_a, m.pair_b)
             if pair is not None}
    results = [MatchResult(m.bracket_round, m.pair_a_id, m.pair_b_id, m.winner_id,
                           m.third_place) for m in matches]
    order = final_placings(results, rounds, list(stage.qualifiers))
    return [(place, names[pk]) for place, pk in enumerate(order, start=1) if pk in names]


def bracket_sheet(stage: Stage, *, title: str = "", subtitle: str = "") -> BracketSheet:
    """The stage's bracket as a :class:`BracketSheet` (title: the tournament's name by
    default): each match with its table and the page of its latest party."""
    matches = list(
        Match.objects.filter(stage=stage).select_related(
            "pair_a__player1", "pair_a__player2", "pair_b__player1", "pair_b__player2")
        .order_by("bracket_round", "position")
    )
    parties: dict[int, list[Party]] = {}
    for party in Party.objects.filter(match__stage=stage).select_related("table").order_by("pk"):
        if party.match_id is not None:
            parties.setdefault(party.match_id, []).append(party)
    points = {
        pk: (a, b) for pk, a, b in PartyTotals.objects.filter(
            party__match__stage=stage).values_list("party_id", "points_a", "points_b")
    }
    rounds = rounds_of(stage)
    names = {r: round_title(r, rounds) for r in range(1, rounds + 1)}
    singular = {r: capfirst(match_title(Match(bracket_round=r), rounds))
                if round_key(r, rounds)[0] != "round_of" else names[r]
                for r in range(1, rounds + 1)}
    by_round: dict[int, list[SheetMatch]] = {r: [] for r in range(1, rounds + 1)}
    third = None
    for match in matches:
        own = parties.get(match.pk, [])
        latest = own[-1] if own else None
        count = 2 ** (rounds - match.bracket_round)
        if match.third_place:
            label = _("Third place")
        else:
            label = singular[match.bracket_round] + (f" {match.position + 1}" if count > 1 else "")
        sheet = SheetMatch(
            label=label,
            slots=(_slot(match, "a", own, points, stage.best_of),
                   _slot(match, "b", own, points, stage.best_of)),
            status=_status(match, own),
            table=latest.table.number if latest is not None and latest.table else None,
            url=latest.get_absolute_url() if latest is not None else None,
        )
        if match.third_place:
            third = sheet
        else:
            by_round[match.bracket_round].append(sheet)
    return BracketSheet(
        title=title or stage.tournament.name, subtitle=subtitle,
        rounds=[SheetRound(names[r], by_round[r]) for r in range(1, rounds + 1)],
        third_place=third, placings=_placings(stage, matches, rounds),
    )
