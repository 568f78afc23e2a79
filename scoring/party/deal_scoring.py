"""A deal's score: the engine's facts from request values, scored, and put on the deal's row."""

from __future__ import annotations

from scoring.core.errors import translate_engine_error
from scoring.models import Deal, Party
from scoring.rules import DealFacts, DealScore, RuleError, by_party_side, get_rule_set


def score_deal(party: Party, facts: DealFacts) -> DealScore:
    """Score a deal with the tournament's rule set; engine errors become service errors."""
    tournament = party.round.tournament
    try:
        return get_rule_set(tournament.rule_set).score_deal(
            facts, tournament.regulations.rules_config()
        )
    except RuleError as exc:
        raise translate_engine_error(exc) from exc


def deal_facts(
    outcome: str,
    winner: str | None,
    went_out: str | None,
    pips: dict[str, int] | None,
    points: dict[str, int] | None,
    *,
    tiles: dict[str, list] | None = None,
    plays: list | None = None,
    led: str | None = None,
    game: int = 1,
) -> DealFacts:
    """Build the engine's deal facts from request values (empty strings mean none)."""
    return DealFacts(
        outcome=outcome,
        winner=winner or None,
        went_out=went_out or None,
        pips=pips or None,
        points=points or None,
        tiles=tiles or None,
        plays=plays or None,
        led=led or None,
        game=game,
    )


def store_score(deal: Deal, score: DealScore) -> None:
    """Put a deal's score on the row: per engine side, summed per party side, the carry."""
    points = by_party_side(score.points)
    deal.outcome = score.outcome
    deal.winner = score.winner or ""
    deal.points_a = points["a"]
    deal.points_b = points["b"]
    deal.scores = None if set(score.points) <= {"a", "b"} else dict(score.points)
    deal.carry = score.carry
    deal.play_points = score.play_points
    deal.game = score.game
