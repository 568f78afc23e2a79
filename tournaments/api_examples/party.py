"""The scenario's second half: round 1 played at the referee desk, signed off and closed.

Table 1 plays: every clock action, deals (quick, by pips, by tiles), penalties and rulings,
a correction, an annulment and a cancelled fine, then the party is finished and its protocol
signed. Table 2 is a no-show. A singles tournament of the UDL rules adds what only a match of
timed games has (a violation of the UDL rules, the game's time up) and a disqualification.
"""

from __future__ import annotations

from typing import Any

from tournaments.api_examples.tournament import Scene


def _version(scene: Scene, party: int) -> int:
    """The party's version as the desk last read it."""
    return scene.call("ref", "get", f"/parties/{party}/")["version"]


def play_table_one(scene: Scene) -> None:
    """Start table 1, then the rest of the round; the clock, helpers, deals and rulings."""
    pid, rid = scene.ids["party"], scene.ids["round"]
    scene.call("ref", "post", f"/parties/{pid}/start/", {"version": _version(scene, pid)})
    scene.call("org", "post", f"/rounds/{rid}/start/")
    scene.call("ref", "post", f"/parties/{pid}/check-in/", {"side": "a"})
    scene.call("ref", "post", f"/parties/{pid}/check-in/", {"side": "b", "present": True})
    scene.call("ref", "post", f"/parties/{pid}/pause/", {})
    scene.call("ref", "post", f"/parties/{pid}/pause-reason/",
               {"reason": "Спор о ходе, вызван судья"})
    scene.call("ref", "post", f"/parties/{pid}/resume/", {"reason": "Спор решён"})
    scene.call("ref", "post", f"/parties/{pid}/move-advice/",
               {"hand": ["3-5", "6-6", "0-1"], "open_ends": [5, 2], "played": ["5-2"]})
    scene.call("ref", "post", f"/parties/{pid}/tiles-preview/", {
        "outcome": "domino", "seat": "a1",
        "tiles": {"a1": [], "a2": ["3-5", "0-2"], "b1": ["6-6"], "b2": ["1-4", "2-2"]},
    })
    first = scene.call("ref", "post", f"/parties/{pid}/deal/", {
        "number": 1, "outcome": "domino", "seat": "a1",
        "pips": {"a1": 0, "a2": 10, "b1": 12, "b2": 9}, "client_id": "desk-1-deal-1",
    }, expect=201)
    scene.ids["deal"] = first["record"]["id"]
    scene.call("ref", "post", f"/parties/{pid}/deal/", {
        "number": 2, "outcome": "fish",
        "tiles": {"a1": ["6-5"], "a2": ["4-4"], "b1": ["1-0"], "b2": ["2-1"]},
    }, expect=201)
    third = scene.call("ref", "post", f"/parties/{pid}/deal/", {
        "number": 3, "outcome": "domino", "seat": "b1", "points": {"a": 0, "b": 35},
        "version": _version(scene, pid),
    }, expect=201, keep=True)
    scene.ids["annulled"] = third["record"]["id"]
    scene.call("ref", "post", f"/parties/{pid}/deal/", {
        "number": 4, "outcome": "domino", "side": "a", "points": {"a": 80, "b": 0},
    }, expect=201)
    _penalties_and_rulings(scene, pid)


