"""Fixtures of the games tests: players, signed-in API clients, and ranked games with known wins."""

from __future__ import annotations

import pytest
from django.utils import timezone
from games_helpers import AN_HOUR_AGO, CLASSIC_WIN
from rest_framework.test import APIClient

from accounts.models import User
from games.issuing.dealing import known_deals
from games.issuing.services import game_issue


@pytest.fixture
def issue_game():
    """Issue a ranked game of a known deal (default: one whose winning log we have), an hour ago."""

    def issue(user: User, code: str = CLASSIC_WIN["code"], ago=AN_HOUR_AGO):
        rules = "classic" if "-C-" in code else "relaxed"
        with known_deals([code]):
            (game,) = game_issue(user=user, rules=rules, now=timezone.now() - ago)
        return game

    return issue


@pytest.fixture
def submit(api, django_capture_on_commit_callbacks):
    """POST a body as the signed-in player; the verification enqueued on commit runs (eagerly)."""

    def post(data: dict, client: APIClient | None = None):
        with django_capture_on_commit_callbacks(execute=True):
            return (client or api).post("/api/submissions/", data, format="json")

    return post
