"""A player's entries follow their results: voids, suspension and deletion (real services)."""

import datetime as dt

import pytest
from django.test import TestCase
from factories import WINNING_CODES, best_score, player_make, win

from accounts.services import user_delete, user_suspend, user_unsuspend
from games.submissions.intake import submission_void
from leaderboard.models import BoardEntry
from leaderboard.selectors import leaderboard_page

pytestmark = pytest.mark.django_db

BEST = best_score(WINNING_CODES["classic"][0])
NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


def entries_of(user) -> dict[str, tuple[int, int]]:
    return {e.board: (e.submission_id, e.score) for e in BoardEntry.objects.filter(user_id=user.pk)}


def run(service, **kwargs):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return service(**kwargs)


def test_voiding_a_result_restores_the_previous_best_on_every_board(client):
    ann = player_make("ann")
    older = win(ann, at=NOON - dt.timedelta(days=8), extra_moves=3)  # last week, another day
    previous = win(ann, at=NOON - dt.timedelta(hours=1), extra_moves=2)
    best = win(ann, at=NOON)
    assert entries_of(ann)["classic:all"] == (best.pk, BEST)

    run(submission_void, submission=best)

    assert entries_of(ann) == {
        "classic:all": (previous.pk, BEST - 2),
        "classic:season:2026-11": (previous.pk, BEST - 2),
        "classic:week:2026-W48": (previous.pk, BEST - 2),
        "classic:day:2026-11-29": (previous.pk, BEST - 2),
        "classic:week:2026-W47": (older.pk, BEST - 3),
        "classic:day:2026-11-21": (older.pk, BEST - 3),
        f"deal:{WINNING_CODES['classic'][0]}": (previous.pk, BEST - 2),
    }
    assert client.get(f"/api/replays/{best.pk}/").status_code == 404
    run(submission_void, submission=best, voided=False)
    assert entries_of(ann)["classic:all"] == (best.pk, BEST)


def test_voiding_the_only_result_removes_the_entries():
    ann, bob = player_make("ann"), player_make("bob")
    only = win(ann, at=NOON)
    win(bob, at=NOON, extra_moves=1)

    run(submission_void, submission=only)

    assert entries_of(ann) == {}
    assert [(e.rank, e.name) for e in leaderboard_page(board="classic:all").entries] == [(1, "bob")]


def test_suspension_removes_every_entry_and_lifting_it_brings_them_back(client):
    ann, bob = player_make("ann"), player_make("bob")
    result = win(ann, at=NOON)
    win(bob, at=NOON, extra_moves=1)
    win(ann, at=NOON, ranked=False, code=WINNING_CODES["classic"][1])

    run(user_suspend, user=ann, reason="copied logs")

    assert entries_of(ann) == {}
    assert [e.name for e in leaderboard_page(board="classic:all").entries] == ["bob"]
    assert client.get(f"/api/replays/{result.pk}/").status_code == 404

    run(user_unsuspend, user=ann)

    assert len(entries_of(ann)) == 10  # 4 global boards and 4 open-deal ones, 2 deal boards
    assert [e.name for e in leaderboard_page(board="classic:all").entries] == ["ann", "bob"]


def test_account_deletion_removes_entries_and_replays(client):
    ann, bob = player_make("ann"), player_make("bob")
    result = win(ann, at=NOON)
    win(bob, at=NOON, extra_moves=1)
    ann_id = ann.pk

    run(user_delete, user=ann)

    assert not BoardEntry.objects.filter(user_id=ann_id).exists()
    response = client.get("/api/leaderboards/?rules=classic")
    assert response.status_code == 200
    assert [(row["rank"], row["player"]["name"]) for row in response.json()["results"]] == [(1, "bob")]
    assert client.get(f"/api/replays/{result.pk}/").status_code == 404
    detail = client.get(f"/api/deals/{result.code}/").json()
    assert (detail["players"], detail["best_score"]) == (1, BEST - 1)


def test_display_names_are_shown_on_the_boards(client):
    from accounts.services import user_display_name_set

    ann = player_make("ann")
    win(ann, at=NOON)
    user_display_name_set(user=ann, display_name="Annie-42")

    response = client.get("/api/leaderboards/?rules=classic")

    assert response.json()["results"][0]["player"] == {"name": "Annie-42"}


# --- /api/me/: the player's own best game and rank ------------------------------------------------


def test_me_gives_one_best_game_per_rule_set_and_the_all_time_rank(client):
    ann, bob = player_make("ann"), player_make("bob")
    win(bob, at=NOON - dt.timedelta(hours=3))  # bob leads the all-time board
    earlier_equal = win(ann, at=NOON - dt.timedelta(hours=2), extra_moves=1)
    win(ann, at=NOON - dt.timedelta(hours=1), extra_moves=1)  # the same score, later: not the best
    win(ann, at=NOON, extra_moves=4)
    win(ann, at=NOON, ranked=False, code=WINNING_CODES["classic"][1])  # unranked: not a ranked best
    client.force_login(ann)

    rules = client.get("/api/me/").json()["rules"]

    best = rules["classic"]["best"]
    assert best == {
        "id": earlier_equal.pk, "code": earlier_equal.code, "score": BEST - 1, "moves": earlier_equal.moves,
        "duration_ms": earlier_equal.duration_ms, "achieved_at": "2026-11-29T10:00:00Z",
        "replay_url": f"http://testserver/api/replays/{earlier_equal.pk}/",
    }  # fmt: skip
    assert best["score"] == rules["classic"]["best_score"]
    assert rules["classic"]["ranks"]["all"] == {"board": "classic:all", "rank": 2, "of": 2}
    assert rules["relaxed"]["best"] is None
    assert client.get(best["replay_url"]).status_code == 200


def test_a_voided_best_gives_way_to_the_next_one_on_me(client):
    ann = player_make("ann")
    second = win(ann, at=NOON - dt.timedelta(hours=1), extra_moves=2)
    best = win(ann, at=NOON)
    run(submission_void, submission=best)
    client.force_login(ann)

    classic = client.get("/api/me/").json()["rules"]["classic"]

    assert (classic["best"]["id"], classic["best"]["score"], classic["best_score"]) == (
        second.pk, BEST - 2, BEST - 2,
    )  # fmt: skip
    assert classic["ranks"]["all"]["rank"] == 1
