"""The permission matrix: every write operation of the API × every role, with data present.

Each row is one operation on a record of our tournament, sent with a valid body, while another
tournament's records are present too. A role that may act gets 2xx, or 400 when the party's
state refuses the action (distinct from a refusal of the user); every other role is refused
with 403 (401/404 are never the answer here: the tournament is public) and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

ROLES = (
    "anonymous",
    "player",
    "party_player",
    "foreign_referee",
    "referee",
    "chief",
    "foreign_organizer",
    "organizer",
)
ORGANIZER = frozenset({"organizer"})
CHIEF = frozenset({"chief", "organizer"})
REFEREES = frozenset({"referee", "chief", "organizer"})
ORGANIZERS = frozenset({"organizer", "foreign_organizer"})
EVERYONE = frozenset(ROLES)


@dataclass(frozen=True)
class Op:
    """One write operation: its path, the record it acts on, a valid body and who may."""

    method: str
    path: str
    allowed: frozenset[str]
    ok: int
    target: Callable[[Any], Any] = lambda w: None
    body: Callable[[Any], Any] = lambda w: {}
    multipart: bool = False
    refused: int = 403
    special: dict[str, int] = field(default_factory=dict)

    def expected(self, role: str) -> int:
        """The status the role gets."""
        if role in self.special:
            return self.special[role]
        return self.ok if role in self.allowed else self.refused


def _tournament_body(w: Any) -> dict[str, Any]:
    """A whole tournament, as PUT wants it."""
    from tournaments.api import TournamentSerializer

    data = dict(TournamentSerializer(w.tournament).data)
    data.pop("id")
    data["end_date"] = None
    return {**data, "venue": "Дворец спорта"}


def _regulations_body(w: Any) -> dict[str, Any]:
    """The whole regulations, as PUT wants them, with a new target."""
    from tournaments.api import RegulationsSerializer

    return {**RegulationsSerializer(w.tournament.regulations).data, "target": 250}


def _roster(w: Any) -> dict[str, Any]:
    """A one-player CSV roster checked without importing."""
    csv = "name,club\nНовый Игрок,Клуб\n".encode()
    return {"file": SimpleUploadedFile("roster.csv", csv, "text/csv"), "dry_run": "true"}


PARTY = "/api/v1/parties/{}/"
ROUND = "/api/v1/rounds/{}/"


def _party(w: Any) -> Any:
    return w.field.party.pk


def _round(w: Any) -> Any:
    return w.field.party.round_id


def _side_a(w: Any) -> Any:
    return w.field.party.pair_a.player1_id


def _webhook(w: Any) -> Any:
    """Our organizer's webhook (made on first use)."""
    from scoring.models import WebhookSubscription

    return WebhookSubscription.objects.get_or_create(
        tournament=w.tournament, url="http://93.184.215.14/in",
        defaults={"events": ["round.closed"], "created_by": w.users["organizer"]})[0]


def _delivery(w: Any) -> Any:
    """A delivery of our organizer's webhook (written, not sent: no commit in the test)."""
    from scoring.models import WebhookDelivery

    webhook = _webhook(w)
    delivery = WebhookDelivery.objects.get_or_create(
        subscription=webhook, sequence=1, defaults={"event": "round.closed"})[0]
    webhook.last_sequence = 1
    webhook.save(update_fields=["last_sequence"])
    return delivery.pk


DEAL_BODY = {"outcome": "domino", "side": "a", "seat": "a1", "points": {"a": 30, "b": 0}}

