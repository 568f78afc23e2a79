"""factory_boy factories for test data: users, tournaments with regulations, rounds, parties.

Models are named by string ("app_label.Model"), so moving a model to another app changes
one line here. A tournament is made by the real service (its rule set's preset regulations,
the organizer's role); the rest are plain rows, numbered per tournament or per party.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory, Password


class UserFactory(DjangoModelFactory):
    """A user with the password "pw"; ``organizer=True`` may create tournaments."""

    class Meta:
        model = "auth.User"
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = Password("pw")

    @factory.post_generation
    def organizer(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        """Give the permission to create tournaments."""
        if create and extracted:
            from django.contrib.auth.models import Permission

            self.user_permissions.add(Permission.objects.get(codename="add_tournament"))


class TournamentFactory(DjangoModelFactory):
    """A tournament with its rule set's preset regulations, made by ``create_tournament``.

    Extra keywords are the tournament's fields, or ``players``/``kozel_pairs`` of the
    service; ``organizer=None`` makes one without an organizer; ``regulations`` a dict of
    settings changed (and validated) after the preset.
    """

    class Meta:
        model = "scoring.Tournament"
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Турнир {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")
    organizer = factory.SubFactory(UserFactory, organizer=True)

    @classmethod
    def _create(cls, model_class: Any, *args: Any, **kwargs: Any) -> Any:
        from tournaments.setup.services import create_tournament

        return create_tournament(**kwargs)

    @factory.post_generation
    def regulations(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        """Change the preset regulations: ``regulations={"target": 100}`` or ``__target=100``."""
        settings = {**(extracted or {}), **kwargs}
        if not (create and settings):
            return
        regulations = self.regulations
        for name, value in settings.items():
            setattr(regulations, name, value)
        regulations.full_clean()
        regulations.save()


class TournamentRoleFactory(DjangoModelFactory):
    """A user's role in a tournament (a referee unless told)."""

    class Meta:
        model = "scoring.TournamentRole"

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = "referee"


class PlayerFactory(DjangoModelFactory):
    """A player of a tournament."""

    class Meta:
        model = "scoring.Player"

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Игрок {n}")


class PairFactory(DjangoModelFactory):
    """Two players of the same tournament (``player2=None``: a side of one player)."""

    class Meta:
        model = "scoring.Pair"

    tournament = factory.SubFactory(TournamentFactory)
    player1 = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..tournament"))
    player2 = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..tournament"))


class TableFactory(DjangoModelFactory):
    """The tournament's next table, or its table ``number`` when that exists."""

    class Meta:
        model = "scoring.Table"
        django_get_or_create = ("tournament", "number")

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.LazyAttribute(lambda o: o.tournament.tables.count() + 1)


class RoundFactory(DjangoModelFactory):
    """The tournament's next round, published; or its round ``number`` when that exists."""

    class Meta:
        model = "scoring.Round"
        django_get_or_create = ("tournament", "number")

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.LazyAttribute(lambda o: o.tournament.rounds.count() + 1)
    status = "published"


class PartyFactory(DjangoModelFactory):
    """A party of a round; table and pairs of the round's tournament are made when not given."""

    class Meta:
        model = "scoring.Party"

    round = factory.SubFactory(RoundFactory)
    table = factory.SubFactory(TableFactory, tournament=factory.SelfAttribute("..round.tournament"))
    pair_a = factory.SubFactory(PairFactory, tournament=factory.SelfAttribute("..round.tournament"))
    pair_b = factory.SubFactory(PairFactory, tournament=factory.SelfAttribute("..round.tournament"))


class DealFactory(DjangoModelFactory):
    """The party's next deal: pair A goes out and scores 30."""

    class Meta:
        model = "scoring.Deal"

    party = factory.SubFactory(PartyFactory)
    number = factory.LazyAttribute(lambda o: o.party.deals.count() + 1)
    outcome = "domino"
    winner = "a"
    points_a = 30
    points_b = 0


class PenaltyFactory(DjangoModelFactory):
    """A fine of 25 points against pair B for signs."""

    class Meta:
        model = "scoring.Penalty"

    party = factory.SubFactory(PartyFactory)
    kind = "fine"
    category = "signs"
    side = "b"
    points = 25
    mode = "deduct"


def create_bulk(factory_class: type[DjangoModelFactory], rows: Iterable[dict]) -> list[Any]:
    """Build one instance per row of keywords and insert them all with one ``bulk_create``."""
    model = factory_class._meta.get_model_class()
    return model.objects.bulk_create([factory_class.build(**row) for row in rows])


def clock_started_ago(party: Any, seconds: float, minutes: int = 1) -> Any:
    """``party`` on a ``minutes``-long clock started ``seconds`` ago (its time runs out, or ran
    out, at ``party.expiry``), as the server knows it: no action has come since."""
    regulations = party.round.tournament.regulations
    regulations.party_minutes = minutes
    regulations.save()
    started = timezone.now() - timedelta(seconds=seconds)
    type(party).objects.filter(pk=party.pk).update(started_at=started)
    party.refresh_from_db()
    party.expiry = started + timedelta(minutes=minutes)
    return party
