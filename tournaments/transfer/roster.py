"""Import players and pairs from a CSV or XLSX file, with a row-by-row report.

The file has a header row naming its columns (English or Russian, any order):

* ``name`` — the player's name, in any script (required);
* ``club``, ``city``, ``country``, ``rating`` (a whole number, empty for 0);
* ``partner`` — the name of his partner: another row of the file or a player already
  registered in the tournament (pairs tournaments only);
* ``pair`` — the pair's name (optional; either partner's row may give it);
* ``birth_year``, ``federation_id`` — to tell the person apart (optional);
* ``team`` — team tournaments: the team the row's pair plays for (either partner's row may give
  it). The pairs of the rows naming one team join it, a new team made of them (from two pairs)
  or one registered already (up to the squad size), through ``registration.teams``
  (``roster_teams``). In a team tournament of players each row naming a team is one of its
  players (no partner): from four, up to ``team_squad_players`` (``registration.team_players``).

Each row is linked to the person's profile (``roster_profiles``): on the federation id, else on
name + birth year + club agreeing with exactly one profile; a doubtful row waits for the
organizer's choice (link to a profile offered, or a new profile) and until every doubtful row
has one nothing is imported. Only the profiles the importing user may see are matched and
offered; a federation id of a person he may not see is an error of its row.

In a singles tournament (a side is one player, pairs format) every row is a player and his
side: ``partner`` must be empty and ``pair`` names the side (optional).

Every row goes through the registration services (``register_player``, ``register_pair``), so
an import obeys the same rules as the pages; on top of them the file is checked as a whole:
a name twice in the file or already registered, an unknown partner, a player named as the
partner of two others. Nothing is imported when a row is wrong, unless the organizer chooses
to skip bad rows: then the good rows are imported (a pair only with both its rows) and the
others are reported as skipped. One transaction, the tournament's row locked.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError
from scoring.models import Pair, Player, Tournament
from tournaments.registration.services import register_pair, register_player
from tournaments.setup.services import registers_sides
from tournaments.transfer.roster_profiles import check_details, match_rows, readable_candidates
from tournaments.transfer.roster_rows import (
    COLUMNS,
    RosterReport,
    RosterRow,
    _PairPlan,
    clean_name,
    name_key,
    parse_rating,
    parse_roster,
)
from tournaments.transfer.roster_teams import _check_teams, _join_squads, _join_teams
from tournaments.transfer.sheets import Cell, SheetError, table_bytes

__all__ = ["COLUMNS", "RosterReport", "RosterRow", "import_roster", "name_key", "parse_rating",
           "parse_roster", "template_file"]

#: Which column a registration service's error field is shown under.
PLAYER_FIELDS = {"name": "name", "club": "club", "city": "city", "country": "country",
                 "rating": "rating",
                 "birth_year": "birth_year", "federation_id": "federation_id",
                 "profile": "profile"}
PAIR_FIELDS = {"name": "pair", "rating": "partner"}
#: Example rows of the template file.
TEMPLATE_ROWS: list[list[Cell]] = [
    ["Иван Петров", "Дубль-шесть", "Москва", "Россия", 1500, "Сергей Смирнов", "Дубль", 1979,
     ""],
    ["Сергей Смирнов", "Дубль-шесть", "Москва", "Россия", 1480, "Иван Петров", "Дубль", "", ""],
    ["José García", "Club Capicúa", "Madrid", "Spain", 1420, "Anna Müller", "", 1990, ""],
    ["Anna Müller", "Club Capicúa", "Berlin", "Germany", 1400, "José García", "", "", ""],
]


# -- checking the file as a whole ----------------------------------------------------------


def _check_values(rows: list[RosterRow]) -> None:
    """Ratings are whole numbers."""
    for row in rows:
        rating = parse_rating(row.values["rating"])
        if rating is None:
            row.add_error("rating", _("The rating is a whole number."))
        else:
            row.rating = rating


def _check_names(
    rows: list[RosterRow], registered: dict[str, list[Player]]
) -> dict[str, RosterRow]:
    """Each name once in the file and not yet registered; return the rows by name."""
    by_key: dict[str, RosterRow] = {}
    for row in rows:
        key = name_key(row.name)
        if not key:
            continue  # the service says the name is required
        if key in by_key:
            row.add_error("name", _("%(name)s is already in row %(row)s of the file.")
                          % {"name": row.name, "row": by_key[key].number})
            continue
        by_key[key] = row
        if key in registered:
            row.add_error("name", _("%(name)s is already registered in this tournament.")
                          % {"name": row.name})
    return by_key


def _link(rows: list[RosterRow], by_key: dict[str, RosterRow],
          registered: dict[str, list[Player]]) -> None:
    """Resolve each ``partner`` to a row of the file or a registered player, consistently."""
    claimed: dict[int, int] = {}  # a registered player's id -> the row that named him
    for row in rows:
        text = clean_name(row.values["partner"])
        if not text:
            continue
        key = name_key(text)
        target = by_key.get(key)
        if key == name_key(row.name):
            row.add_error("partner", _("A player cannot be his own partner."))
        elif target is not None:
            if row.partner_row == target.number:
                continue  # the partner's row named this one first
            if row.partner_row is not None:
                row.add_error("partner", _("Row %(row)s names this player as its partner.")
                              % {"row": row.partner_row})
            elif target.partner_row is not None or target.partner_player is not None:
                row.add_error("partner", _("%(name)s is already the partner of row %(row)s.")
                              % {"name": target.name,
                                 "row": target.partner_row or target.number})
            else:
                row.partner_row, target.partner_row = target.number, row.number
        elif len(registered.get(key, ())) > 1:
            row.add_error("partner", _("Several registered players are called %(name)s: pair "
                                       "them on the pair page.") % {"name": text})
        elif key in registered:
            player = registered[key][0]
            if player.pk in claimed:
                row.add_error("partner", _("%(name)s is already the partner of row %(row)s.")
                              % {"name": player.name, "row": claimed[player.pk]})
            elif row.partner_row is not None:
                row.add_error("partner", _("Row %(row)s names this player as its partner.")
                              % {"row": row.partner_row})
            else:
                claimed[player.pk] = row.number
                row.partner_player = player
        else:
            row.add_error("partner", _("Unknown partner %(name)s: neither a row of the file nor "
                                       "a registered player.") % {"name": text})


def _check_pair_names(rows: list[RosterRow], by_number: dict[int, RosterRow]) -> None:
    """A pair name needs a partner, and both rows of a pair give the same one (or one gives it)."""
    for row in rows:
        name = clean_name(row.values["pair"])
        if not name:
            continue
        if row.partner_row is None and row.partner_player is None:
            row.add_error("pair", _("A pair name needs a partner."))
            continue
        other = by_number.get(row.partner_row) if row.partner_row else None
        other_name = clean_name(other.values["pair"]) if other else ""
        if other and other.number < row.number and other_name and other_name != name:
            row.add_error("pair", _("Row %(row)s gives this pair another name: %(name)s.")
                          % {"row": other.number, "name": other_name})


# -- importing -----------------------------------------------------------------------------


def _check_singles(rows: list[RosterRow]) -> list[_PairPlan]:
    """Singles: no partners; every row is a side of one player (named by ``pair``)."""
    for row in rows:
        if clean_name(row.values["partner"]):
            row.add_error("partner", _("In this rule set a side is one player: leave the "
                                       "partner empty."))
    return [_PairPlan(row, None, None, clean_name(row.values["pair"])) for row in rows]


def _plan_pairs(rows: list[RosterRow], by_number: dict[int, RosterRow]) -> list[_PairPlan]:
    """The pairs the file forms, in the order of their first rows."""
    plans = []
    for row in rows:
        if row.partner_player is not None:
            plans.append(_PairPlan(row, None, row.partner_player, clean_name(row.values["pair"])))
        elif row.partner_row is not None and row.partner_row > row.number:
            second = by_number[row.partner_row]
            name = clean_name(row.values["pair"]) or clean_name(second.values["pair"])
            plans.append(_PairPlan(row, second, None, name))
    return plans


def _attempt(tournament: Tournament, rows: list[RosterRow], plans: list[_PairPlan],
             bad: set[int]) -> tuple[dict[int, dict[str, list[str]]], int, int, int]:
    """Register the rows not in ``bad`` through the services (their teams too); return errors
    and the counts of players, pairs and teams."""
    errors: dict[int, dict[str, list[str]]] = defaultdict(dict)
    created: dict[int, Player] = {}
    for row in rows:
        if row.number in bad:
            continue
        try:
            created[row.number] = register_player(
                tournament, name=row.name, club=clean_name(row.values["club"]),
                city=clean_name(row.values["city"]), country=clean_name(row.values["country"]),
                rating=row.rating, profile=row.profile,
                birth_year=row.birth_year,
                federation_id=clean_name(row.values.get("federation_id", "")))
        except ServiceError as err:
            errors[row.number].setdefault(PLAYER_FIELDS.get(err.field, "row"), []).append(
                str(err.message))
    made: list[tuple[_PairPlan, Pair]] = []
    for plan in plans:
        if any(r.number not in created for r in plan.rows):
            continue
        first = created[plan.first.number]
        second = created[plan.second.number] if plan.second else plan.player
        try:  # seeded by the players' ratings (Pair.seeding_rating), as the pair form does
            made.append((plan, register_pair(tournament, first, second, name=plan.name)))
        except ServiceError as err:
            errors[plan.owner.number].setdefault(PAIR_FIELDS.get(err.field, "partner"), []).append(
                str(err.message))
    teams = 0
    if not errors and tournament.team_members == Tournament.TeamMembers.PLAYERS:
        teams = _join_squads(tournament, rows, created, errors)
    elif not errors:
        teams = _join_teams(tournament, made, errors)
    return errors, len(created), len(made), teams


def _spread(plans: list[_PairPlan], bad: set[int]) -> None:
    """A pair is imported whole or not at all: a bad row makes its partner's row bad too."""
    for plan in plans:
        wrong = [r for r in plan.rows if r.number in bad]
        for row in plan.rows:
            if row.number not in bad and wrong:
                bad.add(row.number)
                row.status = "skipped"
                row.add_error("partner", _("Skipped with its partner: row %(row)s is wrong.")
                              % {"row": wrong[0].number})


