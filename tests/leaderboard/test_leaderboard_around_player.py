"""Around a named player: a public read, the same answer as that player's around=me, kept and
cacheable (ETag, Cache-Control), with no session read."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from factories import WINNING_CODES, player_make, win

from accounts.services import user_display_name_set, user_suspend

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
URL = "/api/leaderboards/?rules=classic"


def fill(count: int) -> list:
    """`count` players; player i is ranked i + 1."""
    players = [player_make(f"p{index:03d}") for index in range(count)]
    for index, user in enumerate(players):
        win(user, at=NOON + dt.timedelta(seconds=index), extra_moves=index)
    return players


def test_around_a_player_is_public_and_equals_their_around_me(client, frozen_now):
    players = fill(30)

    for index in (0, 15, 29):
        client.logout()
        public = client.get(f"{URL}&around=p{index:03d}")
        client.force_login(players[index])
        mine = client.get(f"{URL}&around=me")

        assert public.status_code == 200 and mine.status_code == 200
        assert public.json() == mine.json()
        ranks = [row["rank"] for row in public.json()["results"]]
        assert index + 1 in ranks and len(ranks) == min(index, 10) + 1 + min(29 - index, 10)


def test_the_name_is_a_display_name_in_any_case(client, frozen_now):
    ann = player_make("ann")
    win(ann, at=NOON)
    user_display_name_set(user=ann, display_name="Annie-42")

    answer = client.get(f"{URL}&around=ANNIE-42").json()

    assert [row["player"]["name"] for row in answer["results"]] == ["Annie-42"]
    assert client.get(f"{URL}&around=ann").status_code == 404  # her username is not what boards show


def test_a_player_not_on_the_board_answers_ranked_false(client, frozen_now):
    fill(2)
    player_make("newbie")

    response = client.get(f"{URL}&around=newbie")

    assert response.status_code == 200
    assert response.json() == {"ranked": False}
    assert client.get(f"{URL}&period=day&key=2026-11-28&around=p000").json() == {"ranked": False}


def test_an_unknown_name_answers_404_with_a_code(client, frozen_now):
    fill(1)

    response = client.get(f"{URL}&around=nobody")

    assert response.status_code == 404
    assert response.json() == {"detail": "No player is named nobody.", "code": "player_not_found"}


def test_a_suspended_player_has_left_the_board(client, frozen_now):
    ann, _bob = fill(2)
    user_suspend(user=ann, reason="copied logs")

    assert client.get(f"{URL}&around=p000").json() == {"ranked": False}
    assert [row["player"]["name"] for row in client.get(f"{URL}&around=p001").json()["results"]] == ["p001"]


def test_around_a_player_reads_no_session_even_signed_in(client, frozen_now):
    ann, _bob = fill(2)
    client.force_login(ann)
    client.cookies["django_language"] = "en"  # as the page has it: the account's language is not read

    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"{URL}&around=p001")

    assert response.status_code == 200
    assert not [query for query in queries if "django_session" in query["sql"]]
    assert "Cookie" not in response.get("Vary", "")


def test_public_answers_carry_cache_headers_and_answer_304_to_their_etag(client, frozen_now, settings):
    settings.LEADERBOARD_HOT_PAGE_SECONDS = 1
    fill(3)

    for url in (f"{URL}&around=p001", URL):
        response = client.get(url)
        assert response["Cache-Control"] == "public, max-age=1"
        etag = response["ETag"]
        assert etag.startswith('"') and etag.endswith('"')

        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
        assert client.get(url, HTTP_IF_NONE_MATCH=f'W/{etag}, "other"').status_code == 304
        assert client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_a_new_score_changes_the_etag_once_the_kept_answer_expires(client, frozen_now, settings):
    settings.LEADERBOARD_HOT_PAGE_SECONDS = 60
    ann, bob = player_make("ann"), player_make("bob")
    win(ann, at=NOON)
    first = client.get(f"{URL}&around=ann")
    win(bob, at=NOON)

    kept = client.get(f"{URL}&around=ann")
    assert kept.content == first.content and kept["ETag"] == first["ETag"]

    settings.LEADERBOARD_HOT_PAGE_SECONDS = 0
    fresh = client.get(f"{URL}&around=ann")
    assert fresh.json()["count"] == 2 and fresh["ETag"] != first["ETag"]
    assert fresh["Cache-Control"] == "public, max-age=0"


def test_kept_public_answers_never_answer_around_me(client, frozen_now, settings):
    settings.LEADERBOARD_HOT_PAGE_SECONDS = 60
    ann, bob = fill(2)
    client.get(f"{URL}&around=p000")
    client.force_login(ann)
    assert client.get(f"{URL}&around=me").json()["results"][0]["player"]["name"] == "p000"
    client.force_login(bob)
    mine = client.get(f"{URL}&around=me")

    assert "ETag" not in mine and "Cache-Control" not in mine
    client.logout()
    assert client.get(f"{URL}&around=me").status_code == 403


def test_a_rename_shows_at_once(client, frozen_now):
    ann, _bob = fill(2)
    assert client.get(f"{URL}&around=p000").status_code == 200

    user_display_name_set(user=ann, display_name="Ann_B")

    assert client.get(f"{URL}&around=p000").status_code == 404
    names = [row["player"]["name"] for row in client.get(f"{URL}&around=ann_b").json()["results"]]
    assert names == ["Ann_B", "p001"]


def test_around_a_player_on_a_deal_board_and_an_open_board(client, frozen_now):
    code = WINNING_CODES["classic"][1]
    ann, bob = player_make("ann"), player_make("bob")
    win(ann, at=NOON, code=code)
    win(bob, at=NOON, code=code, hidden=False, extra_moves=1)

    deal = client.get(f"/api/deals/{code}/leaderboard/?around=bob").json()
    assert [row["player"]["name"] for row in deal["results"]] == ["ann", "bob"]
    assert client.get(f"{URL}&deals=open&around=bob").json()["results"][0]["player"]["name"] == "bob"
    assert client.get(f"{URL}&around=bob").json() == {"ranked": False}


def test_a_kept_answer_is_served_early_with_the_headers_of_every_answer(client, frozen_now, settings):
    settings.LEADERBOARD_HOT_PAGE_SECONDS = 60
    fill(2)
    first = client.get(f"{URL}&around=p001")

    with CaptureQueriesContext(connection) as queries:
        kept = client.get(f"{URL}&around=p001")

    assert not queries.captured_queries  # no session, no player, no board: the kept bytes
    assert kept.content == first.content and kept["ETag"] == first["ETag"]
    headers = ["Content-Type", "Content-Length", "Cache-Control", "X-Frame-Options"]
    headers.append("Content-Security-Policy")
    for header in headers:
        assert kept[header] == first[header], header
