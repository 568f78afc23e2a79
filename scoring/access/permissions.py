"""Who may do what: every per-object permission check of the site lives here."""

from __future__ import annotations

from collections.abc import Iterable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from django.db import connections, router
from django.db.models import Q, QuerySet

from scoring.access.api_tokens import own_tournaments, read_only, roles_of, scoped
from scoring.core.compiled import db_column
from scoring.models import Party, Protocol, Round, Tournament, TournamentRole

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


class Grants:
    """Users' roles and referee tables per tournament, each read once: the per-request cache
    a request carries (``request.grants``, set by ``GrantsMiddleware``) and hands to the
    checks below. A check given none takes the request's in progress (``current_grants``),
    else reads what it needs once for itself."""

    def __init__(self) -> None:
        self._read: dict[tuple[int, int], tuple[set[str], set[int]]] = {}

    def of(self, user: Any, tournament: Tournament) -> tuple[set[str], set[int]]:
        """The user's roles in the tournament and the tables of his referee role."""
        if not getattr(user, "is_authenticated", False):
            return set(), set()
        key = (user.pk, tournament.pk)
        if key not in self._read:
            self._read[key] = scoped(user, _grants_of(user.pk, tournament.pk))
        return self._read[key]

    def know(self, user: Any, tournament_id: int, roles: set[str], tables: set[int]) -> None:
        """Keep a user's roles and referee tables in a tournament read by another query (the
        party's lock of an API action: ``scoring.party.row_lock.party_locked_for_action``),
        as ``of`` would have read them; a read already kept stays."""
        if getattr(user, "is_authenticated", False):
            self._read.setdefault((user.pk, tournament_id), scoped(user, (roles, tables)))


_REQUEST_GRANTS: ContextVar[Grants | None] = ContextVar("request_grants", default=None)
"""The grants of the request in progress (``GrantsMiddleware``), for checks called deep in a
page (its templates, its services) without them."""


class GrantsMiddleware:
    """Give every request its own ``Grants`` (``request.grants``), the one its checks use."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        """Attach an empty cache; it lives as long as the request."""
        request.grants = Grants()
        token = _REQUEST_GRANTS.set(request.grants)
        try:
            return self.get_response(request)
        finally:
            _REQUEST_GRANTS.reset(token)


def request_grants(request: Any) -> Grants:
    """The grants the request carries (a new cache for a request made without the middleware)."""
    found = getattr(request, "grants", None)
    return found if isinstance(found, Grants) else current_grants()


def current_grants(grants: Grants | None = None) -> Grants:
    """``grants`` if given, else the request's in progress, else a new cache (a task, a
    command: nothing to share)."""
    return grants or _REQUEST_GRANTS.get() or Grants()


def roles_in(user: Any, tournament: Tournament, grants: Grants | None = None) -> set[str]:
    """The roles a user holds in a tournament (read once per ``grants``)."""
    return (current_grants(grants)).of(user, tournament)[0]


def _grants_of(user_id: int, tournament_id: int) -> tuple[set[str], set[int]]:
    """A user's role values in a tournament and his referee role's tables: one small query
    on every API request (the tables joined on the referee role only)."""
    using = router.db_for_read(TournamentRole)
    connection = connections[using]
    q = connection.ops.quote_name
    opts = TournamentRole._meta
    through = TournamentRole.tables.through._meta
    sql = (
        f"SELECT r.{q(db_column(opts.get_field('role')))}, "
        f"t.{q(db_column(through.get_field('table')))} FROM {q(opts.db_table)} r "
        f"LEFT JOIN {q(through.db_table)} t "
        f"ON t.{q(db_column(through.get_field('tournamentrole')))} = r.{q(db_column(opts.pk))} "
        f"AND r.{q(db_column(opts.get_field('role')))} = %s "
        f"WHERE r.{q(db_column(opts.get_field('tournament')))} = %s "
        f"AND r.{q(db_column(opts.get_field('user')))} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [TournamentRole.Role.REFEREE.value, tournament_id, user_id])
        rows = cursor.fetchall()
    return {row[0] for row in rows}, {row[1] for row in rows if row[1] is not None}


def can_create_tournament(user: Any) -> bool:
    """Organizers (users with the add-tournament permission) create tournaments."""
    return bool(getattr(user, "is_authenticated", False)) and user.has_perm(
        "scoring.add_tournament"
    )


def can_manage(user: Any, tournament: Tournament, grants: Grants | None = None) -> bool:
    """Organizers of this tournament (and superusers) manage its data and draws."""
    if getattr(user, "is_superuser", False):
        return True
    return TournamentRole.Role.ORGANIZER in roles_in(user, tournament, grants)


def is_chief(user: Any, tournament: Tournament, grants: Grants | None = None) -> bool:
    """The chief referee acts everywhere in the tournament and corrects others' records."""
    grants = current_grants(grants)
    if can_manage(user, tournament, grants):
        return True
    return TournamentRole.Role.CHIEF in roles_in(user, tournament, grants)


