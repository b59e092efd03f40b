"""Seasons: monthly boards beside all time, week and day, and their final standings kept."""

import datetime as dt
import threading

import pytest
from django.db import connection
from django.test import TestCase
from factories import WINNING_CODES, best_score, player_make, win

from leaderboard.boards import BoardKeyError, board_period, is_board_key, parse_period_key, season_key
from leaderboard.models import BoardEntry, SeasonSnapshot, SeasonStanding
from leaderboard.seasons import player_best_season, season_snapshot_take, seasons_snapshot
from leaderboard.selectors import leaderboard_page

pytestmark = pytest.mark.django_db

UTC = dt.UTC
NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
DECEMBER = dt.datetime(2026, 12, 2, 12, 0, 0, tzinfo=UTC)  # November's season is over and settled
NOVEMBER = "classic:season:2026-11"
BEST = best_score(WINNING_CODES["classic"][0])


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=UTC)


def standing(board: str) -> list[tuple[str, int]]:
    snapshot = SeasonSnapshot.objects.get(board=board)
    rows = snapshot.standings.order_by("-sort_key", "user_id").select_related("user")
    return [(row.user.username, row.score) for row in rows]


# --- keys ---------------------------------------------------------------------------------------


def test_a_season_is_a_utc_calendar_month():
    assert season_key(at("2026-11-30T23:59:59")) == "2026-11"
    assert season_key(at("2026-12-01T00:00:00")) == "2026-12"
    assert season_key(dt.datetime(2026, 12, 1, 0, 30, tzinfo=dt.timezone(dt.timedelta(hours=1)))) == "2026-11"
    assert board_period("classic:season:2026-12").ends_at == at("2027-01-01T00:00:00")
    assert board_period("open:relaxed:season:2026-02").ends_at == at("2026-03-01T00:00:00")


def test_season_keys_are_parsed_like_the_weeks_and_days():
    assert parse_period_key("season", None, now=NOON) == "2026-11"
    assert parse_period_key("season", "2025-01", now=NOON) == "2025-01"
    for bad in ("2026-13", "2026-00", "2026-1", "2026-W48", "2026-11-29", "9999-12", "0000-05"):
        with pytest.raises(BoardKeyError, match="is not a month: write it like 2026-11"):
            parse_period_key("season", bad, now=NOON)
    assert is_board_key("classic:season:2026-11") and is_board_key("open:relaxed:season:2026-11")
    assert not is_board_key("classic:season:2026-13") and not is_board_key("daily:classic:season:2026-11")


# --- boards -------------------------------------------------------------------------------------


def test_a_counted_win_enters_its_seasons_board_beside_the_week_and_day():
    ann = player_make("ann")
    win(ann, at=at("2026-11-30T23:59:59"))
    win(ann, at=at("2026-12-01T00:00:00"), hidden=False, extra_moves=1)

    boards = set(BoardEntry.objects.filter(user=ann).values_list("board", flat=True))

    assert {NOVEMBER, "open:classic:season:2026-12"} <= boards
    assert "classic:season:2026-12" not in boards and "open:classic:season:2026-11" not in boards


def test_the_season_board_api_takes_a_month_and_refuses_anything_else(client, frozen_now):
    ann, bob = player_make("ann"), player_make("bob")
    win(ann, at=NOON, extra_moves=1)
    win(bob, at=NOON)
    win(ann, at=at("2026-10-03T10:00:00"))

    current = client.get("/api/leaderboards/?rules=classic&period=season")
    october = client.get("/api/leaderboards/?rules=classic&period=season&key=2026-10")
    bad = client.get("/api/leaderboards/?rules=classic&period=season&key=2026-13")

    assert current.status_code == 200
    assert [(row["rank"], row["player"]["name"], row["score"]) for row in current.json()["results"]] == [
        (1, "bob", BEST),
        (2, "ann", BEST - 1),
    ]
    assert october.status_code == 200 and [row["player"]["name"] for row in october.json()["results"]] == [
        "ann"
    ]
    assert bad.status_code == 400
    assert bad.json() == {"key": ["'2026-13' is not a month: write it like 2026-11"]}


# --- snapshots ----------------------------------------------------------------------------------


