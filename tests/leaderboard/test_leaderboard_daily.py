"""The boards and daily deals (told by daily/: games/daily_calendar.py): a daily deal's
replays wait for its day to be over, and a deal's figures name its days once they are over.
The daily deals themselves: tests/daily."""

import datetime as dt

import pytest
from factories import WINNING_CODES, player_make, win

import daily.selectors
from daily.models import DailyDeal
from games.engine import GameCode
from games.models import SolvedDeal

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 11, 29)
NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


def test_daily_deal_replays_stay_hidden_until_the_day_is_over(client, frozen_now, issue_known_deals):
    frozen_now(NOON)
    issue_known_deals(WINNING_CODES["classic"][0])
    assert client.get("/api/daily/").status_code == 200  # today's deals picked
    code = DailyDeal.objects.get(date=DAY, rules="classic").code
    assert code == str(GameCode.parse(WINNING_CODES["classic"][0]).whole())
    ann = player_make("ann")
    result = win(ann, at=NOON, code=code, ranked=False)

    board = client.get(f"/api/deals/{code}/leaderboard/").json()
    hidden = client.get(f"/api/replays/{result.pk}/")
    assert board["results"][0]["replay_url"] is None
    assert hidden.status_code == 403
    assert hidden.json()["available_at"] == "2026-11-30T00:00:00Z"
    SolvedDeal.objects.update_or_create(
        code=code,
        defaults={"rules": "classic", "result": SolvedDeal.Result.WON, "par": 77, "solved_at": NOON},
    )
    client.force_login(ann)
    own = client.get(f"/api/replays/{result.pk}/")
    assert own.status_code == 200  # her own
    assert (own.json()["code"], own.json()["par"]) == (code, 77)  # she typed the code: par with it
    assert client.get(f"/api/deals/{code}/").json()["daily"] == []  # not named while the day runs
    client.logout()

    frozen_now(dt.datetime(2026, 11, 30, 0, 0, 0, tzinfo=dt.UTC))
    daily.selectors.daily_deal_cache_clear()

    public = client.get(f"/api/replays/{result.pk}/")
    assert public.status_code == 200
    assert (public.json()["code"], public.json()["par"], public.json()["moves"]) == (code, 77, result.moves)
    assert client.get(f"/api/deals/{code}/").json()["daily"] == ["2026-11-29"]
    board = client.get(f"/api/deals/{code}/leaderboard/").json()
    assert board["results"][0]["replay_url"] == f"http://testserver/api/replays/{result.pk}/"


def test_without_a_daily_calendar_the_boards_refuse_rather_than_show_a_daily_deals_replays(monkeypatch):
    """daily/ left out of INSTALLED_APPS: before, no deal was a daily deal, so a daily deal's
    replays (its code, which deals it to anyone still playing) were public while it was played."""
    from django.core.exceptions import ImproperlyConfigured

    from games import daily_calendar

    assert daily_calendar.daily_calendar_check() == []  # daily/ registered it
    monkeypatch.setattr(daily_calendar, "_calendar", None)
    assert [error.id for error in daily_calendar.daily_calendar_check()] == ["games.E001"]
    with pytest.raises(ImproperlyConfigured, match="INSTALLED_APPS"):
        daily_calendar.hidden_replay_codes(today=DAY)
    with pytest.raises(ImproperlyConfigured):
        daily_calendar.replay_hidden_until(code="YU2-C-0", now=NOON)


def test_a_replay_names_its_deals_par_only_when_it_may_name_the_deal():
    """A daily-deal win watched by its player during the day: neither the code nor the par (the
    solver's shortest win would tell something of a deal others still play with hidden cards)."""
    from games.replays.apis import ReplayDetailApi

    ann = player_make("ann")
    result = win(ann, at=NOON, code=WINNING_CODES["classic"][0], ranked=False)
    SolvedDeal.objects.update_or_create(
        code=result.code,
        defaults={"rules": "classic", "result": SolvedDeal.Result.WON, "par": 77, "solved_at": NOON},
    )

    def answer(code_public: bool) -> tuple:
        fields = ReplayDetailApi.OutputSerializer(result, context={"code_public": code_public}).fields
        return fields["code"].to_representation(result), fields["par"].to_representation(result)

    assert answer(False) == (None, None)
    assert answer(True) == (result.code, 77)
