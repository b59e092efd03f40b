"""The site's django-allauth account adapter (settings ACCOUNT_ADAPTER)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from accounts.lockout import LOCKOUT_CODE, login_lockout_error, login_lockout_seconds


class AccountAdapter(DefaultAccountAdapter):
    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        """allauth's check of failed sign-ins, whose refusal also says how long to wait."""
        try:
            super().pre_authenticate(request, **credentials)
        except ValidationError as refusal:
            if refusal.code != LOCKOUT_CODE:
                raise
            # The key allauth counted the failures under: the typed login, on this site.
            key = self._get_login_attempts_cache_key(request, **credentials)
            raise login_lockout_error(login_lockout_seconds(request, key=key)) from None
