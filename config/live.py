"""The live updates' stream: the `/live/` endpoint, who may read which channel, its settings.

Served with django-eventstream's fan-out (each stream's loop: ``config.live_stream``) under
ASGI (uvicorn: ``make run``, gunicorn with uvicorn workers in production); under WSGI the
endpoint answers 204, which tells a browser's EventSource not to come back, and the page
keeps polling. Channels (``scoring.live``): ``tournament-<id>``
for whoever may see the tournament, ``party-<id>`` for whoever may see the party's
tournament. What is published is in ``scoring.live``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from config.live_stream import open_stream
from scoring import live
from scoring.access import permissions
from scoring.models import Party, Tournament

MAX_CHANNELS = 8


def offered(request: HttpRequest) -> dict[str, bool]:
    """Context: ``live_updates``, whether the page opens the stream (``LIVE_UPDATES``: "auto"
    when served under ASGI, "1" always, "0" never); without it the page only polls."""
    setting = str(getattr(settings, "LIVE_UPDATES", "auto"))
    if setting == "auto":
        return {"live_updates": isinstance(request, ASGIRequest)}
    return {"live_updates": setting in ("1", "true", "yes", "on")}


def readable(user: Any, channel: str) -> bool:
    """May ``user`` (None: anonymous) hear the channel: its tournament is visible to him."""
    parsed = live.parse_channel(channel)
    if parsed is None:
        return False
    kind, pk = parsed
    if kind == "party":
        party = Party.objects.select_related("round__tournament").filter(pk=pk).first()
        tournament = party.round.tournament if party is not None else None
    else:
        tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        return False
    return permissions.can_view(user if user is not None else AnonymousUser(), tournament)


class ChannelManager:
    """django-eventstream's channel manager: the ``?channel=`` asked, read as ``readable``."""

    def get_channels_for_request(self, request: HttpRequest, view_kwargs: dict) -> set[str]:
        """The channels the page asked for (at most ``MAX_CHANNELS``)."""
        return set(request.GET.getlist("channel")[:MAX_CHANNELS])

    def can_read_channel(self, user: Any, channel: str) -> bool:
        """``readable``."""
        return readable(user, channel)

    def is_channel_reliable(self, channel: str) -> bool:
        """No event is stored: a page that reconnects fetches its fragment (ETag) instead."""
        return False


@csrf_exempt
@require_GET
def stream(request: HttpRequest) -> HttpResponseBase:
    """The event stream of the channels asked (403 for one the visitor may not read; 204
    when not served under ASGI: the page polls)."""
    channels = request.GET.getlist("channel")
    if not channels or len(channels) > MAX_CHANNELS:
        return HttpResponse(status=400)
    user = request.user if request.user.is_authenticated else None
    if not all(readable(user, channel) for channel in channels):
        return HttpResponse(status=403)
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    return open_stream(request, channels)
