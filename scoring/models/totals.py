"""A finished party's stored totals: what the standings read instead of replaying its deals."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .party import Party


class PartyTotals(models.Model):
    """The totals of one finished party as they stood at the party's ``version``.

    Written when the party's result is recorded (``scoring.party.ending``) and, where missing or
    stale (another version, other rules), by the standings themselves or
    ``manage.py rebuild_party_totals``. Sides "a" and "b" are summed per party side; the seat
    figures keep each engine side's points and fines (Kozel, each for himself).
    """

    party = models.OneToOneField(
        Party, verbose_name=_("party"), primary_key=True, on_delete=models.CASCADE,
        related_name="stored_totals",
    )
    version = models.PositiveIntegerField(_("version"))
    rules = models.CharField(_("rules digest"), max_length=16)
    points_a = models.IntegerField(_("points of side A"), default=0)
    points_b = models.IntegerField(_("points of side B"), default=0)
    fines_a = models.IntegerField(_("fines of side A"), default=0)
    fines_b = models.IntegerField(_("fines of side B"), default=0)
    games_a = models.IntegerField(_("games won by side A"), default=0)
    games_b = models.IntegerField(_("games won by side B"), default=0)
    seat_points = models.JSONField(_("points per seat"), default=dict)
    seat_fines = models.JSONField(_("fine points per seat"), default=dict)

    class Meta:
        verbose_name = _("party totals")
        verbose_name_plural = _("party totals")

    def __str__(self) -> str:
        return f"{self.party_id} v{self.version}: {self.points_a}–{self.points_b}"
