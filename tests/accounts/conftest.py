"""Fixtures of the accounts tests: fast password hashing, players, and the leaderboard seam."""

from __future__ import annotations

import pytest
from accounts_helpers import PASSWORD, leaderboard_present
from rest_framework.test import APIClient

from accounts.models import User


@pytest.fixture(autouse=True)
def _test_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    if not leaderboard_present():  # until the leaderboard lands, its seam is switched off
        settings.LEADERBOARD_RESULT_RECORDER = None
        settings.LEADERBOARD_PLAYER_REBUILD = None


@pytest.fixture
def make_player(db):
    def make(name: str, **extra) -> User:
        return User.objects.create_user(name, f"{name}@example.com", PASSWORD, **extra)

    return make


@pytest.fixture
def player(make_player) -> User:
    return make_player("alice")


@pytest.fixture
def api(player) -> APIClient:
    client = APIClient()
    client.force_login(player)
    return client
