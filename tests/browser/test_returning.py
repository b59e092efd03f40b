"""The returning player: a win's banner is shown once, when the game is won; coming back to the
table (back from another page, a reload, a later visit, online or offline) finds the next game;
and two tabs never split one game.

The game is resumed from the device's saved game (`yukon.game.v1`, as a reload does) one move
before a known win; the last move is played by a gesture.
Screenshots: test-artifacts/returning-{online,offline}-{360,1366}.png.
"""

import pytest
from helpers import (
    BAR,
    READY,
    WIN,
    open_game,
    play_token,
    resume_saved,
    stoppable_server,  # noqa: F401 (the `server` fixture)
    wait_for_moves,
    wait_for_the_worker,
    winning_game,
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
    before = LINE[:-1]
    resume_saved(page, base_url, CODE, before)
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


ELSEWHERE = '[data-dialog="elsewhere"]'


def play_on(page: Page, game: Game, tokens: list[str]) -> None:
    for token in tokens:
        play_token(page, game, token)
        wait_for_moves(page, game.moves_made)


@pytest.mark.browser_context_args(**DESKTOP)
def test_two_tabs_never_split_a_game_the_second_offers_to_take_it_over(live_server, context, page: Page):
    """Tab 1 plays 3 moves; tab 2 opens the table: it says the game is open in another tab and
    plays nothing until taken over; taken, it goes on from move 3 and tab 1 says the same; tab 1
    taken back goes on from where tab 2 left it. After reloads, both hold one game."""
    code, tokens = winning_game()
    game = Game(code)
    open_game(page, live_server.url, code)
    play_on(page, game, tokens[:3])

    second = context.new_page()
    second.emulate_media(reduced_motion="reduce")
    second.goto(f"{live_server.url}/")
    dialog = second.locator(ELSEWHERE)
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("This game is open in another tab")
    expect(second.locator("[data-app-status]")).to_have_attribute("data-app-status", "elsewhere")
    second.keyboard.press("Escape")  # no way round it to a table that would split the game
    expect(dialog).to_be_visible()

    dialog.get_by_role("button", name="Play here").click()
    second.wait_for_selector(READY)
    expect(dialog).to_be_hidden()
    wait_for_moves(second, 3)
    # The first tab lost the table: it reloads and says so, its 3 moves kept.
    expect(page.locator(ELSEWHERE)).to_be_visible()
    play_on(second, game, tokens[3:6])

    page.locator(ELSEWHERE).get_by_role("button", name="Play here").click()
    page.wait_for_selector(READY)
    wait_for_moves(page, 6)
    expect(page.locator(BAR)).to_have_attribute("data-code", code)
    expect(second.locator(ELSEWHERE)).to_be_visible()
    play_on(page, game, tokens[6:11])
    page.reload()
    page.wait_for_selector(READY)
    wait_for_moves(page, 11)
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.game.v1'))")
    assert saved["code"] == code and saved["log"] == tokens[:11]
