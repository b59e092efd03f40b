"""The leaderboard page names today's daily deals and the time left in its first copy, worded as
leaderboard.js words them from GET /api/daily/ (so nothing reflows when the script has its answer;
the page's layout shift is measured in tests/browser/test_accessibility.py)."""

import datetime as dt

import pytest

from yukon_site import clock

pytestmark = pytest.mark.django_db

LATE = dt.datetime(2026, 11, 29, 19, 47, 30, tzinfo=dt.UTC)


@pytest.fixture
def now(monkeypatch):
    monkeypatch.setattr(clock, "now", lambda: LATE)


def test_the_page_says_the_day_and_the_time_left_as_the_api_does(client, now):
    api = client.get("/api/daily/").json()
    assert (api["date"], api["ends_at"]) == ("2026-11-29", "2026-11-30T00:00:00Z")

    page = client.get("/leaderboard").content.decode()
    assert "2026-11-29 (UTC): the same deals for everyone, 4 h 12 min left." in page


def test_the_page_says_it_in_the_players_language(client, now):
    client.cookies["django_language"] = "ms"
    page = client.get("/leaderboard").content.decode()
    assert "2026-11-29 (UTC): agihan yang sama untuk semua orang, tinggal 4 j 12 min." in page
