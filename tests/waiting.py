"""Waiting in a test for what another process does (a worker, a server): `wait_for`."""

from __future__ import annotations

import time


def wait_for(condition, timeout: float = 60.0, what: str = "the condition"):
    """`condition()`'s first true value, asked every 0.2 s; AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {timeout} s")
