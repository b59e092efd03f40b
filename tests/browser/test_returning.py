"""The returning player: a win's banner is shown once, when the game is won; coming back to the
table (back from another page, a reload, a later visit, online or offline) finds the next game.

The game is resumed from the device's saved game (`yukon.game.v1`, as a reload does) one move
before a known win; the last move is played by a gesture.
Screenshots: test-artifacts/returning-{online,offline}-{360,1366}.png.
"""

import pytest
from helpers import (
    BAR,
    READY,
    WIN,
    play_token,
    stoppable_server,  # noqa: F401 (the `server` fixture)
    wait_for_moves,
    wait_for_the_worker,
)
from playwright.sync_api import Page, expect

from games.engine import Game
from games.engine.vectors.wins import load_wins

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "device_scale_factor": 2}
CODE, LINE = load_wins()[0]


def win_the_last_move(page: Page, base_url: str) -> None:
    """The game of CODE one move before its win, kept as the device keeps it; the last move won."""
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{base_url}/help")
    before = LINE[:-1]
    saved = {
        "code": CODE, "log": before, "moveTimes": [300 * (i + 1) for i in range(len(before))],
        "elapsedMs": 300 * len(before), "resultId": None, "issued": None, "origin": "code",
        "assisted": False, "revealed": [],
    }  # fmt: skip
    page.evaluate("(saved) => localStorage.setItem('yukon.game.v1', JSON.stringify(saved))", saved)
    page.goto(f"{base_url}/play/{CODE}")
    page.wait_for_selector(READY)
    game = Game(CODE)
    for token in before:
        game.play(token)
    wait_for_moves(page, game.moves_made)
    play_token(page, game, LINE[-1])
    assert game.is_won()
    expect(page.locator(WIN)).to_be_visible()


def assert_next_game(page: Page, where: str) -> None:
    """The table offers a new game: no banner, no move made, another deal than the one won."""
    page.wait_for_selector(READY)
    bar = page.locator(BAR)
    expect(bar).to_have_attribute("data-moves", "0")
    expect(bar).not_to_have_attribute("data-code", CODE)
    expect(page.locator(WIN), f"{where}: the old win's banner is back").to_be_hidden()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1366"])
def test_back_at_the_table_after_a_win_the_next_game_waits_not_the_old_banner(
    live_server, browser, artifacts_dir, viewport
):
    context = browser.new_context(**viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    win_the_last_move(page, live_server.url)
    outbox = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.outbox.v1'))")
    assert [entry["code"] for entry in outbox] == [CODE]

    # The leaderboard, then back.
    page.goto(f"{live_server.url}/leaderboard")
    page.go_back()
    assert_next_game(page, "back from the leaderboard")
    next_code = page.locator(BAR).get_attribute("data-code")
    page.screenshot(path=artifacts_dir / f"returning-online-{viewport['viewport']['width']}.png")
    # A reload keeps the new game; the win is still in Results, sent once.
    page.reload()
    assert_next_game(page, "after a reload")
    expect(page.locator(BAR)).to_have_attribute("data-code", next_code)
    outbox = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.outbox.v1'))")
    assert [entry["code"] for entry in outbox] == [CODE]
    assert errors == []
    context.close()


@pytest.mark.browser_context_args(**DESKTOP)
def test_a_page_the_back_forward_cache_brings_back_offers_the_next_game(live_server, page: Page):
    win_the_last_move(page, live_server.url)
    # As the cache brings a page back: as it was left, the banner open.
    page.evaluate("() => dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    assert_next_game(page, "brought back by the back-forward cache")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1366"])
def test_offline_too_the_table_after_a_win_offers_the_next_game(server, browser, artifacts_dir, viewport):
    context = browser.new_context(**viewport)
    page = context.new_page()
    page.goto(f"{server.url}/")
    wait_for_the_worker(page)
    win_the_last_move(page, server.url)

    server.stop()
    assert not server.is_reachable()
    page.goto(f"{server.url}/")  # from the worker's cache
    assert_next_game(page, "offline, a new visit to /")
    page.screenshot(path=artifacts_dir / f"returning-offline-{viewport['viewport']['width']}.png")
    page.reload()
    assert_next_game(page, "offline, after a reload")
    context.close()
