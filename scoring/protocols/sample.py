"""Realistic made-up protocols for tests, the benchmark and previews (no database needed)."""

from __future__ import annotations

import random

from .data import (
    ProtocolData,
    ProtocolDeal,
    ProtocolPenalty,
    ProtocolPlayer,
    ProtocolSide,
    ProtocolSignature,
    labels_for,
)

_FIRST = ["Иван", "Пётр", "Ёлкин", "Сергей", "Анна", "Мария", "José", "Jürgen", "Łukasz",
          "Zoë", "Ольга", "Дмитрий", "Наталья", "Фёдор", "Ülkü", "Éric"]
_LAST = ["Петров", "Щукин", "Müller", "Сидоров", "Кузнецова", "Øster", "Çelik", "Жуков",
         "Иванова", "Šimůnek", "Чернышёв", "Гусев", "Dvořák", "Łęcki", "Эйхман", "Yılmaz"]
_REASONS_EN = ["Out of turn", "Touched a tile", "False pass", "Late for the round",
               "Talking during the deal", "Slow play after a warning"]
_REASONS_RU = ["Ход не в очередь", "Касание камня", "Ложный пропуск", "Опоздание к туру",
               "Разговоры во время кона", "Затягивание игры после предупреждения"]


def sample_protocol(table: int = 1, *, deals: int = 30, penalties: int = 10,
                    language: str = "ru", seed: int | None = None,
                    base_url: str = "https://domino.example.org/v/") -> ProtocolData:
    """Return a plausible signed-off protocol for ``table`` with the given number of rows."""
    rnd = random.Random(table if seed is None else seed)
    russian = language.startswith("ru")

    def person() -> str:
        return f"{rnd.choice(_FIRST)} {rnd.choice(_LAST)}"

    players = [person() for _ in range(4)]
    sides = [
        ProtocolSide("a", f"{players[0].split()[1]} / {players[2].split()[1]}",
                     [ProtocolPlayer(players[0], "N"), ProtocolPlayer(players[2], "S")]),
        ProtocolSide("b", f"{players[1].split()[1]} / {players[3].split()[1]}",
                     [ProtocolPlayer(players[1], "E"), ProtocolPlayer(players[3], "W")]),
    ]
    outcomes = ("Домино", "Рыба") if russian else ("Domino", "Fish")
    deal_rows = []
    run_a = run_b = 0
    for number in range(1, deals + 1):
        fish = rnd.random() < 0.2
        points = rnd.randrange(5, 60, 5)
        if rnd.random() < 0.5:
            points_a, points_b = points, 0
        else:
            points_a, points_b = 0, points
        run_a += points_a
        run_b += points_b
        note = ""
        if number % 11 == 0:
            note = "Заход с дубля 6:6" if russian else "Opened with double six"
        deal_rows.append(ProtocolDeal(number, outcomes[1 if fish else 0], points_a, points_b,
                                      run_a, run_b, note))
    reasons = _REASONS_RU if russian else _REASONS_EN
    kinds = ("Предупреждение", "Штраф") if russian else ("Warning", "Fine")
    penalty_rows = []
    for index in range(penalties):
        fine = index % 2 == 1
        side = sides[index % 2]
        penalty_rows.append(ProtocolPenalty(
            time=f"10:{10 + 3 * index:02d}", side=side.key.upper(),
            player=side.players[index % 2].name, kind=kinds[1 if fine else 0],
            points=-40 if fine else 0, reason=rnd.choice(reasons)))
    referee = person()
    role_player, role_referee = ("Игрок", "Судья") if russian else ("Player", "Referee")
    signatures = [ProtocolSignature(role_player, name, f"2025-05-17 10:5{i}")
                  for i, name in enumerate(players)]
    signatures.append(ProtocolSignature(role_referee, referee, "2025-05-17 10:58"))
    public_id = f"{rnd.getrandbits(128):032x}"
    short_code = f"{rnd.getrandbits(20):05X}-{table:03d}"
    winner = sides[0].name if run_a >= run_b else sides[1].name
    return ProtocolData(
        tournament=("Кубок города по спортивному домино 2025" if russian
                    else "City Sport Domino Cup 2025"),
        round_number=3, table=str(table), date="2025-05-17", start_time="10:00",
        end_time="10:55", referee=referee, sides=sides, deals=deal_rows,
        penalties=penalty_rows,
        end_reason="Набрано 1000 очков" if russian else "Target reached",
        result=f"{run_a} : {run_b}", match_points="2 : 0" if run_a >= run_b else "0 : 2",
        winner=winner, signatures=signatures, public_id=public_id, short_code=short_code,
        verify_url=f"{base_url}{public_id}", version=1, labels=labels_for(language),
        language=language)
