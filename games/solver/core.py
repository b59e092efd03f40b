"""The compiled search core (core.c) through ctypes: the same searches, node for node, faster.

Built apart, once (nothing here compiles anything)::

    cc -O2 -std=c99 -Wall -Wextra -shared -fPIC -o games/solver/_core.so games/solver/core.c

``depth_first`` and ``best_first`` take the arguments of the Python searches and keep their
protocol: a generator that yields between slices of work, counts its positions in the budget
after each slice and returns an ``Outcome``. A slice here is several of the Python search's
slices (DEPTH_FIRST_SLICES, BEST_FIRST_SLICES), a millisecond or two, cut short at the first
Python yield once the budget's positions are spent. Their table of seen positions is a
``SeenTable``, which depth-first searches may share as they share a set.

``available()``: the library is loaded and ``YUKON_SOLVER_CORE`` is not ``python`` (which
keeps the Python searches, the reference, in use: for the tests and side-by-side benches).
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable, Generator
from pathlib import Path

from .best_first import _replay_steps
from .board import Board, Record
from .budget import Budget
from .position import Position
from .rating import Weights
from .search import EXPANSIONS_PER_SLICE, Moves, Outcome, Search, start_board

LIBRARY = Path(__file__).with_name("_core.so")
BUILD_COMMAND = "cc -O2 -std=c99 -Wall -Wextra -shared -fPIC -o games/solver/_core.so games/solver/core.c"
INTERFACE_VERSION = 6  # core.c's INTERFACE_VERSION: the functions below, as declared

# Python slices run by one call into the core: 1.5 ms a call (median) on one core of the
# development machine, where one Python slice takes the core 0.2 ms (depth-first, 128 steps)
# or 0.05 ms (best-first, 32 expansions).
DEPTH_FIRST_SLICES = 8
BEST_FIRST_SLICES = 32

RUNNING, WON, EXHAUSTED, OUT_OF_MEMORY = range(4)
KEY_CAPACITY = 72  # the longest key: 52 cards, 7 face-down counts, 6 separators
RECORD_SIZE = 5  # a record's bytes: card, source, dest, start, flipped
RECORD_CAPACITY = 64  # records of a move and the safe moves it opens: at most 1 + 52
MOVE_CAPACITY = 64  # moves of one tier
NO_BOUND = 1 << 30  # best_first's limit without a bound
# Weights (and best-first's depth weight) up to this keep the core's heap entries (priority
# times 2**34, as Python's integers) within 64 bits; Python's own searches take any.
WEIGHT_LIMIT = 10_000

_handle, _bytes, _int, _int64, _uint64 = (
    ctypes.c_void_p,
    ctypes.c_char_p,
    ctypes.c_int,
    ctypes.c_int64,
    ctypes.c_uint64,
)
_SIGNATURES: dict[str, tuple[type | None, list[type]]] = {
    "core_board_new": (_handle, [_int, _bytes, _bytes, _bytes, _bytes]),
    "core_board_free": (None, [_handle]),
    "core_board_moves": (None, [_handle, _bytes, ctypes.POINTER(_int), _bytes, ctypes.POINTER(_int)]),
    "core_board_key": (_int, [_handle, _bytes]),
    "core_board_play": (_int, [_handle, _int, _int, _bytes]),
    "core_board_unplay": (None, [_handle, _bytes, _int]),
    "core_board_deadlock": (_int, [_handle]),
    "core_column_score": (_int64, [_int, ctypes.POINTER(_int64), _bytes, _int]),
    "core_table_new": (_handle, []),
    "core_table_free": (None, [_handle]),
    "core_table_count": (_uint64, [_handle]),
    "core_table_contains": (_int, [_handle, _bytes, _int]),
    "core_depth_first_new": (_handle, [_handle, ctypes.POINTER(_int64), _handle, _int, _int, _uint64]),
    "core_depth_first_step": (_int, [_handle, _int, _uint64, ctypes.POINTER(_uint64)]),
    "core_depth_first_line": (ctypes.c_size_t, [_handle, _bytes]),
    "core_depth_first_free": (None, [_handle]),
    "core_best_first_new": (
        _handle,
        [_handle, ctypes.POINTER(_int64), _handle, _int64, _int64, _int64, _int, _uint64],
    ),
    "core_best_first_step": (_int, [_handle, _int, _uint64, ctypes.POINTER(_uint64)]),
    "core_best_first_line": (ctypes.c_size_t, [_handle, _bytes]),
    "core_best_first_free": (None, [_handle]),
}


def _load() -> tuple[ctypes.CDLL | None, str]:
    """The library with its functions declared, or None and why not."""
    if not LIBRARY.exists():
        return None, f"{LIBRARY} is not built: run {BUILD_COMMAND}"
    try:
        library = ctypes.CDLL(str(LIBRARY))
        version = library.core_interface_version()
        if version != INTERFACE_VERSION:
            return None, f"{LIBRARY} is of interface {version}, not {INTERFACE_VERSION}: run {BUILD_COMMAND}"
        for name, (result, arguments) in _SIGNATURES.items():
            function = getattr(library, name)
            function.restype, function.argtypes = result, arguments
    except (OSError, AttributeError) as error:
        return None, f"{LIBRARY} does not load ({error}): run {BUILD_COMMAND}"
    return library, ""


_lib, LOAD_ERROR = _load()


def loaded() -> bool:
    """The library is built and loaded (LOAD_ERROR says why not)."""
    return _lib is not None


def available() -> bool:
    """The searches of the core are to be used: loaded, and not turned off by the environment."""
    return _lib is not None and os.environ.get("YUKON_SOLVER_CORE", "").lower() != "python"


def _library() -> ctypes.CDLL:
    if _lib is None:
        raise RuntimeError(LOAD_ERROR)
    return _lib


def _weights(weights: Weights, depth_weight: int = 0) -> ctypes.Array:
    values = (weights.face_down, weights.breaks, weights.covering, weights.foundation, weights.second_tier)
    if any(abs(value) > WEIGHT_LIMIT for value in (*values, depth_weight)):
        raise ValueError(f"the solver core takes weights up to {WEIGHT_LIMIT:,}: {weights}, {depth_weight}")
    return (_int64 * 5)(*values)


class _Owned:
    """A C object freed once, by ``close`` or when garbage-collected."""

    _free = ""  # the name of the core function that frees it
    _handle: int | None = None

    def _own(self, handle: int | None, refusal: str = "the solver core is out of memory") -> None:
        if not handle:
            raise MemoryError(refusal)
        self._handle = handle

    def close(self) -> None:
        handle, self._handle = self._handle, None
        if handle and _lib is not None:
            getattr(_lib, self._free)(handle)

    def __del__(self) -> None:
        self.close()


class SeenTable(_Owned):
    """Positions seen (their keys, exactly), kept by the core: a search's ``seen``."""

    _free = "core_table_free"

    def __init__(self) -> None:
        self._own(_library().core_table_new())

    def __len__(self) -> int:
        return _lib.core_table_count(self._handle)

    def __contains__(self, key: bytes) -> bool:
        return bool(_lib.core_table_contains(self._handle, key, len(key)))