def _penalties_and_rulings(scene: Scene, pid: int) -> None:
    """A warning, a fine, three rulings; then a correction, an annulment, a cancellation."""
    scene.call("ref", "post", f"/parties/{pid}/warning/",
               {"side": "b", "category": "signs", "reason": "Знаки партнёру"}, expect=201)
    slip = scene.call("ref", "post", f"/parties/{pid}/warning/",
                      {"side": "a", "category": "conduct"}, expect=201)
    scene.call("ref", "post", f"/parties/{pid}/undo/",
               {"record": "penalty", "id": slip["record"]["id"]})  # given to the wrong pair
    fine = scene.call("ref", "post", f"/parties/{pid}/fine/", {
        "seat": "a2", "category": "talking", "points": 10, "reason": "Разговоры за столом",
    }, expect=201)
    scene.call("ref", "post", f"/parties/{pid}/out-of-turn/",
               {"seat": "b2", "choice": "continue", "tile": "2-4"}, expect=201)
    scene.call("ref", "post", f"/parties/{pid}/touched-tile/",
               {"seat": "a1", "fits": True, "tile": "6-3"}, expect=201)
    scene.call("ref", "post", f"/parties/{pid}/false-pass/",
               {"seat": "b1", "reason": "Пропуск хода при наличии камня"}, expect=201)
    scene.call("ref", "get", f"/referee/tournaments/{scene.ids['tournament']}/overview/",
               query={"round_number": 1})
    deal = scene.ids["deal"]
    scene.call("ref", "get", f"/deals/{deal}/")
    scene.call("ref", "post", f"/deals/{deal}/correct/", {
        "outcome": "domino", "seat": "a1", "pips": {"a1": 0, "a2": 10, "b1": 20, "b2": 15},
        "reason": "Очки соперников пересчитаны",
    })
    scene.call("ref", "post", f"/deals/{scene.ids['annulled']}/annul/",
               {"reason": "Сдача сыграна с неполным набором"})
    scene.call("ref", "get", f"/penalties/{fine['record']['id']}/")
    scene.call("ref", "post", f"/penalties/{fine['record']['id']}/cancel/",
               {"reason": "Штраф дан не той паре"})
    rulings = scene.call("ref", "get", f"/parties/{pid}/rulings/")
    scene.call("ref", "get", f"/rulings/{rulings[0]['id']}/")
    scene.call("org", "patch", f"/tournaments/{scene.ids['tournament']}/regulations/",
               {"target": 100})  # time is short: the parties go to 100 points
    scene.call("ref", "post", f"/parties/{pid}/finish/", {})
    for records in ("deals", "penalties", "events"):
        scene.call("ref", "get", f"/parties/{pid}/{records}/")
    scene.call("org", "get", "/parties/", query={"round": scene.ids["round"]})
    scene.call("ref", "get", f"/parties/{pid}/", keep=True)  # the whole state, played


def no_show_at_table_two(scene: Scene) -> None:
    """Side a checks in at table 2; side b does not come and forfeits after the wait."""
    pid = scene.ids["absent"]
    scene.call("ref", "post", f"/parties/{pid}/check-in/", {"side": "a"})
    scene.rec.clock.advance(minutes=16)
    scene.call("ref", "post", f"/parties/{pid}/no-show/",
               {"side": "b", "reason": "Пара не явилась к столу"}, expect=201)


def sign_off(scene: Scene) -> None:
    """Table 1's protocol: PINs, three signatures on the desk, a refusal, the countersign."""
    pid = scene.ids["party"]
    protocol = scene.call("ref", "get", f"/party-protocols/{pid}/")
    seats = scene.ids["party_seats"]
    players = [seats[seat] for seat in ("a1", "a2", "b1", "b2")]
    for number, player in enumerate(players[:3], start=1):
        scene.call("org", "post", "/signing-pins/", {"player": player, "pin": f"{number}" * 4},
                   expect=204)
        scene.call("ref", "post", f"/party-protocols/{pid}/sign/",
                   {"player": player, "pin": f"{number}" * 4}, expect=201)
    scene.call("ref", "post", f"/party-protocols/{pid}/refuse/",
               {"player": players[3], "reason": "Не согласен со штрафом"}, expect=201)
    protocol = scene.call("ref", "get", f"/party-protocols/{pid}/", keep=True)
    signed = scene.call("ref", "post", f"/party-protocols/{pid}/countersign/",
                        {"version": protocol["party_version"]})
    scene.call("ref", "get", f"/party-protocols/{pid}/pdf/")
    scene.call("org", "get", "/protocols/", query={"party": pid})
    scene.call("org", "get", f"/protocols/{signed['public_id']}/")
    scene.call("org", "get", f"/protocols/{signed['public_id']}/pdf/")
    scene.ids["signed_protocol"] = signed["public_id"]


