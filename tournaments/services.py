"""Services for tournaments: registration, and the party row lock every party service uses."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connections, router, transaction
from django.db.models import Model, ProtectedError, Q, QuerySet, signals
from django.db.models.query import MAX_GET_RESULTS, get_related_populators
from django.db.transaction import TransactionManagementError
from django.utils.translation import gettext as _

from scoring.rules import RULE_SETS, RuleError, RulesConfig, get_rule_set
from scoring.rules import RuleSet as RuleSetEngine
from tournaments.errors import ConflictError, ServiceError, translate_engine_error
from tournaments.models import (
    GAME_SETTINGS,
    Pair,
    Party,
    Player,
    Regulations,
    Table,
    Tournament,
    TournamentRole,
    new_access_token,
)


class CompiledGet:
    """A ``queryset.get(pk=…)`` compiled to SQL once per database alias, for hot paths.

    Every party action locks its party with the same seven-table query, and compiling it was
    most of the lock's cost. This keeps the SQL, the converters and the populators of the
    related objects that Django's ModelIterable builds for the query, and fills the instances
    the same way (``from_db`` and the related objects' caches). ``placeholder`` is any value
    of the primary key's type (the SQL is compiled with it, then run with the real one).
    """

    def __init__(self, queryset: QuerySet, using: str, placeholder: Any = 0) -> None:
        queryset = queryset.using(using).filter(pk=placeholder).order_by()
        features = connections[using].features
        if not queryset.query.select_for_update or features.supports_select_for_update_with_limit:
            queryset.query.set_limits(high=MAX_GET_RESULTS)  # as QuerySet.get() does
        compiler = queryset.query.get_compiler(using)
        self.sql, params = compiler.as_sql()
        if len(params) != 1:  # the pk must be the only parameter
            raise ValueError(f"unexpected parameters {params!r}")
        self.pk_field = queryset.model._meta.pk
        self.for_update = bool(queryset.query.select_for_update) and (
            features.has_select_for_update
        )
        select, klass_info = compiler.select, compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [column[0].target.attname for column in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, using)
        self.converters = list(
            compiler.get_converters([column[0] for column in select[: compiler.col_count]]).items()
        )

    def get(self, connection: Any, pk: Any) -> Any:
        """The instance with that primary key and its related objects, or DoesNotExist."""
        if self.for_update and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [self.pk_field.get_db_prep_value(pk, connection)])
            rows = cursor.fetchall()
        if not rows:
            raise self.model.DoesNotExist(
                f"{self.model._meta.object_name} matching query does not exist."
            )
        row = list(rows[0])
        for pos, (converters, expression) in self.converters:
            value = row[pos]
            for converter in converters:
                value = converter(value, expression, connection)
            row[pos] = value
        obj = self.model.from_db(connection.alias, self.init_list, row[self.start : self.end])
        for populator in self.populators:
            populator.populate(row, obj)
        return obj


_PARTY_LOCKS: dict[str, CompiledGet] = {}


def _party_lock_query() -> QuerySet[Party]:
    """The party row, locked, with what every party service reads."""
    return Party.objects.select_for_update(of=("self",)).select_related(
        "round__tournament__regulations", "pair_a", "pair_b", "table"
    )


def lock_party(party_id: int, expected_version: int | None = None) -> Party:
    """Lock a party's row for this transaction; refuse a stale version with a conflict."""
    using = router.db_for_write(Party)
    compiled = _PARTY_LOCKS.get(using)
    if compiled is None:
        compiled = _PARTY_LOCKS[using] = CompiledGet(_party_lock_query(), using)
    try:
        if party_id is None:
            raise Party.DoesNotExist
        party = compiled.get(connections[using], int(party_id))
    except Party.DoesNotExist as exc:
        raise ServiceError("party", _("No such party.")) from exc
    if expected_version is not None and int(expected_version) != party.version:
        raise ConflictError(
            "version",
            _(
                "The party was changed by someone else (version %(have)s, you sent %(sent)s). "
                "Reload and try again."
            )
            % {"have": party.version, "sent": expected_version},
        )
    return party


def bump_version(party: Party, **fields: Any) -> None:
    """Save the given fields of a locked party and increase its version."""
    for name, value in fields.items():
        setattr(party, name, value)
    party.version += 1
    _save_fields(party, (*fields.keys(), "version"))


_UPDATES: dict[tuple[str, tuple[str, ...]], tuple[str, list[Any]]] = {}


def _save_fields(instance: Any, names: tuple[str, ...]) -> None:
    """``instance.save(update_fields=names)``, with the UPDATE statement kept per field set.

    Only for a model with neither its own ``save`` nor save signal handlers, and plain values;
    anything else goes through ``save`` itself.
    """
    model = type(instance)
    if (
        model.save is not Model.save
        or signals.pre_save.has_listeners(model)
        or signals.post_save.has_listeners(model)
    ):
        instance.save(update_fields=list(names))
        return
    using = instance._state.db or router.db_for_write(model, instance=instance)
    connection = connections[using]
    found = _UPDATES.get((using, names))
    if found is None:
        opts = model._meta
        fields = [opts.get_field(name) for name in names]
        if any(
            not f.concrete or f.primary_key or f.model is not opts.concrete_model for f in fields
        ):
            instance.save(update_fields=list(names))
            return
        q = connection.ops.quote_name
        assignments = ", ".join(f"{q(f.column)} = %s" for f in fields)
        sql = f"UPDATE {q(opts.db_table)} SET {assignments} WHERE {q(opts.pk.column)} = %s"
        found = _UPDATES[(using, names)] = (sql, fields)
    sql, fields = found
    values = [f.pre_save(instance, False) for f in fields]
    if any(hasattr(value, "resolve_expression") for value in values):
        instance.save(update_fields=list(names))
        return
    params = [f.get_db_prep_save(v, connection) for f, v in zip(fields, values, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, instance.pk])
        updated = cursor.rowcount
    if not updated:
        raise DatabaseError("Save with update_fields did not affect any rows.")
    instance._state.adding = False
    instance._state.db = using


def _validated(instance: Any) -> Any:
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
    game = Tournament.RuleSet(rule_set).label
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
    names = set(GAME_SETTINGS)
    for engine in RULE_SETS.values():
        names.update(engine.preset)
    for name in names:
        if hasattr(regulations, name):
            setattr(regulations, name, Regulations._meta.get_field(name).get_default())
    regulations.apply_preset(rule_set)


def _choose_game(
    regulations: Regulations, rule_set: str, players: int | None, kozel_pairs: bool | None
) -> None:
    """Set the players at a table and Kozel's pairs where the rule set lets them vary."""
    engine = get_rule_set(rule_set)
    game = Tournament.RuleSet(rule_set).label
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
        game = Tournament.RuleSet(tournament.rule_set).label
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


def _clean(instance: Any) -> Any:
    """Run model validation; raise ServiceError naming the first field at fault."""
    try:
        instance.full_clean()
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise ServiceError(field, messages[0]) from exc
    return instance


@transaction.atomic
def create_tournament(
    *,
    name: str,
    slug: str,
    organizer: Any = None,
    players: int | None = None,
    kozel_pairs: bool | None = None,
    **fields: Any,
) -> Tournament:
    """Create a tournament with its rule set's preset regulations; the creator organizes it.

    ``players`` (at a table) and ``kozel_pairs`` change the preset where the rule set lets
    them vary; a format that contradicts the rule set is refused, naming ``format``.
    """
    tournament = Tournament(name=name, slug=slug, created_by=organizer, **fields)
    _check_dates(tournament)
    _clean(tournament)
    regulations = Regulations()
    regulations.apply_preset(tournament.rule_set)
    _choose_game(regulations, tournament.rule_set, players, kozel_pairs)
    _check_format(tournament, regulations, "format")
    tournament.save()
    regulations.tournament = tournament
    _validated(regulations)
    if organizer is not None:
        TournamentRole.objects.create(
            tournament=tournament, user=organizer, role=TournamentRole.Role.ORGANIZER
        )
    return tournament


@transaction.atomic
def register_player(tournament: Tournament, *, side: bool = False, **fields: Any) -> Player:
    """Register a player in a tournament; with ``side`` also as a side of one player (singles)."""
    player = _validated(Player(tournament=tournament, **fields))
    if side:
        register_pair(tournament, player, None, rating=player.rating)
    return player


@transaction.atomic
def register_pair(
    tournament: Tournament,
    player1: Player,
    player2: Player | None = None,
    name: str = "",
    **fields: Any,
) -> Pair:
    """Register two distinct players of the tournament as a pair (one player: a singles side)."""
    return _validated(
        Pair(tournament=tournament, player1=player1, player2=player2, name=name, **fields)
    )


@transaction.atomic
def add_table(tournament: Tournament, number: int, label: str = "") -> Table:
    """Number a table of the hall."""
    if Table.objects.filter(tournament=tournament, number=number).exists():
        raise ServiceError("number", _("Table %(number)s already exists.") % {"number": number})
    return _validated(Table(tournament=tournament, number=number, label=label))


def _set_withdrawn(entrants: QuerySet, pk: int, withdrawn: bool) -> Any:
    """Lock a pair's or player's row and set its withdrawn flag."""
    try:
        entrant = entrants.select_for_update(of=("self",)).get(pk=pk)
    except entrants.model.DoesNotExist as exc:
        raise ServiceError("entrant", _("No such pair or player.")) from exc
    if entrant.withdrawn != withdrawn:
        entrant.withdrawn = withdrawn
        entrant.save(update_fields=["withdrawn"])
    return entrant


@transaction.atomic
def withdraw_pair(pair_id: int, *, withdrawn: bool = True, actor: Any = None) -> Pair:
    """Withdraw a pair from later draws (or reinstate it); its results stay as they are."""
    return _set_withdrawn(Pair.objects.filter(formed_in_round__isnull=True), pair_id, withdrawn)


@transaction.atomic
def withdraw_player(player_id: int, *, withdrawn: bool = True, actor: Any = None) -> Player:
    """Withdraw a player from later draws (or reinstate him); results stay as they are.

    In a pairs tournament the player's pair is withdrawn with him (it cannot play without
    him); reinstating the player leaves the pair to be reinstated on its own.
    """
    player = _set_withdrawn(Player.objects.all(), player_id, withdrawn)
    if withdrawn:
        Pair.objects.filter(
            Q(player1=player) | Q(player2=player), formed_in_round__isnull=True
        ).update(withdrawn=True)
    return player


@transaction.atomic
def renew_personal_link(player_id: int, *, actor: Any = None) -> Player:
    """Give a player a new personal link key: the old link stops working at once."""
    try:
        player = Player.objects.select_for_update(of=("self",)).get(pk=player_id)
    except Player.DoesNotExist as exc:
        raise ServiceError("player", _("No such player.")) from exc
    player.access_token = new_access_token()
    player.save(update_fields=["access_token"])
    return player


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
    _validated(regulations)
    return tournament


@transaction.atomic
def update_regulations(tournament_id: int, *, actor: Any = None, **fields: Any) -> Regulations:
    """Change rule settings of a tournament; settings that contradict each other are refused.

    The players at a table and Kozel's pairs cannot change once a round exists, nor
    contradict the tournament's format.
    """
    regulations, _created = Regulations.objects.select_for_update().get_or_create(
        tournament_id=tournament_id
    )
    tournament = regulations.tournament
    side_before = _side_size(tournament, regulations)
    game_before = (regulations.players, regulations.kozel_pairs)
    for name, value in fields.items():
        setattr(regulations, name, value)
    if (regulations.players, regulations.kozel_pairs) != game_before:
        field = "players" if regulations.players != game_before[0] else "kozel_pairs"
        _check_game_change(tournament, regulations, field, side_before)
        _check_format(tournament, regulations, field)
    return _validated(regulations)


@transaction.atomic
def update_member(member: Player | Pair | Table, *, actor: Any = None, **fields: Any) -> Any:
    """Change a player, pair or table of a tournament (validated like a new one)."""
    member = type(member).objects.select_for_update().get(pk=member.pk)
    if isinstance(member, Table) and "number" in fields and (
        Table.objects.filter(tournament_id=member.tournament_id, number=fields["number"])
        .exclude(pk=member.pk)
        .exists()
    ):
        raise ServiceError(
            "number", _("Table %(number)s already exists.") % {"number": fields["number"]}
        )
    for name, value in fields.items():
        setattr(member, name, value)
    return _validated(member)


@transaction.atomic
def remove_member(member: Player | Pair | Table, *, actor: Any = None) -> None:
    """Delete a player, pair or table that no party or pair refers to (withdraw it otherwise)."""
    try:
        type(member).objects.filter(pk=member.pk).delete()
    except ProtectedError as exc:
        raise ServiceError(
            "__all__", _("It is part of a pair or a draw; withdraw it instead.")
        ) from exc
