"""Throttled logins, tokens, PINs and verification uploads: locked after the configured
failures (the right password or PIN refused too), open again after the cool-off, a translated
message with the minutes left, and the organizer's log that lists the lockouts and lifts one."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.models import Lockout, Party, SigningPin
from scoring.signoff.content import party_players
from scoring.signoff.pins import set_signing_pin

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
TOKEN = "/api/v1/auth/token/"


@pytest.fixture(autouse=True)
def limits(settings):
    """Three failures lock for ten minutes (the defaults are five and fifteen)."""
    settings.AXES_FAILURE_LIMIT = 3
    settings.LOGIN_COOLOFF_MINUTES = 10
    settings.AXES_COOLOFF_TIME = timedelta(minutes=10)
    settings.SIGNING_PIN_FAILURE_LIMIT = 3
    settings.SIGNING_PIN_COOLOFF_MINUTES = 10
    cache.clear()
    yield
    cache.clear()


def form_login(password: str, username: str = "ref", address: str = "10.0.0.7", **extra):
    client = Client(REMOTE_ADDR=address, **extra)
    return client, client.post(LOGIN, {"username": username, "password": password})


def token(password: str, username: str = "ref", address: str = "10.0.0.7"):
    return APIClient(REMOTE_ADDR=address).post(
        TOKEN, {"username": username, "password": password}, format="json")


def after_the_cool_off() -> None:
    """Move every counted failure back past the cool-off."""
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=11))


@pytest.fixture
def ref(referee_user):
    referee_user.set_password("right-pw-1")
    referee_user.save()
    return referee_user


def test_the_login_form_locks_after_the_failures_and_opens_after_the_cool_off(ref):
    for _attempt in range(2):
        _client, response = form_login("wrong")
        assert response.status_code == 200
    _client, locked = form_login("wrong")
    assert locked.status_code == 429
    text = locked.content.decode()
    assert "Too many failed logins for this username from your address: try again in 10 " \
           "minutes." in text
    assert int(locked["Retry-After"]) > 500
    client, refused = form_login("right-pw-1")
    assert refused.status_code == 429 and "_auth_user_id" not in client.session
    _other, elsewhere = form_login("right-pw-1", address="10.0.0.8")  # per username+address
    assert elsewhere.status_code == 302
    after_the_cool_off()
    client, opened = form_login("right-pw-1")
    assert opened.status_code == 302 and client.session["_auth_user_id"] == str(ref.pk)
    assert not AccessAttempt.objects.filter(username="ref", ip_address="10.0.0.7").exists()


def test_the_lockout_message_is_in_russian_for_a_russian_visitor(ref):
    for _attempt in range(3):
        _client, response = form_login("wrong", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 429
    assert "Слишком много неудачных входов под этим именем с вашего адреса: попробуйте " \
           "снова через 10 минут." in response.content.decode()


def test_a_success_resets_the_count(ref):
    for _round in range(2):
        for _attempt in range(2):
            assert form_login("wrong")[1].status_code == 200
        assert form_login("right-pw-1")[1].status_code == 302
    assert not Lockout.objects.exists()


def test_the_token_endpoint_locks_with_the_same_counters(ref):
    assert token("wrong").status_code == 400
    assert form_login("wrong")[1].status_code == 200  # the form's failure counts too
    locked = token("wrong")
    assert locked.status_code == 429
    assert locked.json() == {"detail": "Too many failed logins for this username from your "
                                       "address: try again in 10 minutes."}
    assert token("right-pw-1").status_code == 429
    assert form_login("right-pw-1")[1].status_code == 429
    after_the_cool_off()
    assert token("right-pw-1").json()["token"]
    assert token("wrong").status_code == 400  # counting again from zero


def test_the_token_endpoint_answers_in_russian(ref):
    for _attempt in range(3):
        response = APIClient(REMOTE_ADDR="10.0.0.7", HTTP_ACCEPT_LANGUAGE="ru").post(
            TOKEN, {"username": "ref", "password": "wrong"}, format="json")
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Слишком много неудачных входов")


# -- signing PINs --------------------------------------------------------------------------


@pytest.fixture
def finished_party(party, referee_user):
    Party.objects.filter(pk=party.pk).update(status=Party.Status.FINISHED)
    return Party.objects.get(pk=party.pk)


def test_a_pin_locks_after_the_wrong_ones_on_the_api_and_the_page(finished_party, referee_user,
                                                                organizer):
    a1, a2 = [player for _seat, player in party_players(finished_party)][:2]
    set_signing_pin(a1.pk, "4711", actor=organizer)
    set_signing_pin(a2.pk, "2468", actor=organizer)
    api = APIClient(REMOTE_ADDR="10.0.0.9")
    api.force_authenticate(referee_user)
    url = f"/api/v1/party-protocols/{finished_party.pk}/sign/"
    for _attempt in range(2):
        assert api.post(url, {"player": a1.pk, "pin": "0000"}, format="json").json() == {
            "pin": ["Wrong PIN."]}
    locked = api.post(url, {"player": a1.pk, "pin": "0000"}, format="json")
    assert locked.status_code == 429
    assert locked.json() == {"pin": ["Too many wrong PINs: the PIN is locked, try again in 10 "
                                     "minutes."]}
    right = api.post(url, {"player": a1.pk, "pin": "4711"}, format="json")
    assert right.status_code == 429
    lockout = Lockout.objects.get(kind=Lockout.Kind.PIN)
    assert (lockout.player, lockout.address) == (a1, "10.0.0.9")
    page = Client()
    page.force_login(referee_user)
    sign = reverse("scoring:protocol_sign", args=[finished_party.pk])
    for _attempt in range(3):
        answer = page.post(sign, {"player": a2.pk, "pin": "1111"}, HTTP_HX_REQUEST="true")
    assert "Too many wrong PINs: the PIN is locked, try again in 10 minutes." in (
        answer.content.decode())
    SigningPin.objects.update(locked_until=timezone.now() - timedelta(seconds=1))  # cool-off
    assert api.post(url, {"player": a1.pk, "pin": "4711"}, format="json").status_code == 201


# -- verification uploads ------------------------------------------------------------------


def test_verification_uploads_are_limited_per_address(settings, db):
    settings.VERIFY_UPLOADS_PER_HOUR = 2
    client = Client(REMOTE_ADDR="10.0.0.5")
    url = reverse("scoring:verify")
    for _attempt in range(2):
        response = client.post(url, {"pdf": SimpleUploadedFile("p.pdf", b"%PDF-1.4 not")})
        assert response.status_code == 200
    refused = client.post(url, {"pdf": SimpleUploadedFile("p.pdf", b"%PDF-1.4 not")})
    assert refused.status_code == 429
    assert "Too many protocol uploads from your address: try again in" in (
        refused.content.decode())
    other = Client(REMOTE_ADDR="10.0.0.6")
    assert other.post(url, {"pdf": SimpleUploadedFile("p.pdf", b"%PDF-1.4")}).status_code == 200
    assert Lockout.objects.get().address == "10.0.0.5"


def test_an_oversized_protocol_upload_names_the_limit(settings, db):
    settings.VERIFY_UPLOAD_MAX_BYTES = 1024
    response = Client().post(reverse("scoring:verify"),
                             {"pdf": SimpleUploadedFile("p.pdf", b"%PDF" + b"0" * 2000)})
    assert response.status_code == 400
    assert "The file is too large for a protocol (at most 1.0\xa0KB)." in (
        response.content.decode())


# -- the organizer's log -------------------------------------------------------------------


def test_the_organizer_sees_his_people_s_lockouts_and_lifts_one(ref, organizer, make_user,
                                                                tournament):
    for _attempt in range(3):
        form_login("wrong")
    for _attempt in range(3):
        token("wrong", username="nobody-here", address="10.0.0.66")
    page = Client()
    page.force_login(organizer)
    home = page.get(reverse("tournaments:list") + "?mine=1").content.decode()
    assert reverse("tournaments:lockouts") in home
    log = page.get(reverse("tournaments:lockouts"))
    text = log.content.decode()
    assert log.status_code == 200
    assert "ref" in text and "10.0.0.7" in text and "Login form" in text
    assert "nobody-here" not in text  # not one of his tournaments' people (staff see it)
    stranger = make_user("other-org", organizer=True)
    page_of_stranger = Client()
    page_of_stranger.force_login(stranger)
    assert "10.0.0.7" not in page_of_stranger.get(reverse("tournaments:lockouts")).content.decode()
    staff = make_user("staff", is_staff=True)
    page_of_staff = Client()
    page_of_staff.force_login(staff)
    staff_text = page_of_staff.get(reverse("tournaments:lockouts")).content.decode()
    assert "nobody-here" in staff_text and "API token" in staff_text
    lockout = Lockout.objects.get(username="ref")
    assert page.post(reverse("tournaments:lockouts"), {"lockout": lockout.pk}).status_code == 302
    lockout.refresh_from_db()
    assert lockout.unlocked_by == organizer and not lockout.active
    assert form_login("right-pw-1")[1].status_code == 302  # at once, no cool-off
    assert "lifted by org" in page.get(reverse("tournaments:lockouts")).content.decode()


def test_a_referee_or_anonymous_visitor_has_no_lockout_log(client, referee_user):
    assert client.get(reverse("tournaments:lockouts")).status_code == 302  # to the login
    client.force_login(referee_user)
    assert client.get(reverse("tournaments:lockouts")).status_code == 403


REDIS = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/4"
COUNT_TWO_UPLOADS = """
import django, os
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
django.setup()
from django.test import RequestFactory
from scoring.people.lockouts import verify_upload_refusal
request = RequestFactory().post("/verify/", REMOTE_ADDR="10.9.9.9")
print([verify_upload_refusal(request) for _ in range(2)])
"""


def test_the_upload_count_is_shared_by_processes_through_redis(settings, db):
    """Another process (a second gunicorn worker) counts in the same Redis."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": REDIS}}
    settings.VERIFY_UPLOADS_PER_HOUR = 2
    cache.clear()
    env = {**os.environ, "REDIS_URL": REDIS, "VERIFY_UPLOADS_PER_HOUR": "2"}
    other = subprocess.run([sys.executable, "-c", COUNT_TWO_UPLOADS], env=env, check=True,
                           capture_output=True, text=True, cwd=settings.BASE_DIR)
    assert other.stdout.strip() == "['', '']"
    refused = Client(REMOTE_ADDR="10.9.9.9").post(
        reverse("scoring:verify"), {"pdf": SimpleUploadedFile("p.pdf", b"%PDF-1.4")})
    assert refused.status_code == 429
    cache.clear()


RECEIVER_ALIVE = """
import gc
import django
django.setup()
gc.collect()
from axes.signals import user_locked_out
from django.conf import settings
from scoring.people.lockouts import log_axes_lockout
print(settings.DEBUG, log_axes_lockout in [r for r in user_locked_out._live_receivers(None)[0]])
"""


def test_the_lockout_log_hears_axes_in_production_with_debug_off(settings):
    """A process started as in production (DEBUG=0) keeps the receiver that writes axes'
    lockouts to the log after a garbage collection (a weakly connected one was gone)."""
    env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": "localhost",
           "SECRET_KEY": "lockouts-" + "k" * 50, "DJANGO_SETTINGS_MODULE": "config.settings"}
    found = subprocess.run([sys.executable, "-c", RECEIVER_ALIVE], env=env, check=True,
                           capture_output=True, text=True, cwd=settings.BASE_DIR)
    assert found.stdout.split() == ["False", "True"]