class CoreBoard(_Owned):
    """The core's board, a copy of a search ``Board``: to start a search, and for the tests."""

    _free = "core_board_free"

    def __init__(self, board: Board) -> None:
        columns = board.columns
        self._own(
            _library().core_board_new(
                board.classic,
                bytes(card for column in columns for card in column),
                bytes(len(column) for column in columns),
                bytes(board.down),
                bytes(board.found),
            ),
            "the solver core refuses the board (not a position) or is out of memory",
        )

    def moves(self) -> tuple[Moves, Moves]:
        """Board.moves: (first tier, second tier), in the same order."""
        first = ctypes.create_string_buffer(2 * MOVE_CAPACITY)
        second = ctypes.create_string_buffer(2 * MOVE_CAPACITY)
        first_count, second_count = _int(), _int()
        _lib.core_board_moves(
            self._handle, first, ctypes.byref(first_count), second, ctypes.byref(second_count)
        )
        return _pairs(first.raw[: 2 * first_count.value]), _pairs(second.raw[: 2 * second_count.value])

    def key(self) -> bytes:
        out = ctypes.create_string_buffer(KEY_CAPACITY)
        length = _lib.core_board_key(self._handle, out)
        return out.raw[:length]

    def play_with_safe(self, card: int, dest: int) -> list[Record]:
        """search.play_with_safe: the move and the safe moves it opens, as records."""
        return self._play(card, dest)

    def play_safe(self) -> list[Record]:
        """Board.play_safe at the start (no move before): the safe moves, as records."""
        return self._play(-1, 0)

    def _play(self, card: int, dest: int) -> list[Record]:
        out = ctypes.create_string_buffer(RECORD_SIZE * RECORD_CAPACITY)
        count = _lib.core_board_play(self._handle, card, dest, out)
        raw = out.raw
        return [
            (raw[at], raw[at + 1], raw[at + 2], raw[at + 3], bool(raw[at + 4]))
            for at in range(0, RECORD_SIZE * count, RECORD_SIZE)
        ]

    def unplay_all(self, records: list[Record]) -> None:
        raw = bytes(value for record in records for value in record)
        _lib.core_board_unplay(self._handle, raw, len(records))

    def deadlock(self) -> int | None:
        """blocks.deadlock: the event no line reaches, or None."""
        event = _lib.core_board_deadlock(self._handle)
        if event < -1:
            raise MemoryError("the solver core is out of memory")
        return None if event < 0 else event


