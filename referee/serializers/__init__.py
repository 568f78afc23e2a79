"""What the referee desk sends and gets back: desk actions (inputs) and output shapes.

``inputs`` (shared fields, base inputs, the page forms' shape), ``deals`` (the one deal
entry and correction stack), ``clock`` (the clock and table actions), ``actions`` (undo,
penalties, rulings, every action by name), ``outputs`` (the party's state and an action's
result), ``resources`` (the event log, the desk's settings and roles) and ``records``; the
names the API, the pages and the schema settings use are exported here.
"""

from referee.serializers.actions import (
    PARTY_ACTIONS,
    CancelPenaltyInput,
    FineInput,
    MoveAdviceInput,
    MoveAdviceSerializer,
)
from referee.serializers.deals import (
    AnnulDealInput,
    CorrectDealInput,
    DealFields,
    DealInput,
    TilesPreviewInput,
    winner_and_went_out,
)
from referee.serializers.inputs import (
    DEAL_ENTRY_OUTCOMES,
    PREVIEW_OUTCOMES,
    SEAT_CHOICES,
    SIDE_CHOICES,
    UDL_VIOLATION_CHOICES,
    WARNING_CATEGORY_CHOICES,
    ActionInput,
    CreatingInput,
    PlaysField,
    form_data,
    parse_plays,
)
from referee.serializers.outputs import (
    ActionResultSerializer,
    OverviewSerializer,
    PartyStateSerializer,
    TilesPreviewSerializer,
)
from referee.serializers.records import (
    DealRecordSerializer,
    PenaltyRecordSerializer,
    RulingRecordSerializer,
    record_data,
    represent,
)
from referee.serializers.resources import (
    EventSerializer,
    RefereeRoleSerializer,
    RefereeSettingsSerializer,
)

__all__ = [
    "DEAL_ENTRY_OUTCOMES",
    "PARTY_ACTIONS",
    "PREVIEW_OUTCOMES",
    "SEAT_CHOICES",
    "SIDE_CHOICES",
    "UDL_VIOLATION_CHOICES",
    "WARNING_CATEGORY_CHOICES",
    "ActionInput",
    "ActionResultSerializer",
    "AnnulDealInput",
    "CancelPenaltyInput",
    "CorrectDealInput",
    "CreatingInput",
    "DealFields",
    "DealRecordSerializer",
    "PenaltyRecordSerializer",
    "RulingRecordSerializer",
    "DealInput",
    "EventSerializer",
    "FineInput",
    "MoveAdviceInput",
    "MoveAdviceSerializer",
    "OverviewSerializer",
    "PartyStateSerializer",
    "PlaysField",
    "RefereeRoleSerializer",
    "RefereeSettingsSerializer",
    "TilesPreviewInput",
    "TilesPreviewSerializer",
    "form_data",
    "parse_plays",
    "record_data",
    "represent",
    "winner_and_went_out",
]
