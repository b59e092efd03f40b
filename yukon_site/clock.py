"""The APIs' clock: the moment an answer that depends on the day reads (tests set it here, once)."""

from __future__ import annotations

import datetime as dt


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
