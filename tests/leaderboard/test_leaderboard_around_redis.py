"""Around a named player on the Redis index (full stack): one script (on boards split by score, a
few round trips) gives the neighbourhood and the names kept beside it; the answers equal SQL's;
renames and unknown names. On each kind of index (tests/leaderboard/conftest.py)."""

import datetime as dt

import pytest
from factories import player_make, win
from index_probes import redis_unreachable

from accounts.services import user_display_name_set
from leaderboard.index import wiring as indexing
from leaderboard.index.sorted_sets import member_for
from leaderboard.index.wiring import board_index, index_board_rebuild
from leaderboard.players import NAME_NOT_KEPT, NAME_SECONDS, index_around, player_names
from leaderboard.selectors import UnknownPlayer, leaderboard_around, leaderboard_around_player

pytestmark = [pytest.mark.stack, pytest.mark.django_db]

NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
BOARD = "classic:all"
URL = "/api/leaderboards/?rules=classic"


@pytest.fixture
def rebuild_starts(monkeypatch):
    from leaderboard.tasks import board_rebuild

    started = []
    monkeypatch.setattr(board_rebuild, "delay", lambda **kwargs: started.append(kwargs))
    return started


def fill(count: int) -> list:
    players = [player_make(f"p{index:03d}") for index in range(count)]
    for index, user in enumerate(players):
        win(user, at=NOON + dt.timedelta(seconds=index % 3), extra_moves=index % 4)  # ties too
    return players


def test_around_a_player_from_redis_equals_sql_and_around_me(client, redis_index, settings, rebuild_starts):
    players = fill(25)
    urls = [f"{URL}&around=p{index:03d}" for index in (0, 7, 24)] + [f"{URL}&around=nobody"]
    assert index_board_rebuild(board=BOARD) == 25

    from_redis = [(client.get(url).status_code, client.get(url).content) for url in urls]
    redis_url, settings.REDIS_URL = settings.REDIS_URL, None  # the same reads by SQL alone
    indexing.index_reset()
    from_sql = [(client.get(url).status_code, client.get(url).content) for url in urls]
    settings.REDIS_URL = redis_url
    indexing.index_reset()

    assert from_redis == from_sql
    assert [status for status, _ in from_redis] == [200, 200, 200, 404]
    client.force_login(players[7])
    assert client.get(f"{URL}&around=me").content == from_redis[1][1]
    page = leaderboard_around_player(board=BOARD, name="P007", span=3)
    assert page.source == "redis" and page == leaderboard_around(board=BOARD, user_id=players[7].pk, span=3)


def test_one_script_gives_the_names_kept_beside_the_board(redis_index, rebuild_starts):
    players = fill(5)
    assert index_board_rebuild(board=BOARD) == 5

    assert index_around(redis_index, BOARD, span=2, name="p002") == NAME_NOT_KEPT
    first = leaderboard_around_player(board=BOARD, name="p002", span=2)
    kept = index_around(redis_index, BOARD, span=2, name="p002")

    assert kept.user_id == players[2].pk and kept.rank is not None
    assert kept.names == {entry.user_id: entry.name for entry in first.entries}
    names = f"{redis_index.prefix}-names"  # lb-names, or lbh-names beside boards split by score
    assert redis_index.client.hget(names, member_for(players[2].pk)) == b"p002"
    assert 0 < redis_index.client.ttl(names) <= NAME_SECONDS
    top = leaderboard_around(board=BOARD, user_id=players[0].pk, span=2)  # keeps the names it read
    kept_top = index_around(redis_index, BOARD, span=2, user_id=players[0].pk)
    assert kept_top.names == {entry.user_id: entry.name for entry in top.entries}
    with pytest.raises(UnknownPlayer):
        leaderboard_around_player(board=BOARD, name="nobody", span=2)
    assert index_around(redis_index, BOARD, span=2, name="nobody") == NAME_NOT_KEPT  # not kept


def test_a_rename_forgets_the_kept_names(client, redis_index, rebuild_starts):
    ann, bob = fill(2)
    index_board_rebuild(board=BOARD)
    assert client.get(f"{URL}&around=p000").status_code == 200
    assert player_names([ann.pk]) == {ann.pk: "p000"}

    user_display_name_set(user=ann, display_name="Ann_B")

    assert client.get(f"{URL}&around=p000").status_code == 404
    answer = client.get(f"{URL}&around=ANN_B").json()
    assert {row["player"]["name"] for row in answer["results"]} == {"Ann_B", "p001"}
    assert client.get(URL).json()["results"][0]["player"]["name"] in {"Ann_B", "p001"}
    assert "p000" not in str(client.get(URL).json())


def test_redis_down_answers_from_sql(client, redis_index, settings, rebuild_starts, monkeypatch):
    fill(3)
    index_board_rebuild(board=BOARD)
    expected = client.get(f"{URL}&around=p001").json()

    redis_unreachable(monkeypatch, redis_index)
    monkeypatch.setattr(indexing, "_down_until", 0.0)

    assert client.get(f"{URL}&around=p001").json() == expected
    assert client.get(f"{URL}&around=nobody").status_code == 404
    assert board_index() is None  # left alone for a moment
