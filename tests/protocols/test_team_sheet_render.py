"""The team match sheet's layout without a database: every name whole, however long."""

from __future__ import annotations

import re

from scoring.protocols import ProtocolSignature, verify_pdf
from scoring.protocols.team_sheet import (
    SheetBoard,
    SheetTeam,
    TeamSheetData,
    render_team_sheet,
    team_sheet_labels,
)
from tests.protocols.conftest import pdf_text

LONG = "Александра Константинопольская-Щербатова"
HUGE = "Пётр " + "Константинопольский-Щербатов-Святополк-Четвертинский-Голенищев-Кутузов"
TOURNAMENT = ("Кубок Москвы по спортивному домино среди клубов и сборных команд регионов "
              "Российской Федерации, посвящённый Дню города")


def _sheet(boards: int = 4) -> TeamSheetData:
    rows = [SheetBoard(board=1 + k % 2, half=1 + k // 2, table=str(5 + k % 2),
                       pair_a=f"{LONG} / {HUGE}", pair_b=f"Иван Петров / {LONG}",
                       points_a="240", points_b="60", fines_a="−25", fines_b="0",
                       winner="a", winner_name="Сборная", protocol="протокол не подписан")
            for k in range(boards)]
    return TeamSheetData(
        tournament=TOURNAMENT, round_number=3, date="2026-12-05", tables="5–6",
        team_a=SheetTeam("Сборная Санкт-Петербурга и Ленинградской области", "Нева", LONG),
        team_b=SheetTeam("Казанские дуплеты", "", ""), boards=rows, scoring="очки матча",
        score="2 : 0", parties_won="4 : 0", points="960 : 240", winner="Сборная",
        signatures=[ProtocolSignature("Капитан команды A", HUGE, "2026-12-05 14:00"),
                    ProtocolSignature("Капитан команды B", "", None),
                    ProtocolSignature("Судья", "", None)],
        public_id="0f" * 16, version=1, labels=team_sheet_labels("ru"), language="ru")


def test_every_character_of_every_name_is_printed(tmp_path):
    pdf = render_team_sheet(_sheet(), "a" * 64)
    text = pdf_text(pdf, tmp_path, layout=False)
    flat = re.sub(r"\s+", " ", text)
    assert LONG in flat and TOURNAMENT in flat  # broken at spaces only
    assert "…" not in text  # nothing cut short
    # a word wider than its column is broken after its hyphens, never shortened (the layout
    # text keeps the hyphens at the ends of lines)
    laid_out = pdf_text(pdf, tmp_path)
    pieces = [re.sub(r"\s+", "", line) for line in laid_out.splitlines()
              if "Константинопольский" in line or "Четвертинский" in line][:2]
    assert "".join(pieces).endswith(HUGE.replace(" ", ""))
    assert flat.count("Пётр") == 5  # four boards and the captain's line


def test_same_data_same_bytes_and_a_draft_says_so(tmp_path, cert_path):
    data = _sheet(2)
    assert render_team_sheet(data, invariant=True) == render_team_sheet(data, invariant=True)
    draft = render_team_sheet(data, draft=True)
    assert "черновик" in pdf_text(draft, tmp_path, layout=False)
    assert not verify_pdf(draft, cert_path).ok


def test_the_installation_signer_signs_a_sheet(signer, cert_path):
    signed = signer.sign(render_team_sheet(_sheet(2), "b" * 64))
    result = verify_pdf(signed, cert_path)
    assert result.ok and result.signature_count == 1
