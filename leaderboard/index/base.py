"""What every board index answers (`BoardIndex`), and the records it reads and writes.

Two implementations: one sorted set a board (`leaderboard.index.sorted_sets`) and boards split by
score (`leaderboard.index.histogram`), which a Redis Cluster needs. `leaderboard.index.wiring`
picks one and connects it to Django; nothing else in the leaderboard knows which it has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import NamedTuple, Protocol


# The records a page is read into are NamedTuples: as immutable as a frozen dataclass, and made
# several times faster (a page of 21 entries makes 63 of them).
class EntryDetails(NamedTuple):
    """What a page shows of an entry besides its score and time (both in the sort key)."""

    submission_id: int
    moves: int
    duration_ms: int
    code: str

    def encode(self) -> str:
        return f"{self.submission_id} {self.moves} {self.duration_ms} {self.code}"

    @classmethod
    def decode(cls, text: bytes | str) -> EntryDetails:
        submission_id, moves, duration_ms, code = (text.decode() if isinstance(text, bytes) else text).split()
        return cls(int(submission_id), int(moves), int(duration_ms), code)


@dataclass(frozen=True)
class IndexChange:
    """One write to a board: `mode` "gt" (only if better), "set" (exactly) or "del"."""

    board: str
    user_id: int
    mode: str
    sort_key: int = 0
    details: EntryDetails | None = None


class IndexItem(NamedTuple):
    user_id: int
    sort_key: int
    details: EntryDetails | None = None  # None: not kept (a key built before details were)


@dataclass(frozen=True)
class IndexSlice:
    """Consecutive items of a board from position `offset` (0-based) and the board's size."""

    count: int
    offset: int
    items: list[IndexItem]


class IndexBuildLost(RuntimeError):
    """The build key disappeared during a rebuild (Redis flushed or restarted)."""


class BoardIndex(Protocol):
    """The calls the boards make of an index; a read answers None for a board not built."""

    def key(self, board: str) -> str: ...
    def built_boards(self) -> list[str]: ...
    def exists(self, board: str) -> bool: ...
    def apply(self, changes: Iterable[IndexChange]) -> None: ...
    def page(
        self, board: str, *, mode: str = "first", sort_key: int = 0, user_id: int = 0, limit: int = 50
    ) -> IndexSlice | None: ...
    def around(self, board: str, *, user_id: int, span: int = 10) -> tuple[int | None, IndexSlice] | None: ...
    def rank(self, board: str, *, user_id: int) -> int | None: ...
    def place(self, board: str, *, user_id: int) -> tuple[int, int] | None: ...
    def sizes(
        self, boards: Iterable[str], *, written: dict[str, list[int]] | None = None
    ) -> dict[str, int | None]: ...
    def entries_ahead(
        self, queries: dict[str, list[IndexItem]], *, written: dict[str, list[IndexItem]] | None = None
    ) -> dict[str, list[int] | None]: ...
    def rebuild(
        self,
        board: str,
        rows: Callable[[], Iterable[tuple[int, int, EntryDetails]]],
        *,
        expire_at: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> int: ...
    def drop(self, board: str) -> None: ...
    def lock(self, board: str, *, seconds: int = 600) -> str | None: ...
    def holds(self, board: str, token: str) -> bool: ...
    def lock_take_over(self, board: str, *, seconds: int = 600) -> str: ...
    def unlock(self, board: str, token: str) -> None: ...


def batches(iterable: Iterable, size: int) -> Iterator[list]:
    """`iterable` in lists of `size` (the last shorter): a rebuild loads a board so."""
    iterator = iter(iterable)
    while batch := list(islice(iterator, size)):
        yield batch
