"""The draw manager: loads the ranked field and its history, runs the engine, writes the rows.

The glue between the plain-Python draw engine (:mod:`tournaments.pairing`) and the database,
like Tabbycat's draw manager: the field is read in a constant number of queries (ranked by
:mod:`scoring.ranking.results`), the engine returns plain pairings, the parties (in one statement,
:func:`scoring.core.bulk.insert_rows`) and, in individual events, the pairs formed for the round
are inserted in a shuffled order so their ids reveal nothing about the standings. The
round-flow services in :mod:`tournaments.rounds.services` call these functions inside their
transaction, with the round's row locked.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from scoring.core.bulk import insert_rows
from scoring.core.errors import ServiceError
from scoring.models import Pair, Party, Player, Regulations, Round, Table, TeamMatch, Tournament
from scoring.ranking.results import ranked_entrants, standings_rows
from tournaments.checkin.services import checked_in_ids, window_for_round
from tournaments.pairing import (
    Draw,
    DrawWarning,
    Entrant,
    IndividualDraw,
    IndividualTable,
    Pairing,
    PlayerEntrant,
    _,
    assign_tables,
    fixed_tables,
    get_generator,
)
from tournaments.pairing.common import draw_order
from tournaments.setup.services import format_conflict

Seating = list[tuple[int, Pairing | IndividualTable]]
_shuffle = random.SystemRandom().shuffle


@dataclass
class History:
    """Who met whom (and partnered whom) before a round, and how many byes each had."""

    opponents: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    partners: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    byes: dict[int, int] = field(default_factory=lambda: defaultdict(int))


@dataclass
class DrawField:
    """The entrants of one round's draw, ranked, with what the pages need to name them."""

    individual: bool
    entrants: list[Entrant | PlayerEntrant]
    names: dict[int, str]
    everyone: list[int]
    """Every registered entrant (withdrawn ones too), in seeding order."""
    alone: int | None = None
    """Players at a table where each plays for himself in an individual event (else None)."""
    left_out: list[int] = field(default_factory=list)
    """Available entrants not checked in to the round's check-in window: not seated."""
    checkin_open: bool = False
    """Whether the round's check-in window was still open when the field was read."""

    @property
    def ids(self) -> set[int]:
        """Ids of the entrants available this round."""
        return {e.id for e in self.entrants}

    def players(self) -> list[PlayerEntrant]:
        """The entrants of an individual event's draw, each a player."""
        found = [e for e in self.entrants if isinstance(e, PlayerEntrant)]
        if len(found) != len(self.entrants):
            raise TypeError("An individual event's draw field holds pairs")
        return found

    def pairs(self) -> list[Entrant]:
        """The entrants of a pairs event's draw, each a pair."""
        found = [e for e in self.entrants if isinstance(e, Entrant)]
        if len(found) != len(self.entrants):
            raise TypeError("A pairs event's draw field holds players")
        return found


def is_individual(tournament: Tournament) -> bool:
    """Whether the draw forms new pairs of players every round."""
    return tournament.format == Tournament.Format.INDIVIDUAL


def players_alone(tournament: Tournament) -> int | None:
    """Players at a table when each plays for himself in an individual event, else None.

    Kozel, and the draw, block and classic games of three or four players: the draw seats
    the players at tables of that size with no partners (seat groups a1 + a2, b1 + b2).
    """
    if not is_individual(tournament) or not tournament.singles:
        return None
    cfg = tournament.regulations.rules_config()
    return len(tournament.engine.seats_for(cfg))


def load_history(tournament: Tournament, before_round: int) -> History:
    """Opponents, partners and byes of every entrant in the rounds before ``before_round``.

    Where every player plays for himself, all the players of a table were opponents.
    """
    history = History()
    parties = Party.objects.filter(
        round__tournament=tournament, round__number__lt=before_round
    ).order_by()
    if not is_individual(tournament):
        for a, b in parties.values_list("pair_a_id", "pair_b_id"):
            if b is None:
                history.byes[a] += 1
            else:
                history.opponents[a].add(b)
                history.opponents[b].add(a)
        return history
    rows = parties.values_list(
        "pair_a__player1_id", "pair_a__player2_id", "pair_b__player1_id", "pair_b__player2_id"
    )
    alone = players_alone(tournament) is not None
    for a1, a2, b1, b2 in rows:
        if b1 is None:
            for player in (a1, a2):
                if player is not None:
                    history.byes[player] += 1
            continue
        if alone:
            seated = [p for p in (a1, a2, b1, b2) if p is not None]
            for x in seated:
                history.opponents[x].update(y for y in seated if y != x)
            continue
        for x, y in ((a1, a2), (b1, b2)):
            history.partners[x].add(y)
            history.partners[y].add(x)
        for x in (a1, a2):
            for y in (b1, b2):
                history.opponents[x].add(y)
                history.opponents[y].add(x)
    return history


