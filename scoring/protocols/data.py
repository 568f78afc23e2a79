"""Plain data that a protocol PDF is rendered from.

Nothing here knows about Django: the caller (the Django layer, a test, the benchmark) fills
these frozen dataclasses with text that is already human-readable and already translated,
and the renderer only lays it out. Every caption printed on the PDF comes from
``ProtocolData.labels`` so the same renderer prints Russian, English or any other language.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: Every caption the renderer prints, in English. A caller's ``labels`` override these key by
#: key; a missing key falls back to the English caption.
DEFAULT_LABELS: dict[str, str] = {
    "title": "Party protocol",
    "blank_title": "Party protocol (paper)",
    "draft_title": "Party protocol (draft, not signed)",
    "tournament": "Tournament",
    "round": "Round",
    "table": "Table",
    "date": "Date",
    "start": "Start",
    "end": "End",
    "referee": "Referee",
    "version": "Version",
    "pair": "Pair",
    "seat": "Seat",
    "deals": "Deals",
    "deal_no": "#",
    "outcome": "Outcome",
    "points": "Points",
    "total": "Total",
    "note": "Note",
    "penalties": "Warnings, fines and rulings",
    "time": "Time",
    "side": "Pair",
    "player": "Player",
    "kind": "Kind",
    "reason": "Reason",
    "none": "None",
    "end_reason": "Party ended",
    "result": "Result",
    "match_points": "Match points",
    "winner": "Winner",
    "signatures": "Signatures",
    "role": "Role",
    "name": "Name",
    "signed_at": "Signed",
    "signature": "Signature",
    "not_signed": "not signed",
    "refused": "Refused",
    "verify": "Verify",
    "short_code": "Code",
    "public_id": "Protocol",
    "fingerprint": "Data SHA-256",
    "page": "Page",
    "of": "of",
    "continued": "continued",
    "game": "Game",
    "games": "Games",
    "game_wins": "Games won",
    "won": "won",
    "lost": "lost",
    "plays": "Scoring plays",
    "score": "Score",
    "players": "Players",
    "deal_points": "Deal",
    "account": "Account",
    "memorized": "Memorized",
    "memorized_short": "Mem.",
    "account_open": "Account open",
    "yes": "yes",
    "no": "no",
    "fines": "Fines",
    "goat": "Goat",
    "rating": "Rating",
    "not_open": "– : the account is not open yet; memorized points wait beside it.",
    "first_move": "First move (draw)",
}

#: The same captions in Russian, for callers that have no translation catalogue at hand.
RUSSIAN_LABELS: dict[str, str] = {
    "title": "Протокол партии",
    "blank_title": "Протокол партии (бумажный)",
    "draft_title": "Протокол партии (черновик, не подписан)",
    "tournament": "Турнир",
    "round": "Тур",
    "table": "Стол",
    "date": "Дата",
    "start": "Начало",
    "end": "Окончание",
    "referee": "Судья",
    "version": "Версия",
    "pair": "Пара",
    "seat": "Место",
    "deals": "Коны",
    "deal_no": "№",
    "outcome": "Итог",
    "points": "Очки",
    "total": "Сумма",
    "note": "Примечание",
    "penalties": "Предупреждения, штрафы и решения судьи",
    "time": "Время",
    "side": "Пара",
    "player": "Игрок",
    "kind": "Вид",
    "reason": "Причина",
    "none": "Нет",
    "end_reason": "Партия окончена",
    "result": "Счёт",
    "match_points": "Очки матча",
    "winner": "Победитель",
    "signatures": "Подписи",
    "role": "Роль",
    "name": "Имя",
    "signed_at": "Подписано",
    "signature": "Подпись",
    "not_signed": "не подписано",
    "refused": "Отказ",
    "verify": "Проверка",
    "short_code": "Код",
    "public_id": "Протокол",
    "fingerprint": "SHA-256 данных",
    "page": "Стр.",
    "of": "из",
    "continued": "продолжение",
    "game": "Игра",
    "games": "Игры",
    "game_wins": "Выиграно игр",
    "won": "выиграно",
    "lost": "проиграно",
    "plays": "Очки по ходу игры",
    "score": "Счёт",
    "players": "Игроки",
    "deal_points": "Кон",
    "account": "Запись",
    "memorized": "В уме",
    "memorized_short": "В уме",
    "account_open": "Запись открыта",
    "yes": "да",
    "no": "нет",
    "fines": "Штрафы",
    "goat": "Козёл",
    "rating": "Рейтинг",
    "not_open": "– : запись ещё не открыта; очки «в уме» указаны рядом.",
    "first_move": "Первый ход (жребий)",
}


def labels_for(language: str) -> dict[str, str]:
    """Return a fresh copy of the built-in captions for ``language`` (English if unknown)."""
    if language.lower().startswith("ru"):
        return dict(RUSSIAN_LABELS)
    return dict(DEFAULT_LABELS)


@dataclass(frozen=True)
class ProtocolPlayer:
    """A player of a pair as printed on the protocol."""

    name: str
    seat: str


@dataclass(frozen=True)
class ProtocolSide:
    """One of the two pairs (``key`` is ``"a"`` or ``"b"``) with its players."""

    key: Literal["a", "b"] | str
    name: str
    players: list[ProtocolPlayer]


@dataclass(frozen=True)
class ProtocolDeal:
    """One deal: how it ended (human text), each pair's points and the running totals.

    The games of RULES.md sections 2 and 3 add what their score cards hold: the ``game`` of a
    match (UDL, All Fives; ``running_a``/``running_b`` are then that game's score) with the
    hand's scoring ``plays`` as text; or, where every player scores for himself (Kozel, Draw,
    Block, Classic), the points per seat (``"a1"``, ``"b1"``, …) of the deal
    (``seat_points``) and after it (``seat_running``: the account, in Kozel), and in Kozel
    each player's ``memorized`` points and whether his account is ``opened``.
    """

    number: int
    outcome: str
    points_a: int
    points_b: int
    running_a: int
    running_b: int
    note: str = ""
    game: int | None = None
    plays: str = ""
    seat_points: dict[str, int] | None = None
    seat_running: dict[str, int] | None = None
    memorized: dict[str, int] | None = None
    opened: dict[str, bool] | None = None


@dataclass(frozen=True)
class ProtocolGame:
    """One game of a match (UDL, All Fives): its final score and its winner's name."""

    number: int
    points_a: int
    points_b: int
    winner: str = ""