def check_rows(tournament: Tournament, rows: list[RosterRow]) -> list[_PairPlan]:
    """Check the file as a whole (values, names, partners); return the pairs it forms."""
    registered: dict[str, list[Player]] = defaultdict(list)
    for player in tournament.players.order_by("id"):
        registered[name_key(player.name)].append(player)
    by_number = {row.number: row for row in rows}
    _check_values(rows)
    by_key = _check_names(rows, registered)
    if registers_sides(tournament):
        return _check_singles(rows)
    _link(rows, by_key, registered)
    _check_pair_names(rows, by_number)
    return _check_teams(tournament, rows, _plan_pairs(rows, by_number))


def import_roster(tournament: Tournament, filename: str, content: bytes, *, viewer: Any,
                  skip_bad_rows: bool = False, dry_run: bool = False,
                  choices: dict[int, str] | None = None) -> RosterReport:
    """Import the players and pairs of a roster file; see the module's docstring.

    Rows are matched among the profiles ``viewer`` (the importing user) may see; None is the
    site itself (a command, a test): every profile. With ``dry_run`` nothing is kept (the
    preview); the report says what would be imported. ``choices`` are the organizer's
    profile for each doubtful row (row number → "new" or a profile id, ``roster_profiles``);
    while a doubtful row has none, nothing is imported.
    """
    report = RosterReport(skip_bad_rows=skip_bad_rows, dry_run=dry_run)
    try:
        report.rows = parse_roster(filename, content)
    except SheetError as err:
        report.file_errors.append(str(err))
        return report
    rows = report.rows
    by_number = {row.number: row for row in rows}
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        plans = check_rows(tournament, rows)
        check_details(rows)
        match_rows(tournament, rows, choices, viewer=viewer)
        report.readable = readable_candidates(rows, viewer)
        bad = {row.number for row in rows if row.errors}
        if skip_bad_rows:
            _spread(plans, bad)
        while True:
            savepoint = transaction.savepoint()
            found, report.players, report.pairs, report.teams = _attempt(
                tournament, rows, plans, bad)
            for number, columns in found.items():
                for column, messages in columns.items():
                    for message in messages:
                        by_number[number].add_error(column, message)
            review = [r for r in rows if r.needs_review and r.number not in bad]
            keep = not found and not dry_run and (skip_bad_rows or not bad) and not review
            if keep:
                transaction.savepoint_commit(savepoint)
                report.imported = True
            else:
                transaction.savepoint_rollback(savepoint)
            if not found or not skip_bad_rows:
                break
            bad |= set(found)
            _spread(plans, bad)
    for row in rows:
        if row.errors and row.status == "ok":
            row.status = "skipped" if skip_bad_rows else "error"
    if not skip_bad_rows and (bad or any(row.errors for row in rows)):
        report.players = report.pairs = report.teams = 0
    return report


def template_file(tournament: Tournament, fmt: str) -> bytes:
    """A file to fill in: the header and example rows (partners only in pairs of two)."""
    columns = list(COLUMNS)
    rows = [list(row) for row in TEMPLATE_ROWS]
    if tournament.format == Tournament.Format.TEAMS:
        return table_bytes(columns, [[*row, "Дубль-шесть"] for row in rows], fmt,
                           title=_("Players"))
    columns.remove("team")
    if tournament.format == Tournament.Format.INDIVIDUAL or registers_sides(tournament):
        kept = [i for i, column in enumerate(columns) if column not in ("partner", "pair")]
        columns = [columns[i] for i in kept]
        rows = [[row[i] for i in kept] for row in rows]
    return table_bytes(columns, rows, fmt, title=_("Players"))
