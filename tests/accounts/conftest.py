"""Fixtures of the accounts tests: fast password hashing, e-mail kept in memory."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _test_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


