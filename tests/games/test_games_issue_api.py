"""POST /api/games/: ranked deals drawn by the server, at most 20 unplayed, expiry after 14 days."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import DEAL_COUNT, GameCode, Rules
from games.issuing.dealing import known_deals, open_deal_draw
from games.issuing.services import game_issue, games_expire
from games.models import IssuedGame

pytestmark = pytest.mark.django_db


def test_one_classic_game_by_default(api, player):
    response = api.post("/api/games/", {}, format="json")

    assert response.status_code == 201, response.json()
    (game,) = response.json()
    assert set(game) == {"id", "code", "rules", "issued_at"}
    assert game["rules"] == "classic"
    assert GameCode.parse(game["code"]).rules.value == "classic"
    stored = IssuedGame.objects.get(pk=game["id"])
    assert (stored.user, stored.code, stored.state) == (player, game["code"], "issued")
    assert not GameCode.parse(stored.code).is_whole  # an open deal number: its player is given the code


def test_a_pool_of_relaxed_games(api):
    response = api.post("/api/games/", {"rules": "relaxed", "count": 10}, format="json")

    assert response.status_code == 201
    games = response.json()
    assert len(games) == 10
    assert {game["rules"] for game in games} == {"relaxed"}
    assert all("-R-" in game["code"] for game in games)
    assert len({game["id"] for game in games}) == 10


@pytest.mark.parametrize("data", [{"count": 0}, {"count": 11}, {"count": "3"}, {"rules": "easy"}])
def test_bad_rules_or_count_are_field_errors(api, data):
    response = api.post("/api/games/", data, format="json")

    assert response.status_code == 400
    assert set(response.json()) == set(data)
    assert IssuedGame.objects.count() == 0


def test_a_player_holds_at_most_20_unplayed_games(api):
    assert len(api.post("/api/games/", {"count": 10}, format="json").json()) == 10
    assert len(api.post("/api/games/", {"count": 8}, format="json").json()) == 8

    partial = api.post("/api/games/", {"count": 5}, format="json")
    full = api.post("/api/games/", {"count": 1}, format="json")

    assert partial.status_code == 201 and len(partial.json()) == 2
    assert full.status_code == 409
    assert full.json() == {
        "detail": "you hold 20 unplayed ranked games; finish one first (at most 20)",
        "code": "too_many_unplayed",
    }
    assert IssuedGame.objects.count() == 20


def test_signed_out_gets_no_game(db):
    response = APIClient().post("/api/games/", {}, format="json")

    assert response.status_code == 403
    assert IssuedGame.objects.count() == 0


def test_issuing_is_throttled_per_player(api, settings):
    settings.GAMES_THROTTLE_RATES = {**settings.GAMES_THROTTLE_RATES, "game_issue": "1/min"}
    assert api.post("/api/games/", {}, format="json").status_code == 201

    response = api.post("/api/games/", {}, format="json")

    assert response.status_code == 429
    assert response.json()["detail"].startswith("Request was throttled")
    assert 0 < int(response["Retry-After"]) <= 60


def test_known_deals_come_from_the_tests_seam(player):
    codes = ["YU1-R-AAAAAAA", "YU1-R-AAAAAAB", "YU1-R-ZZZZZZZ"]
    with known_deals(codes):
        games = game_issue(user=player, rules="relaxed", count=3)
    with known_deals(codes):
        hidden = game_issue(user=player, rules="relaxed", count=3, hidden=True)

    assert [game.code for game in games] == codes
    assert all(game.pk for game in games)
    # A hidden-card game is dealt the same deal under its YU2 code, as a drawn one would be.
    assert [game.code for game in hidden] == [str(GameCode.parse(code).whole()) for code in codes]


def test_open_deal_numbers_cover_the_whole_range():
    draws = [open_deal_draw(rules=Rules.CLASSIC).number for _ in range(2000)]

    assert all(0 <= number < DEAL_COUNT for number in draws)
    assert len(set(draws)) > 1990  # 2,000 draws among 8 billion deals: a repeat is rare
    # Uniform over 26^7: about half above the middle.
    assert 850 < sum(number >= DEAL_COUNT // 2 for number in draws) < 1150


def test_games_untouched_for_14_days_expire(player):
    now = timezone.now()
    (old,) = game_issue(user=player, now=now - timedelta(days=14, seconds=1))
    (recent,) = game_issue(user=player, now=now - timedelta(days=13))

    assert games_expire(now=now) == 1

    old.refresh_from_db()
    recent.refresh_from_db()
    assert (old.state, recent.state) == ("expired", "issued")
    assert games_expire(now=now) == 0


def test_expired_games_free_room_for_new_ones(api, player):
    game_issue(user=player, count=10, now=timezone.now() - timedelta(days=20))
    game_issue(user=player, count=10, now=timezone.now() - timedelta(days=20))
    games_expire()

    assert len(api.post("/api/games/", {"count": 10}, format="json").json()) == 10
