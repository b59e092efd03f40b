"""A race or a replay that is not there answers 404 with its friendly page, the words in the HTML
itself, for a crawler as for a browser (the browser's side, with the service worker: the test
in tests/browser/test_pages.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from factories import player_make, win

from games.submissions.intake import submission_void
from races import services

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)


def test_a_race_that_is_not_there_is_a_404_saying_so(client):
    missing = client.get("/race/NOPE12345")
    assert missing.status_code == 404
    page = missing.content.decode()
    assert "There is no such race." in page and 'data-race-view="missing"' in page

    race = services.race_create(user=player_make("host"), rules="classic", seats=2, time_limit_minutes=None)
    found = client.get(f"/race/{race.public_id}")
    assert found.status_code == 200 and 'data-race-view="loading"' in found.content.decode()


def test_a_replay_that_is_not_there_is_a_404_saying_so(client):
    result = win(player_make("ann"), at=NOON)
    assert client.get(f"/replay/{result.pk}").status_code == 200
    assert client.get("/replay/").status_code == 200  # the shell every replay is served from

    submission_void(submission=result)
    for path in (f"/replay/{result.pk}", f"/replay/{result.pk + 1000}"):
        missing = client.get(path)
        assert missing.status_code == 404, path
        assert "There is no such win to watch" in missing.content.decode()
