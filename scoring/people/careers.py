"""Every player's record: his tournaments, places and parties across events, loaded as plain rows.

:func:`load_career` reads a profile's public record in a constant number of queries, whatever
the number of his tournaments and parties: the tournaments of his entries (public ones only),
his places (:func:`scoring.ranking.places.standings_of`, the standings pages' own computation; only
where the tournament's standings are public); where the results are public, his finished
parties of published rounds with their stored totals, their deals and the fines he received
(his own, and his pair's where a fine names no player); and the rating history of public
rating lists. The figures are computed from these
rows by :mod:`scoring.people.career_figures`, one function a figure.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

from django.db.models import Q

from scoring.models import (
    Deal,
    Pair,
    Party,
    PartyTotals,
    Penalty,
    Player,
    Profile,
    Round,
    Tournament,
)
from scoring.people import profiles
from scoring.ranking.places import standings_of
from scoring.ranking.rating_runs import rating_history
from scoring.rules import Layout
from scoring.totals.stored import fill_totals, rules_digest


@dataclass(frozen=True)
class Person:
    """A partner or an opponent: his name in that tournament and his profile, if linked."""

    name: str
    profile_id: int | None
    player_id: int

    @property
    def key(self) -> tuple[str, int]:
        """One key a person across tournaments: his profile, or his entry when unlinked."""
        return ("profile", self.profile_id) if self.profile_id else ("player", self.player_id)


@dataclass(frozen=True)
class TournamentLine:
    """One tournament of the record: the entry, and the place where the standings are public."""

    tournament: Tournament
    player_id: int
    place: int | None = None
    shared: bool = False
    field_size: int = 0


@dataclass(frozen=True)
class PartyLine:
    """One finished party from the player's point of view."""

    party_id: int
    tournament_id: int
    round: int
    table: int | None
    seat: str
    partner: Person | None
    opponents: tuple[Person, ...]
    result: str
    points_for: int | None
    points_against: int | None

    @property
    def side(self) -> str:
        """The player's side, "a" or "b"."""
        return self.seat[0]

    @property
    def won(self) -> bool:
        """Whether the player (or his pair) won the party."""
        return self.result in ("won", "forfeit_won")

    @property
    def played(self) -> bool:
        """A party with an opponent (a bye is neither won nor lost)."""
        return self.result != "bye"


@dataclass(frozen=True)
class DealLine:
    """One deal of the player's parties: how it ended and the points his side (or he) made."""

    party_id: int
    number: int
    seat: str
    outcome: str
    winner: str
    went_out: str
    fish_by: str
    points: int


@dataclass(frozen=True)
class RatingPoint:
    """One row of a rating history: after which tournament, the rating and its deviation."""

    list_id: int
    list_name: str
    subject: str
    partner: str
    sequence: int
    tournament: str
    date: date
    rating: float
    deviation: float | None


@dataclass
class Career:
    """A profile's public record as plain rows (see :func:`load_career`)."""

    profile: Profile
    tournaments: list[TournamentLine] = field(default_factory=list)
    parties: list[PartyLine] = field(default_factory=list)
    deals: list[DealLine] = field(default_factory=list)
    fines: list[int] = field(default_factory=list)
    ratings: list[RatingPoint] = field(default_factory=list)


def resolve_profile(pk: int) -> Profile | None:
    """The profile with this id, following ``merged_into`` to the one that holds the results
    (``scoring.people.profiles.resolve_profile``); None when there is no such profile."""
    try:
        return profiles.resolve_profile(pk)
    except Profile.DoesNotExist:
        return None


def _person(player: Player) -> Person:
    """A seat's player as a :class:`Person`."""
    return Person(player.name, player.profile_id, player.pk)


def _seats(party: Party) -> dict[str, Player]:
    """The party's players by seat (a1, a2, b1, b2; empty seats left out)."""
    return party.seat_players()


def _result(party: Party, seat: str, layout: Layout) -> str:
    """won, lost, bye, forfeit_won or forfeit_lost; where each plays for himself also the Goat
    or played (neither the winner nor the Goat), as a tournament's player page says."""
    return party.result_for({seat, seat[0]}, layout.per_seat)


def _points(totals: PartyTotals | None, seat: str, layout: Layout) -> tuple[int | None, int | None]:
    """The player's points (his own where each plays for himself, else his pair's) and the
    other side's, from the party's stored totals."""
    if totals is None:
        return None, None
    side, other = seat[0], "b" if seat[0] == "a" else "a"
    if layout.per_seat and totals.seat_points:
        mine = totals.seat_points.get(seat, totals.seat_points.get(side, 0))
        theirs = sum(v for k, v in totals.seat_points.items() if k.startswith(other))
        return mine, theirs
    return getattr(totals, f"points_{side}"), getattr(totals, f"points_{other}")


def deal_points(deal: Deal | tuple, seat: str) -> int:
    """The points of one deal for the player on ``seat``: his own where the rule set scores
    per seat, else his pair's."""
    scores, points_a, points_b = (
        (deal.scores, deal.points_a, deal.points_b) if isinstance(deal, Deal) else deal
    )
    if scores:
        if seat in scores:
            return int(scores[seat])
        return int(scores.get(seat[0], 0))
    return points_a if seat[0] == "a" else points_b


def _fresh_totals(
    parties: list[Party], tournaments: dict[int, Tournament]
) -> dict[int, PartyTotals]:
    """The stored totals of the parties, recomputed where missing or stale (per tournament)."""
    found: dict[int, PartyTotals] = {}
    stale: dict[int, list[int]] = defaultdict(list)
    digests = {pk: rules_digest(t) for pk, t in tournaments.items()}
    for party in parties:
        if party.pair_b_id is None:
            continue
        totals = getattr(party, "stored_totals", None)
        tournament_id = party.round.tournament_id
        if totals and totals.version == party.version and totals.rules == digests[tournament_id]:
            found[party.pk] = totals
        else:
            stale[tournament_id].append(party.pk)
    for tournament_id, ids in stale.items():
        found.update(fill_totals(tournaments[tournament_id], ids))
    return found


