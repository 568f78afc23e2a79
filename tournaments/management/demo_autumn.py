"""The demo's second sport-domino tournament: last autumn's small cup, finished, played by
eight of the Double-Six Cup's players, so that one person's profile gathers two tournaments
(and seasons and rating lists have two events to show)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from typing import Any

from referee import services as referee_services
from scoring.models import Party, Tournament
from scoring.party import deals as scoring_services
from scoring.signoff.demo import demo_profile, sign_demo_protocols
from tournaments.registration.services import add_table, register_pair, register_player
from tournaments.rounds import draw_services
from tournaments.rounds import services as rounds
from tournaments.setup.services import create_tournament

AUTUMN_SLUG = "autumn-cup"
#: How many of the Double-Six Cup's players (the first ones, logins player01 …) play it.
AUTUMN_PLAYERS = 8


def build_autumn_cup(command: Any, names: list[str], clubs: list[str],
                     deal: Callable[[random.Random], dict[str, Any]]) -> Tournament:
    """Four pairs at two tables, three Swiss rounds played through, the tournament finished."""
    rng = random.Random(20251018)
    organizer = command.demo_organizer()
    tournament = create_tournament(
        name="Осенний кубок 2025 · Autumn Cup", slug=AUTUMN_SLUG, organizer=organizer,
        venue="Дом культуры «Домино»", city="Москва", status=Tournament.Status.RUNNING,
        start_date=dt.date(2025, 10, 18), end_date=dt.date(2025, 10, 18))
    tournament.regulations.rounds_planned = 3
    tournament.regulations.save(update_fields=["rounds_planned"])
    referee, second_referee = command.demo_referees(tournament)
    for number in (1, 2):
        add_table(tournament, number)
    players = []
    for i, name in enumerate(names[:AUTUMN_PLAYERS], start=1):
        first, _sep, last = name.partition(" ")
        user = command.demo_user(f"player{i:02d}", first, last)
        club = clubs[(i - 1) // 6 % len(clubs)]
        players.append(register_player(
            tournament, name=name, club=club, city="Москва", rating=1500 - i * 10, user=user,
            profile=demo_profile(user, name, club, "Москва")))
    for k in range(AUTUMN_PLAYERS // 2):
        register_pair(tournament, players[2 * k], players[2 * k + 1])
    for _number in (1, 2, 3):
        rnd = rounds.create_round(tournament.pk, actor=organizer)
        draw_services.generate_draw(rnd.pk, actor=organizer)
        rounds.publish_round(rnd.pk, actor=organizer)
        parties = Party.objects.filter(round=rnd, pair_b__isnull=False).order_by("table__number")
        for i, party in enumerate(parties):
            actor = referee if i % 2 == 0 else second_referee
            referee_services.start_party(party.pk, actor=actor)
            for _n in range(60):
                if Party.objects.filter(pk=party.pk, status=Party.Status.FINISHED).exists():
                    break
                scoring_services.record_deal(party.pk, actor=actor, **deal(rng))
        rounds.close_round(rnd.pk, actor=organizer)
    sign_demo_protocols(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()
    return tournament


SEASON_SLUG = "club-season"
RATING_SLUG = "club-rating"


def build_season_and_rating(organizer: Any, slugs: list[str]) -> None:
    """The demo's club season (points by place) and club rating list (Glicko-2) over the sport
    demo and last autumn's cup, made anew: the same people in both, so the season table, the
    rating list and their records have something to show."""
    from scoring.models import RatingList, Season
    from scoring.ranking.rating_lists import save_rating_list
    from tournaments.ranking.season_services import create_season

    tournaments = list(Tournament.objects.filter(slug__in=slugs))
    Season.objects.filter(slug=SEASON_SLUG).delete()
    RatingList.objects.filter(slug=RATING_SLUG).delete()
    create_season(actor=organizer, tournaments=tournaments, name="Клубный сезон · Club season",
                  slug=SEASON_SLUG, scoring=Season.Scoring.PLACE_POINTS,
                  place_points=[10, 8, 6, 5, 4, 3, 2, 1])
    save_rating_list(actor=organizer, tournaments=tournaments,
                     name="Рейтинг клуба · Club rating", slug=RATING_SLUG,
                     system=RatingList.System.GLICKO2)
