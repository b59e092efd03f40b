"""The Redis index (full stack): same pages as SQL, writes after commit, fallback and rebuilds,
on each kind of index (tests/leaderboard/conftest.py, `index_kind`)."""

import datetime as dt
import io
import time

import pytest
from django.core.management import call_command
from django.test import TestCase
from factories import WINNING_CODES, best_score, player_make, win
from index_probes import (
    details_forget,
    details_in_redis,
    members_in_redis,
    redis_unreachable,
    sort_key_in_redis,
)
from leaderboard_factories import before_open_deals

from games.results import listeners_replaced
from leaderboard.index import sorted_sets as index_module
from leaderboard.index import wiring as indexing
from leaderboard.index.histogram import build as histogram_build
from leaderboard.index.wiring import index_board_rebuild
from leaderboard.models import BoardEntry, BoardRepair
from leaderboard.selectors import leaderboard_around, leaderboard_page, leaderboard_rank

pytestmark = [pytest.mark.stack, pytest.mark.django_db]

BEST = best_score(WINNING_CODES["classic"][0])
NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
BOARD = "classic:all"


@pytest.fixture
def rebuild_starts(monkeypatch):
    """The rebuilds that reads started (board names), instead of sending them to a worker."""
    from leaderboard.tasks import board_rebuild

    started = []
    monkeypatch.setattr(board_rebuild, "delay", lambda **kwargs: started.append(kwargs))
    return started


def fill_with_ties(count: int) -> list:
    """Players with repeated scores, some in the same second (ties broken by user id)."""
    players = [player_make(f"p{index:03d}") for index in range(count)]
    for index, user in enumerate(players):
        win(user, at=NOON + dt.timedelta(seconds=index % 3, microseconds=index), extra_moves=index % 4)
    return players


def all_pages(client, url):
    pages = []
    while url:
        body = client.get(url).json()
        pages.append(body)
        url = body["next"]
    return pages


def test_sql_and_redis_answer_identical_pages_ties_included(client, redis_index, settings, rebuild_starts):
    players = fill_with_ties(25)
    index_board_rebuild(board=BOARD)
    urls = ["/api/leaderboards/?rules=classic&page_size=4", "/api/leaderboards/?rules=classic&page_size=100"]

    def answers():
        answer = {url: all_pages(client, url) for url in urls}
        last = answer[urls[0]][-1]
        answer["back"] = client.get(last["previous"]).json()
        for user in (players[0], players[12], players[24]):
            client.force_login(user)
            answer[user.pk] = client.get("/api/leaderboards/?rules=classic&around=me").json()
        client.logout()
        return answer

    assert leaderboard_page(board=BOARD).source == "redis"
    from_redis = answers()
    settings.REDIS_URL = None
    from_sql = answers()

    assert from_redis == from_sql
    names = [row["player"]["name"] for row in from_sql[urls[1]][0]["results"]]
    assert len(names) == 25 and len(set(names)) == 25
    assert rebuild_starts == []


def details_in_sql(board) -> dict[int, tuple]:
    rows = BoardEntry.objects.filter(board=board).values_list(
        "user_id", "submission_id", "moves", "duration_ms", "code"
    )
    return {user_id: tuple(rest) for user_id, *rest in rows}


def assert_redis_pages_equal_sql(boards, around_users, *, details=True):
    """Pages and around-me of `boards` read from Redis equal those read from SQL alone."""

    def read():
        answer = [leaderboard_page(board=board, page_size=100) for board in boards]
        return answer + [
            leaderboard_around(board=boards[0], user_id=user.pk, span=3) for user in around_users
        ]

    from_redis = read()
    if details:
        for board in boards:
            assert details_in_redis(indexing.board_index(), board) == details_in_sql(board)
    indexing.index_reset()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.conf.settings.REDIS_URL", None)
        from_sql = read()
    indexing.index_reset()
    assert {page.source for page in from_redis if page} == {"redis"}
    assert from_redis == [page and BoardPage_with(page, source="redis") for page in from_sql]