def _places(lines: list[TournamentLine], entries: list[Player]) -> list[TournamentLine]:
    """The tournament lines with the places of public standings filled in."""
    shown = [line.tournament for line in lines if line.tournament.public_standings]
    tables = standings_of(shown)
    pair_of: dict[int, int] = {}
    pairs = Pair.objects.filter(
        Q(player1__in=entries) | Q(player2__in=entries),
        formed_in_round__isnull=True,
        tournament__in=[t.pk for t in shown],
    ).values_list("id", "player1_id", "player2_id")
    for pair_id, first, second in pairs:
        pair_of[first] = pair_of[second or first] = pair_id
    filled = []
    for line in lines:
        table = tables.get(line.tournament.pk)
        if table is None:
            filled.append(line)
            continue
        individual = line.tournament.format == Tournament.Format.INDIVIDUAL
        entrant = line.player_id if individual else pair_of.get(line.player_id)
        row = table.get(entrant) if entrant is not None else None
        filled.append(TournamentLine(
            line.tournament, line.player_id,
            place=row.rank if row else None, shared=bool(row and row.shared),
            field_size=len(table),
        ))
    return filled


def _party_lines(
    parties: list[Party], entry_ids: set[int], tournaments: dict[int, Tournament]
) -> tuple[list[PartyLine], dict[int, str]]:
    """The parties as lines from the player's seat, and his seat in each."""
    totals = _fresh_totals(parties, tournaments)
    layouts = {
        pk: t.engine.layout_for(t.regulations.rules_config()) for pk, t in tournaments.items()
    }
    lines, seat_of = [], {}
    for party in parties:
        seats = _seats(party)
        seat = next(s for s, player in seats.items() if player.pk in entry_ids)
        side = seat[0]
        other = "b" if side == "a" else "a"
        mate = seats.get(f"{side}{'2' if seat[1] == '1' else '1'}")
        layout = layouts[party.round.tournament_id]
        points_for, points_against = _points(totals.get(party.pk), seat, layout)
        seat_of[party.pk] = seat
        lines.append(PartyLine(
            party_id=party.pk,
            tournament_id=party.round.tournament_id,
            round=party.round.number,
            table=party.table.number if party.table is not None else None,
            seat=seat,
            partner=_person(mate) if mate is not None else None,
            opponents=tuple(
                _person(seats[s]) for s in (f"{other}1", f"{other}2") if s in seats
            ),
            result=_result(party, seat, layout),
            points_for=points_for,
            points_against=points_against if party.pair_b_id else None,
        ))
    return lines, seat_of


def _rating_points(profile: Profile) -> list[RatingPoint]:
    """The profile's rating history in public lists, by list and period (one query)."""
    points = []
    for row in rating_history(profile):
        other = row.partner if row.profile_id == profile.pk else row.profile
        points.append(RatingPoint(
            list_id=row.rating_list_id, list_name=row.rating_list.name, subject=row.subject,
            partner=other.name if other is not None and row.partner_id else "",
            sequence=row.sequence, tournament=row.tournament.name,
            date=row.tournament.start_date, rating=row.rating, deviation=row.deviation,
        ))
    return points


def load_career(profile: Profile) -> Career:
    """The profile's public record (a constant number of queries, see the module's note)."""
    record = Career(profile=profile)
    entries = list(
        Player.objects.filter(profile=profile, tournament__public=True)
        .select_related("tournament__regulations")
        .order_by("-tournament__start_date", "-tournament_id")
    )
    tournaments = {entry.tournament_id: entry.tournament for entry in entries}
    lines = [TournamentLine(entry.tournament, entry.pk) for entry in entries]
    record.tournaments = _places(lines, entries)
    with_results = {pk: t for pk, t in tournaments.items() if t.public_results}
    entry_ids = {entry.pk for entry in entries if entry.tournament_id in with_results}
    seat_q = Q()
    for seat in ("pair_a__player1", "pair_a__player2", "pair_b__player1", "pair_b__player2"):
        seat_q |= Q(**{f"{seat}__in": entry_ids})
    parties = list(
        Party.objects.filter(seat_q, status=Party.Status.FINISHED)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related(
            "round", "table", "stored_totals", "pair_a__player1", "pair_a__player2",
            "pair_b__player1", "pair_b__player2",
        )
        .order_by("-round__tournament__start_date", "round__tournament_id", "round__number", "id")
    ) if entry_ids else []
    record.parties, seat_of = _party_lines(parties, entry_ids, with_results)
    if parties:
        deals = (
            Deal.objects.filter(party_id__in=list(seat_of))
            .order_by("party_id", "number")
            .values_list("party_id", "number", "outcome", "winner", "went_out", "fish_by",
                         "scores", "points_a", "points_b")
        )
        for party_id, number, outcome, winner, went_out, fish_by, *points in deals:
            seat = seat_of[party_id]
            record.deals.append(DealLine(
                party_id, number, seat, outcome, winner, went_out, fish_by,
                deal_points(tuple(points), seat),
            ))
        fines = Penalty.objects.filter(
            party_id__in=list(seat_of), kind=Penalty.Kind.FINE, cancelled=False
        ).values_list("party_id", "player_id", "side", "points")
        record.fines = [
            points for party_id, player_id, side, points in fines
            if player_id in entry_ids
            or (player_id is None and side in (seat_of[party_id], seat_of[party_id][0]))
        ]
    record.ratings = _rating_points(profile)
    return record
