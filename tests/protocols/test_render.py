"""Rendering the protocol PDF: text content, fonts, layout, fingerprint, determinism."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import unicodedata

import segno

from scoring.protocols import (
    DEFAULT_LABELS,
    ProtocolData,
    ProtocolDeal,
    ProtocolPenalty,
    ProtocolPlayer,
    ProtocolSide,
    ProtocolSignature,
    labels_for,
    protocol_fingerprint,
    render_protocol,
)
from scoring.protocols.qr import qr_rectangles
from scoring.protocols.sample import sample_protocol

from .conftest import page_count, pdf_text

NAMES = ["Иван Петров", "Ёлкин Щукин", "José Müller", "Zoë Łęcka-Dvořák"]


def make_protocol(deals: int = 30, penalties: int = 10, **overrides) -> ProtocolData:
    """A Russian-language protocol with the four NAMES and predictable points."""
    rows = []
    run_a = run_b = 0
    for n in range(1, deals + 1):
        a, b = (n * 7 % 60, 0) if n % 3 else (0, n * 11 % 55 + 5)
        run_a += a
        run_b += b
        rows.append(ProtocolDeal(n, "Рыба" if n % 5 == 0 else "Домино", a, b, run_a, run_b))
    fines = [
        ProtocolPenalty(f"10:{10 + i:02d}", "A" if i % 2 else "B", NAMES[i % 4],
                        "Штраф" if i % 2 else "Предупреждение", -40 if i % 2 else 0,
                        f"Ход не в очередь, случай {i + 1}")
        for i in range(penalties)
    ]
    values = dict(
        tournament="Кубок города по спортивному домино",
        round_number=4, table="17", date="2025-05-17", start_time="10:00", end_time="10:52",
        referee="Сергей Судейкин",
        sides=[
            ProtocolSide("a", "Петров / Müller", [ProtocolPlayer(NAMES[0], "N"),
                                                   ProtocolPlayer(NAMES[2], "S")]),
            ProtocolSide("b", "Щукин / Łęcka", [ProtocolPlayer(NAMES[1], "E"),
                                                 ProtocolPlayer(NAMES[3], "W")]),
        ],
        deals=rows, penalties=fines, end_reason="Набрано 101 очко",
        result=f"{run_a} : {run_b}", match_points="2 : 0", winner="Петров / Müller",
        signatures=[ProtocolSignature("Игрок", name, f"2025-05-17 10:5{i}")
                    for i, name in enumerate(NAMES)]
        + [ProtocolSignature("Судья", "Сергей Судейкин", None, refused_reason=None)],
        public_id="7f3a9c0e5b2d4e61a8c9d0e1f2a3b4c5", short_code="K7M2-Q9XD",
        verify_url="https://domino.example.org/v/7f3a9c0e5b2d4e61a8c9d0e1f2a3b4c5",
        version=2, labels=labels_for("ru"), language="ru",
    )
    values.update(overrides)
    return ProtocolData(**values)


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_text_has_names_every_deal_and_totals(tmp_path):
    data = make_protocol()
    pdf = render_protocol(data)
    text = pdf_text(pdf, tmp_path)
    flat = _squash(text)
    for name in NAMES:
        assert name in flat, name
    for deal in data.deals:
        row = re.compile(
            rf"^\s*{deal.number}\s+{deal.outcome}\s+{deal.points_a}\s+{deal.points_b}"
            rf"\s+{deal.running_a}\s+{deal.running_b}\s*$", re.MULTILINE)
        assert row.search(text), f"deal {deal.number} row missing or wrong"
    assert data.result in flat
    last = data.deals[-1]
    assert f"{last.running_a} : {last.running_b}" in flat
    assert "Очки матча 2 : 0" in flat
    assert "Набрано 101 очко" in flat
    assert protocol_fingerprint(data) in flat  # the whole fingerprint, not truncated
    assert data.short_code in flat
    assert "Протокол партии" in flat and "Тур 4" in flat and "Стол 17" in flat


def test_penalties_and_signatures_are_printed(tmp_path):
    data = make_protocol()
    flat = _squash(pdf_text(render_protocol(data), tmp_path))
    for penalty in data.penalties:
        assert penalty.reason in flat
        assert penalty.time in flat
    assert "Подписано 2025-05-17 10:50" in flat
    assert "не подписано" in flat  # the referee has not signed yet in this data


def test_refusal_is_printed(tmp_path):
    data = make_protocol(signatures=[
        ProtocolSignature("Игрок", NAMES[0], "2025-05-17 10:55",
                          refused_reason="Не согласен со штрафом"),
    ])
    flat = _squash(pdf_text(render_protocol(data), tmp_path))
    assert "Отказ: Не согласен со штрафом" in flat


def test_normal_party_fits_one_a4_page(tmp_path):
    pdf = render_protocol(make_protocol(deals=30, penalties=10))
    assert page_count(pdf) == 1
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True).stdout
    assert b"x 841.89 pts (A4)" in info


def test_long_party_continues_on_more_pages_with_every_deal(tmp_path):
    data = make_protocol(deals=130, penalties=35)
    pdf = render_protocol(data)
    pages = page_count(pdf)
    assert pages >= 3
    text = pdf_text(pdf, tmp_path)
    for deal in data.deals:
        assert re.search(rf"^\s*{deal.number}\s+\S+\s+{deal.points_a}\s+{deal.points_b}"
                         rf"\s+{deal.running_a}\s+{deal.running_b}\s*$", text, re.MULTILINE)
    assert f"Стр. {pages} из {pages}" in text
    second = pdf_text(pdf, tmp_path, first=2, last=2)
    assert "(продолжение)" in second
    assert "Очки A" in second  # the table header is repeated on the continuation page


def test_long_note_and_reason_wrap_instead_of_disappearing(tmp_path):
    reason = ("Игрок положил камень не в очередь, после чего партнёр подсказал ход; "
              "судья зафиксировал нарушение и назначил штраф согласно регламенту")
    data = make_protocol(penalties=0)
    data = dataclasses.replace(data, penalties=[
        ProtocolPenalty("10:30", "A", NAMES[0], "Штраф", -80, reason)])
    flat = _squash(pdf_text(render_protocol(data), tmp_path))
    assert "назначил штраф согласно регламенту" in flat


def test_english_labels_by_default(tmp_path):
    data = sample_protocol(3, language="en")
    flat = _squash(pdf_text(render_protocol(data), tmp_path))
    assert "Party protocol" in flat
    assert "Warnings, fines and rulings" in flat
    assert "Match points" in flat


def test_missing_label_falls_back_to_english(tmp_path):
    labels = labels_for("ru")
    del labels["match_points"]
    flat = _squash(pdf_text(render_protocol(make_protocol(labels=labels)), tmp_path))
    assert DEFAULT_LABELS["match_points"] in flat


def test_only_embedded_dejavu_fonts_are_used(tmp_path):
    source = tmp_path / "fonts.pdf"
    source.write_bytes(render_protocol(make_protocol()))
    out = subprocess.run(["pdffonts", str(source)], capture_output=True, text=True,
                         check=True).stdout
    rows = out.splitlines()[2:]
    assert rows, out
    for row in rows:
        assert "DejaVuSans" in row, row
        columns = row.split()
        assert columns[-5] == "yes", f"font not embedded: {row}"  # emb column


def test_fingerprint_is_stable_and_tracks_the_data():
    data = make_protocol()
    assert protocol_fingerprint(data) == protocol_fingerprint(make_protocol())
    assert re.fullmatch(r"[0-9a-f]{64}", protocol_fingerprint(data))

    deals = list(data.deals)
    deals[5] = dataclasses.replace(deals[5], points_a=deals[5].points_a + 5)
    assert protocol_fingerprint(dataclasses.replace(data, deals=deals)) != \
        protocol_fingerprint(data)
    assert protocol_fingerprint(dataclasses.replace(data, version=3)) != \
        protocol_fingerprint(data)
    signatures = list(data.signatures)
    signatures[0] = dataclasses.replace(signatures[0], signed_at="2025-05-17 11:00")
    assert protocol_fingerprint(dataclasses.replace(data, signatures=signatures)) != \
        protocol_fingerprint(data)


def test_fingerprint_ignores_link_code_and_captions_but_not_unicode_form():
    data = make_protocol()
    same = dataclasses.replace(data, verify_url="https://other.example/x", short_code="ZZZ",
                               labels=dict(DEFAULT_LABELS), language="en")
    assert protocol_fingerprint(same) == protocol_fingerprint(data)
    # "Ёлкин" typed with a combining diaeresis is the same name.
    decomposed = unicodedata.normalize("NFD", "Ёлкин Щукин")
    assert decomposed != "Ёлкин Щукин"
    sides = [data.sides[0], dataclasses.replace(data.sides[1], players=[
        ProtocolPlayer(decomposed, "E"), data.sides[1].players[1]])]
    assert protocol_fingerprint(dataclasses.replace(data, sides=sides)) == \
        protocol_fingerprint(data)


def test_invariant_rendering_is_byte_identical():
    one = render_protocol(make_protocol(), invariant=True)
    two = render_protocol(make_protocol(), invariant=True)
    assert one == two
    other = render_protocol(make_protocol(result="1 : 0"), invariant=True)
    assert other != one


def test_pdf_metadata_carries_protocol_identity():
    data = make_protocol()
    pdf = render_protocol(data)
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True,
                          ).stdout.decode()
    assert f"protocol={data.public_id} version=2 sha256={protocol_fingerprint(data)}" in info
    assert "Протокол партии" in info  # title


def test_qr_rectangles_cover_exactly_the_dark_modules():
    qr = segno.make("https://domino.example.org/v/7f3a9c0e5b2d4e61a8c9d0e1f2a3b4c5",
                    error="m", micro=False, mask=2)
    matrix = qr.matrix
    n = len(matrix)
    painted = [[0] * n for _ in range(n)]
    rects = qr_rectangles(matrix)
    for col, row, width, height in rects:
        for r in range(row, row + height):
            for c in range(col, col + width):
                assert painted[r][c] == 0, "rectangles overlap"
                painted[r][c] = 1
    assert painted == [[1 if v else 0 for v in line] for line in matrix]
    runs = sum(1 for line in matrix for c in range(n) if line[c] and (c == 0 or not line[c - 1]))
    assert len(rects) < runs  # vertical merging actually merges


def test_empty_party_renders(tmp_path):
    data = make_protocol(deals=0, penalties=0, signatures=[])
    pdf = render_protocol(data)
    assert page_count(pdf) == 1
    flat = _squash(pdf_text(pdf, tmp_path))
    assert "Нет" in flat  # "no penalties"


def test_pdf_special_characters_survive(tmp_path):
    data = make_protocol(deals=3, penalties=0)
    deals = list(data.deals)
    deals[1] = dataclasses.replace(deals[1], note=r"Заход (6:6) \ дубль «пусто»")
    flat = _squash(pdf_text(render_protocol(dataclasses.replace(data, deals=deals)), tmp_path))
    assert r"Заход (6:6) \ дубль «пусто»" in flat