def test_a_season_is_kept_once_when_it_has_ended_and_settled():
    ann, bob = player_make("ann"), player_make("bob")
    win(ann, at=NOON, extra_moves=1)
    win(bob, at=NOON)

    assert season_snapshot_take(board=NOVEMBER, now=at("2026-11-30T23:00:00")) is None  # not over
    assert season_snapshot_take(board=NOVEMBER, now=at("2026-12-01T00:30:00")) is None  # settling
    taken = seasons_snapshot(now=DECEMBER)
    again = seasons_snapshot(now=DECEMBER + dt.timedelta(hours=1))

    assert [snapshot.board for snapshot in taken] == [NOVEMBER]  # an empty season keeps none
    assert again == []
    assert season_snapshot_take(board=NOVEMBER, now=DECEMBER) == taken[0]
    assert standing(NOVEMBER) == [("bob", BEST), ("ann", BEST - 1)]
    assert SeasonStanding.objects.count() == 2 and taken[0].entries == 2


def test_a_snapshot_taken_meanwhile_by_another_process_is_the_one_kept(monkeypatch):
    win(player_make("ann"), at=NOON)
    kept = season_snapshot_take(board=NOVEMBER, now=DECEMBER)
    # Another process took it between this one's look and its write: the write loses, once.
    monkeypatch.setattr("leaderboard.seasons.season_snapshot_of", lambda board: None)

    again = season_snapshot_take(board=NOVEMBER, now=DECEMBER + dt.timedelta(minutes=1))

    assert again == kept and again.taken_at == DECEMBER
    assert SeasonSnapshot.objects.count() == 1 and SeasonStanding.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_processes_taking_a_season_at_once_keep_one():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite takes one writer at a time")
    win(player_make("ann"), at=NOON)
    win(player_make("bob"), at=NOON, extra_moves=1)
    start, taken = threading.Barrier(2), []

    def take() -> None:
        try:
            start.wait()
            taken.append(season_snapshot_take(board=NOVEMBER, now=DECEMBER).pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=take) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(taken) == 2 and len(set(taken)) == 1
    assert SeasonSnapshot.objects.count() == 1 and SeasonStanding.objects.count() == 2


def test_the_periodic_task_is_scheduled_and_safe_to_run_twice(settings):
    from leaderboard.tasks import seasons_snapshot_task

    schedule = settings.CELERY_BEAT_SCHEDULE["leaderboard-seasons-snapshot"]
    assert schedule["task"] == seasons_snapshot_task.name == "leaderboard.seasons_snapshot"
    win(player_make("ann"), at=dt.datetime.now(UTC) - dt.timedelta(days=62))  # a season over by now

    first, second = seasons_snapshot_task(), seasons_snapshot_task()

    assert len(first) == 1 and second == []
    assert SeasonSnapshot.objects.count() == 1


def test_places_are_computed_on_read_ties_ordered_as_the_boards_order_them():
    ann, bob, cid, dan = player_make("ann"), player_make("bob"), player_make("cid"), player_make("dan")
    win(cid, at=NOON, extra_moves=1)
    win(bob, at=NOON)  # the same score in the same second as ann's: the lower user id first
    win(ann, at=NOON)
    win(dan, at=NOON - dt.timedelta(seconds=1))  # the same score a second earlier: first
    season_snapshot_take(board=NOVEMBER, now=DECEMBER)
    board = [(entry.rank, entry.name) for entry in leaderboard_page(board=NOVEMBER).entries]

    places = {user.username: player_best_season(user=user, rules="classic") for user in (ann, bob, cid, dan)}

    assert board == [(1, "dan"), (2, "ann"), (3, "bob"), (4, "cid")]
    assert {name: (place.place, place.of) for name, place in places.items()} == {
        "dan": (1, 4), "ann": (2, 4), "bob": (3, 4), "cid": (4, 4),
    }  # fmt: skip
    assert (places["cid"].season, places["cid"].score, places["cid"].board) == ("2026-11", BEST - 1, NOVEMBER)


def test_a_result_verified_after_the_snapshot_enters_the_board_but_never_the_final_standing():
    ann, bob = player_make("ann"), player_make("bob")
    win(ann, at=NOON, extra_moves=2)
    season_snapshot_take(board=NOVEMBER, now=DECEMBER)

    # Received on November 30, settled once the season was kept (a verification queue behind).
    win(bob, at=at("2026-11-30T23:59:00"))
    win(ann, at=at("2026-11-30T23:59:30"))
    season_snapshot_take(board=NOVEMBER, now=DECEMBER + dt.timedelta(days=1))

    assert [entry.name for entry in leaderboard_page(board=NOVEMBER).entries] == ["bob", "ann"]  # live board
    assert standing(NOVEMBER) == [("ann", BEST - 2)]
    best = player_best_season(user=ann, rules="classic")
    assert (best.place, best.of, best.score) == (1, 1, BEST - 2)
    assert player_best_season(user=bob, rules="classic") is None


