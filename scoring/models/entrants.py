"""Who plays and where: players, pairs (a side of one player in singles) and tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .people import Profile
from .tournament import Tournament, new_access_token

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

PLAYERS_SEPARATOR = " / "
"""Between the names of a pair's players where the pair has no name of its own."""


class Player(models.Model):
    """A person who plays in one tournament."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="players"
    )
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    country = models.CharField(
        _("country"), max_length=100, blank=True,
        help_text=_("Optional; the standings add up the best results of each country."),
    )
    rating = models.IntegerField(_("rating"), default=0)
    profile = models.ForeignKey(
        Profile,
        verbose_name=_("player profile"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries",
        help_text=_("The same person in other tournaments, seasons and rating lists."),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    fixed_table = models.ForeignKey(
        "Table",
        verbose_name=_("fixed table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("Individual tournaments, for accessibility: always at this table."),
    )
    team = models.ForeignKey(
        "Team", verbose_name=_("team"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="players",
        help_text=_("Team events of players: the team he plays for (paired for each match)."),
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    disqualified = models.BooleanField(_("disqualified"), default=False)
    access_token = models.CharField(
        _("personal link key"),
        max_length=64,
        unique=True,
        default=new_access_token,
        editable=False,
        help_text=_("Opens the player's area without a login; a new key revokes the old link."),
    )

    class Meta:
        db_table = "tournaments_player"
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def available(self) -> bool:
        """Whether the player takes part in later draws (neither withdrawn nor disqualified)."""
        return not (self.withdrawn or self.disqualified)


class Table(models.Model):
    """A numbered physical table in the hall."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveIntegerField(_("number"), validators=[MinValueValidator(1)])
    label = models.CharField(_("label"), max_length=100, blank=True)

    class Meta:
        db_table = "tournaments_table"
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return str(_("Table %(number)s") % {"number": self.number}) + (
            f" ({self.label})" if self.label else ""
        )


class Pair(models.Model):
    """Two partners who play together.

    In a pairs tournament a pair is registered once and plays every round. In an individual
    tournament the draw forms new pairs each round (``formed_in_round``); a player who has
    the bye there sits alone on a pair without a second player.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="pairs"
    )
    name = models.CharField(_("name"), max_length=200, blank=True)
    player1 = models.ForeignKey(
        Player, verbose_name=_("first player"), on_delete=models.PROTECT, related_name="+"
    )
    player2 = models.ForeignKey(
        Player,
        verbose_name=_("second player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Empty for a side of one player (singles), or a bye in an individual event."),
    )
    rating = models.IntegerField(_("rating"), default=0)
    fixed_table = models.ForeignKey(
        Table,
        verbose_name=_("fixed table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("For accessibility: this pair always plays at this table."),
    )
    formed_in_round = models.ForeignKey(
        "Round",
        verbose_name=_("formed in round"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="formed_pairs",
        help_text=_("Individual tournaments: the round whose draw formed this pair."),
    )
    team = models.ForeignKey(
        "Team", verbose_name=_("team"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="pairs", help_text=_("Team events: the team the pair plays for."),
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    disqualified = models.BooleanField(_("disqualified"), default=False)

    class Meta:
        db_table = "tournaments_pair"
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(player1=models.F("player2")), name="pair_players_distinct"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The pair's name, or its players' names ("Игрок 1 / Игрок 2")."""
        return self.name or self.players_label

    @property
    def players_label(self) -> str:
        """The pair's players' names, "Игрок 1 / Игрок 2" (one name for a side of one)."""
        second = self.player2.name if self.player2 is not None else None
        return self.label("", self.player1.name, second)

    @staticmethod
    def label(name: str, first: str, second: str | None) -> str:
        """A pair's display name from its own name and its players' (no second for a bye).

        The one place that names a pair without a name: every page, the desk, the standings,
        the exports and the protocols show its players so, "Игрок 1 / Игрок 2".
        """
        if name:
            return name
        return first if second is None else f"{first}{PLAYERS_SEPARATOR}{second}"

    @staticmethod
    def seeding_rating(first: Player, second: Player | None) -> int:
        """A pair's rating for seeding: the mean of its players' ratings, rounded down.

        One function for every way a pair is registered (the pair form, the roster import,
        the API without a rating); a side of one player has his rating.
        """
        if second is None:
            return first.rating
        return (first.rating + second.rating) // 2

    @property
    def available(self) -> bool:
        """Whether the pair takes part in later draws (neither withdrawn nor disqualified)."""
        return not (self.withdrawn or self.disqualified)

    def clean(self) -> None:
        """Two distinct players of this tournament; in a pairs tournament each in no other pair."""
        errors: dict[str, StrOrPromise] = {}
        if self.player1_id and self.player1_id == self.player2_id:
            errors["player2"] = _("A pair needs two different players.")
        singles = self.tournament_id and self.tournament.singles
        if self.player2_id is None and self.formed_in_round_id is None and not singles:
            errors["player2"] = _("A pair needs two different players.")
        if self.player2_id is not None and singles and self.formed_in_round_id is None:
            errors["player2"] = _("In this rule set a side is one player.")
        individual = self.tournament_id and self.tournament.format == Tournament.Format.INDIVIDUAL
        if individual and self.formed_in_round_id is None:
            errors["__all__"] = _("In an individual tournament the draw forms the pairs.")
        for field in ("player1", "player2"):
            player = getattr(self, field, None) if getattr(self, f"{field}_id") else None
            if player is None:
                continue
            if self.tournament_id and player.tournament_id != self.tournament_id:
                errors[field] = _("The player is not registered in this tournament.")
                continue
            if individual or field in errors:
                continue
            others = Pair.objects.filter(
                Q(player1=player) | Q(player2=player), formed_in_round__isnull=True
            ).exclude(pk=self.pk)
            if others.exists():
                errors[field] = _("%(name)s already plays in another pair.") % {"name": player.name}
        if errors:
            raise ValidationError(errors)

    @property
    def players(self) -> tuple[Player, ...]:
        """The players of the pair (one for a bye side of an individual tournament)."""
        if self.player2 is None:
            return (self.player1,)
        return (self.player1, self.player2)


