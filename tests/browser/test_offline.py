"""Offline play: after one visit, the service worker alone serves the game.

The network is cut for real: each test runs its own Django server thread and stops it, so
no request can reach Django any more (Chromium's offline switch would not stop the
worker's own requests). New builds are announced and never break the game in progress.
"""

import json

import pytest
from helpers import (
    BAR,
    READY,
    assert_shows,
    open_game,
    play_token,
    stoppable_server,  # noqa: F401 (the `server` fixture)
    wait_for_moves,
    wait_for_the_worker,
    winning_game,
)
from playwright.sync_api import Page, expect

import frontend.views
from games.engine import Game

pytestmark = pytest.mark.browser


def test_after_one_visit_the_game_loads_plays_and_is_won_with_the_server_gone(server, page: Page, context):
    code, tokens = winning_game()
    game = Game(code)
    open_game(page, server.url, code)
    wait_for_the_worker(page)
    for token in tokens[:12]:
        play_token(page, game, token)
    wait_for_moves(page, game.moves_made)

    server.stop()
    assert not server.is_reachable()

    page.reload()  # from the worker's cache: the page, the scripts, the styles
    page.wait_for_selector(READY)
    assert_shows(page, game)
    for token in tokens[12:]:
        play_token(page, game, token)
        wait_for_moves(page, game.moves_made)
    assert_shows(page, game)
    expect(page.locator('[data-dialog="win"]')).to_be_visible()
    # The win waits in the outbox until there is a server to take it.
    outbox = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.outbox.v1'))")
    assert [entry["code"] for entry in outbox] == [code]

    # A share link opens its deal offline too, in a new tab: one table a browser, so the new tab
    # takes the table over from the first.
    other = context.new_page()
    other.goto(f"{server.url}/play/YU1-R-AAAAAAB")
    other.get_by_role("button", name="Play here").click()
    other.wait_for_selector(READY)
    expect(other.locator(BAR)).to_have_attribute("data-code", "YU1-R-AAAAAAB")
    assert_shows(other, Game("YU1-R-AAAAAAB"))


def test_a_new_build_is_announced_and_the_game_goes_on_after_the_reload(server, page: Page, monkeypatch):
    code = "YU1-C-AAAAAAC"
    game = Game(code)
    open_game(page, server.url, code)
    wait_for_the_worker(page)
    for token in ("AS>F", "2H>4"):
        play_token(page, game, token)
    old_caches = page.evaluate("() => caches.keys()")

    monkeypatch.setattr(frontend.views, "build", lambda: "a-newer-build")
    page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
    notice = page.locator("[data-update]")
    # Installing a build downloads its whole shell (five pages and some eighty static files)
    # before the notice can show: on a loaded machine that can take more than the 5 s default.
    expect(notice).to_be_visible(timeout=30_000)

    # The page in use keeps its build until the player chooses: the game plays on.
    play_token(page, game, "TD>5")
    wait_for_moves(page, 3)
    with page.expect_navigation():
        notice.get_by_role("button", name="Reload").click()
    page.wait_for_selector(READY)
    assert_shows(page, game)
    assert page.evaluate("() => caches.keys()") == ["yukon-shell-a-newer-build"]
    assert old_caches != ["yukon-shell-a-newer-build"]
    play_token(page, game, "2S>F")
    wait_for_moves(page, 4)


def test_the_api_and_every_write_go_straight_to_the_network(server, page: Page):
    """The worker answers pages and static files only: its static routes send the API and
    every request but a GET to the network without starting it (sw.js, NETWORK_ROUTES)."""
    devtools = page.context.new_cdp_session(page)
    versions: list[dict] = []
    devtools.on("ServiceWorker.workerVersionUpdated", lambda event: versions.extend(event["versions"]))
    devtools.send("ServiceWorker.enable")
    page.goto(f"{server.url}/")
    wait_for_the_worker(page)
    page.wait_for_timeout(200)  # the last version update on its way over the protocol

    rules = next(version["routerRules"] for version in reversed(versions) if version["status"] == "activated")
    routes = [(rule["condition"], rule["source"]) for rule in json.loads(rules)]
    assert [source for _condition, source in routes] == [["network"], ["network"]]
    assert routes[0][0]["urlPattern"]["pathname"] == "/api/*"
    assert routes[1][0] == {"not": {"request": {"method": "GET"}}}


OFFLINE_CHIP = '[data-action="connection"]'
NOTICE = "[data-notice]"


@pytest.mark.parametrize("width", [360, 1366])
def test_offline_is_said_plainly_with_what_still_works(server, browser, artifacts_dir, width):
    """The bar's Offline chip while the browser has no network, and in words what still works:
    when the connection goes, when the page opens without one, and when the chip is pressed;
    "Back online" when it returns. The chip fits the bar on a phone."""
    context = browser.new_context(viewport={"width": width, "height": 740 if width == 360 else 768})
    page = context.new_page()
    code, tokens = winning_game()
    game = Game(code)
    open_game(page, server.url, code)
    wait_for_the_worker(page)
    chip = page.locator(OFFLINE_CHIP)
    expect(chip).to_be_hidden()

    context.set_offline(True)
    expect(chip).to_be_visible()
    expect(chip).to_have_text("Offline")
    expect(page.locator(NOTICE)).to_contain_text("You are offline. This game plays on")
    play_token(page, game, tokens[0])  # the game plays on
    wait_for_moves(page, 1)
    box = chip.bounding_box()
    assert 0 <= box["x"] and box["x"] + box["width"] <= width
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=artifacts_dir / f"offline-chip-{width}.png")

    context.set_offline(False)
    expect(chip).to_be_hidden()
    expect(page.locator(NOTICE)).to_contain_text("Back online")

    # Opened without a connection (the server gone too): said at once; the chip says it again.
    server.stop()
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(READY)
    expect(chip).to_be_visible()
    expect(page.locator(NOTICE)).to_contain_text("You are offline")
    page.locator(NOTICE).evaluate("(notice) => { notice.hidden = true; }")
    chip.click()
    expect(page.locator(NOTICE)).to_contain_text("Ranked games, hints, boards and races need the connection")
    context.close()
