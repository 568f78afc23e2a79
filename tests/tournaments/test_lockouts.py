"""Throttled logins, tokens, PINs and verification uploads: locked after the configured
failures (the right password or PIN refused too), open again after the cool-off, a translated
message with the minutes left, and the organizer's log that lists the lockouts and lifts one."""

from __future__ import annotations

import json
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
from scoring.people import lockouts
from scoring.signoff.content import party_players
from scoring.signoff.pins import set_signing_pin
from tests.conftest import DEAD_PORT

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


def upload(client: Client):
    return client.post(reverse("scoring:verify"),
                       {"pdf": SimpleUploadedFile("p.pdf", b"%PDF-1.4 not")})


PAUSED = "Protocol uploads are paused: the upload limit cannot be checked right now."


def test_an_upload_is_refused_when_the_cache_raises(db, monkeypatch):
    """The limit fails closed: a cache that cannot count refuses the upload, saying why."""

    class Raising:
        def __getattr__(self, name):
            raise ConnectionError("the cache is down")

    monkeypatch.setattr(lockouts, "cache", Raising())
    refused = upload(Client(REMOTE_ADDR="10.0.0.5"))
    assert refused.status_code == 503
    assert PAUSED in refused.content.decode()
    assert not Lockout.objects.exists()
    russian = Client(REMOTE_ADDR="10.0.0.5", HTTP_ACCEPT_LANGUAGE="ru").post(
        reverse("scoring:verify"), {"pdf": SimpleUploadedFile("p.pdf", b"%PDF-1.4")})
    assert "Загрузка протоколов приостановлена" in russian.content.decode()