def test_redis_pages_stay_equal_to_sql_through_wins_voids_suspensions_and_renames(
    redis_index, settings, rebuild_starts
):
    from accounts.services import user_display_name_set, user_suspend
    from games.submissions.intake import submission_void

    players = fill_with_ties(8)
    boards = [BOARD, f"deal:{WINNING_CODES['classic'][0]}"]
    for board in boards:
        index_board_rebuild(board=board)

    assert_redis_pages_equal_sql(boards, players[::3])
    best = win(players[7], at=NOON + dt.timedelta(hours=1))  # from last to first: details replaced
    win(players[6], at=NOON + dt.timedelta(hours=2), extra_moves=30)  # worse: details kept
    assert_redis_pages_equal_sql(boards, players[::3])
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission_void(submission=best)  # back to the earlier best
    assert_redis_pages_equal_sql(boards, players[::3])
    with TestCase.captureOnCommitCallbacks(execute=True):
        user_suspend(user=players[2], reason="review")  # gone from both boards
    user_display_name_set(user=players[3], display_name="renamed")  # names come from PostgreSQL
    assert_redis_pages_equal_sql(boards, players[::3])
    assert "renamed" in [entry.name for entry in leaderboard_page(board=BOARD).entries]


def test_moving_entries_to_the_open_deal_boards_keeps_redis_equal_to_sql(redis_index, rebuild_starts):
    ann, bob, cid = player_make("ann"), player_make("bob"), player_make("cid")
    with before_open_deals():  # entered as the release before open-deal boards did
        win(ann, at=NOON, hidden=False)  # issued with its code: on the global boards then
        win(ann, at=NOON + dt.timedelta(minutes=1), extra_moves=2)
        win(bob, at=NOON, extra_moves=1)
        win(cid, at=NOON, ranked=False, extra_moves=3)
    boards = [BOARD, "classic:day:2026-11-29", f"deal:{WINNING_CODES['classic'][0]}"]
    for board in boards:
        index_board_rebuild(board=board)
    assert [(entry.name, entry.score) for entry in leaderboard_page(board=BOARD).entries] == [
        ("ann", BEST), ("bob", BEST - 1),
    ]  # fmt: skip

    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("rebuild_board_entries", stdout=io.StringIO())

    # The keys built before follow each player's commit, as after a void.
    assert_redis_pages_equal_sql(boards, [ann, bob, cid])
    page = leaderboard_page(board=BOARD)
    assert (page.source, [(entry.name, entry.score) for entry in page.entries]) == (
        "redis", [("bob", BEST - 1), ("ann", BEST - 2)],
    )  # fmt: skip
    # The open-deal boards had no key: the rebuild command builds the all-time ones by default.
    assert not redis_index.exists("open:classic:all")
    call_command("rebuild_leaderboards", "--no-progress", stdout=io.StringIO())
    assert_redis_pages_equal_sql(["open:classic:all"], [ann, cid])
    assert [entry.name for entry in leaderboard_page(board="open:classic:all").entries] == ["ann", "cid"]


def test_keys_built_before_details_were_kept_answer_the_same_pages(redis_index, rebuild_starts):
    players = fill_with_ties(6)
    index_board_rebuild(board=BOARD)
    details_forget(redis_index, BOARD)  # as an index written by an older version
    win(players[5], at=NOON + dt.timedelta(hours=1))  # a write brings the details of its own entry

    assert list(details_in_redis(redis_index, BOARD)) == [players[5].pk]
    assert_redis_pages_equal_sql([BOARD], players[::2], details=False)


def test_writes_reach_redis_after_the_commit_and_keep_only_the_best(redis_index, rebuild_starts):
    ann = player_make("ann")
    index_board_rebuild(board=BOARD)
    win(ann, at=NOON, extra_moves=2)
    win(ann, at=NOON + dt.timedelta(hours=1), extra_moves=5)

    assert (
        sort_key_in_redis(redis_index, BOARD, ann.pk)
        == BoardEntry.objects.get(board=BOARD, user=ann).sort_key
    )
    assert leaderboard_rank(board=BOARD, user_id=ann.pk) == 1
    # Boards nobody read have no key: writes leave them alone (a read builds them whole).
    assert not redis_index.exists("classic:day:2026-11-29")


def test_a_missing_key_is_answered_by_sql_and_rebuilt_once(redis_index, rebuild_starts):
    fill_with_ties(6)

    first, second = leaderboard_page(board=BOARD), leaderboard_page(board=BOARD)

    assert first.source == second.source == "sql" and first == second
    assert [start["board"] for start in rebuild_starts] == [BOARD]  # one rebuild, not two
    from leaderboard.tasks import board_rebuild

    assert board_rebuild(**rebuild_starts[0]) == 6
    assert leaderboard_page(board=BOARD) == BoardPage_with(first, source="redis")


