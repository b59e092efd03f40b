"""Fixtures of the accounts tests: e-mail kept in memory."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _test_settings(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


