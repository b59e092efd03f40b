"""GET /api/daily/ tells a signed-in player which of today's daily deals they have played (one game
a day) and where to watch their own win of it; a game taken up but unfinished is not played yet.
The played and won path end to end: tests/browser/test_rough_edges.py."""

import datetime as dt

import pytest

from daily.services import daily_game_issue
from yukon_site import clock

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


@pytest.fixture
def now(monkeypatch):
    monkeypatch.setattr(clock, "now", lambda: NOON)


def played(body) -> dict:
    return {deal["rules"]: (deal["played"], deal["your_replay_url"]) for deal in body["deals"]}


def test_no_daily_deal_is_played_signed_out_nor_while_the_game_is_unfinished(client, now, make_player):
    signed_out = client.get("/api/daily/")
    assert signed_out.status_code == 200
    assert played(signed_out.json()) == {"classic": (False, None), "relaxed": (False, None)}

    ann = make_player("ann")
    daily_game_issue(user=ann, rules="classic", now=NOON)  # taken up, not finished: Play goes on
    client.force_login(ann)
    signed_in = client.get("/api/daily/")
    assert signed_in.status_code == 200
    assert played(signed_in.json()) == {"classic": (False, None), "relaxed": (False, None)}