def column_score(key: bytes, weights: Weights, classic: bool) -> int:
    """ColumnScores: the score of one column key."""
    return _library().core_column_score(classic, _weights(weights), key, len(key))


def _pairs(raw: bytes) -> Moves:
    return [(raw[at], raw[at + 1]) for at in range(0, len(raw), 2)]


def _table(seen: SeenTable | None) -> SeenTable:
    if seen is None:
        return SeenTable()
    if not isinstance(seen, SeenTable):
        raise TypeError("the core's searches keep the positions they have seen in a core.SeenTable")
    return seen


def _run(handle: int, step: Callable[..., int], slices: int, budget: Budget) -> Generator[None, None, int]:
    """Step a search of the core until it ends, yielding between slices; its last status.

    A slice ends early at the first Python yield after the positions the budget has left: the
    budget is overshot by a Python slice at most, as with the Python searches.
    """
    added = _uint64()
    while True:
        left = max(budget.max_nodes - budget.nodes, 1)
        status = step(handle, slices, left, ctypes.byref(added))
        budget.add_nodes(added.value)
        if status == OUT_OF_MEMORY:
            raise MemoryError("the solver core is out of memory")
        if status != RUNNING:
            return status
        yield


def depth_first(
    position: Position,
    budget: Budget,
    weights: Weights,
    seen: SeenTable | None = None,
    *,
    deadlocks: bool = False,
    streamlined: bool = False,
    keep_builds: bool = False,
) -> Search:
    """depth_first.depth_first, in the core."""
    streamlined = streamlined or keep_builds
    board, root_moves = start_board(position, streamlined=streamlined)
    if board.is_won():
        return Outcome("won", root_moves)
    table = _table(seen)
    start = CoreBoard(board)
    streamlining = 2 if keep_builds else int(streamlined)  # core.c's core_depth_first_new
    search = _lib.core_depth_first_new(
        start._handle, _weights(weights), table._handle, deadlocks, streamlining, EXPANSIONS_PER_SLICE * 4
    )
    start.close()
    if not search:
        raise MemoryError("the solver core is out of memory")
    try:
        status = yield from _run(search, _lib.core_depth_first_step, DEPTH_FIRST_SLICES, budget)
        if status == WON:
            out = ctypes.create_string_buffer(2 * _lib.core_depth_first_line(search, None))
            _lib.core_depth_first_line(search, out)
            return Outcome("won", root_moves + _pairs(out.raw))
        return Outcome("unknown" if streamlined else "unwinnable")
    finally:
        _lib.core_depth_first_free(search)


def best_first(
    position: Position,
    budget: Budget,
    weights: Weights,
    seen: SeenTable | None = None,
    *,
    bound: int | None = None,
    depth_weight: int = 0,
    deadlocks: bool = False,
) -> Search:
    """best_first.best_first, in the core."""
    board, root_moves = start_board(position)
    if board.is_won():
        return Outcome("won", root_moves)
    if seen is not None:
        seen = _table(seen)  # claimed as positions leave the queue; else a table of its own
    start = CoreBoard(board)
    limit = NO_BOUND if bound is None else bound
    search = _lib.core_best_first_new(
        start._handle,
        _weights(weights, depth_weight),
        None if seen is None else seen._handle,
        len(root_moves),
        limit,
        depth_weight,
        deadlocks,
        EXPANSIONS_PER_SLICE,
    )
    start.close()
    if not search:
        raise MemoryError("the solver core is out of memory")
    try:
        status = yield from _run(search, _lib.core_best_first_step, BEST_FIRST_SLICES, budget)
        if status == WON:
            out = ctypes.create_string_buffer(_lib.core_best_first_line(search, None))
            _lib.core_best_first_line(search, out)
            # The steps from the start to the won node, as one node's steps after the start.
            line = _replay_steps(position, root_moves, [b"", out.raw], [-1, 0], 1)
            return Outcome("won", root_moves + line)
        return Outcome("unwinnable")
    finally:
        _lib.core_best_first_free(search)


SEARCHES = {"best-first": best_first, "depth-first": depth_first}


def compiled_searches() -> tuple[dict[str, Callable[..., Search]], type[SeenTable]] | None:
    """The core's searches and their table, when they are to be used (``available``); else None."""
    return (SEARCHES, SeenTable) if available() else None
