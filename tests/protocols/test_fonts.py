"""The shipped font covers the names players actually have."""

from __future__ import annotations

from pathlib import Path

from scoring.protocols import missing_glyphs
from scoring.protocols.fonts import FONT_DIR
from scoring.protocols.sample import _FIRST, _LAST

RUSSIAN = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя"
UKRAINIAN_BELARUSIAN = "ҐЄІЇЎґєіїў’"
SERBIAN_MACEDONIAN_KAZAKH = "ЂЃЅЈЉЊЋЌЏђѓѕјљњћќџӘҒҚҢӨҰҮҺәғқңөұүһ"
LATIN = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
         "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿ"
         "ĀāĂăĄąĆćČčĎďĐđĒēĘęĚěĞğĪīİıŁłŃńŇňŌōŐőŒœŘřŚśŞşŠšŢţŤťŪūŮůŰűŸŹźŻżŽžȘșȚț")
PUNCTUATION = "0123456789 -–—'’.,:;()/№«»…·"
NAMES = ["Иван Петров", "Ёлкин Щукин", "José Müller", "Łukasz Dvořák", "Zoë Øster",
         "Şükrü Yılmaz", "Σωκράτης Παπαδόπουλος"]


def test_every_cyrillic_and_latin_character_has_a_glyph():
    for alphabet in (RUSSIAN, UKRAINIAN_BELARUSIAN, SERBIAN_MACEDONIAN_KAZAKH, LATIN,
                     PUNCTUATION):
        assert missing_glyphs(alphabet) == set(), alphabet


def test_every_name_has_a_glyph():
    for name in NAMES + _FIRST + _LAST:
        assert missing_glyphs(name) == set(), name


def test_missing_glyphs_reports_what_would_print_as_boxes():
    assert missing_glyphs("Иван 李小龍") == {"李", "小", "龍"}
    assert missing_glyphs("\t\n ") == set()


def test_font_files_and_licence_are_shipped():
    assert (FONT_DIR / "DejaVuSans.ttf").stat().st_size > 500_000
    assert (FONT_DIR / "DejaVuSans-Bold.ttf").stat().st_size > 500_000
    licence = Path(FONT_DIR / "DEJAVU-LICENSE.txt").read_text()
    assert "Bitstream Vera" in licence and "Permission is hereby granted" in licence
