"""The bracket partial (#35, templates/tournaments/_bracket.html) rendered from a BracketSheet:
a list of rounds, each a list of labelled matches; names, seeds, scores, winners and byes as a
reader and a screen reader meet them, in English and Russian."""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser

from django.template.loader import render_to_string
from django.utils import translation

from scoring.standings.bracket import PLAYING, sample_sheet
from tests.protocols.test_bracket_pdf import long_names


class Outline(HTMLParser):
    """The partial's outline: rounds and their matches, each match's label and its sides."""

    def __init__(self) -> None:
        super().__init__()
        self.rounds: list[dict] = []
        self.labels: dict[str, str] = {}
        self.stack: list[tuple[str, set[str]]] = []  # (tag, classes) of the open elements
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if "id" in found:
            self.ids.append(found["id"] or "")
        if "bracket-round" in classes:
            self.rounds.append({"name": "", "matches": []})
        if "bracket-card" in classes:
            target = self.rounds[-1]["matches"] if self.rounds else []
            target.append({"labelledby": found.get("aria-labelledby"), "role": found.get("role"),
                           "status": classes[1], "sides": [], "label": ""})
            self.card = target[-1]
        if "bracket-slot" in classes:
            self.card["sides"].append({"classes": classes, "text": ""})
        self.stack.append((tag, set(classes)))

    def handle_endtag(self, tag: str) -> None:
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        inside = set().union(*(classes for _tag, classes in self.stack))
        if "bracket-round" in inside and self.stack[-1][0] == "h3":
            self.rounds[-1]["name"] += data
        if "bracket-label" in inside and "muted" not in inside:
            self.card["label"] += data
        if "bracket-slot" in inside:
            self.card["sides"][-1]["text"] += data


def outline(sheet, language: str = "en") -> tuple[Outline, str]:
    """The partial rendered in ``language`` and read back."""
    with translation.override(language):
        html = render_to_string("tournaments/_bracket.html", {"sheet": sheet})
    parser = Outline()
    parser.feed(html)
    return parser, html


def words(text: str) -> str:
    return " ".join(text.split())


def test_eight_slots_every_round_every_match_labelled_with_its_sides():
    names = long_names(8)
    sheet = sample_sheet(8, names, decided_rounds=1, third_place=False)
    found, html = outline(sheet)
    assert [r["name"] for r in found.rounds] == ["Quarter-finals", "Semi-finals", "Final"]
    assert [len(r["matches"]) for r in found.rounds] == [4, 2, 1]
    for round_ in found.rounds:
        for match in round_["matches"]:
            assert match["role"] == "group" and match["labelledby"] in found.ids
    first = found.rounds[0]["matches"][0]
    assert first["label"] == "Quarter-finals 1" and first["status"] == "is-decided"
    # Seed 1 beat seed 8 2:1: the screen reader hears seed, name, score and "winner".
    assert words(first["sides"][0]["text"]) == f"seed 1 {names[0]} score 2 ✓ winner"
    assert words(first["sides"][1]["text"]) == f"seed 8 {names[7]} score 1"
    assert "won" in first["sides"][0]["classes"] and "won" not in first["sides"][1]["classes"]
    # The semi-finals are ready at their tables; the final waits for its sides.
    semi = found.rounds[1]["matches"][0]
    assert semi["status"] == "is-ready" and words(semi["sides"][0]["text"]) == f"seed 1 {names[0]}"
    assert 'href="/party/5/"' in html and "· Table 5" in html
    final = found.rounds[2]["matches"][0]
    assert [words(side["text"]) for side in final["sides"]] == ["— not known yet"] * 2
    assert len(set(found.ids)) == len(found.ids)  # every id once


def test_sixty_four_slots_with_byes_and_the_third_place_match():
    names = long_names(60)  # seeds 1-4 get byes
    sheet = sample_sheet(64, names, decided_rounds=6)
    found, html = outline(sheet)
    assert [len(r["matches"]) for r in found.rounds] == [32, 16, 8, 4, 2, 1 + 1]  # + third
    sides = [words(side["text"]) for r in found.rounds for m in r["matches"]
             for side in m["sides"]]
    assert sides.count("bye") == 4
    for name in names:
        assert any(name in side for side in sides), name
    winners = [side for r in found.rounds for m in r["matches"] for side in m["sides"]
               if "won" in side["classes"]]
    assert len(winners) == 64  # one a match, byes and the third place included
    final = found.rounds[-1]["matches"][0]
    assert words(final["sides"][0]["text"]).endswith("score 2 ✓ winner")
    third = found.rounds[-1]["matches"][1]  # drawn in the final's column, under the final
    assert third["label"] == "Third place" and third["labelledby"] == "bm-third"
    assert len(set(found.ids)) == len(found.ids)
    assert html.count('class="bracket-match"') == 63


def test_a_match_being_played_says_so_and_russian_words_come_from_the_catalogue():
    sheet = sample_sheet(8, long_names(6))
    first = sheet.rounds[0].matches[1]
    playing = dataclasses.replace(first, status=PLAYING)
    sheet.rounds[0].matches[1] = playing
    found, html = outline(sheet, "ru")
    assert words(found.rounds[0]["matches"][0]["sides"][1]["text"]) == "проход без игры"
    assert "идёт игра" in html and "Стол 2" in html
    assert words(found.rounds[0]["matches"][1]["sides"][0]["text"]).startswith("номер посева 4")
    assert "is-playing" in html