OPS = [
    Op("POST", "/api/v1/auth/token/", frozenset(), 400,
       body=lambda w: {"username": "org", "password": "wrong"}, refused=400),
    Op("POST", "/api/v1/tournaments/", ORGANIZERS, 201,
       body=lambda w: {"name": "Новый кубок", "slug": "new-cup"}),
    Op("PUT", "/api/v1/tournaments/{}/", ORGANIZER, 200, lambda w: w.tournament.pk,
       _tournament_body),
    Op("PATCH", "/api/v1/tournaments/{}/", ORGANIZER, 200, lambda w: w.tournament.pk,
       lambda w: {"venue": "Зал"}),
    Op("PUT", "/api/v1/tournaments/{}/regulations/", ORGANIZER, 200, lambda w: w.tournament.pk,
       _regulations_body),
    Op("PATCH", "/api/v1/tournaments/{}/regulations/", ORGANIZER, 200, lambda w: w.tournament.pk,
       lambda w: {"target": 300}),
    Op("POST", "/api/v1/tournaments/{}/import/", ORGANIZER, 200, lambda w: w.tournament.pk,
       _roster, multipart=True),
    Op("POST", "/api/v1/players/", ORGANIZER, 201,
       body=lambda w: {"tournament": w.tournament.pk, "name": "Новичок"}),
    Op("PUT", "/api/v1/players/{}/", ORGANIZER, 200, lambda w: w.free[0].pk,
       lambda w: {"name": "Новое имя", "club": "Клуб"}),
    Op("PATCH", "/api/v1/players/{}/", ORGANIZER, 200, lambda w: w.free[0].pk,
       lambda w: {"rating": 1500}),
    Op("DELETE", "/api/v1/players/{}/", ORGANIZER, 204, lambda w: w.free[0].pk),
    Op("POST", "/api/v1/players/{}/withdraw/", ORGANIZER, 200, lambda w: w.free[0].pk,
       lambda w: {"withdrawn": True}),
    Op("POST", "/api/v1/pairs/", ORGANIZER, 201,
       body=lambda w: {"tournament": w.tournament.pk, "player1": w.free[0].pk,
                       "player2": w.free[1].pk}),
    Op("PUT", "/api/v1/pairs/{}/", ORGANIZER, 200, lambda w: w.spare_pair.pk,
       lambda w: {"player1": w.spare_pair.player1_id, "player2": w.spare_pair.player2_id,
                  "name": "Дуэт"}),
    Op("PATCH", "/api/v1/pairs/{}/", ORGANIZER, 200, lambda w: w.spare_pair.pk,
       lambda w: {"name": "Дуэт"}),
    Op("DELETE", "/api/v1/pairs/{}/", ORGANIZER, 204, lambda w: w.spare_pair.pk),
    Op("POST", "/api/v1/pairs/{}/withdraw/", ORGANIZER, 200, lambda w: w.spare_pair.pk,
       lambda w: {"withdrawn": True}),
    Op("POST", "/api/v1/tables/", ORGANIZER, 201,
       body=lambda w: {"tournament": w.tournament.pk, "number": 9}),
    Op("PUT", "/api/v1/tables/{}/", ORGANIZER, 200, lambda w: w.spare_table.pk,
       lambda w: {"number": 10, "label": "У окна"}),
    Op("PATCH", "/api/v1/tables/{}/", ORGANIZER, 200, lambda w: w.spare_table.pk,
       lambda w: {"label": "У окна"}),
    Op("DELETE", "/api/v1/tables/{}/", ORGANIZER, 204, lambda w: w.spare_table.pk),
    Op("POST", "/api/v1/rounds/", ORGANIZER, 400, body=lambda w: {"tournament": w.tournament.pk}),
    Op("DELETE", ROUND, ORGANIZER, 400, _round),
    # The round has started: its scheduled start is refused by its state (400).
    Op("PATCH", ROUND, ORGANIZER, 400, _round,
       lambda w: {"scheduled_start": "2026-05-01T10:00:00+03:00"}),
    Op("PUT", ROUND + "draw/", ORGANIZER, 400, _round,
       lambda w: {"parties": [{"table": 1, "a": w.field.party.pair_a_id,
                               "b": w.field.party.pair_b_id}]}),
    Op("POST", ROUND + "generate/", ORGANIZER, 400, _round, lambda w: {"seed": 1}),
    Op("POST", ROUND + "swap/", ORGANIZER, 400, _round, lambda w: {"first": 1, "second": 2}),
    Op("POST", ROUND + "publish/", ORGANIZER, 400, _round),
    Op("POST", ROUND + "start/", ORGANIZER, 400, _round),
    Op("POST", ROUND + "close/", ORGANIZER, 400, _round),
    Op("POST", PARTY + "start/", REFEREES, 400, _party),
    Op("POST", PARTY + "pause/", REFEREES, 200, _party, lambda w: {"reason": "Перерыв"}),
    # The clock runs: there is no pause to explain (refused by the party's state).
    Op("POST", PARTY + "pause-reason/", REFEREES, 400, _party, lambda w: {"reason": "Врач"}),
    Op("POST", PARTY + "resume/", REFEREES, 400, _party),
    Op("POST", PARTY + "time-up/", REFEREES, 200, _party),
    Op("POST", PARTY + "game-time-up/", REFEREES, 400, _party),  # sport domino: no game clock
    Op("POST", PARTY + "finish/", REFEREES, 400, _party),
    Op("POST", PARTY + "check-in/", REFEREES, 200, _party, lambda w: {"side": "a"}),
    Op("POST", PARTY + "deal/", REFEREES, 201, _party, lambda w: DEAL_BODY),
    Op("POST", PARTY + "warning/", REFEREES, 201, _party,
       lambda w: {"side": "b", "category": "signs"}),
    Op("POST", PARTY + "fine/", REFEREES, 201, _party,
       lambda w: {"side": "b", "category": "signs"}),
    Op("POST", PARTY + "out-of-turn/", REFEREES, 201, _party,
       lambda w: {"seat": "a1", "choice": "continue", "tile": "3-5"}),
    Op("POST", PARTY + "false-pass/", REFEREES, 201, _party, lambda w: {"seat": "b1"}),
    # A sport-domino party: the UDL ruling is refused by its state (400), not by the role.
    Op("POST", PARTY + "udl-violation/", REFEREES, 400, _party,
       lambda w: {"seat": "a1", "violation": "slow_play"}),
    Op("POST", PARTY + "touched-tile/", REFEREES, 201, _party,
       lambda w: {"seat": "a2", "fits": True, "tile": "2-4"}),
    Op("POST", PARTY + "no-show/", REFEREES, 400, _party, lambda w: {"side": "b"}),
    Op("POST", PARTY + "disqualify/", REFEREES, 201, _party,
       lambda w: {"side": "b", "scope": "party", "reason": "Грубость"}),
    # A sport-domino party: a player's timeout is Kozel's ruling, refused by the game (400).
    Op("POST", PARTY + "player-timeout/", REFEREES, 400, _party, lambda w: {"seat": "b1"}),
    # The party has its deal 1: the draw for the first move is refused by its state (400).
    Op("POST", PARTY + "first-mover/", REFEREES, 400, _party, lambda w: {"seat": "b1"}),
    # The referee who gave the warning takes it back; another referee may not (400: refused
    # by the rule of the undo, not by the role).
    Op("POST", PARTY + "undo/", REFEREES, 200, _party,
       lambda w: {"record": "penalty", "id": w.field.penalty.pk},
       special={"chief": 400, "organizer": 400}),
    Op("POST", PARTY + "move-advice/", REFEREES, 200, _party, lambda w: {"hand": ["3-5"]}),
    Op("POST", PARTY + "tiles-preview/", REFEREES, 200, _party,
       lambda w: {"tiles": {"a1": ["3-5"], "a2": [], "b1": ["6-6"], "b2": []}}),
    Op("POST", "/api/v1/deals/{}/correct/", REFEREES, 200, lambda w: w.field.deal.pk,
       lambda w: {**DEAL_BODY, "points": {"a": 40, "b": 0}, "reason": "Опечатка"}),
    Op("POST", "/api/v1/deals/{}/annul/", REFEREES, 200, lambda w: w.field.deal.pk,
       lambda w: {"reason": "Опечатка"}),
    Op("POST", "/api/v1/penalties/{}/cancel/", REFEREES, 200,
       lambda w: w.field.penalty.pk, lambda w: {"reason": "Ошибка"}),
    Op("POST", "/api/v1/referee/tournaments/{}/referees/", ORGANIZER, 201,
       lambda w: w.tournament.pk, lambda w: {"username": "spare", "role": "referee"}),
    Op("PUT", "/api/v1/referee/tournaments/{}/referee-settings/", ORGANIZER, 200,
       lambda w: w.tournament.pk, lambda w: {"slow_play_points": 10}),
    Op("DELETE", "/api/v1/referee/roles/{}/", ORGANIZER, 204, lambda w: w.referee_role.pk),
    Op("POST", "/api/v1/party-protocols/{}/sign/", frozenset({"party_player"}), 400, _party,
       lambda w: {"player": _side_a(w)}),
    Op("POST", "/api/v1/party-protocols/{}/refuse/", REFEREES, 400, _party,
       lambda w: {"player": _side_a(w), "reason": "Не согласен"}),
    Op("POST", "/api/v1/party-protocols/{}/countersign/", REFEREES, 400, _party),
    Op("POST", "/api/v1/print-jobs/", REFEREES, 202,
       body=lambda w: {"round": _round(w), "kind": "blank"}),
    Op("POST", "/api/v1/webhooks/", ORGANIZER, 201,
       body=lambda w: {"tournament": w.tournament.pk, "url": "http://93.184.215.14/hook",
                       "events": ["party.finished"]}),
    Op("PATCH", "/api/v1/webhooks/{}/", ORGANIZER, 200, lambda w: _webhook(w).pk,
       lambda w: {"active": False}),
    Op("DELETE", "/api/v1/webhooks/{}/", ORGANIZER, 204, lambda w: _webhook(w).pk),
    Op("POST", "/api/v1/webhook-deliveries/{}/replay/", ORGANIZER, 201, _delivery),
    Op("POST", "/api/v1/signing-pins/", frozenset({"party_player", "organizer"}), 204,
       body=lambda w: {"player": _side_a(w), "pin": "4321"}),
]