def test_with_redis_down_no_upload_gets_through(settings, db):
    """The production cache answers a miss while Redis is down (pages stay up); the upload
    limit does not take that for a count of zero: 35 of 35 uploads are refused."""
    settings.CACHES = {"default": {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": f"redis://127.0.0.1:{DEAD_PORT}/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}}
    client = Client(REMOTE_ADDR="10.0.0.5")
    statuses = [upload(client).status_code for _attempt in range(35)]
    assert statuses == [503] * 35
    assert client.get(reverse("scoring:verify")).status_code == 200  # the page itself is up


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
print([verify_upload_refusal(request)[0] for _ in range(2)])
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


# -- one address, many usernames (password spraying) ---------------------------------------

SPRAYER = "10.0.0.50"


def spray(usernames: list[str], tries: int) -> list[int]:
    """Each username ``tries`` wrong passwords from one address, alternately on the form and
    the token endpoint; the statuses in order."""
    statuses = []
    for number, username in enumerate(usernames):
        for _attempt in range(tries):
            if number % 2:
                statuses.append(token("wrong", username=username, address=SPRAYER).status_code)
            else:
                statuses.append(form_login("wrong", username=username,
                                           address=SPRAYER)[1].status_code)
    return statuses


@pytest.fixture
def address_limit(settings):
    """Five failures lock a username (not reached by four tries); thirty from one address,
    whatever the usernames, lock the address (the defaults)."""
    settings.AXES_FAILURE_LIMIT = 5
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 30


def test_forty_usernames_times_four_wrong_passwords_are_throttled_before_the_50th(
        ref, address_limit):
    usernames = ["ref", *(f"guess{n}" for n in range(39))]
    statuses = spray(usernames, 4)
    assert len(statuses) == 160
    first_refused = statuses.index(429) + 1
    assert first_refused == 30 < 50  # the 30th failure locks the address: every try after waits
    assert set(statuses[first_refused:]) == {429}
    assert not Lockout.objects.filter(kind__in=[Lockout.Kind.LOGIN, Lockout.Kind.TOKEN])
    client, refused = form_login("right-pw-1", address=SPRAYER)  # even the right password
    assert refused.status_code == 429 and "_auth_user_id" not in client.session
    assert "Too many failed logins from your address, for several usernames: try again in 10 " \
           "minutes." in refused.content.decode()
    assert int(refused["Retry-After"]) > 500
    api = token("right-pw-1", address=SPRAYER)
    assert api.status_code == 429 and api.json()["detail"].startswith(
        "Too many failed logins from your address")
    assert form_login("right-pw-1", address="10.0.0.51")[1].status_code == 302  # elsewhere
    lockout = Lockout.objects.get()
    assert (lockout.kind, lockout.address, lockout.username) == ("address", SPRAYER, "")
    assert set(lockout.tried) == set(usernames)  # counted ones and those refused meanwhile
    after_the_cool_off()
    assert form_login("right-pw-1", address=SPRAYER)[1].status_code == 302


def test_the_address_lockout_is_in_russian(ref, address_limit, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    spray(["a", "b"], 2)
    response = APIClient(REMOTE_ADDR=SPRAYER, HTTP_ACCEPT_LANGUAGE="ru").post(
        TOKEN, {"username": "ref", "password": "right-pw-1"}, format="json")
    assert response.status_code == 429
    assert response.json()["detail"] == ("Слишком много неудачных входов с вашего адреса под "
                                         "разными именами: попробуйте снова через 10 минут.")


def test_the_organizer_lifts_an_address_lockout_where_his_people_were_tried(
        ref, organizer, make_user, address_limit, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 12
    spray(["guess"], 5)  # locked on its own (its fifth failure)
    spray(["ref", "mallory-1", "mallory-2"], 4)  # the twelfth failure locks the address
    lockout = Lockout.objects.get(kind=Lockout.Kind.ADDRESS)
    page = Client()
    page.force_login(organizer)
    text = page.get(reverse("tournaments:lockouts")).content.decode()
    assert "Logins from one address" in text and SPRAYER in text
    assert "every username" in text and "mallory-1" not in text  # others' names not shown
    stranger = Client()
    stranger.force_login(make_user("other-org", organizer=True))
    assert SPRAYER not in stranger.get(reverse("tournaments:lockouts")).content.decode()
    assert stranger.post(reverse("tournaments:lockouts"), {"lockout": lockout.pk}).status_code \
        == 302
    lockout.refresh_from_db()
    assert lockout.active  # the stranger's try lifted nothing
    assert page.post(reverse("tournaments:lockouts"), {"lockout": lockout.pk}).status_code == 302
    lockout.refresh_from_db()
    assert lockout.unlocked_by == organizer and not lockout.active
    assert form_login("right-pw-1", address=SPRAYER)[1].status_code == 302  # at once
    assert form_login("wrong", username="guess", address=SPRAYER)[1].status_code == 429
    # the address counts from zero again: eleven more failures pass, the twelfth locks it
    assert spray([f"next{n}" for n in range(11)], 1) == [200 if n % 2 == 0 else 400
                                                         for n in range(11)]
    assert spray(["next11"], 1) == [429]


LOCK_AND_LIFT_WITH_DEBUG_OFF = """
import gc, json
import django
django.setup()
gc.collect()  # what a production start does to a weakly connected receiver
from django.apps import apps
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import setup_test_environment

settings.STORAGES = {**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # no collectstatic
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
settings.MIGRATION_MODULES = {app.label: None for app in apps.get_app_configs()}
setup_test_environment()
connection.creation.create_test_db(verbosity=0)  # its own database, in memory

from tests.factories import TournamentFactory, TournamentRoleFactory, UserFactory
org = UserFactory(username="org", organizer=True)
tournament = TournamentFactory(organizer=org)
TournamentRoleFactory(tournament=tournament, user=UserFactory(username="ref"), role="referee")
seen = {"debug": settings.DEBUG}
visitor = Client(REMOTE_ADDR="10.0.0.7")
seen["wrong"] = [visitor.post("/accounts/login/", {"username": "ref", "password": "bad"})
                 .status_code for _ in range(5)]
seen["right_while_locked"] = visitor.post(
    "/accounts/login/", {"username": "ref", "password": "pw"}).status_code
boss = Client()
boss.force_login(org)
page = boss.get("/lockouts/").content.decode()
seen["listed"] = "<code>ref</code>" in page and "10.0.0.7" in page
from scoring.models import Lockout
seen["lift"] = boss.post("/lockouts/", {"lockout": Lockout.objects.get().pk}).status_code
seen["lifted_by"] = Lockout.objects.get().unlocked_by.username
seen["right_after"] = visitor.post(
    "/accounts/login/", {"username": "ref", "password": "pw"}).status_code
print(json.dumps(seen))
"""


@pytest.mark.slow
def test_with_debug_off_five_wrong_passwords_are_listed_and_lifted_by_the_organizer(settings,
                                                                                   tmp_path):
    """A process started as in production (DEBUG=0): the fifth wrong password locks, the
    lockout is on the organizer's /lockouts/, he lifts it, and the right password logs in."""
    env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": "testserver",
           "SECURE_SSL_REDIRECT": "0", "SECRET_KEY": "lockouts-" + "k" * 50,
           "DJANGO_SETTINGS_MODULE": "config.settings", "LOGIN_FAILURE_LIMIT": "5",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}", "LOG_LEVEL": "ERROR"}
    env.pop("REDIS_URL", None)
    done = subprocess.run([sys.executable, "-c", LOCK_AND_LIFT_WITH_DEBUG_OFF], env=env,
                          capture_output=True, text=True, cwd=settings.BASE_DIR, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"debug": False, "wrong": [200, 200, 200, 200, 429],
                    "right_while_locked": 429, "listed": True, "lift": 302,
                    "lifted_by": "org", "right_after": 302}
