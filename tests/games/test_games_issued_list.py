"""GET /api/games/?state=issued: the player's issued games that still accept a result, to take
them back on a device that lost its pool."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from games_helpers import CLASSIC_WIN, body
from rest_framework.test import APIClient

from games.issuing.services import game_issue
from games.models import IssuedGame

pytestmark = pytest.mark.django_db

URL = "/api/games/?state=issued"


def test_the_issued_games_are_listed_oldest_first_with_their_expiry(api, player, other_player):
    now = timezone.now()
    older = game_issue(user=player, rules="relaxed", now=now - timedelta(days=2))
    newer = game_issue(user=player, count=2, now=now - timedelta(hours=1))
    game_issue(user=other_player, count=3)

    response = api.get(URL)

    assert response.status_code == 200, response.json()
    games = response.json()
    assert [game["id"] for game in games] == [g.pk for g in older + newer]
    first = games[0]
    assert set(first) == {"id", "code", "rules", "issued_at", "expires_at"}
    assert (first["code"], first["rules"]) == (older[0].code, "relaxed")
    issued_at = older[0].issued_at
    assert first["issued_at"] == issued_at.isoformat().replace("+00:00", "Z")
    assert first["expires_at"] == (issued_at + timedelta(days=14)).isoformat().replace("+00:00", "Z")


def test_only_games_that_accept_a_result_are_listed(api, player, issue_game, submit):
    now = timezone.now()
    (expired,) = game_issue(user=player, now=now - timedelta(days=20))
    IssuedGame.objects.filter(pk=expired.pk).update(state="expired")
    played = issue_game(player)
    assert submit(body(log=CLASSIC_WIN["log"], game=played.pk)).status_code == 202
    (waiting,) = game_issue(user=player)
    (stale,) = game_issue(user=player, now=now - timedelta(days=14, minutes=1))  # not marked yet

    response = api.get(URL)

    assert response.status_code == 200
    assert [game["id"] for game in response.json()] == [waiting.pk]
    assert IssuedGame.objects.get(pk=stale.pk).state == "issued"


def test_rules_narrow_the_list(api, player):
    game_issue(user=player, rules="classic", count=2)
    (relaxed,) = game_issue(user=player, rules="relaxed")

    response = api.get(URL + "&rules=relaxed")

    assert response.status_code == 200
    assert [game["id"] for game in response.json()] == [relaxed.pk]


def test_none_held_is_an_empty_list(api):
    response = api.get(URL)

    assert response.status_code == 200
    assert response.json() == []


@pytest.mark.parametrize(
    ("query", "errors"),
    [
        ("", {"state": ["This field is required."]}),
        ("?state=finished", {"state": ['"finished" is not a valid choice.']}),
        ("?state=issued&rules=easy", {"rules": ['"easy" is not a valid choice.']}),
    ],
)
def test_a_missing_or_unknown_state_is_a_field_error(api, query, errors):
    response = api.get("/api/games/" + query)

    assert response.status_code == 400
    assert response.json() == errors


def test_signed_out_gets_no_list(db):
    response = APIClient().get(URL)

    assert response.status_code == 403
    assert response.json() == {
        "detail": "Authentication credentials were not provided.",
        "code": "not_authenticated",
    }


def test_listing_is_not_throttled_with_issuing(api, settings):
    settings.GAMES_THROTTLE_RATES = {**settings.GAMES_THROTTLE_RATES, "game_issue": "1/min"}
    for _ in range(3):
        assert api.get(URL).status_code == 200
    assert api.post("/api/games/", {}, format="json").status_code == 201


def test_a_stale_game_expires_when_the_player_asks_for_more(api, player):
    """Eager mode runs no hourly expiry: issuing expires the player's stale games itself."""
    game_issue(user=player, count=10, now=timezone.now() - timedelta(days=15))
    game_issue(user=player, count=10, now=timezone.now() - timedelta(days=1))

    response = api.post("/api/games/", {"count": 10}, format="json")

    assert response.status_code == 201
    assert len(response.json()) == 10
    assert IssuedGame.objects.filter(user=player, state="expired").count() == 10


def test_a_stale_game_not_yet_marked_accepts_no_result(player, issue_game, submit):
    game = issue_game(player, ago=timedelta(days=14, minutes=1))

    response = submit(body(log=CLASSIC_WIN["log"], game=game.pk))

    assert response.status_code == 409
    assert response.json() == {
        "detail": f"game {game.pk} is expired: it accepts no result",
        "code": "game_used",
    }


def test_the_listing_is_in_the_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    operation = schema.json()["paths"]["/api/games/"]["get"]
    assert operation["operationId"] == "games_list"
    assert {parameter["name"] for parameter in operation["parameters"]} >= {"state", "rules"}
