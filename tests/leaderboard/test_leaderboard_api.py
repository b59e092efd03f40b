"""The board API: pages, cursors, around-me, deals, daily deals, /api/me/ and replays."""

import datetime as dt
from urllib.parse import parse_qs, urlparse

import pytest
from factories import WINNING_CODES, best_score, player_make, win

pytestmark = pytest.mark.django_db

BEST = best_score(WINNING_CODES["classic"][0])
NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


def fill(count: int, *, start=NOON) -> list:
    """`count` players; player i has score BEST − i (a distinct rank each)."""
    players = [player_make(f"p{index:03d}") for index in range(count)]
    for index, user in enumerate(players):
        win(user, at=start + dt.timedelta(seconds=index), extra_moves=index)
    return players


def test_a_board_page_is_public_and_shaped_like_a_drf_page(client, frozen_now):
    ann, bob = player_make("ann"), player_make("bob")
    bob_win = win(bob, at=NOON, extra_moves=1)
    ann_win = win(ann, at=NOON + dt.timedelta(seconds=5))

    response = client.get("/api/leaderboards/?rules=classic&period=all")

    assert response.status_code == 200
    assert response.json() == {
        "count": 2,
        "next": None,
        "previous": None,
        "results": [
            {"rank": 1, "player": {"name": "ann"}, "score": BEST, "moves": ann_win.moves,
             "duration_ms": ann_win.duration_ms, "achieved_at": "2026-11-29T12:00:05Z",
             "replay_url": f"http://testserver/api/replays/{ann_win.pk}/"},
            {"rank": 2, "player": {"name": "bob"}, "score": BEST - 1, "moves": bob_win.moves,
             "duration_ms": bob_win.duration_ms, "achieved_at": "2026-11-29T12:00:00Z",
             "replay_url": f"http://testserver/api/replays/{bob_win.pk}/"},
        ],
    }  # fmt: skip


def test_periods_and_past_keys(client, frozen_now):
    ann, bob = player_make("ann"), player_make("bob")
    win(ann, at=NOON - dt.timedelta(days=7))
    win(bob, at=NOON, extra_moves=1)

    def names(query):
        response = client.get(f"/api/leaderboards/?rules=classic&{query}")
        assert response.status_code == 200, response.json()
        return [row["player"]["name"] for row in response.json()["results"]]

    assert names("period=all") == ["ann", "bob"]
    assert names("period=week") == ["bob"]
    assert names("period=day") == ["bob"]
    assert names("period=week&key=2026-W47") == ["ann"]
    assert names("period=day&key=2026-11-22") == ["ann"]
    assert names("period=day&key=2026-11-21") == []
    assert client.get("/api/leaderboards/?rules=relaxed").json()["count"] == 0


@pytest.mark.parametrize(
    "query, field",
    [
        ("period=all", "rules"),
        ("rules=poker", "rules"),
        ("rules=classic&period=month", "period"),
        ("rules=classic&period=week&key=2026-11-29", "key"),
        ("rules=classic&period=all&key=2026-W48", "key"),
        ("rules=classic&page_size=101", "page_size"),
        ("rules=classic&cursor=nonsense", "cursor"),
        ("rules=classic&around=yo", "around"),
        ("rules=classic&around=two words", "around"),
    ],
)
def test_bad_queries_are_refused_with_the_field_named(client, query, field):
    response = client.get(f"/api/leaderboards/?{query}")

    assert response.status_code == 400
    assert field in response.json()


def walk(client, url: str) -> list[dict]:
    """Every row, following the next links."""
    rows = []
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.json()
        rows += response.json()["results"]
        url = response.json()["next"]
    return rows


