"""Webhooks: an organizer's subscriptions to a tournament's events and their deliveries."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament

WEBHOOK_EVENTS = (
    ("party.finished", _("Party finished")),
    ("protocol.signed", _("Protocol signed")),
    ("round.published", _("Round published")),
    ("round.closed", _("Round closed")),
    ("standings.changed", _("Standings changed")),
    ("match.decided", _("Knockout match decided")),
    ("stage.finished", _("Stage finished")),
    ("team_match.decided", _("Team match decided")),
    ("checkin.closed", _("Check-in closed")),
    ("entry.created", _("Entry made")),
    ("entry.decided", _("Entry decided")),
)


def new_webhook_secret() -> str:
    """A random secret for signing one subscription's deliveries."""
    return secrets.token_hex(32)


class WebhookSubscription(models.Model):
    """An organizer's URL that receives the chosen events of one tournament."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE,
        related_name="webhooks",
    )
    url = models.URLField(_("URL"), max_length=500)
    events = models.JSONField(_("events"), default=list)
    secret = models.CharField(_("secret"), max_length=64, default=new_webhook_secret)
    active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.CASCADE,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_sequence = models.PositiveIntegerField(_("last sequence number"), default=0)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["tournament", "pk"]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event sent (or to be sent) to one subscription, with the log of its attempts."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    subscription = models.ForeignKey(
        WebhookSubscription, verbose_name=_("webhook"), on_delete=models.CASCADE,
        related_name="deliveries",
    )
    sequence = models.PositiveIntegerField(_("sequence number"))
    event = models.CharField(_("event"), max_length=40)
    payload = models.JSONField(_("payload"), default=dict)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    response_code = models.PositiveIntegerField(_("response code"), null=True, blank=True)
    response_body = models.TextField(_("response body"), blank=True)
    error = models.TextField(_("error"), blank=True)
    log = models.JSONField(_("attempts log"), default=list, blank=True)
    replay_of = models.ForeignKey(
        "self", verbose_name=_("replay of"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)
    # The outbox's claim: the sender attempting the delivery now (scoring.webhooks.outbox)
    # holds it until ``claimed_until``; a sender that died mid-attempt lets it lapse.
    claim = models.CharField(_("claimed by"), max_length=32, blank=True)
    claimed_until = models.DateTimeField(_("claimed until"), null=True, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["subscription", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "sequence"], name="unique_webhook_sequence"
            )
        ]
        indexes = [
            models.Index(fields=["subscription", "status", "sequence"]),
            # the outbox's heads: the pending deliveries only, a few among every one sent
            models.Index(fields=["subscription", "sequence"], name="webhook_outbox",
                         condition=models.Q(status="pending")),
        ]

    def __str__(self) -> str:
        return f"{self.event} #{self.sequence}"