def _pair_club(club1: str, club2: str) -> str:
    """A pair's club for keeping clubs apart: its first player's, else its second's."""
    return club1 or club2


def load_field(tournament: Tournament, rnd: Round) -> DrawField:
    """The available entrants of ``rnd`` ranked by the standings, with their history.

    Once a check-in window before the round has opened, only the entrants checked in to it
    are in the field (open or closed: drawing while it is open seats those in so far); the
    others are ``left_out`` of this round only.
    """
    individual = is_individual(tournament)
    history = load_history(tournament, rnd.number)
    if individual:
        values = ranked_entrants(tournament, per_player=True).values_list(
            "id", "name", "rating", "club", "fixed_table__number", "withdrawn", "disqualified"
        )
        info = {
            pk: (name, rating, club, table, not (withdrawn or disqualified))
            for pk, name, rating, club, table, withdrawn, disqualified in values
        }
    else:
        values = ranked_entrants(tournament, per_player=False).values_list(
            "id", "name", "player1__name", "player2__name", "rating", "player1__club",
            "player2__club", "fixed_table__number", "withdrawn", "disqualified",
        )
        info = {
            pk: (Pair.label(name, n1, n2), rating, _pair_club(c1, c2), table, not (w or d))
            for pk, name, n1, n2, rating, c1, c2, table, w, d in values
        }
    everyone = list(info)
    rows = standings_rows(tournament, everyone, per_player=individual)
    window = window_for_round(tournament, rnd.number)
    present = checked_in_ids(window) if window is not None and window.has_opened() else None
    entrants: list[Entrant | PlayerEntrant] = []
    left_out: list[int] = []
    for row in rows:
        _name, rating, club, table, available = info[row.entrant]
        if not available:
            continue
        if present is not None and row.entrant not in present:
            left_out.append(row.entrant)
            continue
        common = {
            "id": row.entrant,
            "rank": len(entrants),
            "score": row.metrics["match_points"],
            "rating": rating,
            "club": club,
            "had_bye": history.byes.get(row.entrant, 0),
            "opponents": frozenset(history.opponents.get(row.entrant, ())),
            "fixed_table": table,
        }
        if individual:
            partners = frozenset(history.partners.get(row.entrant, ()))
            entrants.append(PlayerEntrant(partners=partners, **common))
        else:
            entrants.append(Entrant(**common))
    names = {pk: item[0] for pk, item in info.items()}
    return DrawField(individual, entrants, names, everyone, players_alone(tournament),
                     left_out, present is not None and window is not None and window.is_open())


def _round_robin(
    tournament: Tournament, rnd: Round, draw_field: DrawField, seed: int | None
) -> Draw:
    """A round of the Berger schedule; the start list is fixed when round 1 is drawn."""
    regulations = tournament.regulations
    start_list = [pk for pk in tournament.start_list if pk in draw_field.names]
    if rnd.number == 1 or not start_list:
        ordered, seed = draw_order(
            draw_field.entrants, round_number=1, first_round=regulations.first_round, seed=seed
        )
        start_list = [e.id for e in ordered]
        Tournament.objects.filter(pk=tournament.pk).update(start_list=start_list)
        tournament.start_list = start_list
    absent = [pk for pk in start_list if pk not in draw_field.ids]
    draw = get_generator("round_robin", absent=absent).generate(
        start_list, round_number=rnd.number
    )
    if not isinstance(draw, Draw):
        raise TypeError("The round robin gave a draw of an individual event")
    rank = {e.id: e.rank for e in draw_field.entrants}
    parties = sorted(draw.parties, key=lambda p: min(rank[p.a], rank[p.b]))
    late: list[str] = [
        DrawWarning(
            _("%(entrant)s registered after the round robin was fixed and is not in it."),
            entrant=pk,
        )
        for pk in sorted(draw_field.ids - set(start_list))
    ]
    return Draw(parties=parties, byes=draw.byes, seed=seed, warnings=late)


def run_engine(
    tournament: Tournament, rnd: Round, draw_field: DrawField, seed: int | None = None
) -> Draw | IndividualDraw:
    """Draw ``rnd`` with the system the regulations name (manual: an empty draw to fill in)."""
    regulations = tournament.regulations
    system = regulations.pairing_system
    problem = format_conflict(tournament.format, tournament.rule_set, regulations.rules_config())
    if problem:
        raise ServiceError("format", problem)
    if system == Regulations.PairingSystem.MANUAL:
        generator = get_generator("manual", individual=draw_field.individual)
    elif draw_field.individual:
        if system == Regulations.PairingSystem.ROUND_ROBIN:
            raise ServiceError("pairing_system", _("Round robin is for pairs tournaments."))
        if draw_field.alone:
            generator = get_generator(
                "free_for_all", first_round=regulations.first_round, table_size=draw_field.alone
            )
        else:
            generator = get_generator("individual", first_round=regulations.first_round)
    elif system == Regulations.PairingSystem.ROUND_ROBIN:
        return _round_robin(tournament, rnd, draw_field, seed)
    else:
        generator = get_generator(
            "swiss",
            first_round=regulations.first_round,
            avoid_same_club=regulations.avoid_same_club,
            rounds_planned=regulations.rounds_planned,
        )
    return generator.generate(draw_field.entrants, round_number=rnd.number, seed=seed)


