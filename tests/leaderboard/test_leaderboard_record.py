"""result_record: one best entry per player and board, by a conditional upsert."""

import datetime as dt

import pytest
from django.db.models import Count
from factories import WINNING_CODES, best_score, player_make, win

from games.models import ReplayFlag
from games.results import listeners_replaced
from leaderboard.models import BoardEntry
from leaderboard.selectors import leaderboard_page

pytestmark = pytest.mark.django_db

BEST = best_score(WINNING_CODES["classic"][0])  # 7105
NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


def board_rows(board: str) -> list[tuple[str, int]]:
    return [(entry.name, entry.score) for entry in leaderboard_page(board=board, page_size=100).entries]


def test_order_is_score_then_earlier_second_then_lower_user_id():
    ann, bob, cid, dan = (player_make(name) for name in ("ann", "bob", "cid", "dan"))
    win(dan, at=NOON, extra_moves=3)
    win(cid, at=NOON + dt.timedelta(seconds=1), extra_moves=1)
    win(bob, at=NOON + dt.timedelta(microseconds=900_000), extra_moves=1)  # same second as ann: id decides
    win(ann, at=NOON, extra_moves=1)

    assert board_rows("classic:all") == [
        ("ann", BEST - 1),
        ("bob", BEST - 1),
        ("cid", BEST - 1),
        ("dan", BEST - 3),
    ]
    assert [entry.rank for entry in leaderboard_page(board="classic:all").entries] == [1, 2, 3, 4]


def test_a_worse_later_score_does_not_replace_a_better_one_nor_an_equal_later_one():
    ann = player_make("ann")
    first = win(ann, at=NOON, extra_moves=2)
    win(ann, at=NOON + dt.timedelta(hours=1), extra_moves=5)
    win(ann, at=NOON + dt.timedelta(hours=2), extra_moves=2)

    entry = BoardEntry.objects.get(board="classic:all", user=ann)
    assert (entry.submission_id, entry.score, entry.achieved_at) == (first.pk, BEST - 2, NOON)
    better = win(ann, at=NOON + dt.timedelta(hours=3))
    entry.refresh_from_db()
    assert (entry.submission_id, entry.score, entry.moves) == (better.pk, BEST, better.moves)


def test_an_entry_is_one_real_game():
    ann = player_make("ann")
    win(ann, at=NOON, extra_moves=4)
    best = win(ann, at=NOON + dt.timedelta(minutes=5))

    entry = BoardEntry.objects.get(board="classic:all", user=ann)
    assert (entry.score, entry.moves, entry.duration_ms, entry.achieved_at) == (
        best.score,
        best.moves,
        best.duration_ms,
        best.received_at.replace(microsecond=0),
    )


def test_ranks_reached_are_returned_for_every_board():
    from leaderboard.services import result_record

    ann, bob = player_make("ann"), player_make("bob")
    win(ann, at=NOON)
    submission = win(bob, at=NOON, extra_moves=1)

    assert result_record(submission=submission) == {  # (rank, entries on the board)
        "classic:all": (2, 2),
        "classic:season:2026-11": (2, 2),
        "classic:week:2026-W48": (2, 2),
        "classic:day:2026-11-29": (2, 2),
        f"deal:{WINNING_CODES['classic'][0]}": (2, 2),
    }


def test_assisted_wins_enter_no_board():
    win(player_make("ann"), at=NOON, assisted=True)
    win(player_make("bob"), at=NOON, ranked=False, assisted=True)
    win(player_make("cid"), at=NOON, hidden=False, assisted=True)

    assert not BoardEntry.objects.exists()


def test_periods_roll_over_at_utc_midnight():
    ann, bob = player_make("ann"), player_make("bob")
    sunday_night = dt.datetime(2026, 11, 29, 23, 59, 59, 999_999, tzinfo=dt.UTC)
    win(ann, at=sunday_night, extra_moves=1)
    win(bob, at=sunday_night + dt.timedelta(microseconds=1), extra_moves=2)

    assert board_rows("classic:day:2026-11-29") == [("ann", BEST - 1)]
    assert board_rows("classic:day:2026-11-30") == [("bob", BEST - 2)]
    assert board_rows("classic:week:2026-W48") == [("ann", BEST - 1)]
    assert board_rows("classic:week:2026-W49") == [("bob", BEST - 2)]
    assert board_rows("classic:all") == [("ann", BEST - 1), ("bob", BEST - 2)]


