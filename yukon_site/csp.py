"""django-csp's middleware, with the policy built once a process instead of once an answer.

Every answer carries the same Content-Security-Policy: it depends on the settings alone unless a
request used a nonce or a response brings a policy of its own (django-csp's decorators), and this
site uses neither. Building it (dataclass copies and joins) cost about 0.15 ms of each answer,
a tenth of a public board read. Answers with a nonce or a policy of their own, and settings with
EXCLUDE_URL_PREFIXES, go to django-csp as before.
"""

from __future__ import annotations

import http.client
from dataclasses import asdict
from functools import cache

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, PolicyParts
from csp.middleware import CSPMiddleware as LibraryCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

SETTINGS = {"CONTENT_SECURITY_POLICY": HEADER, "CONTENT_SECURITY_POLICY_REPORT_ONLY": HEADER_REPORT_ONLY}
# What django-csp's decorators set on a response: then its policy is the response's own.
OWN_POLICY = tuple(
    f"_csp_{part}{ro}" for part in ("config", "update", "replace", "exempt") for ro in ("", "_ro")
)
DEBUG_PAGES = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)


@cache
def settings_policies() -> tuple[tuple[str, str], ...] | None:
    """(header, policy) of the settings, or None when django-csp must decide per answer."""
    if any((getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") for name in SETTINGS):
        return None
    policies = []
    for report_only, header in ((False, HEADER), (True, HEADER_REPORT_ONLY)):
        if policy := build_policy(**asdict(PolicyParts()), report_only=report_only):
            policies.append((header, policy))
    return tuple(policies)


@receiver(setting_changed)
def _settings_changed(*, setting: str, **kwargs) -> None:
    if setting in SETTINGS:
        settings_policies.cache_clear()


class CSPMiddleware(LibraryCSPMiddleware):
    def process_response(self, request, response):
        policies = settings_policies()
        own = getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, a) for a in OWN_POLICY
        )
        if policies is None or own:
            return super().process_response(request, response)
        if response.status_code in DEBUG_PAGES and settings.DEBUG:  # django-csp leaves those as they are
            return response
        for header, policy in policies:
            if header not in response:
                response[header] = policy
        # As django-csp: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