def BoardPage_with(page, **changes):
    import dataclasses

    return dataclasses.replace(page, **changes)


def entry_with(entry, **changes):
    return entry._replace(**changes)


def test_an_empty_board_is_built_once_and_then_read_from_redis(redis_index, rebuild_starts):
    from leaderboard.tasks import board_rebuild

    assert leaderboard_page(board="relaxed:day:2026-11-29").count == 0
    assert index_board_rebuild(board="relaxed:day:2026-11-29") is None  # the read's rebuild holds it
    assert board_rebuild(**rebuild_starts[0]) == 0

    page = leaderboard_page(board="relaxed:day:2026-11-29")

    assert (page.source, page.count, page.entries) == ("redis", 0, [])
    assert len(rebuild_starts) == 1
    assert leaderboard_around(board="relaxed:day:2026-11-29", user_id=1) is None


def test_redis_flushed_mid_test_reads_stay_right_and_the_command_restores_it(
    redis_index, rebuild_starts, capsys
):
    players = fill_with_ties(8)
    index_board_rebuild(board=BOARD)
    before = leaderboard_page(board=BOARD, page_size=5)

    redis_index.client.flushdb()
    win(players[7], at=NOON + dt.timedelta(days=1))  # written while the key is gone: SQL has it
    during = leaderboard_page(board=BOARD, page_size=5)
    call_command("rebuild_leaderboards", "--board", BOARD, "--no-progress")
    assert "another rebuild has claimed it" in capsys.readouterr().err  # the rebuild the read started
    call_command("rebuild_leaderboards", "--board", BOARD, "--force")
    after = leaderboard_page(board=BOARD, page_size=5)

    assert (before.source, during.source, after.source) == ("redis", "sql", "redis")
    # p007 improved meanwhile: third now, behind the two earlier wins with the same score.
    assert [entry.name for entry in before.entries[:2]] == [entry.name for entry in during.entries[:2]]
    assert during.entries[2].name == "p007" and "p007" not in [entry.name for entry in before.entries]
    assert during.entries[3:] == [entry_with(entry, rank=entry.rank + 1) for entry in before.entries[2:4]]
    assert after == BoardPage_with(during, source="redis")
    assert f"{BOARD}: 8 entries" in capsys.readouterr().out


def test_writes_during_a_rebuild_are_kept(redis_index, rebuild_starts, monkeypatch):
    from leaderboard.services import player_entries_rebuild

    players = fill_with_ties(6)
    leaving, improving = players[1], players[5]
    monkeypatch.setattr(index_module, "LOAD_BATCH", 2)
    monkeypatch.setattr(histogram_build, "LOAD_BATCH", 2)
    done = []

    def meanwhile(loaded):
        if not done:  # after the first batch: one player improves, another leaves the boards
            done.append(loaded)
            win(improving, at=NOON + dt.timedelta(days=1), extra_moves=0)
            type(leaving).objects.filter(pk=leaving.pk).update(is_active=False)
            with TestCase.captureOnCommitCallbacks(execute=True):
                player_entries_rebuild(user_id=leaving.pk)

    index_board_rebuild(board=BOARD, progress=meanwhile)
    from_redis = leaderboard_page(board=BOARD)
    indexing.index_reset()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.conf.settings.REDIS_URL", None)
        from_sql = leaderboard_page(board=BOARD)

    assert from_redis.source == "redis"
    assert from_redis == BoardPage_with(from_sql, source="redis")
    assert members_in_redis(redis_index, BOARD) == 5


def test_redis_down_reads_fall_back_and_missed_writes_are_repaired(redis_index, rebuild_starts, monkeypatch):
    from leaderboard.tasks import boards_repair

    ann, bob = player_make("ann"), player_make("bob")
    win(ann, at=NOON, extra_moves=1)
    index_board_rebuild(board=BOARD)
    redis_unreachable(monkeypatch, redis_index)

    win(bob, at=NOON)  # Redis is unreachable when this commits
    page = leaderboard_page(board=BOARD)

    assert page.source == "sql" and [entry.name for entry in page.entries] == ["bob", "ann"]
    assert BOARD in set(BoardRepair.objects.values_list("board", flat=True))
    monkeypatch.undo()
    indexing.index_reset()
    assert sort_key_in_redis(redis_index, BOARD, bob.pk) is None  # the missed write
    assert boards_repair() >= 1
    assert leaderboard_page(board=BOARD) == BoardPage_with(page, source="redis")
    assert not BoardRepair.objects.filter(board=BOARD).exists()


