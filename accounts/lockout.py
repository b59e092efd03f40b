"""How long a locked sign-in must wait, read from django-allauth's own rate limit of failed
sign-ins (`login_failed`: by default 10 a minute per address, and 5 in 5 minutes per login as
typed), where allauth keeps it: each rate's recent failure times, in the cache.

The wait depends only on the failures sent with that login, never on whether an account has
it: allauth refuses before it looks the login up, and so does this.

A signed-in player's password, asked again to delete the account, is checked within allauth's
rate of password confirmations (`reauthenticate`, set in settings: 5 in 5 minutes a player, as
a sign-in's), counted whatever the answer: a stolen session cannot try passwords in a loop.
"""

from __future__ import annotations

import math
import time

# allauth's rate-limit internals (its public module only consumes and clears). allauth is pinned
# exactly in requirements.txt, and tests/accounts/test_sign_in_lockout.py reads the real window.
from allauth.core.internal.ratelimit import Rate, consume, get_cache_key, get_rates
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext, ngettext

RATE_LIMIT_APP = "allauth.account"
FAILED_SIGN_IN = "login_failed"
LOCKOUT_CODE = "too_many_login_attempts"  # allauth's code for this refusal, kept
PASSWORD_CONFIRMATION = "reauthenticate"  # allauth's action for a signed-in player's password


class PasswordTriesExhausted(Exception):
    """Too many password confirmations: `seconds` until one more may be tried."""

    def __init__(self, seconds: int) -> None:
        super().__init__(f"try again in {seconds} s")
        self.seconds = seconds


def password_confirmed(request: HttpRequest, *, user, password: str) -> bool:
    """Is `password` the signed-in `user`'s? Raises PasswordTriesExhausted, the password
    unchecked, past allauth's rate of password confirmations (each try counts)."""
    if not consume(request, app=RATE_LIMIT_APP, action=PASSWORD_CONFIRMATION, user=user):
        raise PasswordTriesExhausted(_wait_seconds(request, action=PASSWORD_CONFIRMATION, user=user))
    return user.check_password(password)


def password_tries_message(seconds: int) -> str:
    """The refusal of one password try too many, in the active language."""
    minutes = whole_minutes(seconds)
    if minutes == 1:
        return gettext("Too many password tries. Try again in a minute.")
    return ngettext(
        "Too many password tries. Try again in %(minutes)d minute.",
        "Too many password tries. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def seconds_until_allowed(failures: list[float], *, rate: Rate, now: float) -> float:
    """Seconds until `rate` allows one more failure, given the failure times it holds (0: now)."""
    recent = sorted((failure for failure in failures if failure > now - rate.duration), reverse=True)
    if len(recent) < rate.amount:
        return 0.0
    # Room for one more once all but amount - 1 of them have left the window.
    return recent[rate.amount - 1] + rate.duration - now


def whole_minutes(seconds: float) -> int:
    """Rounded up, and never under one: a refusal waits at least a moment."""
    return max(1, math.ceil(seconds / 60))


def login_lockout_seconds(request: HttpRequest, *, key: str) -> int:
    """Whole seconds (at least 1) until allauth lets a sign-in with `key` be tried again: the
    longest wait among the failed sign-in rates (`key`: allauth's key for the typed login)."""
    return _wait_seconds(request, action=FAILED_SIGN_IN, key=key)


def _times(request: HttpRequest, *, action: str, rate: Rate, key=None, user=None) -> list[float]:
    cache_key = get_cache_key(request, app=RATE_LIMIT_APP, action=action, rate=rate, key=key, user=user)
    return cache.get(cache_key, [])


def _wait_seconds(request: HttpRequest, *, action: str, key=None, user=None) -> int:
    """Whole seconds (at least 1) until each of allauth's rates of `action` has room again."""
    now = time.time()
    waits = [
        seconds_until_allowed(
            _times(request, action=action, rate=rate, key=key, user=user), rate=rate, now=now
        )
        for rate in get_rates(app=RATE_LIMIT_APP, action=action)
    ]
    return max(1, math.ceil(max(waits, default=0)))


def login_lockout_message(seconds: int) -> str:
    """The refusal a locked sign-in reads, in the active language."""
    minutes = whole_minutes(seconds)
    if minutes == 1:
        return gettext("Too many failed sign-ins. Try again in a minute.")
    # The number in every form: a language may use its "one" form for 21 as well.
    return ngettext(
        "Too many failed sign-ins. Try again in %(minutes)d minute.",
        "Too many failed sign-ins. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def login_lockout_error(seconds: int) -> ValidationError:
    """allauth's refusal with the wait in it, under allauth's code."""
    return ValidationError(login_lockout_message(seconds), code=LOCKOUT_CODE)
