"""Set-up services: creating a tournament and changing it and its regulations (the game, the
format, the short name); the checks a tournament's format and rule set make together."""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Field
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError, translate_engine_error
from scoring.models import (
    GAME_SETTINGS,
    SEATING_SETTINGS,
    Pair,
    Regulations,
    Tournament,
    TournamentRole,
)
from scoring.rules import RULE_SETS, RuleError, RulesConfig, get_rule_set
from scoring.rules import RuleSet as RuleSetEngine
from scoring.rules.game_settings import default_game_settings
from tournaments.setup.team_settings import check_team_settings

logger = logging.getLogger(__name__)


def actor_id(actor: Any) -> Any:
    """The id of the user who acted, for the log (None for the system)."""
    return getattr(actor, "pk", None)


def validated(instance: Any) -> Any:
    """Run model validation and save; raise ServiceError naming the first field at fault."""
    _clean(instance)
    instance.save()
    return instance


def _config(regulations: Regulations) -> RulesConfig:
    """The regulations' snapshot for the rule engine; ServiceError naming a refused setting."""
    try:
        return regulations.rules_config()
    except RuleError as exc:
        raise translate_engine_error(exc) from exc


def table_size(engine: RuleSetEngine, cfg: RulesConfig) -> int:
    """How many players sit at a table under these regulations."""
    return len(engine.seats_for(cfg))


def players_vary(engine: RuleSetEngine) -> bool:
    """Whether the regulations choose the players at a table (games of 2–4 players)."""
    two, four = (engine.config(players=n, tiles_per_hand=0) for n in (2, 4))
    return table_size(engine, two) != table_size(engine, four)


def plays_in_pairs_option(engine: RuleSetEngine) -> bool:
    """Whether four players may choose to play as two pairs (``kozel_pairs``: Kozel)."""
    alone = engine.config(players=4, tiles_per_hand=0)
    paired = engine.config(players=4, tiles_per_hand=0, kozel_pairs=True)
    return engine.side_size(alone) != engine.side_size(paired)


def format_conflict(tournament_format: str, rule_set: str, cfg: RulesConfig) -> str | None:
    """Why a tournament format does not suit a rule set under ``cfg`` (None when it does).

    Sides of two players (sport, Latin, Kozel in pairs) suit both formats. Where every player
    plays for himself, two players at a table are two sides of one player (the pairs format,
    each side registered once), and three or four need the individual format, whose draw
    seats the players at the tables every round.
    """
    engine = get_rule_set(rule_set)
    if engine.side_size(cfg) != 1:
        return None
    game = Tournament.game_name_of(rule_set)
    if tournament_format == Tournament.Format.TEAMS:
        return _(
            "In %(game)s a side is one player: a team tournament needs sides of two players "
            "(pairs)."
        ) % {"game": game}
    players = table_size(engine, cfg)
    if players == 2 and tournament_format == Tournament.Format.INDIVIDUAL:
        return _(
            "In %(game)s with two players at a table a side is one player: choose the pairs "
            "format and register each player as a side."
        ) % {"game": game}
    if players > 2 and tournament_format == Tournament.Format.PAIRS:
        return _(
            "In %(game)s with %(players)s players at a table everyone plays for himself: "
            "choose the individual format, so that the draw seats the players every round."
        ) % {"game": game, "players": players}
    return None


def registers_sides(tournament: Tournament) -> bool:
    """Whether the organizer registers sides of one player (singles, pairs format)."""
    return tournament.format == Tournament.Format.PAIRS and tournament.singles


def _reset_game(regulations: Regulations, rule_set: str) -> None:
    """Put back the defaults of every setting a preset fills in, then apply ``rule_set``'s."""
    regulations.game_settings = default_game_settings()
    names = {name for engine in RULE_SETS.values() for name in engine.preset} - set(GAME_SETTINGS)
    for field in (Regulations._meta.get_field(n) for n in names if hasattr(regulations, n)):
        if isinstance(field, Field):  # a setting's own field (never a relation to it)
            setattr(regulations, field.name, field.get_default())
    regulations.apply_preset(rule_set)


def _choose_game(
    regulations: Regulations, rule_set: str, players: int | None, kozel_pairs: bool | None
) -> None:
    """Set the players at a table and Kozel's pairs where the rule set lets them vary."""
    engine = get_rule_set(rule_set)
    game = Tournament.game_name_of(rule_set)
    if players is not None and players != regulations.players:
        if not players_vary(engine):
            raise ServiceError(
                "players",
                _("The number of players at a table is fixed in %(game)s.") % {"game": game},
            )
        regulations.players = players
    if kozel_pairs is not None and kozel_pairs != regulations.kozel_pairs:
        if kozel_pairs and not plays_in_pairs_option(engine):
            raise ServiceError(
                "kozel_pairs",
                _("In %(game)s the sides do not change with this setting.") % {"game": game},
            )
        regulations.kozel_pairs = kozel_pairs


