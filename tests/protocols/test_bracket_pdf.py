"""The bracket PDF for the wall (#35): 16, 32 and 64 slots on one landscape page, A3 and A4,
every long Russian name printed whole with its seed and score, the third-place match, byes."""

from __future__ import annotations

import subprocess

import pytest

from scoring.protocols.bracket_pdf import RUSSIAN_LABELS, bracket_pdf
from scoring.standings.bracket import sample_sheet

from .conftest import page_count

FIRST = ["Вячеслав", "Александра", "Константин", "Евгения", "Святослав", "Анастасия",
         "Владимир", "Екатерина"]
LAST = ["Преображенский-Задунайский", "Константинопольская", "Верхнеднепровский",
        "Голенищева-Кутузова", "Рождественский", "Воскресенская", "Мухоморов", "Ли"]


def long_names(count: int) -> list[str]:
    """``count`` distinct pairs with long real-looking Russian names, the longest first."""
    names = ["Вячеслав Преображенский-Задунайский / Александра Константинопольская"]
    for index in range(1, count):
        one = f"{FIRST[index % 8]} {LAST[index // 8 % 8]}"
        two = f"{FIRST[(index + 3) % 8]} {LAST[(index * 3 + 1) % 8]}"
        names.append(f"{one} / {two}")
    assert len(set(names)) == count
    return names


def pdf_words(pdf: bytes, tmp_path) -> str:
    """The PDF's text in drawing order (pdftotext -raw), every run of whitespace one space:
    a name broken over lines reads whole again."""
    source = tmp_path / "bracket.pdf"
    source.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(source), "-"],
                          capture_output=True, text=True, check=True).stdout
    return " ".join(text.split())


@pytest.mark.parametrize("page", ["A3", "A4"])
@pytest.mark.parametrize("slots", [16, 32, 64])
def test_every_name_is_printed_whole_on_one_page(tmp_path, slots, page):
    names = long_names(slots)
    sheet = sample_sheet(slots, names, title="Кубок города — финалы",
                         subtitle="Плей-офф после пяти туров по швейцарской системе")
    pdf = bracket_pdf(sheet, page)
    assert page_count(pdf) == 1
    text = pdf_words(pdf, tmp_path)
    for name in names:
        assert name in text, name
    assert "…" not in text
    assert "Кубок города — финалы" in text
    for round_ in sheet.rounds:
        assert round_.name in text


@pytest.mark.parametrize("page", ["A3", "A4"])
def test_seeds_scores_winners_third_place_and_byes(tmp_path, page):
    names = long_names(13)  # 16 slots: seeds 1-3 get byes
    sheet = sample_sheet(16, names, decided_rounds=4)
    text = pdf_words(bracket_pdf(sheet, page), tmp_path)
    assert text.count("bye") == 3
    # Each side is read as seed, name, score: seed 4 beats seed 13 2:1 in the first round.
    assert f"4 {names[3]} 2 13 {names[12]} 1" in text
    # The final (seed 1 beats seed 2); for third place the semi-finals' losers in order,
    # seed 4 then seed 3 (who wins).
    assert f"Final 1 {names[0]} 2 2 {names[1]} 1" in text
    assert f"Third place 4 {names[3]} 1 3 {names[2]} 2" in text


def test_waiting_matches_name_their_table_and_labels_come_translated(tmp_path):
    sheet = sample_sheet(8, long_names(6))
    text = pdf_words(bracket_pdf(sheet, "A4", labels=RUSSIAN_LABELS), tmp_path)
    assert text.count("проход без игры") == 2
    assert "Quarter-finals 2 · стол 2" in text


def test_only_the_embedded_dejavu_fonts_are_used(tmp_path):
    source = tmp_path / "bracket.pdf"
    source.write_bytes(bracket_pdf(sample_sheet(32, long_names(32), decided_rounds=2)))
    rows = subprocess.run(["pdffonts", str(source)], capture_output=True, text=True,
                          check=True).stdout.splitlines()[2:]
    assert len(rows) == 2  # regular and bold
    for row in rows:
        assert "DejaVuSans" in row and row.split()[-5] == "yes", row


def test_the_same_sheet_gives_the_same_bytes_and_an_unknown_page_is_refused():
    sheet = sample_sheet(8, long_names(8), decided_rounds=1)
    assert bracket_pdf(sheet, invariant=True) == bracket_pdf(sheet, invariant=True)
    with pytest.raises(ValueError):
        bracket_pdf(sheet, "Letter")
