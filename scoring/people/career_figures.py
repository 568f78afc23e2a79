"""The figures of a player's record, one function a figure, from the record's plain rows.

Plain functions of plain rows (no queries): how a deal ended is the deal's ``outcome``
(``Deal.Outcome``), who went out its ``went_out`` seat, who blocked the line its ``fish_by``
seat, and its winner a pair ("a", "b") or a seat; the party points are the stored totals the
standings read (``scoring.totals.stored``), the deal points the rule set's per deal.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.models import Deal
from scoring.people.careers import Career, DealLine, PartyLine, Person, RatingPoint

FISH = (Deal.Outcome.FISH, Deal.Outcome.DRAWN_FISH)
NOT_PLAYED = (Deal.Outcome.ANNULLED,)
"""Deals that count for no figure (an annulled deal was not played out)."""


def _own(deal: DealLine, who: str) -> bool:
    """Whether ``who`` (a seat or a pair) is the player's seat or his pair."""
    return who in (deal.seat, deal.seat[0])


def dominoes_made(deals: Iterable[DealLine]) -> int:
    """Deals the player ended by going out himself (a domino)."""
    return sum(1 for d in deals if d.outcome == Deal.Outcome.DOMINO and d.went_out == d.seat)


def dominoes_won(deals: Iterable[DealLine]) -> int:
    """Deals ended by a domino that the player (or his pair) won."""
    return sum(1 for d in deals if d.outcome == Deal.Outcome.DOMINO and _own(d, d.winner))


def fish_made(deals: Iterable[DealLine]) -> int:
    """Fish the player made himself (he blocked the line; rule sets that record who did)."""
    return sum(1 for d in deals if d.outcome in FISH and d.fish_by == d.seat)


def fish_won(deals: Iterable[DealLine]) -> int:
    """Fish won by the player (or his pair): fewer pips when the line was blocked."""
    return sum(1 for d in deals if d.outcome == Deal.Outcome.FISH and _own(d, d.winner))


def deals_played(deals: Iterable[DealLine]) -> int:
    """Deals played out (annulled deals left out)."""
    return sum(1 for d in deals if d.outcome not in NOT_PLAYED)


def points_per_deal(deals: Iterable[DealLine]) -> list[int]:
    """The player's (or his pair's) points in each deal played, in order."""
    return [d.points for d in deals if d.outcome not in NOT_PLAYED]


def average_points_per_deal(deals: Iterable[DealLine]) -> float | None:
    """The mean points per deal played (None without deals), to one decimal."""
    points = points_per_deal(deals)
    return round(sum(points) / len(points), 1) if points else None


def points_histogram(deals: Iterable[DealLine], bins: int = 8) -> list[tuple[int, int, int]]:
    """The points per deal in equal bins: (from, to, deals) with ``to`` included."""
    points = points_per_deal(deals)
    if not points:
        return []
    top = max(points)
    width = max(1, -(-(top + 1) // bins))
    counts = Counter(min(p // width, bins - 1) for p in points)
    last = max(counts)
    return [(i * width, (i + 1) * width - 1, counts.get(i, 0)) for i in range(last + 1)]


def average_points_by_tournament(
    deals: Iterable[DealLine], parties: Iterable[PartyLine]
) -> dict[int, float]:
    """The mean points per deal played in each tournament (by tournament id)."""
    tournament_of = {p.party_id: p.tournament_id for p in parties}
    sums: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for d in deals:
        if d.outcome in NOT_PLAYED:
            continue
        total = sums[tournament_of[d.party_id]]
        total[0] += d.points
        total[1] += 1
    return {pk: round(s / n, 1) for pk, (s, n) in sums.items() if n}


def fines_received(fines: Sequence[int]) -> tuple[int, int]:
    """How many fines the referees gave the player, and their points together."""
    return len(fines), sum(fines)


def parties_played(parties: Iterable[PartyLine]) -> int:
    """Finished parties against an opponent (byes left out)."""
    return sum(1 for p in parties if p.played)


def parties_won(parties: Iterable[PartyLine]) -> int:
    """Parties the player (or his pair) won, forfeits included."""
    return sum(1 for p in parties if p.won)


def win_rate(parties: Sequence[PartyLine]) -> float | None:
    """The share of parties won among those played, in per cent (None before any)."""
    played = parties_played(parties)
    return round(100 * parties_won(parties) / played) if played else None


def total_points(parties: Iterable[PartyLine]) -> int:
    """The player's points over every party (the stored totals the standings count)."""
    return sum(p.points_for or 0 for p in parties)


@dataclass(frozen=True)
class Together:
    """A partner or opponent with how many parties were played with (or against) him."""

    person: Person
    parties: int
    won: int

    @property
    def win_rate(self) -> int | None:
        """The player's share of those parties won, in per cent."""
        return round(100 * self.won / self.parties) if self.parties else None


def _tally(pairs: Iterable[tuple[Person, PartyLine]]) -> list[Together]:
    """Count parties and wins per person, most parties first, then by name."""
    seen: dict[tuple[str, int], Person] = {}
    count: Counter[tuple[str, int]] = Counter()
    won: Counter[tuple[str, int]] = Counter()
    for person, party in pairs:
        seen.setdefault(person.key, person)
        count[person.key] += 1
        won[person.key] += party.won
    rows = [Together(seen[k], count[k], won[k]) for k in seen]
    return sorted(rows, key=lambda t: (-t.parties, t.person.name))


def partners(parties: Iterable[PartyLine]) -> list[Together]:
    """The player's partners with the parties played together and his win rate with each."""
    return _tally((p.partner, p) for p in parties if p.played and p.partner is not None)


def opponents(parties: Iterable[PartyLine]) -> list[Together]:
    """The players he met across the table, with the parties and his wins against each."""
    return _tally((o, p) for p in parties if p.played for o in p.opponents)


def rating_lines(points: Iterable[RatingPoint]) -> list[list[RatingPoint]]:
    """The rating history as one line a rating list and subject, in period order."""
    lines: dict[tuple[int, str], list[RatingPoint]] = {}
    for point in points:
        lines.setdefault((point.list_id, point.subject), []).append(point)
    return [sorted(line, key=lambda p: p.sequence) for line in lines.values()]


def summary(record: Career) -> dict[str, Any]:
    """The record's figures by name, as the page and the API show them."""
    fines, fine_points = fines_received(record.fines)
    return {
        "tournaments": len(record.tournaments),
        "parties": parties_played(record.parties),
        "won": parties_won(record.parties),
        "win_rate": win_rate(record.parties),
        "points": total_points(record.parties),
        "deals": deals_played(record.deals),
        "average_points_per_deal": average_points_per_deal(record.deals),
        "dominoes_made": dominoes_made(record.deals),
        "dominoes_won": dominoes_won(record.deals),
        "fish_made": fish_made(record.deals),
        "fish_won": fish_won(record.deals),
        "fines": fines,
        "fine_points": fine_points,
    }