def can_referee(user: Any, party: Party, grants: Grants | None = None) -> bool:
    """Referees of the party's tournament (of its table, if assigned), the chief, organizers."""
    tournament, grants = party.round.tournament, current_grants(grants)
    if is_chief(user, tournament, grants):
        return True
    roles, tables = grants.of(user, tournament)
    if TournamentRole.Role.REFEREE not in roles:
        return False
    return not tables or party.table_id in tables


def can_view(user: Any, tournament: Tournament, grants: Grants | None = None) -> bool:
    """Public tournaments are open to all; others to the people who hold a role in them."""
    if tournament.public or getattr(user, "is_superuser", False):
        return True
    if roles_in(user, tournament, grants):
        return True
    return bool(getattr(user, "is_authenticated", False) and not read_only(user)
                and tournament.players.filter(user=user).exists())


def can_referee_tournament(
    user: Any, tournament: Tournament, grants: Grants | None = None
) -> bool:
    """Referees (of any table), the chief referee and organizers of the tournament."""
    grants = current_grants(grants)
    if is_chief(user, tournament, grants):
        return True
    return TournamentRole.Role.REFEREE in roles_in(user, tournament, grants)


def referee_table_ids(
    user: Any, tournament: Tournament, grants: Grants | None = None
) -> set[int] | None:
    """The tables a user referees: None for every table, an empty set for none."""
    grants = current_grants(grants)
    if is_chief(user, tournament, grants):
        return None
    roles, tables = grants.of(user, tournament)
    if TournamentRole.Role.REFEREE not in roles:
        return set()
    return set(tables) or None


def can_correct_record(
    user: Any, party: Party, author_id: int | None, *, locked: bool | None = None,
    grants: Grants | None = None,
) -> bool:
    """The one rule of every path that corrects, annuls or cancels a recorded deal or penalty
    (the desk, the party page's links, the API): a referee of the party changes the records he
    made (and unsigned ones), the chief referee anyone's; a party locked by its signed protocol
    only the chief referee's amendment. ``locked``: whether its protocol is signed, when the
    caller knows (else asked)."""
    grants = current_grants(grants)
    return _may_touch(user, party, author_id, grants) and _may_change(user, party, locked, grants)


def correctable(
    user: Any, party: Party, records: Iterable[Any], *, author_field: str = "recorded_by_id",
    locked: bool | None = None, grants: Grants | None = None,
) -> set[int]:
    """The ids of the party's ``records`` (deals; penalties by ``created_by_id``) the user may
    correct (``can_correct_record``), its roles and its protocol asked once."""
    grants = current_grants(grants)
    found = {
        record.pk for record in records
        if _may_touch(user, party, getattr(record, author_field), grants)
    }
    return found if found and _may_change(user, party, locked, grants) else set()


def _may_touch(user: Any, party: Party, author_id: int | None, grants: Grants) -> bool:
    """The chief referee touches anyone's record; a referee of the party his own (and
    unsigned ones)."""
    if is_chief(user, party.round.tournament, grants):
        return True
    return can_referee(user, party, grants) and author_id in (None, user.pk)


def _may_change(user: Any, party: Party, locked: bool | None, grants: Grants) -> bool:
    """A party locked by its signed protocol changes only by the chief referee's amendment."""
    locked = protocol_signed(party) if locked is None else locked
    return not locked or can_amend_signed_protocol(user, party, grants)


def protocol_signed(party: Party) -> bool:
    """Whether the party's protocol is signed (its record then locked; one query)."""
    return Protocol.objects.filter(party=party, status=Protocol.Status.SIGNED).exists()


# -- protocols (scoring.signoff.services) ---------------------------------------------------


def can_sign_protocol_as(user: Any, party: Party, player: Any) -> bool:
    """A player signs his own party's protocol when logged in to his own account."""
    if not getattr(user, "is_authenticated", False) or player.user_id != user.pk:
        return False
    pairs = [pair for pair in (party.pair_a, party.pair_b) if pair is not None]
    return any(player.pk == p.pk for pair in pairs for p in pair.players)


def can_run_sign_off(user: Any, party: Party) -> bool:
    """The party's referee hands the table device round, records refusals and countersigns."""
    return can_referee(user, party)


def can_amend_signed_protocol(user: Any, party: Party, grants: Grants | None = None) -> bool:
    """Only the chief referee (or an organizer) changes a party whose protocol is signed."""
    return is_chief(user, party.round.tournament, grants)


def can_print_round(user: Any, tournament: Tournament) -> bool:
    """Referees, the chief referee and organizers print a round's protocols."""
    return can_referee_tournament(user, tournament)


