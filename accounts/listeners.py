"""Who is told of changes to a player: listeners the apps above accounts register in their
AppConfig.ready(), so accounts imports no other app (docs/architecture.md).

- A **standing listener** (leaderboard) is called inside the transaction after a change to which
  of a player's results may count: a suspension, its lifting, a deletion (results detached).
- A **names listener** (leaderboard) is called after the commit of a new display name or a
  deletion, with the names that no longer (or newly) name the player, so that caches of names
  show the new one at once and the old one names no one.

Tests swap them with `listeners_replaced`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol


class StandingListener(Protocol):
    def __call__(self, *, user_id: int) -> None: ...


class NamesListener(Protocol):
    def __call__(self, *, user_id: int, names: list[str]) -> None: ...


_standing: list[StandingListener] = []
_names: list[NamesListener] = []


def standing_listener_register(listener: StandingListener) -> None:
    if listener not in _standing:
        _standing.append(listener)


def names_listener_register(listener: NamesListener) -> None:
    if listener not in _names:
        _names.append(listener)


def player_standing_changed(*, user_id: int) -> None:
    for listener in _standing:
        listener(user_id=user_id)


def player_names_changed(*, user_id: int, names: list[str]) -> None:
    for listener in _names:
        listener(user_id=user_id, names=names)


@contextmanager
def listeners_replaced(
    *, standing: list[Callable] | None = None, names: list[Callable] | None = None
) -> Iterator[None]:
    """For tests: these listeners instead of the registered ones (None keeps a kind as it is)."""
    global _standing, _names
    before = _standing, _names
    _standing = list(_standing if standing is None else standing)
    _names = list(_names if names is None else names)
    try:
        yield
    finally:
        _standing, _names = before