def verification(scene: Scene) -> None:
    """The signed protocol of table 1 as the verification page checks it (last: no clock
    step moves the times of the calls before it)."""
    scene.call("org", "get", f"/protocols/{scene.ids['signed_protocol']}/verification/")


def close_round(scene: Scene) -> None:
    """Round 1 closed, the standings and the club standings, the webhook's deliveries; round 2
    created and deleted."""
    from scoring.webhooks import outbox

    tid, rid = scene.ids["tournament"], scene.ids["round"]
    scene.call("org", "post", f"/rounds/{rid}/close/")
    scene.call("org", "get", f"/tournaments/{tid}/standings/", query={"after_round": 1})
    scene.call("org", "get", f"/tournaments/{tid}/club-standings/", query={"by": "club"})
    outbox.sweep()  # what a sender does after the requests: the deliveries go out
    deliveries = scene.call("org", "get", "/webhook-deliveries/",
                            query={"subscription": scene.ids["webhook"]})
    last = deliveries["results"][0]["id"]
    scene.call("org", "get", f"/webhook-deliveries/{last}/")
    scene.call("org", "post", f"/webhook-deliveries/{last}/replay/", expect=201)
    spare = scene.call("org", "post", "/rounds/", {"tournament": tid}, expect=201)
    scene.call("org", "delete", f"/rounds/{spare['id']}/", expect=204)



def finish_and_renew(scene: Scene) -> None:
    """The tournament finished and reopened; its webhook given a new secret (last: the calls
    before keep their times)."""
    tid = scene.ids["tournament"]
    scene.call("org", "post", f"/tournaments/{tid}/finish/")
    scene.call("org", "post", f"/tournaments/{tid}/reopen/")
    scene.call("org", "post", f"/webhooks/{scene.ids['webhook']}/renew-secret/")


def player_record(scene: Scene) -> None:
    """Иван Петров's profile linked to his entry, and his record after round 1 (after the
    verification: it moves no time of the calls before it)."""
    from scoring.models import Player, Profile

    profile = Profile.objects.create(name="Иван Петров", club="Динамо", city="Москва")
    Player.objects.filter(tournament_id=scene.ids["tournament"], name="Иван Петров").update(
        profile=profile
    )
    scene.call("anonymous", "get", f"/profiles/{profile.pk}/record/")


def _started_party(scene: Scene, tid: int) -> int:
    """Table 1, the referee "ref", a round drawn, published and started: its party's id."""
    scene.call("org", "post", "/tables/", {"tournament": tid, "number": 1}, expect=201)
    scene.call("org", "post", f"/referee/tournaments/{tid}/referees/",
               {"username": "ref", "role": "referee"}, expect=201)
    rid = scene.call("org", "post", "/rounds/", {"tournament": tid}, expect=201)["id"]
    scene.call("org", "post", f"/rounds/{rid}/generate/", {"seed": 7})
    scene.call("org", "post", f"/rounds/{rid}/publish/")
    scene.call("org", "post", f"/rounds/{rid}/start/")
    pid = scene.call("ref", "get", "/parties/", query={"round": rid})["results"][0]["id"]
    return pid


def udl_match(scene: Scene) -> None:
    """A singles UDL match: a violation of its rules, the game's time up, a disqualification."""
    udl = scene.call("org", "post", "/tournaments/", {
        "name": "UDL Open Moscow", "rule_set": "udl", "format": "pairs",
        "start_date": "2026-05-17", "time_zone": "Europe/Moscow", "language": "en",
    }, expect=201)
    tid = udl["id"]
    scene.call("org", "patch", f"/tournaments/{tid}/regulations/", {"game_minutes": 20})
    for name in ("Ana Souza", "Carlos Mendes"):
        scene.call("org", "post", "/players/", {"tournament": tid, "name": name,
                                                 "register_side": True}, expect=201)
    pid = _started_party(scene, tid)
    scene.call("ref", "post", f"/parties/{pid}/udl-violation/",
               {"violation": "slow_play", "seat": "b1", "reason": "Долгий ход"}, expect=201)
    scene.rec.clock.advance(minutes=18)
    scene.call("ref", "post", f"/parties/{pid}/game-time-up/", {})
    scene.call("ref", "post", f"/parties/{pid}/time-up/", {})
    scene.call("ref", "post", f"/parties/{pid}/disqualify/", {
        "seat": "b1", "scope": "party", "category": "conduct",
        "reason": "Оскорбление соперника",
    }, expect=201)


