"""Referee services, one module per job: the clock, penalties, rulings, UDL violations,
undo and staffing.

``from referee import services; services.give_warning(...)`` keeps working: the public names
of every module are exported here.
"""

from referee.services.clock import (
    ROUND_STARTED_AT,
    check_in,
    explain_pause,
    finish_party,
    forfeit_party,
    mark_game_time_expired,
    mark_time_expired,
    no_show_due_at,
    pause_clock,
    raise_no_show,
    resume_clock,
    start_party,
)
from referee.services.common import SIDES, deal_in_play, desk_of
from referee.services.first_move import record_first_mover
from referee.services.penalties import (
    WARNING_CATEGORIES,
    PenaltyTarget,
    active_warnings,
    cancel_penalty,
    give_fine,
    give_warning,
    next_warning,
)
from referee.services.redeal import rule_redeal
from referee.services.rulings import (
    disqualify,
    rule_false_pass,
    rule_no_show,
    rule_out_of_turn,
    rule_touched_tile,
)
from referee.services.staffing import (
    assign_referee,
    penalty_preset,
    referee_settings,
    save_referee_settings,
)
from referee.services.timeouts import rule_player_timeout
from referee.services.udl import rule_udl_violation
from referee.services.undo import (
    UNDO_RECORDS,
    undo_action,
    undo_offer,
    undo_refusal,
    undo_seconds,
)

__all__ = [
    "ROUND_STARTED_AT",
    "SIDES",
    "UNDO_RECORDS",
    "WARNING_CATEGORIES",
    "PenaltyTarget",
    "active_warnings",
    "assign_referee",
    "cancel_penalty",
    "check_in",
    "deal_in_play",
    "desk_of",
    "disqualify",
    "explain_pause",
    "finish_party",
    "forfeit_party",
    "give_fine",
    "give_warning",
    "mark_game_time_expired",
    "mark_time_expired",
    "next_warning",
    "no_show_due_at",
    "pause_clock",
    "penalty_preset",
    "raise_no_show",
    "referee_settings",
    "resume_clock",
    "rule_false_pass",
    "record_first_mover",
    "rule_no_show",
    "rule_player_timeout",
    "rule_out_of_turn",
    "rule_redeal",
    "rule_touched_tile",
    "rule_udl_violation",
    "save_referee_settings",
    "start_party",
    "undo_action",
    "undo_offer",
    "undo_refusal",
    "undo_seconds",
]