def table_numbers(tournament: Tournament) -> dict[int, int]:
    """The tournament's tables: number → id, in number order."""
    return dict(
        Table.objects.filter(tournament=tournament).order_by("number").values_list("number", "id")
    )


def seat(draw: Draw | IndividualDraw, draw_field: DrawField, tables: dict[int, int]) -> Seating:
    """Seat the draw's parties in standings order; fixed tables (accessibility) are kept."""
    fixed = fixed_tables(draw_field.entrants)
    if isinstance(draw, IndividualDraw):
        return list(assign_tables(draw.tables, list(tables), fixed))
    return list(assign_tables(draw.parties, list(tables), fixed))


def _formed_pair(rnd: Round, players: Sequence[int], ratings: dict[int, int]) -> Pair:
    """An unsaved pair of an individual event's round (one player for a bye)."""
    second = players[1] if len(players) > 1 else None
    rating = sum(ratings.get(p, 0) for p in players) // len(players)
    return Pair(
        tournament_id=rnd.tournament_id,
        player1_id=players[0],
        player2_id=second,
        rating=rating,
        formed_in_round=rnd,
    )


def clear_draw(rnd: Round) -> None:
    """Delete the round's parties and team matches (and the pairs formed for it)."""
    TeamMatch.objects.filter(round=rnd).delete()
    Party.objects.filter(round=rnd).delete()
    Pair.objects.filter(formed_in_round=rnd).delete()


def _formed_pairs(party: Pairing | IndividualTable) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two pairs of players an individual event's table forms."""
    if not isinstance(party, IndividualTable):
        raise TypeError("An individual event's draw seats tables of players, not pairings")
    return party.pair_a, party.pair_b


def _side_ids(party: Pairing | IndividualTable, sides: dict[tuple[int, ...], int],
              individual: bool) -> tuple[int | None, int | None]:
    """The pair ids of a seated party: the pairs formed for its table, or its two entrants."""
    if individual:
        pair_a, pair_b = _formed_pairs(party)
        return sides.get(pair_a), sides.get(pair_b)
    if not isinstance(party, Pairing):
        raise TypeError("A pairs event's draw seats pairings, not tables of players")
    return party.a, party.b


def write_draw(rnd: Round, seating: Seating, byes: Sequence[int], individual: bool) -> None:
    """Replace the round's parties with ``seating`` and ``byes``, inserted in random order.

    Byes are parties without an opponent, finished at once (``end_reason`` "bye"), won by
    the rule set's first side (``"a"``, or the seat ``"a1"`` where each plays for himself).
    """
    clear_draw(rnd)
    tournament = rnd.tournament
    bye_winner = tournament.engine.sides_for(tournament.regulations.rules_config())[0]
    tables = table_numbers(rnd.tournament)
    now = timezone.now()
    sides: dict[tuple[int, ...], int]
    if individual:
        ratings = dict(
            Player.objects.filter(tournament_id=rnd.tournament_id).values_list("id", "rating")
        )
        wanted = [side for _t, p in seating for side in _formed_pairs(p)]
        wanted += [(player,) for player in byes]
        pairs = [_formed_pair(rnd, side, ratings) for side in wanted]
        _shuffle(pairs)
        Pair.objects.bulk_create(pairs)
        sides = {
            (p.player1_id,) if p.player2_id is None else (p.player1_id, p.player2_id): p.pk
            for p in pairs
        }
    else:
        sides = {}
    parties: list[dict[str, Any]] = []
    for number, party in seating:
        pair_a, pair_b = _side_ids(party, sides, individual)
        parties.append({
            "round_id": rnd.pk,
            "table_id": tables[number],
            "pair_a_id": pair_a,
            "pair_b_id": pair_b,
        })
    parties += [
        {
            "round_id": rnd.pk,
            "pair_a_id": sides[(entrant,)] if individual else entrant,
            "status": Party.Status.FINISHED,
            "end_reason": Party.EndReason.BYE,
            "winner": bye_winner,
            "finished_at": now,
        }
        for entrant in byes
    ]
    _shuffle(parties)
    insert_rows(Party, parties)