def test_cursors_walk_forward_and_back_without_gaps_or_repeats(client, frozen_now):
    fill(7)

    first = client.get("/api/leaderboards/?rules=classic&page_size=3").json()
    second = client.get(first["next"]).json()
    third = client.get(second["next"]).json()
    back = client.get(third["previous"]).json()

    assert [row["rank"] for row in first["results"]] == [1, 2, 3] and first["previous"] is None
    assert [row["rank"] for row in second["results"]] == [4, 5, 6]
    assert [row["rank"] for row in third["results"]] == [7] and third["next"] is None
    assert back["results"] == second["results"]
    assert client.get(back["previous"]).json()["results"] == first["results"]
    assert parse_qs(urlparse(first["next"]).query)["page_size"] == ["3"]
    assert [
        row["player"]["name"] for row in walk(client, "/api/leaderboards/?rules=classic&page_size=2")
    ] == [f"p{index:03d}" for index in range(7)]


def test_pagination_has_no_gaps_or_repeats_while_new_scores_arrive(client, frozen_now):
    players = fill(10)
    seen = []
    url = "/api/leaderboards/?rules=classic&page_size=3"
    newcomer = 0
    while url:
        page = client.get(url).json()
        seen += [row["player"]["name"] for row in page["results"]]
        # New players arrive above, inside and below the part already read.
        for extra in (0, 5, 30):
            win(player_make(f"new{newcomer}"), at=NOON + dt.timedelta(minutes=1), extra_moves=extra)
            newcomer += 1
        url = page["next"]

    originals = [name for name in seen if name.startswith("p")]
    assert originals == [user.username for user in players]
    assert len(seen) == len(set(seen))


def test_around_me_at_the_top_middle_and_bottom(client, frozen_now):
    players = fill(30)
    url = "/api/leaderboards/?rules=classic&around=me"

    for index, expected_ranks in [(0, range(1, 12)), (15, range(6, 27)), (29, range(20, 31))]:
        client.force_login(players[index])
        page = client.get(url).json()
        assert [row["rank"] for row in page["results"]] == list(expected_ranks)
        assert page["count"] == 30
        assert [row["player"]["name"] for row in page["results"]][
            index + 1 - expected_ranks[0]
        ] == f"p{index:03d}"
        assert (page["previous"] is None) == (expected_ranks[0] == 1)
        assert (page["next"] is None) == (expected_ranks[-1] == 30)
    client.force_login(players[15])
    after = client.get(client.get(url).json()["next"]).json()
    assert after["results"][0]["rank"] == 27 and "around" not in after["results"][0]


def test_around_me_without_an_entry_or_without_a_session(client, frozen_now):
    fill(2)
    client.force_login(player_make("newbie"))
    assert client.get("/api/leaderboards/?rules=classic&around=me").json() == {"ranked": False}

    client.logout()
    response = client.get("/api/leaderboards/?rules=classic&around=me")
    assert response.status_code == 403
    assert "detail" in response.json()


def test_a_deal_board_holds_ranked_and_unranked_wins_and_its_figures(client, frozen_now):
    ann, bob, cid = player_make("ann"), player_make("bob"), player_make("cid")
    code = WINNING_CODES["classic"][1]
    win(ann, at=NOON, code=code, extra_moves=2)
    win(bob, at=NOON, code=code, ranked=False)
    win(bob, at=NOON + dt.timedelta(seconds=1), code=code, ranked=False, extra_moves=1)
    win(cid, at=NOON, code=code, assisted=True)

    board = client.get(f"/api/deals/{code.lower()}/leaderboard/")
    detail = client.get(f"/api/deals/{code}/")

    assert board.status_code == 200
    assert [(row["player"]["name"], row["score"]) for row in board.json()["results"]] == [
        ("bob", best_score(code)),
        ("ann", best_score(code) - 2),
    ]
    assert detail.status_code == 200
    assert detail.json() == {
        "code": code, "rules": "classic", "plays": 4, "wins": 4, "players": 2, "best_score": best_score(code),
        "par": None, "winnable": None, "daily": [], "leaderboard_url": f"http://testserver/api/deals/{code}/leaderboard/",
    }  # fmt: skip
    assert client.get("/api/deals/YU1-C-nope/").status_code == 400