def _side_size(tournament: Tournament, regulations: Regulations) -> int:
    """Players on a side under these regulations (1 in singles games)."""
    return get_rule_set(tournament.rule_set).side_size(_config(regulations))


def _check_game_change(
    tournament: Tournament, regulations: Regulations, field: str, side_before: int
) -> None:
    """Refuse a change of the game once a round exists, or one that registered pairs break."""
    if tournament.pk and tournament.rounds.exists():
        raise ServiceError(
            field,
            _(
                "The rule set, the format and the players at a table cannot change once a "
                "round has been created."
            ),
        )
    side = _side_size(tournament, regulations)
    registered = tournament.pk and Pair.objects.filter(
        tournament=tournament, formed_in_round__isnull=True
    ).exists()
    if registered and tournament.format == Tournament.Format.INDIVIDUAL:
        raise ServiceError(
            field,
            _(
                "In an individual tournament the draw forms the pairs: remove the registered "
                "pairs first."
            ),
        )
    if side != side_before and registered:
        game = tournament.game_name
        if side == 1:
            message = _(
                "Pairs of two players are registered, but in %(game)s a side is one player: "
                "remove the pairs first."
            )
        else:
            message = _(
                "Sides of one player are registered, but in %(game)s a side is a pair: remove "
                "the sides first."
            )
        raise ServiceError(field, message % {"game": game})


def _check_format(tournament: Tournament, regulations: Regulations, field: str) -> None:
    """Refuse a format that contradicts the rule set (ServiceError naming ``field``)."""
    problem = format_conflict(tournament.format, tournament.rule_set, _config(regulations))
    if problem:
        raise ServiceError(field, problem)


_LATIN = str.maketrans({
    **dict(zip("абвгдезийклмнопрстуфыэ", "abvgdeziyklmnoprstufye", strict=True)),
    "ё": "e", "ж": "zh", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "",
    "ь": "", "ю": "yu", "я": "ya", "і": "i", "ї": "yi", "є": "ye", "ґ": "g", "ў": "u",
})
"""Cyrillic letters in Latin ones, for readable ASCII short names."""


SLUG_ATTEMPTS = 5
"""How many derived slugs creating a tournament tries while other requests take them."""


def slug_taken(slug: str) -> bool:
    """Whether a tournament has this short name."""
    return Tournament.objects.filter(slug=slug).exists()


def derive_slug(name: str, skip: Collection[str] = ()) -> str:
    """A free ASCII short name from a tournament's name (Cyrillic in Latin; -2, -3… if taken).

    ``skip``: slugs to pass over as taken (another request's insert took them meanwhile).
    """
    base = slugify(name.lower().translate(_LATIN))[:70].strip("-") or "tournament"
    slug, number = base, 1
    while slug in skip or slug_taken(slug):
        number += 1
        slug = f"{base}-{number}"
    return slug


def _insert_tournament(tournament: Tournament, derived: bool) -> None:
    """Insert a new tournament, each attempt in a savepoint, against slugs taken meanwhile.

    A slug another request took since it was checked moves on to the next free one if it was
    derived (a few attempts); a given one is refused naming ``slug``.
    """
    tried: list[str] = []
    for attempt in range(1, SLUG_ATTEMPTS + 1):
        try:
            with transaction.atomic():
                tournament.save(force_insert=True)
            return
        except IntegrityError:
            if not slug_taken(tournament.slug):
                raise  # not the slug's conflict
            if not derived or attempt == SLUG_ATTEMPTS:
                error = tournament.unique_error_message(Tournament, ("slug",))
                raise ServiceError("slug", error.messages[0]) from None
            logger.info("tournament slug %s taken meanwhile: the next one", tournament.slug)
            tried.append(tournament.slug)
            tournament.slug = derive_slug(tournament.name, skip=tried)


def not_a_setting(tournament: Tournament) -> str:
    """The refusal of a game setting that the tournament's rule set does not have."""
    game = tournament.game_name
    return _("Not a setting of %(game)s.") % {"game": game}


def _clean(instance: Any, exclude: Collection[str] | None = None) -> Any:
    """Run model validation (but of ``exclude``); raise ServiceError naming the first field."""
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise ServiceError(field, messages[0]) from exc
    return instance


