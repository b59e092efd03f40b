"""Test data made through the real code: players, and a free port for a server a test starts.

The fixtures built on them (`make_player`, `player`, `other_player`, `api`) are in conftest.py;
games, wins and reveals are made through the real services by each app's helpers."""

from __future__ import annotations

import itertools
import socket

PASSWORD = "a-long-pass-phrase"
_numbers = itertools.count(1)


def player_make(name: str | None = None, **extra):
    """A player (an account) named `name`, or a new name; `extra`: more of the user's fields."""
    from accounts.models import User

    name = name or f"player{next(_numbers)}"
    return User.objects.create_user(name, f"{name}@example.com", PASSWORD, **extra)


def free_port() -> int:
    """A TCP port nothing listens on now, for a server the test starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