def test_me_needs_a_session_and_sums_up_the_player(client, frozen_now):
    assert client.get("/api/me/").status_code == 403
    ann, bob = player_make("ann"), player_make("bob")
    win(bob, at=NOON)
    win(ann, at=NOON - dt.timedelta(days=1), extra_moves=3)
    win(ann, at=NOON, extra_moves=1)
    unranked = win(ann, at=NOON, ranked=False, rules="relaxed")
    client.force_login(ann)

    response = client.get("/api/me/")

    assert response.status_code == 200
    body = response.json()
    assert body["player"] == {"name": "ann"}
    classic = body["rules"]["classic"]
    figures = ("best_score", "ranked_wins", "ranked_games_finished", "win_rate")
    assert {key: classic[key] for key in figures} == {
        "best_score": BEST - 1, "ranked_wins": 2, "ranked_games_finished": 2, "win_rate": 1.0,
    }  # fmt: skip
    assert classic["fewest_moves"] == 96 and classic["fastest_win_ms"] > 0
    assert (classic["current_streak"], classic["best_streak"]) == (2, 2)
    assert classic["ranks"] == {
        "all": {"board": "classic:all", "rank": 2, "of": 2},
        "season": {"board": "classic:season:2026-11", "rank": 2, "of": 2},
        "week": {"board": "classic:week:2026-W48", "rank": 2, "of": 2},
        "day": {"board": "classic:day:2026-11-29", "rank": 2, "of": 2},
    }
    assert body["rules"]["relaxed"]["ranked_wins"] == 0 and body["rules"]["relaxed"]["unranked_wins"] == 1
    assert body["rules"]["relaxed"]["win_rate"] is None
    assert [result["id"] for result in body["unranked_wins"]] == [unranked.pk]
    assert len(body["recent"]) == 3 and body["recent"][0]["replay_url"].endswith("/")


def test_a_replay_gives_what_the_page_needs_to_play_it_back(client, frozen_now):
    ann = player_make("ann")
    result = win(ann, at=NOON, extra_moves=1)

    response = client.get(f"/api/replays/{result.pk}/")

    assert response.status_code == 200
    body = response.json()
    assert body == {
        "id": result.pk, "code": result.code, "deal": None, "rules": "classic", "player": {"name": "ann"},
        "log": result.log.split(), "move_times_ms": result.move_times_ms, "score": BEST - 1,
        "moves": result.moves, "par": None, "duration_ms": result.duration_ms, "ranked": True, "won": True,
        "achieved_at": "2026-11-29T12:00:00Z",
    }  # fmt: skip
    assert len(body["log"]) == len(body["move_times_ms"])


def test_a_voided_result_has_no_replay(client, frozen_now):
    from games.submissions.intake import submission_void

    result = win(player_make("ann"), at=NOON)
    submission_void(submission=result)

    assert client.get(f"/api/replays/{result.pk}/").status_code == 404
    assert client.get("/api/replays/999999/").status_code == 404


def test_hot_pages_are_kept_for_a_moment(client, frozen_now, settings):
    settings.LEADERBOARD_HOT_PAGE_SECONDS = 60
    win(player_make("ann"), at=NOON)
    assert client.get("/api/leaderboards/?rules=classic").json()["count"] == 1

    win(player_make("bob"), at=NOON)

    assert client.get("/api/leaderboards/?rules=classic").json()["count"] == 1
    settings.LEADERBOARD_HOT_PAGE_SECONDS = 0
    assert client.get("/api/leaderboards/?rules=classic").json()["count"] == 2


def test_streaks_count_wins_in_a_row_in_the_order_played():
    from players.summaries import win_streaks

    assert win_streaks([]) == (0, 0)
    assert win_streaks([True, True, False, True]) == (1, 2)
    assert win_streaks([False, True, True, True]) == (3, 3)
    assert win_streaks([True, True, True, False]) == (0, 3)
