"""Round printing: one fresh PDF with a (blank or filled) protocol per table."""

from __future__ import annotations

import dataclasses
import re

from scoring.protocols import render_batch, render_blank, verify_pdf
from scoring.protocols.sample import sample_protocol

from .conftest import page_count, pdf_text


def test_batch_has_one_page_per_protocol_and_reports_progress(tmp_path):
    items = [sample_protocol(table) for table in range(1, 8)]
    seen = []
    pdf = render_batch(items, progress=lambda done, total: seen.append((done, total)))
    assert page_count(pdf) == 7
    assert seen == [(n, 7) for n in range(1, 8)]
    for number, data in enumerate(items, start=1):
        page = pdf_text(pdf, tmp_path, first=number, last=number)
        assert f"Стол {data.table}" in page
        assert data.sides[0].players[0].name in page
        assert data.result in re.sub(r"\s+", " ", page)


def test_long_protocol_in_batch_takes_several_pages(tmp_path):
    items = [sample_protocol(1), sample_protocol(2, deals=120, penalties=30), sample_protocol(3)]
    pdf = render_batch(items)
    assert page_count(pdf) >= 5
    text = pdf_text(pdf, tmp_path)
    assert text.count("Стр. 1 из 1") == 2  # the two normal protocols


def test_blank_print_has_one_page_per_table(tmp_path):
    items = [sample_protocol(table) for table in range(1, 13)]
    pdf = render_batch(items, blank=True)
    assert page_count(pdf) == 12
    for number, data in enumerate(items, start=1):
        page = pdf_text(pdf, tmp_path, first=number, last=number)
        assert "Протокол партии (бумажный)" in page
        assert f"Стол {data.table}" in page
        for side in data.sides:
            assert side.name in page
            for player in side.players:
                assert player.name in page
        assert data.tournament in page


def test_blank_protocol_is_prefilled_with_an_empty_deal_grid(tmp_path):
    data = sample_protocol(9)
    pdf = render_blank(data)
    assert page_count(pdf) == 1
    text = pdf_text(pdf, tmp_path)
    numbers = {int(n) for n in re.findall(r"^\s*(\d+)\s*(?:\d+)?\s*$", text, re.MULTILINE)}
    assert set(range(1, 49)) <= numbers | {int(n) for n in re.findall(r"\b(\d{1,2})\b", text)}
    assert "Тур 3" in text and "Стол 9" in text
    assert data.referee in text
    # nothing of the played party leaks onto the blank form
    assert data.result not in text
    assert data.deals[0].outcome not in text
    assert "Подписано" not in text


def test_blank_signature_lines_list_players_and_referee(tmp_path):
    data = sample_protocol(4)
    text = pdf_text(render_blank(data), tmp_path)
    for signature in data.signatures:
        assert signature.name in text


def test_signed_batch_verifies(signer, cert_path):
    pdf = signer.sign(render_batch([sample_protocol(t) for t in range(1, 21)]))
    assert page_count(pdf) == 20
    assert verify_pdf(pdf, cert_path).ok


def test_blank_without_link_or_referee_still_prints(tmp_path):
    data = dataclasses.replace(sample_protocol(2), verify_url="", short_code="", referee="",
                               signatures=[])
    pdf = render_blank(data)
    assert page_count(pdf) == 1
    text = pdf_text(pdf, tmp_path)
    for side in data.sides:
        for player in side.players:
            assert player.name in text  # signature lines derived from the pairs
    assert "Судья" in text


def test_empty_batch_is_a_valid_pdf():
    assert page_count(render_batch([])) == 1
