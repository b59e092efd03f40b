"""Race tests: players, and races dealt a deal whose winning log is known."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from accounts.models import User
from games.engine import GameCode

_CASES = json.loads((Path(__file__).resolve().parents[2] / "games/engine/vectors/logs.json").read_text())[
    "cases"
]
CLASSIC_WIN = next(
    {"code": case["code"], "log": case["log"], "moves": case["verdict"]["moves"]}
    for case in _CASES
    if case["code"] == "YU1-C-AAAAAAA" and case["verdict"]["won"] and "U" not in case["log"].split()
)


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_player(db):
    counter = iter(range(1, 10_000))

    def make(name: str | None = None) -> User:
        name = name or f"racer{next(counter)}"
        return User.objects.create_user(name, f"{name}@example.com", "a-long-pass-phrase")

    return make


@pytest.fixture
def known_deal(monkeypatch):
    """Races deal the Classic deal whose win is CLASSIC_WIN instead of a random one."""
    number = GameCode.parse(CLASSIC_WIN["code"]).number
    monkeypatch.setattr("games.services.random_deal_numbers", lambda: iter([number] * 1000))
    return CLASSIC_WIN
