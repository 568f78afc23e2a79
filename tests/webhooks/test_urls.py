"""The URL guard refuses non-http(s) schemes and private, loopback and link-local addresses."""

from __future__ import annotations

import socket

import pytest

from scoring.core.errors import ServiceError
from scoring.webhooks.addresses import check_webhook_url, refused_address


@pytest.mark.parametrize("url", [
    "http://10.1.2.3/hook",
    "http://127.0.0.1:8080/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://192.168.0.10/hook",
    "http://[::1]/hook",
    "http://0.0.0.0/hook",
    "http://224.0.0.1/hook",
    "http://[::ffff:10.0.0.1]/hook",
])
def test_private_addresses_are_refused(url, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    with pytest.raises(ServiceError) as err:
        check_webhook_url(url)
    assert err.value.field == "url"


@pytest.mark.parametrize("url", ["ftp://example.org/hook", "file:///etc/passwd",
                                 "gopher://x", "http://user:pw@example.org/", "not a url"])
def test_other_schemes_and_credentials_are_refused(url, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    with pytest.raises(ServiceError) as err:
        check_webhook_url(url)
    assert err.value.field == "url"


def test_a_name_resolving_to_a_private_address_is_refused(settings, monkeypatch):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 443)),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.5", 443)),
    ])
    with pytest.raises(ServiceError):
        check_webhook_url("https://hooks.example.org/x")


def test_a_public_address_passes_and_is_pinned(settings, monkeypatch):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 443))])
    target = check_webhook_url("https://hooks.example.org/in?x=1")
    assert (target.host, target.port, target.path) == ("hooks.example.org", 443, "/in?x=1")
    assert target.addresses == ("93.184.215.14",)


def test_loopback_is_allowed_when_the_setting_says_so(settings):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    assert check_webhook_url("http://127.0.0.1:9/x").addresses == ("127.0.0.1",)


def test_refused_address_rules():
    assert refused_address("127.0.0.1") and refused_address("fe80::1")
    assert refused_address("100.64.0.1")  # shared address space (carrier NAT)
    assert not refused_address("8.8.8.8") and not refused_address("2001:4860:4860::8888")


@pytest.mark.django_db
def test_registration_refuses_a_private_url(tournament, organizer, settings):
    from scoring.webhooks.services import create_subscription

    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    for url in ("http://10.0.0.1/x", "http://127.0.0.1/x", "http://169.254.169.254/",
                "ftp://example.org/"):
        with pytest.raises(ServiceError) as err:
            create_subscription(tournament, url=url, events=["round.closed"], actor=organizer)
        assert err.value.field == "url"
    with pytest.raises(ServiceError) as err:
        settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
        create_subscription(tournament, url="http://127.0.0.1/x", events=["nope"],
                            actor=organizer)
    assert err.value.field == "events"
