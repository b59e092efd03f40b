"""The device cookie (docs/security.md, "Same person, two accounts"): set on every browser,
HttpOnly, never stored; the server keeps its HMAC alone, on quick-match tickets and in the
sightings that say which accounts one browser has used."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from races.models import QuickMatchTicket

pytestmark = pytest.mark.django_db
DEVICE_COOKIE = "yukon_device"
PAGE = "/api/races/ratings/?rules=classic"


def test_every_browser_gets_a_long_lived_http_only_device_cookie(client):
    response = client.get(PAGE)
    assert response.status_code == 200
    cookie = response.cookies[DEVICE_COOKIE]
    assert len(cookie.value) == 22  # 128 random bits, url-safe
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and not cookie["secure"]
    assert cookie["max-age"] >= 365 * 24 * 3600
    again = client.get(PAGE)  # the browser sends it back: nothing to set
    assert DEVICE_COOKIE not in again.cookies


def test_the_device_cookie_is_secure_when_the_session_cookie_is(client, settings):
    settings.SESSION_COOKIE_SECURE = True
    assert client.get(PAGE).cookies[DEVICE_COOKIE]["secure"]


def test_a_cookie_we_could_not_have_set_is_replaced(client):
    client.cookies[DEVICE_COOKIE] = "not-a-device-key"
    assert client.get(PAGE).cookies[DEVICE_COOKIE].value != "not-a-device-key"


def device_hash_of(value: str) -> str:
    from accounts.devices import device_key

    request = RequestFactory().get("/")
    request.COOKIES[DEVICE_COOKIE] = value
    return device_key(request)


def test_only_the_cookies_hash_is_stored(player):
    api = APIClient()
    raw = api.get(PAGE).cookies[DEVICE_COOKIE].value
    api.force_login(player)
    assert api.post("/api/races/quick/", {"rules": "classic"}, format="json").json()["state"] == "waiting"
    hashed = device_hash_of(raw)
    assert len(hashed) == 64 and QuickMatchTicket.objects.get(user=player).device_hash == hashed
    assert list(player.device_sightings.values_list("device_hash", flat=True)) == [hashed]
    every_row = io.StringIO()
    call_command("dumpdata", stdout=every_row)
    assert hashed in every_row.getvalue() and raw not in every_row.getvalue()


def test_two_accounts_seen_on_one_browser_can_be_found_and_a_sighting_is_written_once_a_day(make_player):
    from accounts.devices import accounts_sharing_a_device

    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    browser = APIClient()
    for player in (ann, bob):
        browser.force_login(player)
        assert browser.get("/api/account/").status_code == 200
    elsewhere = APIClient()
    elsewhere.force_login(cat)
    elsewhere.get("/api/account/")
    assert list(accounts_sharing_a_device(user=ann)) == [bob]
    assert list(accounts_sharing_a_device(user=cat)) == []
    with CaptureQueriesContext(connection) as queries:
        browser.get("/api/account/")
    assert not [query for query in queries if "devicesighting" in query["sql"]]


def test_sightings_not_renewed_for_ninety_days_are_forgotten(player):
    from accounts.devices import device_sighting_record, device_sightings_prune

    long_ago = timezone.now() - timedelta(days=91)
    device_sighting_record(user=player, device_hash="a" * 64, session={}, now=long_ago)
    device_sighting_record(user=player, device_hash="b" * 64, session={}, now=timezone.now())
    assert device_sightings_prune() == 1
    assert list(player.device_sightings.values_list("device_hash", flat=True)) == ["b" * 64]
