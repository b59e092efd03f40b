"""Fixtures of the accounts tests: e-mail kept in memory, and the rate limits' clock."""

from __future__ import annotations

import time
from types import SimpleNamespace

import allauth.core.internal.ratelimit
import pytest

import accounts.lockout


@pytest.fixture(autouse=True)
def _test_settings(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def clock(monkeypatch):
    """The wall clock of allauth's rate limits and of the lockout, set by the test (`clock.now`)."""
    fake = SimpleNamespace(now=time.time(), monotonic=time.monotonic, sleep=time.sleep)
    fake.time = lambda: fake.now
    monkeypatch.setattr(allauth.core.internal.ratelimit, "time", fake)
    monkeypatch.setattr(accounts.lockout, "time", fake)
    return fake
