"""Quick match never pairs two accounts of one browser or one session (docs/races.md, "Quick
match"): the asks' device cookie (`yukon_device`, docs/security.md) and session, by their hashes."""

from __future__ import annotations

import secrets
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from races import matching
from races.models import QuickMatchTicket

pytestmark = pytest.mark.django_db
DEVICE_COOKIE = "yukon_device"
URL = "/api/races/quick/"
ASK = {"rules": "classic"}


def signed_in(player, *, browser: str | None = None) -> APIClient:
    """A client signed in as `player`; `browser`: its device cookie (else it gets its own)."""
    client = APIClient()
    client.force_login(player)
    if browser is not None:
        client.cookies[DEVICE_COOKIE] = browser
    return client


def test_two_accounts_asking_from_one_browser_are_not_paired(make_player):
    browser = secrets.token_urlsafe(16)
    first, second = make_player(), make_player()
    assert signed_in(first, browser=browser).post(URL, ASK, format="json").json()["state"] == "waiting"
    answer = signed_in(second, browser=browser).post(URL, ASK, format="json").json()
    assert answer["state"] == "waiting", "paired with another account of the same browser"
    # Another browser is someone else: paired with the first who waits.
    matched = signed_in(make_player()).post(URL, ASK, format="json").json()
    assert matched["state"] == "matched"
    assert list(QuickMatchTicket.objects.filter(race=None).values_list("user_id", flat=True)) == [second.pk]


def test_an_asynchronous_match_is_not_given_to_another_account_of_its_browser(make_player):
    browser = secrets.token_urlsafe(16)
    starter = signed_in(make_player(), browser=browser)
    challenge = starter.post(URL, {**ASK, "asynchronous": True}, format="json").json()["race"]
    answer = signed_in(make_player(), browser=browser).post(URL, ASK, format="json").json()
    assert answer["state"] == "waiting", "given the challenge of another account of the same browser"
    taken = signed_in(make_player()).post(URL, ASK, format="json").json()
    assert taken["state"] == "matched" and taken["race"]["id"] == challenge["id"]


def test_two_tickets_of_one_session_are_not_paired(make_player):
    """Django gives every sign-in a new session key, so two accounts rarely share one; the
    rule holds all the same."""
    now = timezone.now()
    session = matching.Asker(session_hash="5e" * 32)
    first, second = make_player(), make_player()
    matching.quick_match(user=first, rules="classic", asker=session, now=now)
    assert matching.quick_match(user=second, rules="classic", asker=session, now=now).race is None
    other = matching.Asker(session_hash="0f" * 32)
    later = now + timedelta(seconds=1)
    assert matching.quick_match(user=make_player(), rules="classic", asker=other, now=later).race
