"""The team match sheet's data: its captions (English, Russian), the teams, boards and sheet."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .data import ProtocolSignature, labels_for
from .fingerprint import payload_fingerprint

__all__ = [
    "RUSSIAN_TEAM_SHEET_LABELS",
    "TEAM_SHEET_LABELS",
    "SheetBoard",
    "SheetTeam",
    "TeamSheetData",
    "team_sheet_data_from_dict",
    "team_sheet_fingerprint",
    "team_sheet_labels",
]

#: The sheet's own captions (the protocol's serve for the rest: round, date, table…).
TEAM_SHEET_LABELS = {
    "sheet_title": "Team match sheet",
    "sheet_draft_title": "Team match sheet (draft, not signed)",
    "pair": "Pairs",
    "team_a": "Team A",
    "team_b": "Team B",
    "club": "Club",
    "country": "Country",
    "captain": "Captain",
    "board": "Board",
    "half": "Half",
    "tables": "Tables",
    "fines_short": "Fines",
    "boards": "Boards",
    "team_score": "Team score",
    "parties_won": "Parties won",
    "points_total": "Points over the boards",
    "scoring": "Counted by",
    "protocols": "Party protocols",
    "captain_a": "Captain of team A",
    "captain_b": "Captain of team B",
    "draw": "Drawn",
    "public_id": "Sheet",
}
RUSSIAN_TEAM_SHEET_LABELS = {
    "sheet_title": "Протокол командного матча",
    "sheet_draft_title": "Протокол командного матча (черновик, не подписан)",
    "pair": "Пары",
    "team_a": "Команда A",
    "team_b": "Команда B",
    "club": "Клуб",
    "country": "Страна",
    "captain": "Капитан",
    "board": "Доска",
    "half": "Тайм",
    "tables": "Столы",
    "fines_short": "Штрафы",
    "boards": "Доски",
    "team_score": "Счёт матча",
    "parties_won": "Выиграно партий",
    "points_total": "Очки по доскам",
    "scoring": "Зачёт",
    "protocols": "Протоколы партий",
    "captain_a": "Капитан команды A",
    "captain_b": "Капитан команды B",
    "draw": "Ничья",
    "public_id": "Протокол матча",
}


def team_sheet_labels(language: str) -> dict[str, str]:
    """The protocol's captions and the sheet's own in ``language`` (English if unknown)."""
    own = RUSSIAN_TEAM_SHEET_LABELS if language.lower().startswith("ru") else TEAM_SHEET_LABELS
    return {**labels_for(language), **own}


@dataclass(frozen=True)
class SheetTeam:
    """A team as the sheet names it: its name, club, captain and country."""

    name: str
    club: str = ""
    captain: str = ""
    country: str = ""


@dataclass(frozen=True)
class SheetBoard:
    """One party of the match: its board, half and table, the two pairs (each team's, its
    players' names "X / Y"), each side's points and fines (as printed: ``−25``), the winning
    side and team's name, and what its protocol says of signing."""

    board: int
    half: int
    table: str
    pair_a: str
    pair_b: str
    points_a: str
    points_b: str
    fines_a: str
    fines_b: str
    winner: str
    """``"a"`` or ``"b"`` (the team whose pair won), "" for none."""
    winner_name: str
    protocol: str


@dataclass(frozen=True)
class TeamSheetData:
    """Everything printed on one team match's sheet (``labels`` and ``language`` only choose
    captions and are not part of the fingerprint)."""

    tournament: str
    round_number: int
    date: str
    tables: str
    team_a: SheetTeam
    team_b: SheetTeam
    boards: list[SheetBoard]
    scoring: str
    score: str
    parties_won: str
    points: str
    winner: str
    signatures: list[ProtocolSignature]
    public_id: str = ""
    version: int = 1
    short_code: str = ""
    verify_url: str = ""
    labels: dict[str, str] = field(default_factory=lambda: team_sheet_labels("en"))
    language: str = "en"

    def label(self, key: str) -> str:
        """Return the caption for ``key`` (the key itself when it has none)."""
        return self.labels.get(key) or team_sheet_labels("en").get(key, key)


def team_sheet_data_from_dict(values: Mapping[str, Any]) -> TeamSheetData:
    """Rebuild ``TeamSheetData`` from its ``protocol_payload`` (a stored snapshot)."""
    values = dict(values)
    values["team_a"] = SheetTeam(**values["team_a"])
    values["team_b"] = SheetTeam(**values["team_b"])
    values["boards"] = [SheetBoard(**board) for board in values["boards"]]
    values["signatures"] = [ProtocolSignature(**line) for line in values["signatures"]]
    return TeamSheetData(**values)


def team_sheet_fingerprint(payload: dict[str, Any]) -> str:
    """The SHA-256 of the sheet's canonical data (its ``protocol_payload``), as printed."""
    return payload_fingerprint(payload)
