"""The permission matrix: every write path of the site, pages and API, × every role.

Each row is one action on a record of our tournament while another tournament's records are
present too. The API rows send a valid body: a role that may act gets 2xx, or 400 when the
party's state refuses the action (distinct from a refusal of the user); every other role is
refused with 403 (401/404 are never the answer here: the tournament is public) and nothing
changes. The page rows post the page's form: a role that may act passes (the page answers,
redirects back or shows the form's error), every other role is refused (403/404, or the login
page for an anonymous visitor) and nothing changes. A page row names its API twin, and the two
must decide alike for every role: 0 mismatches. The write paths are read from the URL
resolver: a new one without a row (or a place among the read-only pages) fails the test.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from rest_framework.test import APIClient

ROLES = (
    "anonymous",
    "party_player",
    "player",
    "referee",
    "other_referee",
    "foreign_referee",
    "chief",
    "organizer",
    "foreign_organizer",
    "unrelated_organizer",
    "superuser",
)
"""``party_player`` plays in the party, ``player`` in another party; ``referee`` recorded the
party's deal and warning, ``other_referee`` referees the same tournament (every table);
``foreign_*`` hold their role in the other tournament; ``unrelated_organizer`` organizes a
hidden tournament of his own, unrelated to ours, with a throwaway profile in it (the profile
takeover of issue #33). Our organizer also has a hidden tournament with a real player in it: his
login, his results, his birth year and federation id (what could leak)."""
ORGANIZER = frozenset({"organizer", "superuser"})
CHIEF = ORGANIZER | {"chief"}
RECORDER = CHIEF | {"referee"}
REFEREES = RECORDER | {"other_referee"}
ORGANIZERS = ORGANIZER | {"foreign_organizer", "unrelated_organizer"}
STAFF = frozenset({"superuser"})
EVERYONE = frozenset(ROLES)
LOGGED_IN = EVERYONE - {"anonymous"}


@dataclass(frozen=True)
class Op:
    """One write operation: its path, the record it acts on, a valid body and who may."""

    method: str
    path: str
    allowed: frozenset[str]
    ok: int
    target: Callable[[Any], Any] = lambda w: None
    body: Callable[[Any], Any] = lambda w: {}
    multipart: bool = False
    refused: int = 403
    special: dict[str, int] = field(default_factory=dict)
    case: str = ""
    """Names a second row of the same operation (other records, other roles allowed)."""

    @property
    def key(self) -> str:
        """The row's name: ``"METHOD /path/"`` and its case, if any."""
        return f"{self.method} {self.path}" + (f" ({self.case})" if self.case else "")

    def expected(self, role: str) -> int:
        """The status the role gets."""
        if role in self.special:
            return self.special[role]
        return self.ok if role in self.allowed else self.refused


def _tournament_body(w: Any) -> dict[str, Any]:
    """A whole tournament, as PUT wants it."""
    from tournaments.api import TournamentSerializer

    data = dict(TournamentSerializer(w.tournament).data)
    data.pop("id")
    data["end_date"] = None
    return {**data, "venue": "Дворец спорта"}


def _regulations_body(w: Any) -> dict[str, Any]:
    """The whole regulations, as PUT wants them, with a new target."""
    from tournaments.api import RegulationsSerializer

    return {**RegulationsSerializer(w.tournament.regulations).data, "target": 250}


def _roster(w: Any) -> dict[str, Any]:
    """A one-player CSV roster checked without importing."""
    csv = "name,club\nНовый Игрок,Клуб\n".encode()
    return {"file": SimpleUploadedFile("roster.csv", csv, "text/csv"), "dry_run": "true"}


PARTY = "/api/v1/parties/{}/"
ROUND = "/api/v1/rounds/{}/"


def _party(w: Any) -> Any:
    return w.field.party.pk


def _round(w: Any) -> Any:
    return w.field.party.round_id


def _side_a(w: Any) -> Any:
    return w.field.party.pair_a.player1_id


def _team_match(w: Any) -> Any:
    """A team match of two teams in the party's round (made on first use)."""
    from scoring.models import Team, TeamMatch

    a = Team.objects.get_or_create(tournament=w.tournament, name="Команда А")[0]
    b = Team.objects.get_or_create(tournament=w.tournament, name="Команда Б")[0]
    return TeamMatch.objects.get_or_create(round_id=w.field.party.round_id, team_a=a,
                                           team_b=b)[0].pk


def _sheet_match(w: Any) -> Any:
    """That team match with our party as its board 1: team A is the party's pair A, whose
    first player captains it, so that he alone signs its sheet for his team."""
    from scoring.models import Pair, Party, Team, TeamMatch

    found = TeamMatch.objects.get(pk=_team_match(w))
    party = w.field.party
    Team.objects.filter(pk=found.team_a_id).update(captain=party.pair_a.player1)
    Pair.objects.filter(pk=party.pair_a_id).update(team=found.team_a_id)
    Pair.objects.filter(pk=party.pair_b_id).update(team=found.team_b_id)
    Party.objects.filter(pk=party.pk).update(team_match=found, board=1)
    return found


def _sheet(w: Any, action: str = "") -> str:
    """The address of our team match's sheet (``action``: ``sign/``, ``countersign/``)."""
    return f"/t/{w.tournament.slug}/team-matches/{_sheet_match(w).pk}/sheet/{action}"


def _webhook(w: Any) -> Any:
    """Our organizer's webhook (made on first use)."""
    from scoring.models import WebhookSubscription

    return WebhookSubscription.objects.get_or_create(
        tournament=w.tournament, url="http://93.184.215.14/in",
        defaults={"events": ["round.closed"], "created_by": w.users["organizer"]})[0]


def _checkin_window(w: Any) -> Any:
    """Our tournament's check-in window before round 9, open now (made on first use)."""
    from datetime import timedelta

    from django.utils import timezone

    from scoring.models import CheckInWindow

    now = timezone.now()
    return CheckInWindow.objects.get_or_create(
        tournament=w.tournament, round_number=9,
        defaults={"opens_at": now - timedelta(minutes=1), "closes_at": now + timedelta(hours=1)})[0]


def _checkin(w: Any) -> int:
    """The spare pair's check-in (ticked off on first use)."""
    from scoring.models import CheckIn

    return CheckIn.objects.get_or_create(window=_checkin_window(w), pair=w.spare_pair,
                                         defaults={"how": "organizer"})[0].pk


def _window_body(w: Any) -> dict[str, Any]:
    """A new check-in window before round 7 of our tournament."""
    from datetime import timedelta

    from django.utils import timezone

    return {"tournament": w.tournament.pk, "round_number": 7,
            "closes_at": (timezone.now() + timedelta(hours=1)).isoformat()}


def _window_form(w: Any) -> dict[str, Any]:
    """The organizer's form opening a window before round 7 (local times)."""
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.localtime()
    return {"round_number": 7, "opens_at": now.strftime("%Y-%m-%dT%H:%M"),
            "closes_at": (now + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")}


def _card(w: Any) -> str:
    """The spare pair's check-in card (a signed token) for our window."""
    from tournaments.checkin.tokens import entrant_token

    return f"/t/{_slug(w)}/checkin/scan/{entrant_token(_checkin_window(w), w.spare_pair.pk)}/"
def _item(w: Any) -> int:
    """A break of our tournament's timetable (made on first use)."""
    from scoring.models import TimetableItem

    return TimetableItem.objects.get_or_create(
        tournament=w.tournament, kind="break",
        defaults={"starts_at": "2026-12-14T13:00:00+03:00"})[0].pk


ITEM = "/api/v1/timetable-items/{}/"


def _read_only_token(w: Any) -> int:
    """Our organizer's read-only API token (issued on first use)."""
    from scoring.access.api_tokens import issue_token
    from scoring.models import ReadOnlyToken

    found = ReadOnlyToken.objects.filter(user=w.users["organizer"]).first()
    return (found or issue_token(w.users["organizer"], "Сайт клуба")[0]).pk


def _rating_list(w: Any) -> Any:
    """Our organizer's public rating list of our tournament (made on first use)."""
    from scoring.models import RatingList

    rating_list, made = RatingList.objects.get_or_create(
        slug="club-rating", defaults={"name": "Рейтинг клуба",
                                      "created_by": w.users["organizer"]})
    if made:
        rating_list.tournaments.set([w.tournament])
    return rating_list


def _rating_list_body(w: Any) -> dict[str, Any]:
    """A whole rating list, as PUT wants it."""
    return {"name": "Рейтинг", "slug": "club-rating", "system": "elo", "subject": "players",
            "parameters": {"k": 16}, "public": True, "tournaments": [w.tournament.pk]}


def _season(w: Any) -> Any:
    """Our organizer's season of our tournament (made once)."""
    from scoring.models import Season

    season, made = Season.objects.get_or_create(
        slug="sezon", defaults={"name": "Сезон", "created_by": w.users["organizer"],
                                "place_points": [10, 6]})
    if made:
        season.tournaments.add(w.tournament)
    return season


def _season_body(w: Any) -> dict[str, Any]:
    """A whole season of our tournament, as POST and PUT want it."""
    return {"name": "Сезон клуба", "slug": "sezon-kluba", "scoring": "place_points",
            "best_n": None, "place_points": [10, 6, 4], "tie_breaks": ["wins", "best"],
            "public": True, "tournaments": [w.tournament.pk]}


def _delivery(w: Any) -> Any:
    """A delivery of our organizer's webhook (written, not sent: no commit in the test)."""
    from scoring.models import WebhookDelivery

    webhook = _webhook(w)
    delivery = WebhookDelivery.objects.get_or_create(
        subscription=webhook, sequence=1, defaults={"event": "round.closed"})[0]
    webhook.last_sequence = 1
    webhook.save(update_fields=["last_sequence"])
    return delivery.pk


def _profiles(w: Any) -> tuple[int, int]:
    """Two profiles of one person: our free player's, and a namesake entered in our
    organizer's hidden tournament (both his: he merges them)."""
    from scoring.models import Player, Profile

    player = w.free[0]
    if player.profile_id is None:
        player.profile = Profile.objects.create(name=player.name, club=player.club)
        player.save(update_fields=["profile"])
    other = Profile.objects.get_or_create(name=player.name, club="", city="Тверь")[0]
    Player.objects.get_or_create(tournament=w.hidden, name=player.name,
                                 defaults={"profile": other})
    return player.profile_id, other.pk


def _merged(w: Any) -> int:
    """A profile merged away (by our organizer): the duplicate in his hidden tournament of our
    second free player's profile. Its id is the address of the unmerge."""
    from scoring.models import Player, Profile
    from scoring.people.merges import last_merge, merge_profiles

    player = w.free[1]
    if player.profile_id is None:
        player.profile = Profile.objects.create(name=player.name)
        player.save(update_fields=["profile"])
    other = Profile.objects.get_or_create(name=f"{player.name} из Омска", city="Омск")[0]
    Player.objects.get_or_create(tournament=w.hidden, name=other.name,
                                 defaults={"profile": other})
    if last_merge(other) is None:
        merge_profiles(player.profile, other, actor=w.users["organizer"])
    return other.pk


def _takeover(w: Any) -> tuple[int, int]:
    """The takeover: the unrelated organizer's throwaway profile and the real player of our
    organizer's hidden tournament."""
    return w.throwaway.pk, w.secret.pk


def _team_cup(w: Any) -> Any:
    """Our organizer's public team tournament: the team "Первые" of two pairs and two pairs in
    no team (made once)."""
    from scoring.models import Player, Tournament
    from tournaments.registration.services import register_pair
    from tournaments.registration.teams import register_team
    from tournaments.setup.services import create_tournament

    found = Tournament.objects.filter(slug="team-cup").first()
    if found is not None:
        return found
    cup = create_tournament(name="Командный кубок", slug="team-cup", format="teams",
                            organizer=w.users["organizer"], public=True)
    pairs = [register_pair(cup, Player.objects.create(tournament=cup, name=f"Командный {k}А"),
                           Player.objects.create(tournament=cup, name=f"Командный {k}Б"))
             for k in range(4)]
    register_team(cup, name="Первые", pairs=pairs[:2])
    return cup


def _team(w: Any) -> Any:
    """The team "Первые" of our organizer's team tournament."""
    return _team_cup(w).teams.get(name="Первые")


def _free_pairs(w: Any) -> list[int]:
    """The ids of the team tournament's pairs in no team."""
    return list(_team_cup(w).pairs.filter(team__isnull=True).order_by("id")
                .values_list("id", flat=True))


def _team_body(w: Any) -> dict[str, Any]:
    """The whole team "Первые", as PUT wants it."""
    team = _team(w)
    return {"name": "Первые", "club": "Клуб", "country": "Россия",
            "pairs": [{"pair": pk} for pk in team.pairs.order_by("id").values_list(
                "id", flat=True)], "captain": None}


def _entries_open(w: Any) -> int:
    """Our tournament takes entries; every user has an address (what an entry is sent to)."""
    from scoring.models import EntrySettings

    EntrySettings.objects.update_or_create(tournament=w.tournament, defaults={"open": True})
    for user in w.users.values():
        if user is not None and not user.email:
            user.email = f"{user.username}@example.org"
            user.save(update_fields=["email"])
    return w.tournament.pk


def _entry(w: Any, own: bool = False) -> int:
    """An entry of our tournament holding a place (the player's own when ``own``)."""
    from django.utils import timezone

    from scoring.models import Entry

    _entries_open(w)
    user = w.users["player"] if own else None
    entry, _new = Entry.objects.get_or_create(
        tournament=w.tournament, email="own@example.org" if own else "entrant@example.org",
        defaults={"name": "Заявка Первая", "partner_name": "Заявка Вторая", "user": user,
                  "partner_email": "second@example.org", "status": "received",
                  "partner_confirmed_at": timezone.now(), "queued_at": timezone.now()})
    return entry.pk


ENTRANTS = LOGGED_IN - {"party_player", "player"}
"""Who may enter our tournament: every login but those playing in it already (400)."""

DEAL_BODY = {"outcome": "domino", "side": "a", "seat": "a1", "points": {"a": 30, "b": 0}}

OPS = [
    # -- online entries: a player enters only himself; organizers decide their tournaments'
    Op("POST", "/api/v1/entries/", ENTRANTS, 201,
       body=lambda w: {"tournament": _entries_open(w), "partner_name": "Партнёр Заявкин",
                       "partner_email": "partner-entry@example.org"},
       refused=400, special={"anonymous": 403}),
    Op("POST", "/api/v1/entries/", frozenset(), 201, case="someone else",
       body=lambda w: {"tournament": _entries_open(w), "email": "someone@example.org",
                       "partner_name": "Партнёр", "partner_email": "p-2@example.org"},
       refused=400, special={"anonymous": 403}),
    Op("PATCH", "/api/v1/entries/{}/", ORGANIZER, 200, _entry, lambda w: {"note": "Проверено"},
       refused=404, special={"anonymous": 403}),
    Op("POST", "/api/v1/entries/{}/decide/", ORGANIZER, 200, _entry,
       lambda w: {"decision": "accept"}, refused=404, special={"anonymous": 403}),
    Op("POST", "/api/v1/entries/{}/decide/", ORGANIZER | {"player"}, 200,
       lambda w: _entry(w, own=True), lambda w: {"decision": "withdraw"}, refused=404,
       special={"anonymous": 403}, case="the entrant's own"),
    Op("PUT", "/api/v1/tournaments/{}/entry-settings/", ORGANIZER, 200,
       lambda w: w.tournament.pk, lambda w: {"open": True, "capacity": 20, "mode": "pairs"}),
    Op("PATCH", "/api/v1/tournaments/{}/entry-settings/", ORGANIZER, 200,
       lambda w: w.tournament.pk, lambda w: {"capacity": 24}),
    Op("POST", "/api/v1/auth/token/", frozenset(), 400,
       body=lambda w: {"username": "org", "password": "wrong"}, refused=400),
    Op("POST", "/api/v1/tournaments/", ORGANIZERS, 201,
       body=lambda w: {"name": "Новый кубок", "slug": "new-cup"}),
    Op("PUT", "/api/v1/tournaments/{}/", ORGANIZER, 200, lambda w: w.tournament.pk,
       _tournament_body),
    Op("PATCH", "/api/v1/tournaments/{}/", ORGANIZER, 200, lambda w: w.tournament.pk,
       lambda w: {"venue": "Зал"}),
    Op("PUT", "/api/v1/tournaments/{}/regulations/", ORGANIZER, 200, lambda w: w.tournament.pk,
       _regulations_body),
    Op("PATCH", "/api/v1/tournaments/{}/regulations/", ORGANIZER, 200, lambda w: w.tournament.pk,
       lambda w: {"target": 300}),
    Op("POST", "/api/v1/tournaments/{}/import/", ORGANIZER, 200, lambda w: w.tournament.pk,
       _roster, multipart=True),
    # Its round is in play: an organizer may finish it only once the round is closed (400),
    # and reopen it only once it is finished (400); the others are refused.
    Op("POST", "/api/v1/tournaments/{}/finish/", ORGANIZER, 400, lambda w: w.tournament.pk),
    Op("POST", "/api/v1/tournaments/{}/reopen/", ORGANIZER, 400, lambda w: w.tournament.pk),
    Op("POST", "/api/v1/players/", ORGANIZER, 201,
       body=lambda w: {"tournament": w.tournament.pk, "name": "Новичок"}),
    Op("PUT", "/api/v1/players/{}/", ORGANIZER, 200, lambda w: w.free[0].pk,
       lambda w: {"name": "Новое имя", "club": "Клуб"}),
    Op("PATCH", "/api/v1/players/{}/", ORGANIZER, 200, lambda w: w.free[0].pk,
       lambda w: {"rating": 1500}),
    Op("DELETE", "/api/v1/players/{}/", ORGANIZER, 204, lambda w: w.free[0].pk),
    Op("POST", "/api/v1/players/{}/withdraw/", ORGANIZER, 200, lambda w: w.free[0].pk,
       lambda w: {"withdrawn": True}),
    Op("POST", "/api/v1/profiles/{}/merge/", ORGANIZER, 200, lambda w: _profiles(w)[0],
       lambda w: {"other": _profiles(w)[1]}),
    # The takeover: the real player of a hidden tournament merged into the unrelated
    # organizer's throwaway (whoever does not see the throwaway gets 404), and the other way
    # round (our organizer sees his player, but the throwaway is not his).
    Op("POST", "/api/v1/profiles/{}/merge/", STAFF, 200, lambda w: _takeover(w)[0],
       lambda w: {"other": _takeover(w)[1]}, refused=404,
       special={"anonymous": 403, "unrelated_organizer": 403}, case="takeover"),
    Op("POST", "/api/v1/profiles/{}/merge/", STAFF, 200, lambda w: _takeover(w)[1],
       lambda w: {"other": _takeover(w)[0]}, refused=404,
       special={"anonymous": 403, "organizer": 403}, case="takeover, kept the real one"),
    Op("POST", "/api/v1/profiles/{}/unmerge/", ORGANIZER, 200, _merged),
    Op("POST", "/api/v1/pairs/", ORGANIZER, 201,
       body=lambda w: {"tournament": w.tournament.pk, "player1": w.free[0].pk,
                       "player2": w.free[1].pk}),
    Op("PUT", "/api/v1/pairs/{}/", ORGANIZER, 200, lambda w: w.spare_pair.pk,
       lambda w: {"player1": w.spare_pair.player1_id, "player2": w.spare_pair.player2_id,
                  "name": "Дуэт"}),
    Op("PATCH", "/api/v1/pairs/{}/", ORGANIZER, 200, lambda w: w.spare_pair.pk,
       lambda w: {"name": "Дуэт"}),
    Op("DELETE", "/api/v1/pairs/{}/", ORGANIZER, 204, lambda w: w.spare_pair.pk),
    Op("POST", "/api/v1/pairs/{}/withdraw/", ORGANIZER, 200, lambda w: w.spare_pair.pk,
       lambda w: {"withdrawn": True}),
    Op("POST", "/api/v1/teams/", ORGANIZER, 201,
       body=lambda w: {"tournament": _team_cup(w).pk, "name": "Вторые",
                       "pairs": [{"pair": pk} for pk in _free_pairs(w)]}),
    Op("PUT", "/api/v1/teams/{}/", ORGANIZER, 200, lambda w: _team(w).pk, _team_body),
    Op("PATCH", "/api/v1/teams/{}/", ORGANIZER, 200, lambda w: _team(w).pk,
       lambda w: {"club": "Клуб"}),
    Op("DELETE", "/api/v1/teams/{}/", ORGANIZER, 204, lambda w: _team(w).pk),
    Op("POST", "/api/v1/teams/{}/withdraw/", ORGANIZER, 200, lambda w: _team(w).pk,
       lambda w: {"withdrawn": True}),
    Op("POST", "/api/v1/tables/", ORGANIZER, 201,
       body=lambda w: {"tournament": w.tournament.pk, "number": 9}),
    Op("PUT", "/api/v1/tables/{}/", ORGANIZER, 200, lambda w: w.spare_table.pk,
       lambda w: {"number": 10, "label": "У окна"}),
    Op("PATCH", "/api/v1/tables/{}/", ORGANIZER, 200, lambda w: w.spare_table.pk,
       lambda w: {"label": "У окна"}),
    Op("DELETE", "/api/v1/tables/{}/", ORGANIZER, 204, lambda w: w.spare_table.pk),
    Op("POST", "/api/v1/rounds/", ORGANIZER, 400, body=lambda w: {"tournament": w.tournament.pk}),
    # A party of the tournament is under way: neither groups nor finals can be drawn (400).
    Op("POST", "/api/v1/stages/groups/", ORGANIZER, 400,
       body=lambda w: {"tournament": w.tournament.pk, "group_count": 2}),
    Op("POST", "/api/v1/stages/finals/", ORGANIZER, 400,
       body=lambda w: {"tournament": w.tournament.pk, "bracket_size": 4}),
    # The round has started: a team's line-up no longer changes (400); the organizers and
    # team A's captain (the party's player) may name it.
    Op("POST", "/api/v1/team-matches/{}/lineup/", ORGANIZER | {"party_player"}, 400,
       lambda w: _sheet_match(w).pk, lambda w: {"team": _sheet_match(w).team_a_id,
                                                 "pairs": [1, 2]}),
    Op("DELETE", ROUND, ORGANIZER, 400, _round),
    # The round has started: its scheduled start is refused by its state (400).
    Op("PATCH", ROUND, ORGANIZER, 400, _round,
       lambda w: {"scheduled_start": "2026-05-01T10:00:00+03:00"}),
    Op("PUT", ROUND + "draw/", ORGANIZER, 400, _round,
       lambda w: {"parties": [{"table": 1, "a": w.field.party.pair_a_id,
                               "b": w.field.party.pair_b_id}]}),
    Op("POST", ROUND + "generate/", ORGANIZER, 400, _round, lambda w: {"seed": 1}),
    Op("POST", ROUND + "swap/", ORGANIZER, 400, _round, lambda w: {"first": 1, "second": 2}),
    Op("POST", ROUND + "publish/", ORGANIZER, 400, _round),
    Op("POST", ROUND + "start/", ORGANIZER, 400, _round),
    Op("POST", ROUND + "close/", ORGANIZER, 400, _round),
    Op("POST", PARTY + "start/", REFEREES, 400, _party),
    Op("POST", PARTY + "pause/", REFEREES, 200, _party, lambda w: {"reason": "Перерыв"}),
    # The clock runs: there is no pause to explain (refused by the party's state).
    Op("POST", PARTY + "pause-reason/", REFEREES, 400, _party, lambda w: {"reason": "Врач"}),
    Op("POST", PARTY + "resume/", REFEREES, 400, _party),
    Op("POST", PARTY + "time-up/", REFEREES, 200, _party),
    Op("POST", PARTY + "game-time-up/", REFEREES, 400, _party),  # sport domino: no game clock
    Op("POST", PARTY + "finish/", REFEREES, 400, _party),
    Op("POST", PARTY + "check-in/", REFEREES, 200, _party, lambda w: {"side": "a"}),
    Op("POST", PARTY + "deal/", REFEREES, 201, _party, lambda w: DEAL_BODY),
    Op("POST", PARTY + "warning/", REFEREES, 201, _party,
       lambda w: {"side": "b", "category": "signs"}),
    Op("POST", PARTY + "fine/", REFEREES, 201, _party,
       lambda w: {"side": "b", "category": "signs"}),
    Op("POST", PARTY + "out-of-turn/", REFEREES, 201, _party,
       lambda w: {"seat": "a1", "choice": "continue", "tile": "3-5"}),
    Op("POST", PARTY + "false-pass/", REFEREES, 201, _party, lambda w: {"seat": "b1"}),
    # A sport-domino party: the UDL ruling is refused by its state (400), not by the role.
    Op("POST", PARTY + "udl-violation/", REFEREES, 400, _party,
       lambda w: {"seat": "a1", "violation": "slow_play"}),
    Op("POST", PARTY + "touched-tile/", REFEREES, 201, _party,
       lambda w: {"seat": "a2", "fits": True, "tile": "2-4"}),
    Op("POST", PARTY + "no-show/", REFEREES, 400, _party, lambda w: {"side": "b"}),
    Op("POST", PARTY + "disqualify/", REFEREES, 201, _party,
       lambda w: {"side": "b", "scope": "party", "reason": "Грубость"}),
    # A sport-domino party: a player's timeout is Kozel's ruling, refused by the game (400).
    Op("POST", PARTY + "player-timeout/", REFEREES, 400, _party, lambda w: {"seat": "b1"}),
    # A sport-domino party: a redeal is Kozel's ruling, refused by the game (400).
    Op("POST", PARTY + "redeal/", REFEREES, 400, _party,
       lambda w: {"seat": "b1", "redeal_reason": "five_doubles"}),
    # The party has its deal 1: the draw for the first move is refused by its state (400).
    Op("POST", PARTY + "first-mover/", REFEREES, 400, _party, lambda w: {"seat": "b1"}),
    # The referee who gave the warning takes it back; another referee may not (400: refused
    # by the rule of the undo, not by the role).
    Op("POST", PARTY + "undo/", REFEREES, 200, _party,
       lambda w: {"record": "penalty", "id": w.field.penalty.pk},
       special={"chief": 400, "organizer": 400, "superuser": 400, "other_referee": 400}),
    Op("POST", PARTY + "move-advice/", REFEREES, 200, _party, lambda w: {"hand": ["3-5"]}),
    Op("POST", PARTY + "tiles-preview/", REFEREES, 200, _party,
       lambda w: {"tiles": {"a1": ["3-5"], "a2": [], "b1": ["6-6"], "b2": []}}),
    # A deal or penalty is changed by the referee who recorded it or the chief referee only
    # (``permissions.can_correct_record``): another referee of the party is refused.
    Op("POST", "/api/v1/deals/{}/correct/", RECORDER, 200, lambda w: w.field.deal.pk,
       lambda w: {**DEAL_BODY, "points": {"a": 40, "b": 0}, "reason": "Опечатка"}),
    Op("POST", "/api/v1/deals/{}/annul/", RECORDER, 200, lambda w: w.field.deal.pk,
       lambda w: {"reason": "Опечатка"}),
    Op("POST", "/api/v1/penalties/{}/cancel/", RECORDER, 200,
       lambda w: w.field.penalty.pk, lambda w: {"reason": "Ошибка"}),
    Op("POST", "/api/v1/referee/tournaments/{}/referees/", ORGANIZER, 201,
       lambda w: w.tournament.pk, lambda w: {"username": "spare", "role": "referee"}),
    Op("PUT", "/api/v1/referee/tournaments/{}/referee-settings/", ORGANIZER, 200,
       lambda w: w.tournament.pk, lambda w: {"slow_play_points": 10}),
    Op("DELETE", "/api/v1/referee/roles/{}/", ORGANIZER, 204, lambda w: w.referee_role.pk),
    Op("POST", "/api/v1/party-protocols/{}/sign/", frozenset({"party_player"}), 400, _party,
       lambda w: {"player": _side_a(w)}),
    Op("POST", "/api/v1/party-protocols/{}/refuse/", REFEREES, 400, _party,
       lambda w: {"player": _side_a(w), "reason": "Не согласен"}),
    Op("POST", "/api/v1/party-protocols/{}/countersign/", REFEREES, 400, _party),
    Op("POST", "/api/v1/print-jobs/", REFEREES, 202,
       body=lambda w: {"round": _round(w), "kind": "blank"}),
    Op("POST", "/api/v1/webhooks/", ORGANIZER, 201,
       body=lambda w: {"tournament": w.tournament.pk, "url": "http://93.184.215.14/hook",
                       "events": ["party.finished"]}),
    Op("PATCH", "/api/v1/webhooks/{}/", ORGANIZER, 200, lambda w: _webhook(w).pk,
       lambda w: {"active": False}),
    Op("DELETE", "/api/v1/webhooks/{}/", ORGANIZER, 204, lambda w: _webhook(w).pk),
    Op("POST", "/api/v1/webhooks/{}/renew-secret/", ORGANIZER, 200, lambda w: _webhook(w).pk),
    Op("POST", "/api/v1/webhook-deliveries/{}/replay/", ORGANIZER, 201, _delivery),
    # The timetable's items: only the tournament's organizers add, change and delete them.
    Op("POST", "/api/v1/timetable-items/", ORGANIZER, 201,
       body=lambda w: {"tournament": w.tournament.pk, "kind": "break",
                       "starts_at": "2026-12-14T13:00:00+03:00"}),
    Op("PUT", ITEM, ORGANIZER, 200, _item,
       lambda w: {"kind": "prizes", "title": "Награждение",
                  "starts_at": "2026-12-14T17:00:00+03:00", "ends_at": None}),
    Op("PATCH", ITEM, ORGANIZER, 200, _item, lambda w: {"title": "Обед"}),
    Op("DELETE", ITEM, ORGANIZER, 204, _item),
    # Read-only API tokens: any organizer issues his own; only their owner revokes one.
    Op("POST", "/api/v1/auth/read-only-tokens/", ORGANIZERS, 201,
       body=lambda w: {"name": "Табло"}),
    Op("DELETE", "/api/v1/auth/read-only-tokens/{}/", frozenset({"organizer"}), 204,
       _read_only_token,
       special={"foreign_organizer": 404, "unrelated_organizer": 404, "superuser": 404}),
    Op("POST", "/api/v1/rating-lists/", ORGANIZERS, 201,
       body=lambda w: {"name": "Новый рейтинг", "slug": "new-rating",
                       "tournaments": [w.tournament.pk]}),
    Op("PUT", "/api/v1/rating-lists/{}/", ORGANIZER, 200, lambda w: _rating_list(w).pk,
       _rating_list_body),
    Op("PATCH", "/api/v1/rating-lists/{}/", ORGANIZER, 200, lambda w: _rating_list(w).pk,
       lambda w: {"name": "Рейтинг"}),
    Op("DELETE", "/api/v1/rating-lists/{}/", ORGANIZER, 204, lambda w: _rating_list(w).pk),
    Op("POST", "/api/v1/tournaments/{}/take-ratings/", ORGANIZER, 200, lambda w: w.tournament.pk,
       lambda w: {"rating_list": _rating_list(w).pk}),
    # A foreign organizer may create seasons, but not of our tournament: 400 on the field.
    Op("POST", "/api/v1/seasons/", ORGANIZER, 201, body=_season_body,
       special={"foreign_organizer": 400, "unrelated_organizer": 400}),
    Op("PUT", "/api/v1/seasons/{}/", ORGANIZER, 200, lambda w: _season(w).slug,
       lambda w: {**_season_body(w), "slug": "sezon"}),
    Op("PATCH", "/api/v1/seasons/{}/", ORGANIZER, 200, lambda w: _season(w).slug,
       lambda w: {"name": "Сезон", "best_n": 2}),
    Op("DELETE", "/api/v1/seasons/{}/", ORGANIZER, 204, lambda w: _season(w).slug),
    Op("POST", "/api/v1/signing-pins/", ORGANIZER | {"party_player"}, 204,
       body=lambda w: {"player": _side_a(w), "pin": "4321"}),
    # Check-in: the organizer runs the windows and ticks anyone off; a player checks in only
    # himself (the organizer, who plays in no pair, must name one: 400 on the field).
    Op("POST", "/api/v1/checkin-windows/", ORGANIZER, 201, body=_window_body),
    Op("PATCH", "/api/v1/checkin-windows/{}/", ORGANIZER, 200, lambda w: _checkin_window(w).pk,
       lambda w: {"closes_at": _window_body(w)["closes_at"]}),
    Op("DELETE", "/api/v1/checkin-windows/{}/", ORGANIZER, 204,
       lambda w: _checkin_window(w).pk),
    Op("POST", "/api/v1/checkin-windows/{}/close/", ORGANIZER, 200,
       lambda w: _checkin_window(w).pk),
    Op("POST", "/api/v1/checkins/", frozenset({"party_player", "player"}), 201,
       body=lambda w: {"window": _checkin_window(w).pk},
       special={"organizer": 400, "superuser": 400}, case="himself"),
    Op("POST", "/api/v1/checkins/", ORGANIZER, 201,
       body=lambda w: {"window": _checkin_window(w).pk, "pair": w.spare_pair.pk}),
    Op("DELETE", "/api/v1/checkins/{}/", ORGANIZER, 204, _checkin),
]


@dataclass
class World:
    """Our tournament with its records and the users of every role."""

    field: Any
    users: dict[str, Any]
    free: list[Any]
    spare_pair: Any
    spare_table: Any
    referee_role: Any
    hidden: Any = None
    """Our organizer's hidden tournament, with ``secret``: a real player's profile."""
    secret: Any = None
    throwaway: Any = None
    """The unrelated organizer's throwaway profile, in his own hidden tournament."""

    @property
    def tournament(self) -> Any:
        """Our tournament."""
        return self.field.tournament


@pytest.fixture
def world(field, organizer, referee_user, make_user) -> World:
    """Users of every role; free players, a pair and a table no party uses."""
    from scoring.models import Pair, Player, TournamentRole

    t = field.tournament
    party_player = field.party.pair_a.player1
    party_player.user = make_user("party-player")
    party_player.save()
    spare_pair = t.pairs.exclude(pk__in=[field.party.pair_a_id, field.party.pair_b_id]).last()
    bystander = t.pairs.exclude(pk__in=[field.party.pair_a_id, field.party.pair_b_id]).first()
    player = bystander.player1
    player.user = make_user("player")
    player.save()
    chief = make_user("chief")
    TournamentRole.objects.create(tournament=t, user=chief, role="chief")
    other_referee = make_user("ref-2")
    TournamentRole.objects.create(tournament=t, user=other_referee, role="referee")
    make_user("spare")
    free = [Player.objects.create(tournament=t, name=f"Свободный {k}") for k in range(2)]
    hidden, secret = _hidden_tournament(organizer, make_user)
    unrelated = make_user("unrelated-org", organizer=True)
    throwaway = _throwaway(unrelated)
    assert not Pair.objects.filter(player1__in=free).exists()
    users = {
        "anonymous": None,
        "player": player.user,
        "party_player": party_player.user,
        "foreign_referee": TournamentRole.objects.get(user__username="other-ref").user,
        "referee": referee_user,
        "other_referee": other_referee,
        "chief": chief,
        "foreign_organizer": TournamentRole.objects.get(
            tournament=field.other, role="organizer").user,
        "organizer": organizer,
        "unrelated_organizer": unrelated,
        "superuser": make_user("root", is_superuser=True, is_staff=True),
    }
    assert field.deal.recorded_by_id == field.penalty.created_by_id == referee_user.pk
    referee_role = TournamentRole.objects.get(tournament=t, user=referee_user)
    return World(field, users, free, spare_pair, t.tables.get(number=4), referee_role,
                 hidden, secret, throwaway)


def _hidden_tournament(organizer: Any, make_user: Any) -> tuple[Any, Any]:
    """Our organizer's hidden tournament with a finished party: its first player is a real
    person with a login, results, a birth year and a federation id."""
    from scoring.models import Profile
    from tests.factories import DealFactory, PartyFactory, RoundFactory, TournamentFactory

    hidden = TournamentFactory(name="Закрытый кубок", slug="closed-cup", organizer=organizer,
                               public=False)
    party = PartyFactory(round=RoundFactory(tournament=hidden, number=1, status="finished"),
                         status="finished", winner="a", end_reason="target")
    DealFactory(party=party, points_a=250)
    login = make_user("secret-player")
    person = party.pair_a.player1
    secret = Profile.objects.create(name="Тайный Игрок", club="Тень", city="Мурманск",
                                    birth_year=1975, federation_id="RU-9", user=login)
    person.name, person.user, person.profile = "Тайный Игрок", login, secret
    person.save()
    return hidden, secret


def _throwaway(unrelated: Any) -> Any:
    """The unrelated organizer's hidden tournament and its throwaway profile."""
    from scoring.models import Player, Profile
    from tests.factories import TournamentFactory

    own = TournamentFactory(name="Своё", slug="own-cup", organizer=unrelated, public=False)
    profile = Profile.objects.create(name="Подставной")
    Player.objects.create(tournament=own, name="Подставной", profile=profile)
    return profile


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row a write could touch."""
    from django.apps import apps

    skip = {"sessions.session", "authtoken.token", "scoring.idempotencykey"}
    return {
        model._meta.label_lower: list(model.objects.order_by("pk").values())
        for config in apps.get_app_configs()
        if config.name in {"tournaments", "scoring", "referee"}
        for model in config.get_models()
        if model._meta.label_lower not in skip
    }


# -- the pages ------------------------------------------------------------------------------

REFUSED = (401, 403, 404)


@dataclass(frozen=True)
class Page:
    """One write action of a page: its route, URL, form and its API twin (or who may)."""

    route: str
    url: Callable[[Any], str]
    body: Callable[[Any], dict[str, Any]] = lambda w: {}
    twin: str = ""
    """``"METHOD /api/path/"`` of the API operation doing the same, whose roles it shares."""
    allowed: frozenset[str] = frozenset()
    """Who may, for a page without an API twin."""

    @property
    def label(self) -> str:
        """The row's name in the test report."""
        return f"{self.route} ({self.twin or 'page only'})"


def _slug(w: Any) -> str:
    return w.tournament.slug


def _number(w: Any) -> int:
    return w.field.party.round.number


def _rnd(action: str) -> Page:
    """A round's action on its page (``t/<slug>/rounds/<number>/<action>/``)."""
    twin = {"delete": "DELETE " + ROUND}.get(action, f"POST {ROUND}{action}/")
    body = {"swap": lambda w: {"first": 1, "second": 2}}.get(action, lambda w: {})
    return Page("t/<str:slug>/rounds/<int:number>/<str:action>/",
                lambda w: f"/t/{_slug(w)}/rounds/{_number(w)}/{action}/", body, twin)


def _desk(name: str, body: dict[str, Any]) -> Page:
    """A party action of the referee desk's page."""
    return Page("referee/party/<int:pk>/<str:name>/",
                lambda w: f"/referee/party/{_party(w)}/{name}/", lambda w: body,
                f"POST {PARTY}{name}/")


DESK_FORMS = {
    "start": {}, "pause": {"reason": "Перерыв"}, "pause-reason": {"reason": "Врач"},
    "resume": {}, "time-up": {}, "game-time-up": {}, "finish": {}, "check-in": {"side": "a"},
    "deal": {"outcome": "domino", "winner": "a", "went_out": "a1", "points_a": 30},
    "warning": {"side": "b", "category": "signs"}, "fine": {"side": "b", "category": "signs"},
    "out-of-turn": {"seat": "a1", "choice": "continue", "tile": "3-5"},
    "false-pass": {"seat": "b1"}, "udl-violation": {"seat": "a1", "violation": "slow_play"},
    "touched-tile": {"seat": "a2", "fits": "on", "tile": "2-4"}, "no-show": {"side": "b"},
    "disqualify": {"side": "b", "scope": "party", "reason": "Грубость"},
    "player-timeout": {"seat": "b1"}, "first-mover": {"seat": "b1"},
    "redeal": {"seat": "b1", "redeal_reason": "five_doubles"},
    "undo": {"record": "penalty"},
}
"""A form of every party action of the desk (``referee.serializers.PARTY_ACTIONS``)."""

def _season_form(w: Any) -> dict[str, Any]:
    """A season form naming our tournament."""
    return {"name": "Сезон клуба", "slug": "sezon-kluba", "scoring": "place_points",
            "place_points": "10, 6, 4", "tie_break_1": "wins", "tournaments": [w.tournament.pk]}


PAGES = [
    # -- online entries: the form and the signed links are open to whoever holds them
    Page("t/<str:slug>/enter/", lambda w: f"/t/{_slug(w)}/enter/",
         lambda w: {"tournament": _entries_open(w), "name": "Гость", "email": "g@example.org",
                    "partner_name": "Друг", "partner_email": "d@example.org"},
         allowed=EVERYONE),
    Page("entries/<str:token>/", lambda w: f"/entries/{_token('entry', _entry(w))}/",
         allowed=EVERYONE),
    Page("entries/<str:token>/confirm/",
         lambda w: f"/entries/{_token('signup', _entry(w))}/confirm/", allowed=EVERYONE),
    Page("entries/<str:token>/partner/",
         lambda w: f"/entries/{_token('partner', _entry(w))}/partner/", allowed=EVERYONE),
    Page("t/<str:slug>/entries/settings/", lambda w: f"/t/{_slug(w)}/entries/settings/",
         lambda w: {"capacity": 24, "mode": "pairs", "confirm_hours": 48},
         "PATCH /api/v1/tournaments/{}/entry-settings/"),
    Page("t/<str:slug>/entries/<int:pk>/", lambda w: f"/t/{_slug(w)}/entries/{_entry(w)}/",
         lambda w: {"name": "Заявка Первая", "email": "entrant@example.org",
                    "partner_name": "Заявка Вторая", "partner_email": "second@example.org",
                    "note": "Проверено"}, "PATCH /api/v1/entries/{}/"),
    Page("t/<str:slug>/entries/<int:pk>/decide/",
         lambda w: f"/t/{_slug(w)}/entries/{_entry(w)}/decide/",
         lambda w: {"decision": "accept"}, "POST /api/v1/entries/{}/decide/"),
    Page("accounts/login/", lambda w: "/accounts/login/",
         lambda w: {"username": "org", "password": "wrong"}, "POST /api/v1/auth/token/"),
    # -- tournaments and their entrants
    Page("t/new/", lambda w: "/t/new/", lambda w: {"name": "Новый кубок", "slug": "new-cup"},
         "POST /api/v1/tournaments/"),
    Page("t/<str:slug>/edit/", lambda w: f"/t/{_slug(w)}/edit/", lambda w: {"venue": "Зал"},
         "PATCH /api/v1/tournaments/{}/"),
    Page("t/<str:slug>/regulations/", lambda w: f"/t/{_slug(w)}/regulations/",
         lambda w: {"target": 300}, "PATCH /api/v1/tournaments/{}/regulations/"),
    Page("t/<str:slug>/import/", lambda w: f"/t/{_slug(w)}/import/", _roster,
         "POST /api/v1/tournaments/{}/import/"),
    Page("tournaments/import/", lambda w: "/tournaments/import/", allowed=ORGANIZERS),
    Page("t/<str:slug>/players/new/", lambda w: f"/t/{_slug(w)}/players/new/",
         lambda w: {"name": "Новичок"}, "POST /api/v1/players/"),
    Page("t/<str:slug>/players/<int:pk>/", lambda w: f"/t/{_slug(w)}/players/{w.free[0].pk}/",
         lambda w: {"name": "Новое имя"}, "PATCH /api/v1/players/{}/"),
    Page("t/<str:slug>/<str:kind>/<int:pk>/withdraw/",
         lambda w: f"/t/{_slug(w)}/players/{w.free[0].pk}/withdraw/",
         lambda w: {"withdrawn": "1"}, "POST /api/v1/players/{}/withdraw/"),
    Page("t/<str:slug>/pairs/new/", lambda w: f"/t/{_slug(w)}/pairs/new/",
         lambda w: {"player1": w.free[0].pk, "player2": w.free[1].pk}, "POST /api/v1/pairs/"),
    Page("t/<str:slug>/pairs/<int:pk>/", lambda w: f"/t/{_slug(w)}/pairs/{w.spare_pair.pk}/",
         lambda w: {"name": "Дуэт"}, "PATCH /api/v1/pairs/{}/"),
    Page("t/<str:slug>/<str:kind>/<int:pk>/withdraw/",
         lambda w: f"/t/{_slug(w)}/pairs/{w.spare_pair.pk}/withdraw/",
         lambda w: {"withdrawn": "1"}, "POST /api/v1/pairs/{}/withdraw/"),
    Page("t/<str:slug>/teams/new/", lambda w: f"/t/{_team_cup(w).slug}/teams/new/",
         lambda w: {"name": "Вторые", "pairs": _free_pairs(w)}, "POST /api/v1/teams/"),
    Page("t/<str:slug>/teams/<int:pk>/",
         lambda w: f"/t/{_team_cup(w).slug}/teams/{_team(w).pk}/",
         lambda w: {"name": "Первые", "club": "Клуб",
                    "pairs": [p["pair"] for p in _team_body(w)["pairs"]]},
         "PATCH /api/v1/teams/{}/"),
    Page("t/<str:slug>/<str:kind>/<int:pk>/withdraw/",
         lambda w: f"/t/{_team_cup(w).slug}/teams/{_team(w).pk}/withdraw/",
         lambda w: {"withdrawn": "1"}, "POST /api/v1/teams/{}/withdraw/"),
    Page("t/<str:slug>/tables/new/", lambda w: f"/t/{_slug(w)}/tables/new/",
         lambda w: {"number": 9}, "POST /api/v1/tables/"),
    Page("t/<str:slug>/tables/<int:pk>/",
         lambda w: f"/t/{_slug(w)}/tables/{w.spare_table.pk}/",
         lambda w: {"number": 10, "label": "У окна"}, "PATCH /api/v1/tables/{}/"),
    Page("t/<str:slug>/links/", lambda w: f"/t/{_slug(w)}/links/",
         lambda w: {"player": w.free[0].pk}, allowed=ORGANIZER),
    # -- rounds and draws
    Page("t/<str:slug>/rounds/new/", lambda w: f"/t/{_slug(w)}/rounds/new/",
         twin="POST /api/v1/rounds/"),
    *(Page("t/<str:slug>/status/<str:change>/",
           lambda w, change=change: f"/t/{_slug(w)}/status/{change}/",
           twin=f"POST /api/v1/tournaments/{{}}/{change}/") for change in ("finish", "reopen")),
    Page("t/<str:slug>/finals/start/", lambda w: f"/t/{_slug(w)}/finals/start/",
         lambda w: {"bracket_size": 4, "best_of": 1}, "POST /api/v1/stages/finals/"),
    Page("t/<str:slug>/groups/start/", lambda w: f"/t/{_slug(w)}/groups/start/",
         lambda w: {"group_count": 2}, "POST /api/v1/stages/groups/"),
    Page("t/<str:slug>/rounds/<int:number>/edit/",
         lambda w: f"/t/{_slug(w)}/rounds/{_number(w)}/edit/", twin=f"PUT {ROUND}draw/"),
    *(_rnd(action) for action in ("generate", "swap", "publish", "start", "close", "delete")),
    # -- the party page and the referee desk
    Page("party/<int:pk>/", lambda w: f"/party/{_party(w)}/",
         lambda w: {"outcome": "domino", "winner": "a", "went_out": "a1", "points_a": 30},
         f"POST {PARTY}deal/"),
    Page("party/<int:pk>/start/", lambda w: f"/party/{_party(w)}/start/",
         twin=f"POST {PARTY}start/"),
    Page("party/<int:pk>/forfeit/", lambda w: f"/party/{_party(w)}/forfeit/",
         lambda w: {"absent_side": "b"}, f"POST {PARTY}no-show/"),
    *(_desk(name, body) for name, body in DESK_FORMS.items()),
    Page("referee/party/<int:pk>/move-advice/",
         lambda w: f"/referee/party/{_party(w)}/move-advice/", lambda w: {"hand": "3-5"},
         f"POST {PARTY}move-advice/"),
    Page("referee/party/<int:pk>/tiles-preview/",
         lambda w: f"/referee/party/{_party(w)}/tiles-preview/",
         lambda w: {"tiles_a1": "3-5", "tiles_b1": "6-6"}, f"POST {PARTY}tiles-preview/"),
    Page("referee/party/<int:pk>/ends-count/",
         lambda w: f"/referee/party/{_party(w)}/ends-count/", lambda w: {"end_1": "5"},
         allowed=REFEREES),
    # -- corrections: one rule (``permissions.can_correct_record``) on every path
    Page("referee/deal/<int:pk>/correct/",
         lambda w: f"/referee/deal/{w.field.deal.pk}/correct/",
         lambda w: {"outcome": "domino", "winner": "a", "went_out": "a1", "points_a": 40,
                    "reason": "Опечатка"}, "POST /api/v1/deals/{}/correct/"),
    Page("referee/deal/<int:pk>/annul/", lambda w: f"/referee/deal/{w.field.deal.pk}/annul/",
         lambda w: {"reason": "Опечатка"}, "POST /api/v1/deals/{}/annul/"),
    Page("deal/<int:pk>/<str:action>/", lambda w: f"/deal/{w.field.deal.pk}/correct/",
         lambda w: {"outcome": "domino", "winner": "a", "went_out": "a1", "points_a": 40,
                    "reason": "Опечатка"}, "POST /api/v1/deals/{}/correct/"),
    Page("deal/<int:pk>/<str:action>/", lambda w: f"/deal/{w.field.deal.pk}/annul/",
         lambda w: {"reason": "Опечатка"}, "POST /api/v1/deals/{}/annul/"),
    Page("referee/penalty/<int:pk>/cancel/",
         lambda w: f"/referee/penalty/{w.field.penalty.pk}/cancel/",
         lambda w: {"reason": "Ошибка"}, "POST /api/v1/penalties/{}/cancel/"),
    # -- the referees of a tournament
    Page("referee/t/<str:slug>/referees/", lambda w: f"/referee/t/{_slug(w)}/referees/",
         lambda w: {"username": "spare", "role": "referee"},
         "POST /api/v1/referee/tournaments/{}/referees/"),
    Page("referee/t/<str:slug>/referees/", lambda w: f"/referee/t/{_slug(w)}/referees/",
         lambda w: {"remove": w.referee_role.pk}, "DELETE /api/v1/referee/roles/{}/"),
    Page("referee/t/<str:slug>/referees/", lambda w: f"/referee/t/{_slug(w)}/referees/",
         lambda w: {"penalty_preset": "udl"},
         "PUT /api/v1/referee/tournaments/{}/referee-settings/"),
    # -- protocols, prints, PINs
    Page("party/<int:pk>/protocol/sign/", lambda w: f"/party/{_party(w)}/protocol/sign/",
         lambda w: {"player": _side_a(w)}, "POST /api/v1/party-protocols/{}/sign/"),
    Page("party/<int:pk>/protocol/refuse/", lambda w: f"/party/{_party(w)}/protocol/refuse/",
         lambda w: {"player": _side_a(w), "reason": "Не согласен"},
         "POST /api/v1/party-protocols/{}/refuse/"),
    Page("party/<int:pk>/protocol/countersign/",
         lambda w: f"/party/{_party(w)}/protocol/countersign/",
         twin="POST /api/v1/party-protocols/{}/countersign/"),
    Page("rounds/<int:round_id>/print/", lambda w: f"/rounds/{_round(w)}/print/",
         lambda w: {"kind": "blank"}, "POST /api/v1/print-jobs/"),
    Page("players/<int:pk>/signing-pin/", lambda w: f"/players/{_side_a(w)}/signing-pin/",
         lambda w: {"pin": "4321", "pin_again": "4321"}, "POST /api/v1/signing-pins/"),
    Page("verify/", lambda w: "/verify/", lambda w: {"code": "ABCD-EFGH"}, allowed=EVERYONE),
    # -- team match sheets: team A's captain signs on his login, a referee countersigns (the
    # match is not decided: a page that lets the user act says so, and nothing is written)
    Page("t/<str:slug>/team-matches/<int:pk>/lineup/",
         lambda w: f"/t/{w.tournament.slug}/team-matches/{_sheet_match(w).pk}/lineup/",
         lambda w: {"board1": 1, "board2": 2}, "POST /api/v1/team-matches/{}/lineup/"),
    Page("t/<str:slug>/team-matches/<int:pk>/sheet/sign/", lambda w: _sheet(w, "sign/"),
         lambda w: {"team": _sheet_match(w).team_a_id, "player": _side_a(w)},
         allowed=frozenset({"party_player"})),
    Page("t/<str:slug>/team-matches/<int:pk>/sheet/countersign/",
         lambda w: _sheet(w, "countersign/"), allowed=REFEREES),
    # -- people, accounts and lockouts (pages only)
    Page("t/<str:slug>/people/", lambda w: f"/t/{_slug(w)}/people/",
         lambda w: {"make_accounts": "1"}, allowed=ORGANIZER),
    Page("t/<str:slug>/people/", lambda w: f"/t/{_slug(w)}/people/",
         lambda w: {"pins": "missing"}, allowed=ORGANIZER),
    Page("lockouts/", lambda w: "/lockouts/", lambda w: {"lockout": "0"}, allowed=ORGANIZERS),
    # -- seasons. A foreign organizer may create seasons: his form names our tournament, so
    # it is refused on the field and nothing is written (the API answers 400 alike).
    Page("seasons/new/", lambda w: "/seasons/new/", _season_form, "POST /api/v1/seasons/"),
    Page("season/<str:slug>/edit/", lambda w: f"/season/{_season(w).slug}/edit/",
         lambda w: {**_season_form(w), "slug": "sezon"}, "PATCH /api/v1/seasons/{}/"),
    Page("profiles/merge/", lambda w: "/profiles/merge/",
         lambda w: dict(zip(("keep_profile", "other_profile"), map(str, _profiles(w)),
                            strict=True)), "POST /api/v1/profiles/{}/merge/"),
    Page("profiles/merge/", lambda w: "/profiles/merge/",
         lambda w: dict(zip(("keep_profile", "other_profile"), map(str, _takeover(w)),
                            strict=True)), "POST /api/v1/profiles/{}/merge/ (takeover)"),
    Page("profiles/merge/", lambda w: "/profiles/merge/",
         lambda w: dict(zip(("keep_profile", "other_profile"), map(str, _takeover(w)[::-1]),
                            strict=True)),
         "POST /api/v1/profiles/{}/merge/ (takeover, kept the real one)"),
    Page("profiles/<int:pk>/unmerge/", lambda w: f"/profiles/{_merged(w)}/unmerge/",
         twin="POST /api/v1/profiles/{}/unmerge/"),
    # The one-time token is the permission (its checks: tests/tournaments/test_people.py).
    Page("accounts/invitation/<uidb64>/<token>/",
         lambda w: "/accounts/invitation/MQ/bad-token/", lambda w: {"new_password1": "x"},
         allowed=EVERYONE),
    # -- webhooks
    Page("t/<str:slug>/webhooks/", lambda w: f"/t/{_slug(w)}/webhooks/",
         lambda w: {"url": "http://93.184.215.14/hook", "events": ["party.finished"]},
         "POST /api/v1/webhooks/"),
    Page("t/<str:slug>/webhooks/<int:pk>/delete/",
         lambda w: f"/t/{_slug(w)}/webhooks/{_webhook(w).pk}/delete/",
         twin="DELETE /api/v1/webhooks/{}/"),
    Page("t/<str:slug>/webhooks/<int:pk>/renew-secret/",
         lambda w: f"/t/{_slug(w)}/webhooks/{_webhook(w).pk}/renew-secret/",
         lambda w: {"confirmed": "1"}, "POST /api/v1/webhooks/{}/renew-secret/"),
    Page("t/<str:slug>/deliveries/<int:pk>/replay/",
         lambda w: f"/t/{_slug(w)}/deliveries/{_delivery(w)}/replay/",
         twin="POST /api/v1/webhook-deliveries/{}/replay/"),
    # -- check-in: the organizer's page; the player's "I'm here"; a card's token and the
    # personal link are the permission of their pages
    Page("t/<str:slug>/checkin/", lambda w: f"/t/{_slug(w)}/checkin/", _window_form,
         "POST /api/v1/checkin-windows/"),
    Page("t/<str:slug>/checkin/<int:pk>/close/",
         lambda w: f"/t/{_slug(w)}/checkin/{_checkin_window(w).pk}/close/",
         twin="POST /api/v1/checkin-windows/{}/close/"),
    Page("t/<str:slug>/checkin/<int:pk>/tick/",
         lambda w: f"/t/{_slug(w)}/checkin/{_checkin_window(w).pk}/tick/",
         lambda w: {"entrant": w.spare_pair.pk}, "POST /api/v1/checkins/"),
    Page("t/<str:slug>/me/checkin/", lambda w: f"/t/{_slug(w)}/me/checkin/",
         allowed=frozenset({"party_player", "player"})),
    Page("p/<str:token>/checkin/",
         lambda w: (_checkin_window(w), f"/p/{w.spare_pair.player1.access_token}/checkin/")[1],
         allowed=EVERYONE),
    Page("t/<str:slug>/checkin/scan/<str:token>/", _card, allowed=EVERYONE),
    # -- the timetable: its items, and a round's start (refused: the round has started)
    Page("t/<str:slug>/timetable/", lambda w: f"/t/{_slug(w)}/timetable/",
         lambda w: {"kind": "break", "starts_at": "2026-12-14T13:00"},
         "POST /api/v1/timetable-items/"),
    Page("t/<str:slug>/timetable/<int:pk>/", lambda w: f"/t/{_slug(w)}/timetable/{_item(w)}/",
         lambda w: {"kind": "break", "title": "Обед", "starts_at": "2026-12-14T13:30"},
         f"PATCH {ITEM}"),
    Page("t/<str:slug>/timetable/<int:pk>/delete/",
         lambda w: f"/t/{_slug(w)}/timetable/{_item(w)}/delete/", twin=f"DELETE {ITEM}"),
    Page("t/<str:slug>/timetable/round/<int:number>/",
         lambda w: f"/t/{_slug(w)}/timetable/round/{_number(w)}/",
         lambda w: {f"r{_number(w)}-starts_at": "2026-12-14T13:00"}, f"PATCH {ROUND}"),
    # -- read-only API tokens
    Page("api-tokens/", lambda w: "/api-tokens/", lambda w: {"name": "Табло"},
         "POST /api/v1/auth/read-only-tokens/"),
    Page("api-tokens/<int:pk>/revoke/",
         lambda w: f"/api-tokens/{_read_only_token(w)}/revoke/",
         twin="DELETE /api/v1/auth/read-only-tokens/{}/"),
    # -- rating lists: organizers create them, their creator changes them
    Page("ratings/new/", lambda w: "/ratings/new/",
         lambda w: {"name": "Новый рейтинг", "slug": "new-rating", "system": "glicko2",
                    "subject": "players", "parameters": "{}",
                    "tournaments": [w.tournament.pk]}, "POST /api/v1/rating-lists/"),
    Page("ratings/<str:slug>/edit/", lambda w: f"/ratings/{_rating_list(w).slug}/edit/",
         lambda w: {**_rating_list_body(w), "parameters": '{"k": 16}', "public": "on"},
         "PATCH /api/v1/rating-lists/{}/"),
    Page("t/<str:slug>/take-ratings/", lambda w: f"/t/{_slug(w)}/take-ratings/",
         lambda w: {"rating_list": _rating_list(w).pk},
         "POST /api/v1/tournaments/{}/take-ratings/"),
]

SESSION_PAGES = {"accounts/logout/", "i18n/setlang/"}
"""Writes to the visitor's own session only (log out, the language): open to everyone."""

READ_ONLY_PAGES = {
    "", "home/", "me/", "p/<str:token>/", "referee/tables/", "referee/sw.js",
    "t/<str:slug>/", "t/<str:slug>/standings/", "t/<str:slug>/draw/",
    "t/<str:slug>/standings/clubs/", "t/<str:slug>/standings/countries/",
    "t/<str:slug>/table/<int:number>/", "t/<str:slug>/results/", "t/<str:slug>/hall/",
    "t/<str:slug>/bracket/", "t/<str:slug>/bracket.pdf", "t/<str:slug>/groups/",
    "t/<str:slug>/team-standings/", "t/<str:slug>/team/<int:pk>/",
    "t/<str:slug>/pair/<int:pk>/", "t/<str:slug>/player/<int:pk>/", "t/<str:slug>/me/",
    "t/<str:slug>/rounds/", "t/<str:slug>/rounds/<int:number>/", "t/<str:slug>/teams/",
    "t/<str:slug>/import/template.<str:fmt>", "t/<str:slug>/export/",
    "t/<str:slug>/export/tournament.json", "t/<str:slug>/export/<str:what>.<str:fmt>",
    "party/<int:pk>/protocol.pdf", "protocols/<str:public_id>.pdf", "v/<str:public_id>/",
    "print/<int:pk>/", "print/<int:pk>/pdf/", "referee/t/<str:slug>/",
    "referee/party/<int:pk>/", "referee/party/<int:pk>/status/",
    "api/v1/schema/", "api/v1/docs/", "healthz", "healthz/live", "healthz/ready", "favicon.ico",
    "live/",
    "seasons/", "season/<str:slug>/",
    "calendar/", "calendar.ics", "t/<str:slug>/timetable.ics",
    "ratings/", "ratings/<str:slug>/", "ratings/<str:slug>/ratings.csv",
    "players/<int:pk>/",
    "profiles/search/",
    "t/<str:slug>/team-matches/<int:pk>/sheet/", "t/<str:slug>/team-matches/<int:pk>/sheet.pdf",
    "t/<str:slug>/rounds/<int:number>/team-sheets.pdf",
    "t/<str:slug>/checkin/<int:pk>/qr/",
    "t/<str:slug>/entries/",
}
"""Pages that only show: a POST to them changes nothing."""


def _site_routes(patterns: Any = None, prefix: str = "") -> dict[str, Any]:
    """Every route of the site (but the admin's and the API's format suffixes) → its view."""
    routes: dict[str, Any] = {}
    for item in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(item, URLResolver):
            if str(item.pattern) != "admin/":
                routes.update(_site_routes(item.url_patterns, prefix + str(item.pattern)))
        elif isinstance(item, URLPattern) and ":format>" not in str(item.pattern):
            routes[prefix + str(item.pattern)] = item.callback
    return routes


def _api_writes(routes: dict[str, Any]) -> set[tuple[str, str]]:
    """(METHOD, path) of every write operation of the API's views, from their routes."""
    writes = set()
    for route, view in routes.items():
        if not route.startswith("api/v1/") or "(?P<rest>" in route:
            continue  # the catch-alls answer 404 or 308 to any method
        actions = getattr(view, "actions", None)
        if actions is None and hasattr(view, "cls"):
            actions = {m: m for m in ("post", "put", "patch", "delete") if hasattr(view.cls, m)}
        served = getattr(view.cls, "http_method_names", ()) if hasattr(view, "cls") else ()
        for method in actions or {}:
            if method in ("post", "put", "patch", "delete") and method in served:
                writes.add((method.upper(), "/" + re.sub(r"<[^>]+>", "{}", route)))
    return writes


def test_the_matrix_covers_every_write_path_of_the_site() -> None:
    """Every write operation of the API's routes and of the schema is a row of the matrix;
    every page route is a row, a session page or a read-only page; no row is stale."""
    routes = _site_routes()
    rows = {(op.method, op.path) for op in OPS}
    assert rows == _api_writes(routes)
    assert rows == _schema_write_operations()
    pages = {route for route in routes if not route.startswith("api/")}
    listed = {page.route for page in PAGES} | SESSION_PAGES | READ_ONLY_PAGES
    assert pages == listed - {"api/v1/schema/", "api/v1/docs/"}
    assert {page.twin for page in PAGES if page.twin} <= set(OPS_BY_KEY)
    from referee.serializers import PARTY_ACTIONS

    assert set(DESK_FORMS) == set(PARTY_ACTIONS)


def _schema_write_operations() -> set[tuple[str, str]]:
    """(method, path) of every POST/PUT/PATCH/DELETE operation in the OpenAPI schema."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    return {
        (method.upper(), re.sub(r"\{[^}]+\}", "{}", path))
        for path, operations in paths.items()
        for method in operations
        if method.upper() in {"POST", "PUT", "PATCH", "DELETE"}
    }


def _call_api(op: Op, role: str, world: World) -> Callable[[], Any]:
    """The call of the operation as the role (its record and body made beforehand)."""
    client = APIClient()
    if world.users[role] is not None:
        client.force_authenticate(world.users[role])
    target = op.target(world)
    url = op.path.format(target) if target is not None else op.path
    send = getattr(client, op.method.lower())
    body = op.body(world)
    return lambda: send(url, body, format="multipart" if op.multipart else "json")


def _post_page(page: Page, role: str, world: World) -> Callable[[], Any]:
    """The post of the page's form as the role (its record and form made beforehand)."""
    client = Client()
    if world.users[role] is not None:
        client.force_login(world.users[role])
    url = page.url(world)
    assert resolve(url).route == page.route, url
    body = page.body(world)
    return lambda: client.post(url, body)


def _page_passes(response: Any) -> bool:
    """Whether the page let the user act (a refusal: 403, 404 or the login page)."""
    assert response.status_code < 500, response.content[:300]
    if response.status_code in REFUSED:
        return False
    return not (response.status_code == 302 and response["Location"].startswith("/accounts/"))


def _isolated(call: Callable[[], Any]) -> tuple[Any, bool]:
    """Run a call in a savepoint rolled back afterwards: its response and whether it wrote."""
    savepoint = transaction.savepoint()
    try:
        before = snapshot()
        response = call()
        return response, snapshot() != before
    finally:
        transaction.savepoint_rollback(savepoint)


OPS_BY_KEY = {op.key: op for op in OPS}
assert len(OPS_BY_KEY) == len(OPS), "two rows of one operation need cases of their own"


@pytest.mark.django_db
@pytest.mark.parametrize("op", OPS, ids=lambda op: op.key)
def test_permission_matrix(op: Op, world: World) -> None:
    """Each role gets the expected status; a refused request changes nothing."""
    wrong = []
    for role in ROLES:
        response, wrote = _isolated(_call_api(op, role, world))
        expected = op.expected(role)
        if response.status_code != expected or (expected >= 400 and wrote):
            wrong.append((role, expected, response.status_code, wrote, response.content[:200]))
    assert wrong == []


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.label)
def test_page_matrix(page: Page, world: World) -> None:
    """Each role may act on the page exactly where it may through the API twin (0 mismatches);
    a refused post changes nothing."""
    twin = OPS_BY_KEY.get(page.twin)
    mismatches, refused_writes = [], []
    for role in ROLES:
        response, wrote = _isolated(_post_page(page, role, world))
        passes = _page_passes(response)
        if twin is not None:
            api, _wrote = _isolated(_call_api(twin, role, world))
            expected = api.status_code not in REFUSED
            assert expected == (twin.expected(role) not in REFUSED), (role, api.status_code)
        else:
            expected = role in page.allowed
        if passes != expected:
            mismatches.append((role, "page passes" if passes else "page refuses",
                               response.status_code))
        if not passes and wrote:
            refused_writes.append(role)
    assert mismatches == []
    assert refused_writes == []


@pytest.mark.django_db
@pytest.mark.parametrize("route", sorted(SESSION_PAGES))
def test_session_pages_are_open_to_everyone(route: str, world: World) -> None:
    """Logging out and switching the language work for every role and change no record."""
    for role in ROLES:
        page = Page(route, lambda w, route=route: f"/{route}", lambda w: {"language": "ru"})
        response, wrote = _isolated(_post_page(page, role, world))
        assert response.status_code == 302 and not wrote, (role, response.status_code)


READ_ONLY_URLS: dict[str, Callable[[Any], str]] = {
    "p/<str:token>/": lambda w: "/p/no-such-token/",
    "t/<str:slug>/table/<int:number>/": lambda w: f"/t/{_slug(w)}/table/1/",
    "t/<str:slug>/pair/<int:pk>/": lambda w: f"/t/{_slug(w)}/pair/{w.spare_pair.pk}/",
    "t/<str:slug>/player/<int:pk>/": lambda w: f"/t/{_slug(w)}/player/{w.free[0].pk}/",
    "t/<str:slug>/rounds/<int:number>/": lambda w: f"/t/{_slug(w)}/rounds/{_number(w)}/",
    "t/<str:slug>/import/template.<str:fmt>": lambda w: f"/t/{_slug(w)}/import/template.csv",
    "t/<str:slug>/export/<str:what>.<str:fmt>":
        lambda w: f"/t/{_slug(w)}/export/standings.csv",
    "party/<int:pk>/protocol.pdf": lambda w: f"/party/{_party(w)}/protocol.pdf",
    "protocols/<str:public_id>.pdf": lambda w: "/protocols/0f0f.pdf",
    "v/<str:public_id>/": lambda w: "/v/0f0f/",
    "print/<int:pk>/": lambda w: "/print/1/",
    "print/<int:pk>/pdf/": lambda w: "/print/1/pdf/",
    "referee/party/<int:pk>/": lambda w: f"/referee/party/{_party(w)}/",
    "referee/party/<int:pk>/status/": lambda w: f"/referee/party/{_party(w)}/status/",
    "season/<str:slug>/": lambda w: f"/season/{_season(w).slug}/",
    "t/<str:slug>/teams/": lambda w: f"/t/{_team_cup(w).slug}/teams/",
    "players/<int:pk>/": lambda w: f"/players/{_profile(w)}/",
    "t/<str:slug>/team-matches/<int:pk>/sheet/": _sheet,
    "t/<str:slug>/team-matches/<int:pk>/sheet.pdf": lambda w: _sheet(w)[:-1] + ".pdf",
    "t/<str:slug>/rounds/<int:number>/team-sheets.pdf":
        lambda w: f"/t/{_slug(w)}/rounds/{_number(w)}/team-sheets.pdf",
    "t/<str:slug>/team/<int:pk>/": lambda w: f"/t/{_slug(w)}/team/1/",
    "t/<str:slug>/checkin/<int:pk>/qr/":
        lambda w: f"/t/{_slug(w)}/checkin/{_checkin_window(w).pk}/qr/",
}


def _token(purpose: str, entry_id: int) -> str:
    """An entry's signed link of ``purpose``."""
    from tournaments.entries.tokens import make_token

    return make_token(purpose, entry_id)


def _profile(world: World) -> int:
    """A profile linked to a player of our tournament: his record page."""
    from scoring.models import Profile

    profile = Profile.objects.create(name=world.free[0].name)
    world.free[0].profile = profile
    world.free[0].save()
    return profile.pk


def _read_only_url(route: str, world: World) -> str:
    """A URL of the route with records of our tournament."""
    if route in READ_ONLY_URLS:
        return READ_ONLY_URLS[route](world)
    return "/" + route.replace("<str:slug>", _slug(world))


@pytest.mark.django_db
@pytest.mark.parametrize("route", sorted(READ_ONLY_PAGES))
def test_read_only_pages_write_nothing(route: str, world: World) -> None:
    """A post to a page that only shows changes nothing, for the roles that can do most."""
    url = _read_only_url(route, world)
    assert resolve(url).route == route
    for role in ("superuser", "organizer", "referee", "party_player", "anonymous"):
        client = Client()
        if world.users[role] is not None:
            client.force_login(world.users[role])
        response, wrote = _isolated(lambda client=client: client.post(url, {"name": "x"}))
        assert response.status_code < 500 and not wrote, (role, response.status_code)


# -- who reads a person: profiles' details and player pages -------------------------------------

SEES_SECRET = ORGANIZER
"""Who sees the real player of our organizer's hidden tournament (and reads his birth year and
federation id): our organizer, and staff. Every other role, the unrelated organizer above all,
gets 0 cells through."""


def _imports_of_him(world: World, role: str, api: APIClient) -> dict[str, bool]:
    """What a roster import (checked, not imported) into a tournament the role organizes makes
    of the hidden tournament's real player: linked by his federation id, linked or offered by
    his name, birth year and club. A role organizing no tournament imports nowhere."""
    from scoring.access.permissions import managed_tournaments

    into = world.tournament if role in ORGANIZER else (
        managed_tournaments(world.users[role]).first() if world.users[role] else None)
    found = {"roster import links him by federation id": False,
             "roster import links or offers him by name": False}
    if into is None:
        return found
    for cell, line in (("roster import links him by federation id", "Т. Игрок,,,RU-9"),
                       ("roster import links or offers him by name", "Тайный Игрок,Тень,1975,")):
        csv = f"name,club,birth_year,federation_id\n{line}\n".encode()
        answer = api.post(f"/api/v1/tournaments/{into.pk}/import/", {
            "file": SimpleUploadedFile("r.csv", csv, "text/csv"), "dry_run": "true"},
            format="multipart")
        assert answer.status_code in (200, 400), (role, answer.status_code)
        profile = answer.json()["rows"][0]["profile"]
        found[cell] = profile.get("profile") == world.secret.pk or world.secret.pk in {
            c["id"] for c in profile.get("candidates", [])}
    return found


def _reads(world: World, role: str) -> dict[str, bool]:
    """What the role gets of the hidden tournament's real player (and of the birth year of our
    public player, and of the unrelated organizer's throwaway): each cell, whether it passes."""
    from scoring.models import Profile

    api, page = APIClient(), Client()
    if world.users[role] is not None:
        api.force_authenticate(world.users[role])
        page.force_login(world.users[role])
    secret, public = world.secret.pk, world.free[0].profile_id
    listed = {p["id"]: p for p in api.get("/api/v1/profiles/").json()["results"]}
    detail = api.get(f"/api/v1/profiles/{secret}/")
    searched = page.get("/profiles/search/", {"for": "p", "p_find": "тайный"})
    return {
        "list names him": secret in listed,
        "list gives his birth year": "birth_year" in listed.get(secret, {}),
        "search finds him": api.get("/api/v1/profiles/", {"search": "тайный"}).json()["count"] > 0,
        "detail answers": detail.status_code == 200,
        "detail gives birth year and federation id": detail.status_code == 200 and {
            "birth_year", "federation_id"} <= set(detail.json()),
        "record answers": api.get(f"/api/v1/profiles/{secret}/record/").status_code == 200,
        "player page answers": page.get(f"/players/{secret}/").status_code == 200,
        "form search offers him": searched.status_code == 200
        and "Тайный Игрок" in searched.content.decode(),
        "public player's birth year": "birth_year" in api.get(
            f"/api/v1/profiles/{public}/").json(),
        "throwaway answers": api.get(f"/api/v1/profiles/{world.throwaway.pk}/").status_code
        == 200 and Profile.objects.filter(pk=world.throwaway.pk).exists(),
        **_imports_of_him(world, role, api),
    }


@pytest.mark.django_db
def test_profile_reads_matrix(world: World) -> None:
    """A person entered only in a hidden tournament is seen (list, search, detail, record,
    player page, the forms' search) and linked by a roster import (on his federation id, or
    on his name, birth year and club) by its organizer and staff only, his birth year and
    federation id too; a public player's details only by the organizers of his tournament;
    the unrelated organizer's throwaway by him and staff. 0 cells otherwise."""
    from scoring.models import Profile

    profile = Profile.objects.create(name=world.free[0].name, birth_year=1990)
    world.free[0].profile = profile
    world.free[0].save()
    wrong = []
    for role in ROLES:
        expected = {
            cell: role in (STAFF | {"unrelated_organizer"} if cell == "throwaway answers"
                           else SEES_SECRET)
            for cell in _reads(world, "superuser")
        }
        got = _reads(world, role)
        wrong += [(role, cell, got[cell]) for cell in got if got[cell] != expected[cell]]
    assert wrong == []
