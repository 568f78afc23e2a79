"""The referee's overview of a round: every party he referees there, with its score, clock,
penalties and alerts (the desk's state of each, ``referee.state``), for the overview page, the
API and My tables."""

from __future__ import annotations

from typing import Any

from referee.sides import pairs_of
from referee.state import alerts, counts, desk, party_queryset, summary
from scoring.access import permissions
from scoring.models import Round, Tournament


def current_round(tournament: Tournament, number: int | None = None) -> Round | None:
    """The round asked for, else the one in progress, else the latest published one."""
    rounds = tournament.rounds.exclude(status=Round.Status.DRAFT)
    if number is not None:
        return tournament.rounds.filter(number=number).first()
    return (
        rounds.filter(status=Round.Status.IN_PROGRESS).order_by("-number").first()
        or rounds.filter(status=Round.Status.PUBLISHED).order_by("number").first()
        or rounds.order_by("-number").first()
    )


def round_overview(
    user: Any, tournament: Tournament, number: int | None = None
) -> dict[str, Any]:
    """Every party of the round the user referees: table, pairs, score, clock, penalties, alerts."""
    rnd = current_round(tournament, number)
    rows: list[dict[str, Any]] = []
    if rnd is not None:
        tables = permissions.referee_table_ids(user, tournament)
        parties = party_queryset().filter(round=rnd).order_by("table__number", "id")
        if tables is not None:
            parties = parties.filter(table_id__in=tables)
        for party in parties:
            state = summary(party)
            party_desk = desk(party)
            rows.append(
                {
                    **state,
                    "table": party.table_id,
                    "table_number": party.table.number if party.table else None,
                    "pairs": pairs_of(party),
                    **counts(list(party.penalties.all())),
                    "alerts": alerts(party, state["phase"], party_desk),
                }
            )
    return {
        "tournament": {"id": tournament.pk, "slug": tournament.slug, "name": tournament.name},
        "round": rnd.pk if rnd else None,
        "round_number": rnd.number if rnd else None,
        "round_numbers": list(
            tournament.rounds.exclude(status=Round.Status.DRAFT)
            .order_by("number")
            .values_list("number", flat=True)
        ),
        "parties": rows,
        "alert_count": sum(len(row["alerts"]) for row in rows),
    }
