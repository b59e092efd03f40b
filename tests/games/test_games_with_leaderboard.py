"""Games and the real leaderboard through the seam: ranks stored, boards follow void, suspension, deletion."""

from __future__ import annotations

import pytest
from games_helpers import CLASSIC_WIN, body

from accounts.services import user_delete, user_suspend, user_unsuspend
from games.models import Submission
from games.submissions.intake import submission_void

pytestmark = [
    pytest.mark.django_db,
]


def entries(user_id):
    from leaderboard.models import BoardEntry

    return sorted(BoardEntry.objects.filter(user_id=user_id).values_list("board", flat=True))


def test_a_win_of_a_deal_issued_by_its_code_enters_the_open_deal_boards_and_its_deal_board(
    api, player, issue_game, submit
):
    game = issue_game(player)

    result = api.get(
        f"/api/submissions/{submit(body(log=CLASSIC_WIN['log'], game=game.pk)).json()['id']}/"
    ).json()

    assert result["status"] == "verified"
    assert len(result["ranks"]) == 5  # all time, season, week, day (open deals) and its deal's
    assert set(result["ranks"].values()) == {1}
    assert sorted(result["ranks"]) == entries(player.pk)
    assert "open:classic:all" in result["ranks"]  # its code was known: not the hidden-card boards


def test_a_win_by_code_enters_the_open_deal_boards_and_its_deal_board(api, player, submit):
    result = api.get(
        f"/api/submissions/{submit(body(log=CLASSIC_WIN['log'], code=CLASSIC_WIN['code'])).json()['id']}/"
    ).json()

    assert result["ranks"] == dict.fromkeys(entries(player.pk), 1)
    assert [board for board in result["ranks"] if not board.startswith(("open:classic:", "deal:"))] == []
    assert len(result["ranks"]) == 5


def test_void_suspension_and_deletion_take_the_entries_away(api, player, issue_game, submit):
    first = submit(body(log=CLASSIC_WIN["log"], game=issue_game(player).pk)).json()["id"]
    submit(body(log=CLASSIC_WIN["log"], code=CLASSIC_WIN["code"]))
    assert len(entries(player.pk)) == 5

    user_suspend(user=player, reason="review")
    assert entries(player.pk) == []
    user_unsuspend(user=player)
    assert len(entries(player.pk)) == 5

    submission_void(submission=Submission.objects.get(pk=first))
    assert len(entries(player.pk)) == 5  # the win by code still holds its open-deal and deal boards

    second = Submission.objects.exclude(pk=first).get()
    assert api.get(f"/api/replays/{second.pk}/").status_code == 200

    user_delete(user=player)
    assert entries(player.pk) == []
    assert Submission.objects.filter(user__isnull=True).count() == 2
    assert api.get(f"/api/replays/{second.pk}/").status_code == 404  # the replay of a deleted player
