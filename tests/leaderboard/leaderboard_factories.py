"""What the leaderboard tests share beyond tests/factories.py: wins recorded as the release before
open-deal boards recorded them."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from games.models import Submission


def boards_before_open_deals(*, submission: Submission) -> list[str]:
    """The boards of a counted result under the release before open-deal boards: every ranked
    game (hidden-card or not) on the global boards, any other result on its deal's board only."""
    from leaderboard.boards import boards_for_result

    boards = boards_for_result(
        rules=submission.rules, code=submission.code, hidden=True, received_at=submission.received_at
    )
    return boards if submission.ranked else boards[-1:]


@contextmanager
def before_open_deals():
    """Wins recorded inside are entered (and their places stored) as the earlier release did."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("leaderboard.services.result_boards", boards_before_open_deals)
        yield
