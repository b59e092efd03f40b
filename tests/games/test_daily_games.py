"""The daily deal as a hidden-card game: one game a player, rule set and UTC day, issued or taken
up through POST /api/daily/games/; its code named by no answer until the day is over; its win on
the day's daily board only, and only when received that day."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from games_helpers import CLASSIC_WIN, paced
from hidden_helpers import reveal_along, steady_receipt
from rest_framework.test import APIClient

from daily.services import DailyGamePlayed, daily_deal_pick, daily_game_issue
from games.engine import GameCode
from games.issuing.services import game_issue
from games.log_input import SubmissionInput
from games.models import IssuedGame
from games.selectors import day_end, game_code_public
from games.submissions.intake import submission_create
from games.submissions.settle import submission_verify
from leaderboard.boards import daily_board
from leaderboard.models import BoardEntry

pytestmark = pytest.mark.django_db

WIN_LOG = CLASSIC_WIN["log"]
CODE = CLASSIC_WIN["code"]
CODE_DEALT = str(GameCode.parse(CODE).whole())  # the daily deal: that deal as a whole shuffle
MORNING = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def daily_is_the_known_win(issue_known_deals, settings):
    """Every daily deal is the deal of a known win (no solver run to pick it), as a whole shuffle."""
    settings.DAILY_DEAL_WINNABLE_ONLY = False
    issue_known_deals(CODE)


def won_by_steady_play(game: IssuedGame, *, late_ms: int = 0):
    """The game won by a steady player: every card asked for as the log turns it up, the result
    received `late_ms` after a steady player's receipt, and verified."""
    reveal_along(game, WIN_LOG)
    times = paced(WIN_LOG)
    received = steady_receipt(game, times[-1] + 400) + timedelta(milliseconds=late_ms)
    data = SubmissionInput(
        client_id=uuid.uuid4(), game_id=game.pk, log=WIN_LOG, move_times_ms=times,
        duration_ms=times[-1] + 400, finished_at=received,
    )  # fmt: skip
    submission, _ = submission_create(user=game.user, data=data, now=received)
    return submission_verify(submission_id=submission.pk)


def test_a_daily_game_is_the_days_deal_hidden_and_one_a_player_rules_and_day(player):
    game, issued = daily_game_issue(user=player, rules="classic", now=MORNING)

    assert issued and game.hidden and game.daily_date == MORNING.date()
    assert game.code == daily_deal_pick(date=MORNING.date(), rules="classic").code == CODE_DEALT
    again, issued_again = daily_game_issue(user=player, rules="classic", now=MORNING + timedelta(hours=3))
    assert (again.pk, issued_again) == (game.pk, False)  # taken up, not issued twice
    relaxed, _ = daily_game_issue(user=player, rules="relaxed", now=MORNING)
    assert relaxed.pk != game.pk
    tomorrow, issued_tomorrow = daily_game_issue(
        user=player, rules="classic", now=MORNING + timedelta(days=1)
    )
    assert issued_tomorrow and tomorrow.daily_date == MORNING.date() + timedelta(days=1)


def test_a_finished_daily_game_cannot_be_played_again_that_day(player):
    game, _ = daily_game_issue(user=player, rules="classic", now=MORNING)
    assert won_by_steady_play(game).status == "verified"

    with pytest.raises(DailyGamePlayed, match="one game a day"):
        daily_game_issue(user=player, rules="classic", now=MORNING + timedelta(hours=5))


def test_a_daily_game_is_outside_the_held_games_and_their_limit(player, api, settings):
    settings.GAMES_MAX_UNPLAYED = 2
    game_issue(user=player, hidden=True, count=2)
    daily, _ = daily_game_issue(user=player, rules="classic", now=timezone.now())

    held = api.get("/api/games/?state=issued").json()

    assert daily.pk not in {game["id"] for game in held} and len(held) == 2


def test_a_daily_win_enters_only_the_days_daily_board(player):
    game, _ = daily_game_issue(user=player, rules="classic", now=MORNING)

    submission = won_by_steady_play(game)

    board = daily_board("classic", MORNING.date())
    assert board == "daily:classic:day:2026-11-29"
    assert (submission.status, submission.won) == ("verified", True)
    assert submission.ranks == {board: 1}
    assert list(BoardEntry.objects.filter(user=player).values_list("board", flat=True)) == [board]


def test_a_daily_win_received_after_its_day_enters_no_board(player):
    game, _ = daily_game_issue(user=player, rules="classic", now=MORNING)
    late_ms = int(
        (day_end(MORNING.date()) - steady_receipt(game, paced(WIN_LOG)[-1] + 400)).total_seconds() * 1000
    )

    submission = won_by_steady_play(game, late_ms=late_ms)

    assert (submission.status, submission.won, submission.ranks) == ("verified", True, {})
    assert not BoardEntry.objects.filter(user=player).exists()


def test_a_finished_daily_games_code_is_named_only_once_its_day_is_over(player):
    game, _ = daily_game_issue(user=player, rules="classic", now=MORNING)
    won_by_steady_play(game)
    game.refresh_from_db()
    end = day_end(MORNING.date())

    assert game.state == IssuedGame.State.FINISHED
    assert not game_code_public(game, now=end - timedelta(microseconds=1))
    assert game_code_public(game, now=end)


def test_the_api_names_no_code_of_todays_daily_deal(api, player):
    """Today's daily deal, played and won: no answer names its code while the day lasts."""
    today = timezone.now()
    data = api.post("/api/daily/games/", {"rules": "classic"}, format="json")
    assert data.status_code == 201, data.json()
    game = IssuedGame.objects.get(pk=data.json()["id"])
    assert api.post("/api/daily/games/", {"rules": "classic"}, format="json").json()["id"] == game.pk
    won_by_steady_play(game)  # received a few minutes after its issue: still today, almost always
    submission = game.submission
    if timezone.now().date() != today.date() or submission.received_at.date() != today.date():
        pytest.skip("the day ended while this test ran: its code is public now, rightly")

    answers = [
        api.get("/api/daily/"),
        api.get(f"/api/games/{game.pk}/"),
        api.get(f"/api/submissions/{submission.pk}/"),
        api.get("/api/submissions/"),
        api.get("/api/me/"),
        api.post("/api/daily/games/", {"rules": "classic"}, format="json"),
        APIClient().get("/api/daily/"),
    ]
    assert answers[-2].status_code == 409 and answers[-2].json()["code"] == "daily_played"
    for answer in answers:
        assert CODE not in answer.content.decode(), answer.request["PATH_INFO"]
        assert game.secret not in answer.content.decode()
    assert answers[2].json()["ranks"] == {daily_board("classic", today.date()): 1}


def test_playing_the_daily_deal_needs_a_sign_in_and_known_rules(api):
    assert APIClient().post("/api/daily/games/", {"rules": "classic"}, format="json").status_code == 403
    refused = api.post("/api/daily/games/", {"rules": "spider"}, format="json")
    assert refused.status_code == 400 and "rules" in refused.json()


def test_the_daily_board_is_read_by_day(api, player):
    game, _ = daily_game_issue(user=player, rules="classic", now=MORNING)
    won_by_steady_play(game)

    page = api.get("/api/leaderboards/?rules=classic&period=day&key=2026-11-29&deals=daily").json()
    wrong = api.get("/api/leaderboards/?rules=classic&period=all&deals=daily")

    assert [entry["player"]["name"] for entry in page["results"]] == [player.display_name]
    assert wrong.status_code == 400 and "period" in wrong.json()