@dataclass(frozen=True)
class ProtocolSeat:
    """A player of a game where each plays for himself (Kozel, Draw, Block, Classic).

    ``points`` count towards the end (Kozel: the account plus fines, towards the Goat);
    ``memorized``, ``opened`` and ``rating`` are Kozel's (None elsewhere); ``rating`` is
    given once the game is over.
    """

    seat: str
    name: str
    points: int
    fines: int = 0
    memorized: int | None = None
    opened: bool | None = None
    rating: int | None = None
    goat: bool = False
    winner: bool = False


@dataclass(frozen=True)
class ProtocolPenalty:
    """A warning, fine or ruling recorded by the referee (all text already human)."""

    time: str
    side: str
    player: str
    kind: str
    points: int
    reason: str


@dataclass(frozen=True)
class ProtocolSignature:
    """A signature line: who signs in which role, and when (or the recorded refusal)."""

    role: str
    name: str
    signed_at: str | None
    refused_reason: str | None = None


@dataclass(frozen=True)
class ProtocolData:
    """Everything printed on one party's protocol.

    ``verify_url`` and ``short_code`` only lead to the verification page and ``labels`` and
    ``language`` only choose captions, so none of them is part of the data fingerprint.
    """

    tournament: str
    round_number: int
    table: str
    date: str
    start_time: str
    end_time: str
    referee: str
    sides: list[ProtocolSide]
    deals: list[ProtocolDeal]
    penalties: list[ProtocolPenalty]
    end_reason: str
    result: str
    match_points: str
    winner: str
    signatures: list[ProtocolSignature]
    public_id: str
    short_code: str
    verify_url: str
    version: int = 1
    labels: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_LABELS))
    language: str = "en"
    layout: str = ""
    """How the deals are laid out: "" two sides (sport domino, Latin pairs), ``GAMES``,
    ``SEATS`` or ``KOZEL``."""
    games: list[ProtocolGame] = field(default_factory=list)
    game_wins: str = ""
    seats: list[ProtocolSeat] = field(default_factory=list)
    goat: str = ""
    first_move: str = ""
    """Who won the start-of-party draw for the first move ("A1 · name"), if recorded."""

    def label(self, key: str) -> str:
        """Return the caption for ``key``: the caller's, else the English default."""
        value = self.labels.get(key)
        if value is None:
            return DEFAULT_LABELS.get(key, key)
        return value

    def side(self, key: str) -> ProtocolSide | None:
        """Return the side with ``key`` (``"a"`` or ``"b"``), or ``None``."""
        for side in self.sides:
            if side.key == key:
                return side
        return None


