"""Who is told of results: listeners the apps above games register in their AppConfig.ready(), so
games never imports them (docs/architecture.md would draw it: games ← leaderboard, races).

- A **places recorder** (`PlacesRecorder`: leaderboard) is called inside the transaction that
  settles verified, won, non-assisted results (a batch) and answers each result's places:
  {submission id: {board: (rank, entries then)}}; games keeps them on the row (`ranks`,
  `ranks_of`: the places a win earned when it was won).
- A **player listener** (leaderboard) is called inside the transaction after anything that
  changes which results count for a player (a void, a suspension, a deletion, a new verdict).
- A **contest listener** (races) is called after the commit that stored or settled a result of
  a contest game (a race's seat), so that the contest moves on.
- A **settled listener** (fairplay) is called after the commit that settled results which count
  (verified, not assisted, not voided, of a player): the fair-play analysis picks its games there.

Tests swap them with `listeners_replaced`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from games.models import Submission

Places = dict[str, tuple[int, int]]  # board → (rank, entries on it then)


class PlacesRecorder(Protocol):
    def __call__(self, *, submissions: list[Submission]) -> dict[int, Places]: ...


class PlayerListener(Protocol):
    def __call__(self, *, user_id: int) -> None: ...


class ContestListener(Protocol):
    def __call__(self, *, game_ids: list[int]) -> None: ...


class SettledListener(Protocol):
    def __call__(self, *, submission_ids: list[int]) -> None: ...


@dataclass
class Listeners:
    places: list[PlacesRecorder] = field(default_factory=list)
    players: list[PlayerListener] = field(default_factory=list)
    contests: list[ContestListener] = field(default_factory=list)
    settled: list[SettledListener] = field(default_factory=list)


_listeners = Listeners()


def places_recorder_register(recorder: PlacesRecorder) -> None:
    if recorder not in _listeners.places:
        _listeners.places.append(recorder)


def player_listener_register(listener: PlayerListener) -> None:
    if listener not in _listeners.players:
        _listeners.players.append(listener)


def contest_listener_register(listener: ContestListener) -> None:
    if listener not in _listeners.contests:
        _listeners.contests.append(listener)


def settled_listener_register(listener: SettledListener) -> None:
    if listener not in _listeners.settled:
        _listeners.settled.append(listener)


def results_record(*, submissions: list[Submission]) -> dict[int, Places]:
    """Every recorder's places of these settled results, merged: {submission id: places}."""
    places: dict[int, Places] = {}
    if not submissions:
        return places
    for recorder in _listeners.places:
        for pk, found in (recorder(submissions=submissions) or {}).items():
            if found:
                places.setdefault(pk, {}).update(found)
    return places


def places_store_on(submission: Submission, places: Places) -> None:
    """Keep a result's places on the row (not saved): its rank on each board, and the entries then."""
    submission.ranks = {board: rank for board, (rank, _) in places.items()}
    submission.ranks_of = {board: entries for board, (_, entries) in places.items()}


def player_results_changed(*, user_id: int) -> None:
    for listener in _listeners.players:
        listener(user_id=user_id)


def contest_results_changed(*, game_ids: list[int]) -> None:
    if not game_ids:
        return
    for listener in _listeners.contests:
        listener(game_ids=game_ids)


def results_settled(*, submission_ids: list[int]) -> None:
    if not submission_ids:
        return
    for listener in _listeners.settled:
        listener(submission_ids=submission_ids)


@contextmanager
def listeners_replaced(
    *,
    places: list[Callable] | None = None,
    players: list[Callable] | None = None,
    contests: list[Callable] | None = None,
    settled: list[Callable] | None = None,
) -> Iterator[Listeners]:
    """For tests: these listeners instead of the registered ones (None keeps a kind as it is)."""
    global _listeners
    before = _listeners
    _listeners = Listeners(
        places=list(before.places if places is None else places),
        players=list(before.players if players is None else players),
        contests=list(before.contests if contests is None else contests),
        settled=list(before.settled if settled is None else settled),
    )
    try:
        yield _listeners
    finally:
        _listeners = before