@transaction.atomic
def create_tournament(
    *,
    name: str,
    slug: str = "",
    organizer: Any = None,
    players: int | None = None,
    kozel_pairs: bool | None = None,
    **fields: Any,
) -> Tournament:
    """Create a tournament with its rule set's preset regulations; the creator organizes it.

    ``players`` (at a table) and ``kozel_pairs`` change the preset where the rule set lets
    them vary; a format that contradicts the rule set is refused, naming ``format``. Without
    a ``slug`` one is derived from the name (:func:`derive_slug`), the next free one if another
    request takes it before the insert; a given slug taken meanwhile is refused naming ``slug``.
    """
    derived = not slug
    slug = slug or derive_slug(name)
    tournament = Tournament(name=name, slug=slug, created_by=organizer, **fields)
    _check_dates(tournament)
    check_team_settings(tournament)
    _clean(tournament, exclude=["slug"] if derived else None)  # a derived slug: at the insert
    regulations = Regulations()
    regulations.apply_preset(tournament.rule_set)
    _choose_game(regulations, tournament.rule_set, players, kozel_pairs)
    _check_format(tournament, regulations, "format")
    _insert_tournament(tournament, derived)
    regulations.tournament = tournament
    validated(regulations)
    if organizer is not None:
        TournamentRole.objects.create(
            tournament=tournament, user=organizer, role=TournamentRole.Role.ORGANIZER
        )
    logger.info("tournament created: tournament=%s slug=%s rule_set=%s organizer=%s",
                tournament.pk, tournament.slug, tournament.rule_set, actor_id(organizer))
    return tournament


def _check_dates(tournament: Tournament) -> None:
    """The end date cannot come before the start date."""
    start, end = tournament.start_date, tournament.end_date
    if start and end and end < start:
        raise ServiceError("end_date", _("The end date is before the start date."))


@transaction.atomic
def update_tournament(
    tournament_id: int,
    *,
    actor: Any = None,
    players: int | None = None,
    kozel_pairs: bool | None = None,
    **fields: Any,
) -> Tournament:
    """Change a tournament's own fields (name, dates, public page switches…).

    A new rule set brings its preset regulations; ``players`` and ``kozel_pairs`` change the
    game's settings with it. The game cannot change once a round exists, and a format that
    contradicts the rule set is refused.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    rule_set, tournament_format = tournament.rule_set, tournament.format
    for name, value in fields.items():
        setattr(tournament, name, value)
    _check_dates(tournament)
    check_team_settings(tournament)
    _clean(tournament)
    regulations, _created = Regulations.objects.select_for_update().get_or_create(
        tournament_id=tournament.pk
    )
    side_before = get_rule_set(rule_set).side_size(_config(regulations))
    game_before = (regulations.players, regulations.kozel_pairs)
    if tournament.rule_set != rule_set:
        _reset_game(regulations, tournament.rule_set)
    _choose_game(regulations, tournament.rule_set, players, kozel_pairs)
    changed = [
        name
        for name, now, before in (
            ("rule_set", tournament.rule_set, rule_set),
            ("format", tournament.format, tournament_format),
            ("players", regulations.players, game_before[0]),
            ("kozel_pairs", regulations.kozel_pairs, game_before[1]),
        )
        if now != before
    ]
    if changed:
        _check_game_change(tournament, regulations, changed[0], side_before)
        field = changed[0] if changed[0] in ("players", "kozel_pairs") else "format"
        _check_format(tournament, regulations, field)
    tournament.save()
    regulations.tournament = tournament
    validated(regulations)
    logger.info("tournament changed: tournament=%s fields=%s actor=%s", tournament.pk,
                sorted(fields), actor_id(actor))
    return tournament


@transaction.atomic
def update_regulations(tournament_id: int, *, actor: Any = None, **fields: Any) -> Regulations:
    """Change rule settings of a tournament; settings that contradict each other are refused.

    Only the game settings of the tournament's rule set (``RuleSet.settings``) are taken;
    another game's is refused, naming it. The players at a table and Kozel's pairs cannot
    change once a round exists, nor contradict the tournament's format; neither can the
    Latin game's ``latin_individual`` (``SEATING_SETTINGS``).
    """
    regulations, _created = Regulations.objects.select_for_update().get_or_create(
        tournament_id=tournament_id
    )
    tournament = regulations.tournament
    for name in fields:
        if name in GAME_SETTINGS and name not in tournament.engine.setting_names:
            raise ServiceError(name, not_a_setting(tournament))
    side_before = _side_size(tournament, regulations)
    game_before = {name: getattr(regulations, name) for name in SEATING_SETTINGS}
    for name, value in fields.items():
        setattr(regulations, name, value)
    changed = [name for name in SEATING_SETTINGS if getattr(regulations, name) != game_before[name]]
    if changed:
        _check_game_change(tournament, regulations, changed[0], side_before)
        _check_format(tournament, regulations, changed[0])
    regulations = validated(regulations)
    logger.info("regulations changed: tournament=%s fields=%s actor=%s", tournament_id,
                sorted(fields), actor_id(actor))
    return regulations