#: ``ProtocolData.layout`` of a match of games (UDL, All Fives) ...
GAMES = "games"
#: ... of a game where every player scores for himself (Draw, Block, Classic) ...
SEATS = "seats"
#: ... and of Kozel (per-player accounts with memorized points, the Goat).
KOZEL = "kozel"

#: The fields added for the games of RULES.md sections 2 and 3, with their empty values: the
#: fingerprint leaves them out while empty, so a sport protocol's fingerprint is unchanged.
EXTENSION_FIELDS: dict[str, tuple[str, ...]] = {
    "protocol": ("layout", "games", "game_wins", "seats", "goat", "first_move"),
    "deal": ("game", "plays", "seat_points", "seat_running", "memorized", "opened"),
}


#: The values ``dataclasses.asdict`` keeps as they are (its deep copy of them is themselves).
_ATOMS = frozenset({str, int, float, bool, type(None)})
#: A dataclass's field names, by class, read once.
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def protocol_payload(data: DataclassInstance) -> dict[str, Any]:
    """``dataclasses.asdict(data)`` of ``ProtocolData`` (the stored snapshot and what the
    fingerprint hashes) or of one of its parts (a signature line).

    The same dict, built without ``asdict``'s generic walk and a ``copy.deepcopy`` call per
    string and number (two thirds of its time on a protocol of 25 deals).
    """
    payload: dict[str, Any] = _plain(data)  # a dataclass gives a dict of its fields
    return payload


def _plain(value: Any) -> Any:
    """``value`` as ``dataclasses.asdict`` gives it (lists stay lists, tuples tuples)."""
    cls = type(value)
    if cls in _ATOMS:
        return value
    if cls is list:
        return [_plain(item) for item in value]
    if cls is dict:
        return {_plain(key): _plain(item) for key, item in value.items()}
    names = _FIELD_NAMES.get(cls)
    if names is None and dataclasses.is_dataclass(cls):
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if cls is tuple:
        return tuple(_plain(item) for item in value)
    return copy.deepcopy(value)  # nothing else is in protocol data; asdict copies it too


def protocol_data_from_dict(values: Mapping[str, Any]) -> ProtocolData:
    """Rebuild ``ProtocolData`` from ``dataclasses.asdict`` output (a stored snapshot)."""
    values = dict(values)
    values["games"] = [ProtocolGame(**game) for game in values.get("games") or []]
    values["seats"] = [ProtocolSeat(**seat) for seat in values.get("seats") or []]
    values["sides"] = [
        ProtocolSide(side["key"], side["name"], [ProtocolPlayer(**p) for p in side["players"]])
        for side in values["sides"]
    ]
    values["deals"] = [ProtocolDeal(**deal) for deal in values["deals"]]
    values["penalties"] = [ProtocolPenalty(**penalty) for penalty in values["penalties"]]
    values["signatures"] = [ProtocolSignature(**sig) for sig in values["signatures"]]
    return ProtocolData(**values)