def test_a_voided_result_or_a_suspended_player_leaves_the_standing_and_the_places_close_up():
    from games.submissions.intake import submission_void

    ann, bob, cid = player_make("ann"), player_make("bob"), player_make("cid")
    win(ann, at=NOON, extra_moves=2)
    cheat = win(bob, at=NOON)
    win(cid, at=NOON, extra_moves=1)
    season_snapshot_take(board=NOVEMBER, now=DECEMBER)
    assert (player_best_season(user=ann, rules="classic").place, SeasonStanding.objects.count()) == (3, 3)

    with TestCase.captureOnCommitCallbacks(execute=True):
        submission_void(submission=cheat)
    cid.is_suspended = True
    cid.save()

    best = player_best_season(user=ann, rules="classic")
    assert (best.place, best.of) == (1, 1)
    assert player_best_season(user=bob, rules="classic") is None
    assert SeasonStanding.objects.count() == 3  # the snapshot itself is not rewritten


def test_the_best_season_is_the_best_place_then_the_larger_field_then_the_latest():
    ann, bob, cid = player_make("ann"), player_make("bob"), player_make("cid")
    win(ann, at=at("2026-09-10T10:00:00"))  # September: 1st of 1
    win(ann, at=at("2026-10-10T10:00:00"))  # October: 1st of 2
    win(bob, at=at("2026-10-10T10:00:00"), extra_moves=1)
    win(cid, at=NOON)  # November: 2nd of 2
    win(ann, at=NOON, extra_moves=1)
    win(ann, at=at("2026-08-10T10:00:00"), rules="relaxed")  # another rule set
    seasons_snapshot(now=DECEMBER)

    best = player_best_season(user=ann, rules="classic")

    assert (best.season, best.place, best.of) == ("2026-10", 1, 2)
    assert player_best_season(user=ann, rules="relaxed").season == "2026-08"
    assert player_best_season(user=cid, rules="relaxed") is None


def test_me_gives_the_best_season_and_keeps_a_season_the_periodic_task_has_not(client, frozen_now):
    ann, bob = player_make("ann"), player_make("bob")
    win(bob, at=NOON)
    win(ann, at=NOON, extra_moves=1)
    win(ann, at=NOON, hidden=False)  # an open deal: its own season board, not the best season's
    client.force_login(ann)
    frozen_now(DECEMBER)

    body = client.get("/api/me/").json()

    assert body["rules"]["classic"]["best_season"] == {
        "rules": "classic", "season": "2026-11", "place": 2, "of": 2, "score": BEST - 1,
    }  # fmt: skip
    assert body["rules"]["relaxed"]["best_season"] is None
    assert body["rules"]["classic"]["ranks"]["season"] == {
        "board": "classic:season:2026-12",
        "rank": None,
        "of": 0,
    }
    assert set(SeasonSnapshot.objects.values_list("board", flat=True)) == {NOVEMBER, f"open:{NOVEMBER}"}


def test_reading_a_closed_seasons_board_keeps_its_final_standing(client, frozen_now):
    win(player_make("ann"), at=NOON)
    frozen_now(DECEMBER)

    client.get("/api/leaderboards/?rules=classic&period=season")  # December's: still open
    assert not SeasonSnapshot.objects.exists()
    client.get("/api/leaderboards/?rules=classic&period=season&key=2026-11")

    assert standing(NOVEMBER) == [("ann", BEST)]


def test_the_staff_see_the_kept_seasons_and_cannot_add_or_change_one(admin_client):
    win(player_make("ann"), at=NOON)
    kept = season_snapshot_take(board=NOVEMBER, now=DECEMBER)

    listed = admin_client.get("/admin/leaderboard/seasonsnapshot/")
    shown = admin_client.get(f"/admin/leaderboard/seasonsnapshot/{kept.pk}/change/")

    assert listed.status_code == 200 and NOVEMBER in listed.content.decode()
    assert shown.status_code == 200 and 'name="_save"' not in shown.content.decode()  # view only
    assert admin_client.get("/admin/leaderboard/seasonsnapshot/add/").status_code == 403
