"""Daily deals: the same for everyone, whole shuffles drawn fresh, stored once, picked ahead."""

import datetime as dt

import pytest

import daily.services
from daily.models import DailyDeal
from daily.services import daily_deal_pick, daily_deals_pick_ahead
from games.engine import GameCode
from yukon_site import clock

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 11, 29)
NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


@pytest.fixture
def now(monkeypatch):
    monkeypatch.setattr(clock, "now", lambda: NOON)


REFUSED = "YU1-C-AAAAAAA"  # the filter below refuses this deal (as any code names it)


def refuse_one_deal(code: str) -> bool:
    return GameCode.parse(code).whole() != GameCode.parse(REFUSED).whole()


def test_the_daily_deals_are_public_the_same_for_everyone_and_stored(client, now, make_player):
    first = client.get("/api/daily/")
    client.force_login(make_player("ann"))
    second = client.get("/api/daily/")

    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    body = first.json()
    assert body["date"] == "2026-11-29" and body["ends_at"] == "2026-11-30T00:00:00Z"
    assert [deal["rules"] for deal in body["deals"]] == ["classic", "relaxed"]
    classic = body["deals"][0]
    # Played as a hidden-card game: its code is named once the day is over, not before.
    assert classic["code"] is None and classic["board"] == "daily:classic:day:2026-11-29"
    assert classic["leaderboard_url"] == (
        "http://testserver/api/leaderboards/?rules=classic&period=day&key=2026-11-29&deals=daily"
    )
    stored = DailyDeal.objects.get(date=DAY, rules="classic")
    assert GameCode.parse(stored.code).is_whole  # a whole shuffle, like every hidden-card deal
    assert stored.code not in first.content.decode()
    assert DailyDeal.objects.count() == 2


def test_picks_are_drawn_fresh_never_derived_from_the_date():
    first = daily_deal_pick(date=DAY, rules="classic").code
    DailyDeal.objects.all().delete()  # the same day picked again, as on another server
    again = daily_deal_pick(date=DAY, rules="classic").code

    assert again != first  # nothing about the date (or a secret) decides the deal
    assert GameCode.parse(first).is_whole and GameCode.parse(again).is_whole


def test_a_stored_pick_is_kept():
    kept = daily_deal_pick(date=DAY, rules="classic")

    assert daily_deal_pick(date=DAY, rules="classic").code == kept.code


def test_the_filter_can_refuse_candidates(settings, monkeypatch, issue_known_deals):
    settings.DAILY_DEAL_WINNABLE_ONLY = True
    monkeypatch.setattr(daily.services, "deal_is_winnable", refuse_one_deal)
    issue_known_deals(REFUSED, "YU1-C-AAAAAAB")

    deal = daily_deal_pick(date=DAY, rules="classic")

    assert deal.attempt == 1
    assert deal.code == str(GameCode.parse("YU1-C-AAAAAAB").whole())


def test_deals_are_picked_ahead():
    deals = daily_deals_pick_ahead(today=DAY, days=2)

    assert [(deal.date, deal.rules) for deal in deals] == [
        (DAY, "classic"), (DAY, "relaxed"), (DAY + dt.timedelta(days=1), "classic"),
        (DAY + dt.timedelta(days=1), "relaxed"),
    ]  # fmt: skip
