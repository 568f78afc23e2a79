"""The organizer's tournament page: links grouped by stage, the event's next step the one
highlighted button (never "Manage rounds" before there are pairs), a clear edit link per pair,
and the tournament named on each of its pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.registration.services import add_table, register_pair, register_player
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh(organizer):
    return create_tournament(name="Кубок шагов", slug="steps-cup", organizer=organizer)


def _page(client, tournament) -> str:
    return client.get(tournament.get_absolute_url()).content.decode()


def _primary(html: str) -> list[str]:
    return re.findall(r'<a class="button primary" href="([^"]*)"[^>]*>([^<]*)</a>', html)


def _groups(html: str) -> list[str]:
    return re.findall(r'<section class="manage-group"[^>]*>\s*<h2[^>]*>([^<]*)</h2>', html)


def _fill(tournament, pairs: int = 2) -> None:
    for k in range(pairs):
        first = register_player(tournament, name=f"Игрок {2 * k + 1}")
        second = register_player(tournament, name=f"Игрок {2 * k + 2}")
        register_pair(tournament, first, second)


def test_groups_by_stage(client, organizer, fresh):
    client.force_login(organizer)
    assert _groups(_page(client, fresh)) == ["Set-up", "Rounds", "Results", "Printing", "Data"]


def test_next_step_follows_the_event(client, organizer, fresh):
    client.force_login(organizer)
    slug = fresh.slug
    # no pairs yet: register them (Manage rounds is not highlighted)
    html = _page(client, fresh)
    assert "Register the pairs." in html
    assert set(_primary(html)) == {(reverse("tournaments:pair_create", args=[slug]), "Add pair")}
    _fill(fresh)
    html = _page(client, fresh)
    assert "Number the tables of the hall." in html
    assert {label for _url, label in _primary(html)} == {"Add tables"}
    add_table(fresh, 1)
    html = _page(client, fresh)
    assert {label for _url, label in _primary(html)} == {"Manage rounds"}
    rnd = rounds.create_round(fresh.pk, actor=organizer)
    html = _page(client, fresh)
    assert set(_primary(html)) == {(rnd.get_absolute_url(), "Open Round 1"),
                                   (rnd.get_absolute_url(), "Round 1")}
    assert "Protocols of Round 1" in html  # printing: the round's protocols


def test_individual_tournament_asks_for_players(client, organizer):
    solo = create_tournament(name="Личный", slug="solo-steps", organizer=organizer,
                             format="individual")
    client.force_login(organizer)
    html = _page(client, solo)
    assert {label for _url, label in _primary(html)} == {"Add player"}
    assert "Add pair" not in html


def test_each_pair_has_a_clear_edit_link(client, organizer, fresh):
    _fill(fresh, pairs=1)
    pair = fresh.pairs.get()
    client.force_login(organizer)
    html = _page(client, fresh)
    url = reverse("tournaments:pair_edit", args=[fresh.slug, pair.pk])
    assert re.search(rf'<a class="button" href="{url}">Edit<span class="sr-only"> '
                     rf'{re.escape(pair.display_name)}</span></a>', html)


def test_spectators_get_no_organizer_links(client, fresh):
    html = _page(client, fresh)
    assert "next-step" not in html and "manage-group" not in html
    assert "Export: standings, results, deals" in html


@pytest.mark.parametrize("page", ["rounds", "standings", "results", "current_draw"])
def test_every_page_of_the_tournament_names_it(client, organizer, fresh, page):
    client.force_login(organizer)
    html = client.get(reverse(f"tournaments:{page}", args=[fresh.slug])).content.decode()
    assert f'<p class="crumbs"><a href="{fresh.get_absolute_url()}">Кубок шагов</a></p>' in html


def test_the_draws_seed_is_called_its_random_number_in_russian():
    """«Зерно» said nothing to an organizer: the seed is the draw's random number."""
    from pathlib import Path

    from django.utils import translation

    from tournaments.rounds.forms import GenerateDrawForm

    with translation.override("ru"):
        label = str(GenerateDrawForm().fields["seed"].label)
        shown = translation.gettext("Seed of the draw: %(seed)s") % {"seed": 42}
    assert label == "Случайное число жеребьёвки (необязательно)"
    assert shown == "Случайное число жеребьёвки: 42"
    catalogue = Path(__file__).resolve().parents[2] / "locale" / "ru" / "LC_MESSAGES"
    assert "зерно" not in (catalogue / "django.po").read_text(encoding="utf-8").lower()