def can_set_signing_pin(user: Any, player: Any) -> bool:
    """A player sets his own signing PIN; organizers set any player's of their tournament."""
    if getattr(user, "is_authenticated", False) and player.user_id == user.pk:
        return True
    return can_manage(user, player.tournament)


def can_see_round(user: Any, rnd: Round) -> bool:
    """A published draw is seen by whoever sees the tournament; a draft only by organizers."""
    tournament = rnd.tournament
    if rnd.status == Round.Status.DRAFT:
        return can_manage(user, tournament)
    return can_view(user, tournament)


def managed_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments a user organizes (every one for a superuser)."""
    if getattr(user, "is_superuser", False):
        return Tournament.objects.all()
    if not getattr(user, "is_authenticated", False):
        return Tournament.objects.none()
    return Tournament.objects.filter(
        roles__user=user, roles__role=TournamentRole.Role.ORGANIZER
    )


REFEREE_ROLES = (TournamentRole.Role.REFEREE, TournamentRole.Role.CHIEF)
"""The roles that run parties at the tables (a referee, the chief referee)."""


def refereed_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments in which a user is a referee or the chief referee."""
    if not getattr(user, "is_authenticated", False):
        return Tournament.objects.none()
    return Tournament.objects.filter(
        roles__user=user, roles__role__in=REFEREE_ROLES
    ).distinct()


def is_organizer(user: Any) -> bool:
    """Whether a user organizes: a superuser, one who creates tournaments or organizes one."""
    if not getattr(user, "is_authenticated", False):
        return False
    return can_create_tournament(user) or managed_tournaments(user).exists()


# -- public pages and the player area (tournaments.public, tournaments.players.views) ---

PUBLIC_PAGE_SWITCHES = {
    "draw": "public_draw",
    "standings": "public_standings",
    "results": "public_results",
    "entrants": "public_entrants",
    "hall": "hall_screen",
}


def can_see_public_page(
    user: Any, tournament: Tournament, page: str, grants: Grants | None = None
) -> bool:
    """A public page the organizer left switched on, for whoever may see the tournament.

    The organizer, the referees and the chief referee see every page, switched on or off.
    """
    grants = current_grants(grants)
    if not can_view(user, tournament, grants):
        return False
    if getattr(tournament, PUBLIC_PAGE_SWITCHES[page]):
        return True
    return bool(getattr(user, "is_superuser", False) or roles_in(user, tournament, grants))


def can_use_player_area(user: Any, player: Any) -> bool:
    """A player opens his own area when logged in (his personal link opens it without login)."""
    return bool(getattr(user, "is_authenticated", False)) and player.user_id == user.pk


# -- import and export (tournaments.transfer) ------------------------------------------------


#: The public page whose switch also governs an export (deals are part of the results).
EXPORT_PAGES = {"standings": "standings", "results": "results", "deals": "results"}


def can_export(user: Any, tournament: Tournament, what: str) -> bool:
    """An export (standings, results, deals) is for whoever may see its public page."""
    return can_see_public_page(user, tournament, EXPORT_PAGES[what])


def can_import_roster(user: Any, tournament: Tournament) -> bool:
    """Organizers import players and pairs into their tournament."""
    return can_manage(user, tournament)


def can_download_tournament(user: Any, tournament: Tournament) -> bool:
    """Organizers download the whole tournament file (it names users and holds every record)."""
    return can_manage(user, tournament)


def can_import_tournament(user: Any) -> bool:
    """Whoever may create tournaments imports one from a tournament file."""
    return can_create_tournament(user)


def visible_tournaments(user: User | AnonymousUser, page: str = "") -> QuerySet[Tournament]:
    """Tournaments the user may read through the API.

    With ``page`` (a key of ``PUBLIC_PAGE_SWITCHES``: "draw", "standings", "entrants"…) only
    those whose page is switched on, or where the user holds a role: the API shows what the
    public pages show (``can_see_public_page``).
    """
    qs = Tournament.objects.all()
    if user.is_superuser:
        return qs
    visible = Q(public=True)
    if user.is_authenticated:
        visible |= own_tournaments(user)
    qs = qs.filter(visible).distinct()
    if page:
        open_page = Q(**{PUBLIC_PAGE_SWITCHES[page]: True})
        if user.is_authenticated:
            open_page |= Q(pk__in=roles_of(user).values("tournament_id"))
        qs = qs.filter(open_page)
    return qs


# -- seasons (tournaments.ranking.season_views) ----------------------------------------------------


def can_create_season(user: Any) -> bool:
    """Organizers group the tournaments they organize into seasons."""
    return is_organizer(user)


def can_edit_season(user: Any, season: Any) -> bool:
    """The organizer who created a season (and superusers) edits it."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser) or season.created_by_id == user.pk


def can_see_season(user: Any, season: Any) -> bool:
    """A public season is for everyone; a private one for its organizer."""
    return bool(season.public) or can_edit_season(user, season)