def sql_count(board: str) -> int:
    from leaderboard.models import BoardEntry

    return BoardEntry.objects.filter(board=board).count()


def test_ranks_of_a_batch_come_from_redis_and_equal_sql_counts(redis_index, settings, monkeypatch):
    from django.db import transaction

    from leaderboard import selectors
    from leaderboard.selectors import entry_rank_sql
    from leaderboard.services import results_record

    players = fill_with_ties(9)
    boards = [BOARD, "classic:week:2026-W48", "classic:day:2026-11-29", "classic:day:2026-11-30"]
    for board in boards[:3]:
        index_board_rebuild(board=board)  # the next day's board stays unbuilt: SQL answers it
    later = NOON + dt.timedelta(seconds=1)
    with listeners_replaced(places=[]):  # verified, not yet on any board
        batch = [
            win(players[8], at=later, extra_moves=0),  # from last to third
            win(players[7], at=later, extra_moves=1),  # past some, tied in score and second with the next
            win(players[4], at=later, extra_moves=1),
            win(players[0], at=later, extra_moves=3),  # worse than their entry: unchanged
            win(players[5], at=NOON + dt.timedelta(days=1), extra_moves=2),  # a day board of its own
            win(player_make("new"), at=later, extra_moves=2),  # a newcomer
        ]
    counted = []
    original = selectors._entry_keys_sql
    monkeypatch.setattr(
        selectors,
        "_entry_keys_sql",
        lambda entries, ranked: counted.append(ranked) or original(entries, ranked=ranked),
    )

    with transaction.atomic():
        places = results_record(submissions=batch)
        expected = {
            submission.pk: {
                board: (entry_rank_sql(board=board, user_id=submission.user_id), sql_count(board))
                for board in found
            }
            for submission, found in ((s, places[s.pk]) for s in batch)
        }

    assert places == expected  # the ranks and the entries Redis counts equal the SQL ones
    ranks = {pk: {board: rank for board, (rank, _) in found.items()} for pk, found in places.items()}
    assert [ranks[submission.pk][BOARD] for submission in batch] == [3, 5, 2, 1, 6, 8]
    assert ranks[batch[4].pk] == {
        BOARD: 6, "classic:season:2026-11": 6, "classic:week:2026-W49": 1, boards[3]: 1,
        f"deal:{WINNING_CODES['classic'][0]}": 6,
    }  # fmt: skip
    assert counted == [False, True]  # keys read once; counted by SQL only for the unbuilt boards


def test_pagination_on_redis_has_no_gaps_or_repeats_while_new_scores_arrive(
    client, redis_index, rebuild_starts
):
    players = fill_with_ties(10)
    index_board_rebuild(board=BOARD)
    seen, url, newcomer = [], "/api/leaderboards/?rules=classic&page_size=3", 0
    while url:
        page = client.get(url).json()
        seen += [row["player"]["name"] for row in page["results"]]
        for extra in (0, 2, 30):
            win(player_make(f"new{newcomer}"), at=NOON + dt.timedelta(minutes=1), extra_moves=extra)
            newcomer += 1
        url = page["next"]

    assert leaderboard_page(board=BOARD).source == "redis"
    assert sorted(name for name in seen if name.startswith("p")) == sorted(user.username for user in players)
    assert len(seen) == len(set(seen))


def built(index, board: str) -> bool:
    """The board is in Redis and complete: a board split by score has its head from the start of
    its rebuild (state "building"), one sorted set only once it is renamed into place."""
    from leaderboard.index.histogram.index import HistogramBoardIndex

    if isinstance(index, HistogramBoardIndex):
        return index.boards.state(board) == "ready"
    return index.exists(board)


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_rebuilds_a_missing_board_once(celery_worker_process, redis_index):
    fill_with_ties(3)
    assert not redis_index.exists(BOARD)

    assert leaderboard_page(board=BOARD).source == "sql"  # and the read sends one rebuild to the worker
    deadline = time.monotonic() + 30
    while not built(redis_index, BOARD) and time.monotonic() < deadline:
        time.sleep(0.1)

    page = leaderboard_page(board=BOARD)
    assert page.source == "redis" and [entry.rank for entry in page.entries] == [1, 2, 3]
    assert not redis_index.client.exists(f"{redis_index.key(BOARD)}:lock")
