"""The races API (docs/races.md): answers, refusals with their status and code, and what a race
opens once it is over (replays, ratings on /api/me/ and the rating board)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient
from test_race_services import WIN, finished_race, seats_of, started_race

from races import services

pytestmark = pytest.mark.django_db


def client_of(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def test_create_join_start_and_read(make_player):
    host, guest = make_player("host"), make_player("guest")
    created = client_of(host).post(
        "/api/races/", {"rules": "relaxed", "seats": 3, "time_limit_minutes": 10}, format="json"
    )
    assert created.status_code == 201, created.json()
    race = created.json()
    assert race["state"] == "lobby" and race["url"] == f"/race/{race['id']}"
    assert [(p["name"], p["host"], p["you"], p["rating"]) for p in race["players"]] == [
        ("host", True, True, 1500)
    ]
    joined = client_of(guest).post(f"/api/races/{race['id']}/join/")
    assert joined.status_code == 200 and [p["you"] for p in joined.json()["players"]] == [False, True]
    assert client_of(guest).post(f"/api/races/{race['id']}/start/").json()["code"] == "not_host"
    started = client_of(host).post(f"/api/races/{race['id']}/start/")
    assert started.status_code == 200 and started.json()["state"] == "countdown"
    assert started.json()["commitment"] and started.json()["your_game_id"] is None  # not before the start
    anonymous = client_of().get(f"/api/races/{race['id']}/")
    assert anonymous.status_code == 200 and not any(p["you"] for p in anonymous.json()["players"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rules": "spider", "seats": 2}, "rules"),
        ({"rules": "classic", "seats": 7}, "seats"),
        ({"rules": "classic", "seats": 1}, "seats"),
        ({"rules": "classic", "seats": "2"}, "seats"),
        ({"rules": "classic", "seats": 2, "time_limit_minutes": 0}, "time_limit_minutes"),
        ({"rules": "classic", "seats": 2, "time_limit_minutes": 61}, "time_limit_minutes"),
    ],
)
def test_a_bad_race_is_refused_field_by_field(make_player, body, field):
    answer = client_of(make_player()).post("/api/races/", body, format="json")
    assert answer.status_code == 400 and field in answer.json()


def test_refusals_have_their_status_and_code(make_player):
    host, guest = make_player(), make_player()
    race = services.race_create(user=host, rules="classic", seats=2, time_limit_minutes=None)
    assert client_of().post("/api/races/", {"rules": "classic", "seats": 2}, format="json").status_code == 403
    answer = client_of(host).post(f"/api/races/{race.public_id}/join/")
    assert (answer.status_code, answer.json()["code"]) == (409, "already_seated")
    answer = client_of(host).post(f"/api/races/{race.public_id}/start/")
    assert (answer.status_code, answer.json()["code"]) == (409, "too_few_players")
    answer = client_of(guest).get("/api/races/nosuchrace/")
    assert (answer.status_code, answer.json()["code"]) == (404, "race_not_found")
    client_of(guest).post(f"/api/races/{race.public_id}/join/")
    answer = client_of(make_player()).post(f"/api/races/{race.public_id}/join/")
    assert (answer.status_code, answer.json()["code"]) == (409, "race_started")
    answer = client_of(guest).post(f"/api/races/{race.public_id}/rematch/")
    assert (answer.status_code, answer.json()["code"]) == (409, "race_not_over")


def test_a_race_opens_its_replays_and_moves_the_rating_once_over(
    make_player, known_deal, django_capture_on_commit_callbacks, settings
):
    settings.RACE_GRACE_SECONDS = 24 * 3600
    from race_play import play, server_time, submit

    race = started_race(make_player)
    winner, loser = seats_of(race)
    with django_capture_on_commit_callbacks(execute=True):
        play(loser, WIN, upto=10)
        result = submit(winner, WIN, play(winner, WIN))
    watch = client_of(loser.user).get(f"/api/replays/{result.pk}/")
    assert watch.status_code == 403 and watch.json()["available_at"] is None  # the race is not over
    with django_capture_on_commit_callbacks(execute=True):
        services.race_leave(user=loser.user, public_id=race.public_id, now=server_time(loser, 60_000))
    view = client_of().get(f"/api/races/{race.public_id}/").json()
    assert view["places_final"] and view["code"] == race.code
    for player in view["players"]:
        replay = client_of().get(player["replay_url"].replace("/replay/", "/api/replays/") + "/")
        assert replay.status_code == 200
        assert replay.json()["won"] is (player["place"] == 1)
    me = client_of(winner.user).get("/api/me/").json()
    assert me["rules"]["classic"]["race_rating"]["races"] == 1
    assert me["rules"]["classic"]["ranked_games_finished"] == 0  # race games count on the rating only
    board = client_of().get("/api/races/ratings/?rules=classic").json()
    assert [entry["name"] for entry in board["entries"]] == [winner.user.public_name, loser.user.public_name]
    assert client_of().get("/api/races/ratings/?rules=spider").status_code == 400


def test_a_challenge_is_created_and_taken_up_through_the_api(make_player):
    host, friend = make_player(), make_player()
    created = client_of(host).post("/api/races/", {"kind": "challenge", "rules": "relaxed"}, format="json")
    assert created.status_code == 201, created.json()
    challenge = created.json()
    assert (challenge["kind"], challenge["state"], challenge["seats"]) == ("challenge", "running", 2)
    assert challenge["your_game_id"] and challenge["deadline"] and challenge["commitment"]
    taken = client_of(friend).post(f"/api/races/{challenge['id']}/join/").json()
    assert taken["your_game_id"] and taken["your_game_id"] != challenge["your_game_id"]
    assert [p["moves"] for p in taken["players"]] == [None, 0]  # the challenger's figures kept back
    answer = client_of(make_player()).post("/api/races/", {"rules": "classic"}, format="json")
    assert answer.status_code == 400 and "seats" in answer.json()  # a race says its seats


def test_a_rematch_is_offered_then_joined_or_declined(
    make_player, django_capture_on_commit_callbacks, settings
):
    settings.RACE_GRACE_SECONDS = 24 * 3600
    host, guest = finished_race(make_player, django_capture_on_commit_callbacks, seats=2)
    old = host.race.public_id
    asked = client_of(host.user).post(f"/api/races/{old}/rematch/")
    assert asked.status_code == 200, asked.json()
    rematch = asked.json()
    assert rematch["state"] == "lobby" and [p["name"] for p in rematch["players"]] == [host.user.public_name]
    offered = client_of(guest.user).get(f"/api/races/{old}/").json()
    assert (offered["rematch_id"], offered["your_rematch"]) == (rematch["id"], "offered")
    declined = client_of(guest.user).post(f"/api/races/{old}/rematch/decline/")
    assert declined.status_code == 200 and declined.json()["your_rematch"] == "declined"
    joined = client_of(guest.user).post(f"/api/races/{old}/rematch/")
    assert joined.status_code == 200 and joined.json()["id"] == rematch["id"]
    assert joined.json()["state"] == "countdown"  # the last seat taken: it started by itself
    answer = client_of(make_player()).post(f"/api/races/{old}/rematch/decline/")
    assert (answer.status_code, answer.json()["code"]) == (403, "not_seated")
