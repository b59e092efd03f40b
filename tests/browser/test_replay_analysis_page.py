"""A race's game that was not won, on its replay (docs/fairplay.md, "On the replay"), in Chromium:
the page asks for the game's analysis, says the move that lost it and a move that would have
kept it, and shows the table just before that move; at 360 and 1366 px, axe-clean.

The race is played through the races' services (race_pages.finished_race); the analysis is the
server's own, asked for by the page, on the shipped settings (the embedded default runs it in the
asking request with the lab's budget: the same solver, smaller limits)."""

import re

import pytest
from helpers import assert_shows, game_after, make_player
from playwright.sync_api import Page, expect
from race_pages import finished_race
from race_play import CLASSIC_WIN, LOST_AT, losing_log, off_the_event_loop
from test_accessibility import (
    AXE,
    assert_no_axe_violation,
    context,  # noqa: F401 (its context fixture: a console error fails the test)
)

from fairplay.models import GameAnalysis
from games.models import Submission

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
ANALYSIS = "[data-replay-analysis]"


def test_a_lost_race_game_says_the_move_that_lost_it_and_one_that_kept_it(
    live_server, page: Page, artifacts_dir
):
    winner, loser = make_player("Winnie"), make_player("Lucas")
    lost = losing_log()
    race = off_the_event_loop(
        finished_race, [winner, loser], CLASSIC_WIN["code"], CLASSIC_WIN["log"].split(), lost
    )
    assert race.places_final
    result = Submission.objects.get(user=loser, game__contest="race")
    assert result.log.split() == lost and not result.won
    assert not GameAnalysis.objects.filter(submission=result).exists()  # no one has asked yet

    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/replay/{result.pk}")
    replay = page.locator("[data-replay]")
    expect(replay).to_have_attribute("data-replay-status", "paused")
    box = page.locator(ANALYSIS)
    number = LOST_AT + 1
    lost_by = f"Move {number}, 7♥ and 9 cards on it to column 4, lost this game"
    expect(box).to_contain_text(lost_by, timeout=30_000)
    kept = r"could be won until then\. 7♦ and 3 cards on it to column 4 would have kept it winnable\.$"
    expect(box.locator("[data-replay-analysis-text]")).to_have_text(re.compile(kept))
    assert GameAnalysis.objects.get(submission=result).reason == GameAnalysis.Reason.ASKED
    page.get_by_role("button", name=f"Show the table before move {number}").click()
    expect(replay).to_have_attribute("data-step", str(LOST_AT))
    assert_shows(page, game_after(result.code, lost[:LOST_AT]))
    assert_no_axe_violation(page, AXE.read_text(), "a lost race game's replay (1366 px)")
    page.screenshot(path=str(artifacts_dir / "replay-analysis-1366.png"))

    page.set_viewport_size(PHONE)
    page.reload()
    expect(box).to_contain_text(f"Move {number}", timeout=30_000)
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    assert_no_axe_violation(page, AXE.read_text(), "a lost race game's replay (360 px)")
    page.screenshot(path=str(artifacts_dir / "replay-analysis-360.png"), full_page=True)
