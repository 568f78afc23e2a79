"""The organizer's webhooks page: register and delete URLs, see deliveries, replay one."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.access import permissions
from scoring.core import asking
from scoring.core.errors import ServiceError
from scoring.models import WEBHOOK_EVENTS, Tournament, WebhookDelivery, WebhookSubscription
from scoring.webhooks import services as webhooks

RECENT_DELIVERIES = 50


class WebhookForm(forms.Form):
    """A URL and the events it receives."""

    url = forms.URLField(label=gettext_lazy("URL"), max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events"), choices=WEBHOOK_EVENTS,
        widget=forms.CheckboxSelectMultiple,
        initial=[name for name, _label in WEBHOOK_EVENTS],
    )


def _managed(request: HttpRequest, slug: str) -> Tournament:
    """The tournament if the user organizes it: 404 when hidden from him, else 403."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.can_view(request.user, tournament):
        raise Http404
    if not permissions.can_manage(request.user, tournament):
        raise PermissionDenied
    return tournament


@login_required
def webhook_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's webhooks and their recent deliveries; POST registers a URL."""
    tournament = _managed(request, slug)
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = webhooks.create_subscription(
                tournament, url=form.cleaned_data["url"], events=form.cleaned_data["events"],
                actor=request.user)
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            messages.success(request, _("Webhook registered. Its secret, shown only this once: "
                                        "%(secret)s") % {"secret": created.secret})
            return redirect("tournaments:webhooks", tournament.slug)
    subscriptions = WebhookSubscription.objects.filter(tournament=tournament).order_by("pk")
    deliveries = (WebhookDelivery.objects.filter(subscription__tournament=tournament)
                  .select_related("subscription").order_by("-created_at", "-pk")
                  [:RECENT_DELIVERIES])
    return render(request, "tournaments/webhooks.html", {
        "tournament": tournament, "form": form, "deliveries": deliveries,
        "subscriptions": [(sub, renew_question(sub)) for sub in subscriptions],
    })


@login_required
@require_POST
def webhook_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Delete one of the tournament's webhooks with its deliveries."""
    tournament = _managed(request, slug)
    subscription = get_object_or_404(WebhookSubscription, pk=pk, tournament=tournament)
    webhooks.delete_subscription(subscription)
    messages.success(request, _("Webhook deleted."))
    return redirect("tournaments:webhooks", tournament.slug)


@login_required
@require_POST
def webhook_renew_secret(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Give a webhook a new signing secret, shown this once (asked first: the old one stops
    signing at once)."""
    tournament = _managed(request, slug)
    subscription = get_object_or_404(WebhookSubscription, pk=pk, tournament=tournament)
    back = reverse("tournaments:webhooks", args=[tournament.slug])
    if not asking.confirmed(request):
        return asking.ask_page(request, renew_question(subscription), back,
                               title=tournament.name)
    renewed = webhooks.renew_secret(subscription, actor=request.user)
    messages.success(request, _("The new secret of %(url)s, shown only this once: %(secret)s")
                     % {"url": renewed.url, "secret": renewed.secret})
    return redirect(back)


def renew_question(subscription: WebhookSubscription) -> str:
    """What renewing a webhook's secret costs, asked before it is done."""
    return _("Give %(url)s a new secret? Deliveries are signed with it at once: the receiver "
             "refuses them until it has the new one.") % {"url": subscription.url}


@login_required
@require_POST
def delivery_replay(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Send a delivery's payload again as a new delivery."""
    tournament = _managed(request, slug)
    delivery = get_object_or_404(WebhookDelivery, pk=pk, subscription__tournament=tournament)
    replay = webhooks.replay_delivery(delivery)
    messages.success(request, _("Delivery %(number)s queued again as %(replay)s.")
                     % {"number": delivery.sequence, "replay": replay.sequence})
    return redirect("tournaments:webhooks", tournament.slug)
