"""Shared values of the accounts tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

PASSWORD = "a-long-pass-phrase"


def leaderboard_present() -> bool:
    """The leaderboard app is usable: its services module and its tables (a migration) exist."""
    try:
        if importlib.util.find_spec("leaderboard.services") is None:
            return False
    except ModuleNotFoundError:
        return False
    return any((Path(__file__).resolve().parents[2] / "leaderboard" / "migrations").glob("0001_*.py"))