def kozel_game(scene: Scene) -> None:
    """A Kozel game of four, each for himself: the draw for the first move, a redeal, one deal,
    then a player's timeout stops it."""
    kozel = scene.call("org", "post", "/tournaments/", {
        "name": "Kozel Cup", "rule_set": "kozel", "format": "individual",
        "start_date": "2026-05-18", "time_zone": "Europe/Moscow", "language": "en",
    }, expect=201)
    tid = kozel["id"]
    for name in ("Masha", "Alex", "Olya", "Serg"):
        scene.call("org", "post", "/players/", {"tournament": tid, "name": name}, expect=201)
    pid = _started_party(scene, tid)
    scene.call("ref", "post", f"/parties/{pid}/first-mover/", {"seat": "a1"})
    scene.call("ref", "post", f"/parties/{pid}/redeal/",
               {"seat": "a2", "hand": ["0-0", "1-1", "2-2", "3-3", "5-5"]}, expect=201)
    scene.call("ref", "post", f"/parties/{pid}/deal/", {
        "outcome": "domino", "seat": "b2", "points": {"a1": 30, "b1": 32, "a2": 13},
    }, expect=201)
    scene.call("ref", "post", f"/parties/{pid}/player-timeout/",
               {"seat": "b1", "reason": "Не успел сделать ход"}, expect=201)


def refusals(scene: Scene) -> None:
    """A few refusals kept as the error examples of their operations."""
    tid, pid = scene.ids["tournament"], scene.ids["party"]
    scene.call("org", "post", "/tournaments/", {"name": "Кубок", "slug": "not a slug!"},
               expect=400, error=True)
    scene.call("ref", "post", f"/parties/{pid}/warning/",
               {"winner": "a", "category": "signs"}, expect=400, error=True)
    scene.call("ref2", "patch", f"/tournaments/{tid}/", {"city": "Тверь"}, expect=403,
               error=True)
    scene.call("org", "get", "/parties/999999/", expect=404, error=True)


def run(scene: Scene, receiver_url: str) -> dict[str, Any]:
    """The whole scenario, in order."""
    from tournaments.api_examples import seasons
    from tournaments.api_examples import tournament as event
    from tournaments.api_examples.checkin import checkin
    from tournaments.api_examples.entries import entries
    from tournaments.api_examples.ratings import rating_lists
    from tournaments.api_examples.stages import finals
    from tournaments.api_examples.team_sheets import team_sheet
    from tournaments.api_examples.teams import team_rounds, team_squads, teams
    from tournaments.api_examples.timetable import calendar_and_timetable

    event.make_users(scene)
    event.tournament(scene)
    event.entrants(scene)
    event.staff(scene)
    event.webhooks(scene, receiver_url)
    event.round_one(scene)
    play_table_one(scene)
    no_show_at_table_two(scene)
    sign_off(scene)
    close_round(scene)
    udl_match(scene)
    kozel_game(scene)
    refusals(scene)
    rating_lists(scene)
    verification(scene)
    seasons.season(scene)  # last: the recorder's clock of the steps before stays as it was
    player_record(scene)
    event.profile_merges(scene)
    finish_and_renew(scene)
    event.read_only_tokens(scene)  # after the rest: it moves no time of the calls before it
    finals(scene)  # its no-show wait moves no time of the calls before it
    teams(scene)  # after the rest: the ids and times of the calls before stay as they were
    team_rounds(scene)
    team_sheet(scene)  # it adds records, no call before it changes
    checkin(scene)  # last: the ids and times of the calls before stay as they were
    entries(scene)  # last too: it adds records only
    calendar_and_timetable(scene)  # last too: it adds records of its own only
    team_squads(scene)  # last too: the ids of the calls before stay as they were
    return scene.rec.written()
