"""The seam to the leaderboard: callables named in settings, so `games` never imports `leaderboard`.

- ``LEADERBOARD_RESULT_RECORDER(submissions=[...]) -> {submission id: {board: (rank, entries)}}``
  is called inside the transaction that settles verified, won, non-assisted results (a batch):
  each result's place on its boards, and how many entries each board held then.
- ``LEADERBOARD_PLAYER_REBUILD(user_id=...)`` is called inside the transaction after anything
  that changes which results count for a player (void, suspension, deletion, a new verdict).

- ``CONTEST_RESULTS_HOOK(game_ids=[...])`` is called after the commit that stored or settled a
  result of a contest game (a race's seat), so that the contest can move on.

An empty setting switches the call off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from games.models import Submission


def results_record(*, submissions: list[Submission]) -> dict[int, dict[str, tuple[int, int]]]:
    if not settings.LEADERBOARD_RESULT_RECORDER or not submissions:
        return {}
    recorder = import_string(settings.LEADERBOARD_RESULT_RECORDER)
    return {pk: dict(places) for pk, places in (recorder(submissions=submissions) or {}).items() if places}


def places_store_on(submission: Submission, places: dict[str, tuple[int, int]]) -> None:
    """Keep a result's places on the row (not saved): its rank on each board, and the entries then."""
    submission.ranks = {board: rank for board, (rank, _) in places.items()}
    submission.ranks_of = {board: entries for board, (_, entries) in places.items()}


def player_entries_rebuild(*, user_id: int) -> None:
    if not settings.LEADERBOARD_PLAYER_REBUILD:
        return
    import_string(settings.LEADERBOARD_PLAYER_REBUILD)(user_id=user_id)


def contest_results_changed(*, game_ids: list[int]) -> None:
    if not settings.CONTEST_RESULTS_HOOK or not game_ids:
        return
    import_string(settings.CONTEST_RESULTS_HOOK)(game_ids=game_ids)
