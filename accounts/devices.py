"""The device key (docs/security.md, "Same person, two accounts").

Every browser gets a long-lived random cookie, `yukon_device` (128 bits, HttpOnly). The server
never stores it: it keeps only its HMAC-SHA256 under a key derived from SECRET_KEY
(`device_key`), so a row read from the database cannot be replayed as someone's cookie, and no
IP address is involved. Quick match refuses to pair two tickets of one device hash
(races.matching); the sightings (`DeviceSighting`, at most one write a day per session and
device) let fair play ask which accounts one browser has used (`accounts_sharing_a_device`).

`DeviceKeyMiddleware` sets the cookie on any response that lacks it; place it after
AuthenticationMiddleware.
"""

from __future__ import annotations

import logging
import re
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.models import DeviceSighting, User

logger = logging.getLogger(__name__)

DEVICE_COOKIE = "yukon_device"
DEVICE_COOKIE_AGE = 2 * 365 * 24 * 3600  # seconds: as long as browsers keep a cookie
_DEVICE_VALUE = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)
_MINTED = "_yukon_device_minted"  # the request attribute: the value its response sets
SIGHTINGS_KEPT = timedelta(days=90)
_SEEN_SESSION_KEY = "device_seen"  # "<day>:<hash prefix>": the sighting written today


def _hmac_hex(salt: str, value: str) -> str:
    return salted_hmac(f"yukon.accounts.{salt}", value, algorithm="sha256").hexdigest()


def _cookie_value(request: HttpRequest) -> str:
    """The request's device cookie when it is one we could have set; else ""."""
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if _DEVICE_VALUE.fullmatch(value) else ""


def device_key(request: HttpRequest) -> str:
    """The hex HMAC of the browser's device cookie (the one its response sets, when it came
    without one), or "" when there is none."""
    value = _cookie_value(request) or getattr(request, _MINTED, "")
    return _hmac_hex("device", value) if value else ""


def session_key_hash(request: HttpRequest) -> str:
    """The hex HMAC of the request's session key, or "" without a session."""
    session = getattr(request, "session", None)
    key = session.session_key if session is not None else None
    return _hmac_hex("session", key) if key else ""


def device_sighting_record(*, user: User, device_hash: str, session, now: datetime | None = None) -> bool:
    """Note that `user` was seen on the device `device_hash`: once a day per session and device
    (the session remembers the day). True when a row was written."""
    now = now or timezone.now()
    mark = f"{now.date().isoformat()}:{device_hash[:16]}"
    if session.get(_SEEN_SESSION_KEY) == mark:
        return False
    if not DeviceSighting.objects.filter(user=user, device_hash=device_hash).update(last_seen=now):
        DeviceSighting.objects.get_or_create(
            user=user, device_hash=device_hash, defaults={"first_seen": now, "last_seen": now}
        )
    session[_SEEN_SESSION_KEY] = mark
    return True


def device_sightings_prune(*, now: datetime | None = None) -> int:
    """Forget the sightings not renewed for SIGHTINGS_KEPT (the beat's daily task); how many."""
    now = now or timezone.now()
    deleted, _ = DeviceSighting.objects.filter(last_seen__lt=now - SIGHTINGS_KEPT).delete()
    return deleted


def accounts_sharing_a_device(*, user: User) -> QuerySet[User]:
    """The other accounts seen on a browser that `user` was seen on (within SIGHTINGS_KEPT)."""
    hashes = DeviceSighting.objects.filter(user=user).values("device_hash")
    return User.objects.filter(device_sightings__device_hash__in=hashes).exclude(pk=user.pk).distinct()


class DeviceKeyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        value = _cookie_value(request)
        if not value:
            value = secrets.token_urlsafe(16)
            setattr(request, _MINTED, value)
        response = self.get_response(request)
        if "public" in response.get("Cache-Control", ""):
            return response  # an answer a shared cache may keep carries no browser's cookie
        if getattr(request, _MINTED, None):
            response.set_cookie(
                DEVICE_COOKIE,
                value,
                max_age=DEVICE_COOKIE_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            try:
                device_sighting_record(user=user, device_hash=device_key(request), session=request.session)
            except DatabaseError as error:  # a note for fair play never costs the player their answer
                logger.warning("device sighting not recorded", extra={"error": repr(error)[:300]})
        return response