@dataclass
class World:
    """Our tournament with its records and the users of every role."""

    field: Any
    users: dict[str, Any]
    free: list[Any]
    spare_pair: Any
    spare_table: Any
    referee_role: Any

    @property
    def tournament(self) -> Any:
        """Our tournament."""
        return self.field.tournament


@pytest.fixture
def world(field, organizer, referee_user, make_user) -> World:
    """Users of every role; free players, a pair and a table no party uses."""
    from scoring.models import Pair, Player, TournamentRole

    t = field.tournament
    party_player = field.party.pair_a.player1
    party_player.user = make_user("party-player")
    party_player.save()
    spare_pair = t.pairs.exclude(pk__in=[field.party.pair_a_id, field.party.pair_b_id]).last()
    bystander = t.pairs.exclude(pk__in=[field.party.pair_a_id, field.party.pair_b_id]).first()
    player = bystander.player1
    player.user = make_user("player")
    player.save()
    chief = make_user("chief")
    TournamentRole.objects.create(tournament=t, user=chief, role="chief")
    make_user("spare")
    free = [Player.objects.create(tournament=t, name=f"Свободный {k}") for k in range(2)]
    assert not Pair.objects.filter(player1__in=free).exists()
    users = {
        "anonymous": None,
        "player": player.user,
        "party_player": party_player.user,
        "foreign_referee": TournamentRole.objects.get(user__username="other-ref").user,
        "referee": referee_user,
        "chief": chief,
        "foreign_organizer": TournamentRole.objects.get(
            tournament=field.other, role="organizer").user,
        "organizer": organizer,
    }
    referee_role = TournamentRole.objects.get(tournament=t, user=referee_user)
    return World(field, users, free, spare_pair, t.tables.get(number=4), referee_role)


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row an API write could touch."""
    from django.apps import apps

    skip = {"sessions.session", "authtoken.token", "scoring.idempotencykey"}
    return {
        model._meta.label_lower: list(model.objects.order_by("pk").values())
        for config in apps.get_app_configs()
        if config.name in {"tournaments", "scoring", "referee"}
        for model in config.get_models()
        if model._meta.label_lower not in skip
    }


def _schema_write_operations() -> set[tuple[str, str]]:
    """(method, path) of every POST/PUT/PATCH/DELETE operation in the OpenAPI schema."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    return {
        (method.upper(), path.replace("{id}", "{}"))
        for path, operations in paths.items()
        for method in operations
        if method.upper() in {"POST", "PUT", "PATCH", "DELETE"}
    }


def test_the_matrix_covers_every_write_operation() -> None:
    """Every write operation of the schema is a row of the matrix, and no row is stale."""
    assert {(op.method, op.path) for op in OPS} == _schema_write_operations()


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("op", OPS, ids=lambda op: f"{op.method} {op.path}")
def test_permission_matrix(op: Op, role: str, world: World) -> None:
    """The role gets the expected status; a refused request changes nothing."""
    client = APIClient()
    user = world.users[role]
    if user is not None:
        client.force_authenticate(user)
    target = op.target(world)
    url = op.path.format(target) if target is not None else op.path
    before = snapshot()
    send = getattr(client, op.method.lower())
    response = send(url, op.body(world), format="multipart" if op.multipart else "json")
    expected = op.expected(role)
    assert response.status_code == expected, (role, response.status_code, response.content[:300])
    if expected >= 400:
        assert snapshot() == before
