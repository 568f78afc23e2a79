"""The webhook URL guard: http(s) only, and no private, loopback or link-local addresses.

The host is resolved when a URL is registered and again before every delivery (the delivery
connects to the address checked here, so a name cannot be re-pointed between check and
connection). ``settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS`` lifts the address rule (tests, a
receiver on the same private network).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from scoring.core.errors import ServiceError


@dataclass(frozen=True)
class Target:
    """Where a webhook URL points: scheme, host name, port, path and the checked addresses."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]


def refused_address(address: str) -> bool:
    """True for private, loopback, link-local, multicast, reserved and unspecified addresses."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast
            or ip.is_reserved or ip.is_unspecified or not ip.is_global)


def _resolve(host: str, port: int) -> tuple[str, ...]:
    """Every address the host name resolves to (TCP), in the resolver's order."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise ServiceError("url", _("The host of this URL cannot be resolved.")) from err
    return tuple(dict.fromkeys(str(info[4][0]) for info in infos))


def check_webhook_url(url: str) -> Target:
    """Parse, resolve and check a webhook URL; a refused one raises ``ServiceError('url')``."""
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https"):
        raise ServiceError("url", _("A webhook URL must start with http:// or https://."))
    if not parts.hostname or parts.username or parts.password:
        raise ServiceError("url", _("Give a webhook URL with a host name and no credentials."))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as err:
        raise ServiceError("url", _("The port of this URL is not valid.")) from err
    addresses = _resolve(parts.hostname, port)
    if not addresses:
        raise ServiceError("url", _("The host of this URL cannot be resolved."))
    allow_private = getattr(settings, "WEBHOOK_ALLOW_PRIVATE_NETWORKS", False)
    if not allow_private and any(refused_address(a) for a in addresses):
        raise ServiceError(
            "url",
            _("This URL points to a private, loopback or link-local address; "
              "webhooks are only sent to public addresses."),
        )
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(parts.scheme, parts.hostname, port, path, addresses)