def test_rule_sets_have_their_own_boards():
    ann = player_make("ann")
    win(ann, at=NOON, rules="relaxed")

    assert board_rows("classic:all") == []
    assert board_rows("relaxed:all") == [("ann", best_score(WINNING_CODES["relaxed"][0]))]


def test_a_log_identical_to_another_players_on_the_same_deal_is_flagged():
    ann, bob = player_make("ann"), player_make("bob")
    original = win(ann, at=NOON, ranked=False, extra_moves=1)
    win(ann, at=NOON + dt.timedelta(minutes=1), ranked=False, extra_moves=1)  # her own again: no flag
    copy = win(bob, at=NOON + dt.timedelta(minutes=2), ranked=False, extra_moves=1)
    win(bob, at=NOON + dt.timedelta(minutes=3), ranked=False, extra_moves=2)  # another log: no flag

    flags = list(ReplayFlag.objects.values_list("submission_id", "matches_id"))
    assert len(flags) == 2 and {match for _, match in flags} >= {original.pk}
    assert {submission for submission, _ in flags} == {copy.pk}


def unrecorded_wins() -> list:
    """Verified wins of four players, not yet on any board: several each, ties and copies included."""
    ann, bob, cid, dan = (player_make(name) for name in ("ann", "bob", "cid", "dan"))
    with listeners_replaced(places=[]):
        return [
            win(ann, at=NOON, extra_moves=2),
            win(bob, at=NOON, extra_moves=1),
            win(ann, at=NOON + dt.timedelta(minutes=1), extra_moves=1),  # ann improves
            win(cid, at=NOON, extra_moves=1),  # bob's score in the same second: the lower id first
            win(ann, at=NOON + dt.timedelta(minutes=2), extra_moves=1),  # equal, later: no change
            win(dan, at=NOON, ranked=False, extra_moves=1),  # the deal board only
            win(bob, at=NOON + dt.timedelta(days=1), code=WINNING_CODES["classic"][1]),  # another deal
            win(cid, at=NOON + dt.timedelta(minutes=3), ranked=False, extra_moves=1),  # others' log: flagged
        ]


def board_state() -> tuple[list, list]:
    entries = sorted(
        BoardEntry.objects.values_list(
            "board", "user_id", "submission_id", "score", "achieved_at", "sort_key"
        )
    )
    return entries, sorted(ReplayFlag.objects.values_list("submission_id", "matches_id"))


def test_a_batch_records_what_one_by_one_records_and_answers_the_final_ranks(settings):
    from django.db import transaction

    from leaderboard.selectors import entry_rank_sql
    from leaderboard.services import result_record, results_record

    wins = unrecorded_wins()
    with transaction.atomic():
        for submission in wins:
            result_record(submission=submission)
        one_by_one = board_state()
        transaction.set_rollback(True)

    ranks = results_record(submissions=list(reversed(wins)))

    assert board_state() == one_by_one
    assert set(ranks) == {submission.pk for submission in wins}
    entries = dict(BoardEntry.objects.values("board").annotate(n=Count("id")).values_list("board", "n"))
    for submission in wins:
        assert ranks[submission.pk] == {
            board: (entry_rank_sql(board=board, user_id=submission.user_id), entries[board])
            for board in ranks[submission.pk]
        }
    # ann's best came a minute after bob's and cid's equal scores; dan's unranked one is on the deal.
    assert {board: rank for board, (rank, _) in ranks[wins[0].pk].items()} == {
        "classic:all": 3, "classic:season:2026-11": 3, "classic:week:2026-W48": 3,
        "classic:day:2026-11-29": 3, f"deal:{WINNING_CODES['classic'][0]}": 4,
    }  # fmt: skip
    assert len(ReplayFlag.objects.filter(submission=wins[7], matches=wins[5])) == 1
