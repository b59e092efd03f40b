"""A short-lived, per-process memory of hot board pages (≤ 1 s by default).

The first page of a busy board is asked for many times a second; keeping the answer for
LEADERBOARD_HOT_PAGE_SECONDS spares the same reads. 0 switches it off.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from django.conf import settings

MAX_PAGES = 2000
_pages: OrderedDict[str, tuple[float, object]] = OrderedDict()


def hot_page(key: str, compute: Callable[[], object]) -> object:
    """The value kept for `key` if it is fresh, else `compute()` (kept for next time)."""
    seconds = settings.LEADERBOARD_HOT_PAGE_SECONDS
    if seconds <= 0:
        return compute()
    now = time.monotonic()
    kept = _pages.get(key)
    if kept is not None and kept[0] > now:
        return kept[1]
    value = compute()
    _pages[key] = (now + seconds, value)
    _pages.move_to_end(key)
    while len(_pages) > MAX_PAGES:
        _pages.popitem(last=False)
    return value


def hot_page_kept(key: str) -> object | None:
    """The value kept for `key` if it is fresh, else None (nothing is computed)."""
    if settings.LEADERBOARD_HOT_PAGE_SECONDS <= 0:
        return None
    kept = _pages.get(key)
    return kept[1] if kept is not None and kept[0] > time.monotonic() else None


def hot_pages_clear() -> None:
    _pages.clear()
