"""Races in Chromium (docs/races.md): the form that creates one, the lobby with two players in two
browsers, the countdown, each table played by gestures while the other player's figures follow,
and the results with each verdict, the deal's check and the rematch.

The site runs over ASGI (helpers.AsgiServer: Daphne in a thread), the WebSocket included. Every
race deals the known winning deal (issue_only), so the tests know the cards the server hides.
"""

import re

import pytest
from helpers import (
    BAR,
    asgi_server_fixture,  # noqa: F401 (the asgi_server fixture)
    dealt_as_hidden,
    issue_only,
    make_player,
    sign_in,
    winning_game,
)
from playwright.sync_api import Page, expect
from race_pages import (
    ROOM,
    create_race,
    finished_race,
    opponent,
    play_tokens,
    player_item,
    second_player,
    view_is,
)

from games.engine import Game

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("short_race_countdown")]

CODE, TOKENS = winning_game()
DESKTOP = {"width": 1366, "height": 768}
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 360, "height": 740}


def test_the_form_creates_a_race_and_a_signed_out_visitor_is_asked_to_sign_in(
    asgi_server, page: Page, context, artifacts_dir
):
    base = asgi_server.url
    page.goto(f"{base}/race")
    prompt = page.locator("[data-race-signed-out]")
    expect(prompt).to_be_visible()
    expect(prompt.locator('a[href="/accounts/login/?next=/race"]')).to_be_visible()

    annie = make_player("annie")
    sign_in(context, base, annie)
    for viewport, name in ((PHONE, "360"), (TABLET, "768"), (DESKTOP, "1366")):
        page.set_viewport_size(viewport)
        page.goto(f"{base}/race")
        expect(page.locator("[data-race-form]")).to_be_visible()
        assert_fits(page)
        page.screenshot(path=str(artifacts_dir / f"race-form-{name}.png"), full_page=True)

    race_id = create_race(page, base, rules="relaxed", seats=3, minutes="10")
    room = page.locator(ROOM)
    expect(room).to_have_attribute("data-race-state", "lobby")
    expect(page.locator("[data-race-summary]")).to_have_text("Relaxed · 10-minute limit")
    me = player_item(page, "annie")
    expect(me).to_have_attribute("data-host", "true")
    expect(me).to_have_attribute("data-you", "true")
    expect(page.locator("[data-race-seats-free]")).to_have_text("2 seats free")
    expect(page.locator("[data-race-link]")).to_have_value(f"{base}/race/{race_id}")
    expect(page.locator("[data-race-grace]")).to_have_text(
        "A player away from the race for more than 60 seconds is out."
    )
    # One player may not start a race alone; the host may leave the lobby.
    expect(page.locator('[data-race-action="start"]')).to_be_hidden()
    expect(page.locator('[data-race-action="leave"]')).to_be_visible()
    for viewport, name in ((PHONE, "360"), (TABLET, "768"), (DESKTOP, "1366")):
        page.set_viewport_size(viewport)
        assert_fits(page)
        page.screenshot(path=str(artifacts_dir / f"race-lobby-{name}.png"), full_page=True)

    # Signed out, the lobby shows who is in and asks the visitor to sign in to join.
    context.clear_cookies()
    page.goto(f"{base}/race/{race_id}")
    view_is(page, "lobby")
    expect(player_item(page, "annie")).to_be_visible()
    expect(page.locator("[data-race-sign-in]")).to_have_attribute(
        "href", f"/accounts/login/?next=%2Frace%2F{race_id}"
    )
    expect(page.locator('[data-race-action="join"]')).to_be_hidden()

    page.goto(f"{base}/race/nothing")
    view_is(page, "missing")


def assert_fits(page: Page) -> None:
    """Nothing sticks out sideways: the page is no wider than the screen."""
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    wide = page.evaluate(
        """() => [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right >
            document.documentElement.clientWidth + 1).slice(0, 5).map((e) => e.outerHTML.slice(0, 120))"""
    )
    assert overflow <= 0, f"the page is {overflow} px wider than the screen: {wide}"


def test_two_players_race_from_the_lobby_to_the_results_and_a_rematch(
    asgi_server, page: Page, context, browser, page_problems, monkeypatch, artifacts_dir
):
    base = asgi_server.url
    issue_only(monkeypatch, CODE)
    annie, bob = make_player("annie"), make_player("bob")
    sign_in(context, base, annie)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(reduced_motion="reduce")
    race_id = create_race(page, base, seats=3)

    # Bob opens the link in his own browser and joins; each page sees the other player.
    bob_context, bob_page = second_player(browser, base, bob, page_problems)
    bob_page.set_viewport_size(PHONE)
    bob_page.goto(f"{base}/race/{race_id}")
    view_is(bob_page, "lobby")
    expect(bob_page.locator('[data-race-action="start"]')).to_be_hidden()
    bob_page.locator('[data-race-action="join"]').click()
    expect(player_item(bob_page, "bob")).to_have_attribute("data-you", "true")
    expect(player_item(page, "bob")).to_be_visible()
    expect(player_item(page, "bob")).to_have_attribute("data-connected", "true")
    expect(bob_page.locator("[data-race-status]")).to_have_text("Waiting for annie to start the race.")
    expect(page.locator("[data-race-seats-free]")).to_have_text("1 seat free")

    # Two players in: the host starts. A countdown on both pages, then each player's own table.
    page.locator('[data-race-action="start"]').click()
    for each in (page, bob_page):
        expect(each.locator(ROOM)).to_have_attribute("data-race-state", "countdown")
        expect(each.locator("[data-race-countdown]")).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "race-countdown-1366.png"))
    for each in (page, bob_page):
        view_is(each, "table")
        expect(each.locator(BAR)).to_have_attribute("data-moves", "0")
        # The cards show their suits: the pips refer to the page's suit symbols.
        expect(each.locator("svg.sprite symbol")).to_have_count(4)
    annie_game, bob_game = Game(CODE), Game(CODE)
    expect(opponent(page, "bob")).to_have_attribute("data-moves", "0")
    expect(opponent(bob_page, "annie")).to_have_attribute("data-moves", "0")

    # Moves made by gestures: the other page shows the figures the server replayed.
    play_tokens(page, annie_game, TOKENS[:3])
    expect(opponent(bob_page, "annie")).to_have_attribute("data-moves", str(annie_game.moves_made))
    expect(opponent(bob_page, "annie")).to_have_attribute(
        "data-foundation-cards", str(sum(annie_game.foundations))
    )
    play_tokens(bob_page, bob_game, TOKENS[:5])
    expect(opponent(page, "bob")).to_have_attribute("data-moves", str(bob_game.moves_made))
    expect(opponent(page, "bob")).to_have_attribute("data-foundation-cards", str(sum(bob_game.foundations)))
    assert int(opponent(page, "bob").get_attribute("data-time-ms")) > 0
    page.screenshot(path=str(artifacts_dir / "race-table-1366.png"))
    page.set_viewport_size(TABLET)
    assert_fits(page)
    page.screenshot(path=str(artifacts_dir / "race-table-768.png"))
    page.set_viewport_size(DESKTOP)
    bob_page.screenshot(path=str(artifacts_dir / "race-table-360.png"))
    assert_fits(bob_page)

    # Annie wins; Bob leaves the race: it is over, and both pages show the results.
    play_tokens(page, annie_game, TOKENS[3:])
    expect(page.locator("[data-race-note]")).to_have_text("You finished: waiting for the others.")
    expect(opponent(bob_page, "annie")).to_have_attribute("data-status", "finished")
    bob_page.locator('[data-race-action="leave-race"]').click()
    bob_page.locator('[data-dialog="confirm"] [data-close="leave"]').click()
    for each in (page, bob_page):
        view_is(each, "results", timeout=20_000)
    first, second = page.locator("[data-race-places] tr").all()
    expect(first).to_have_attribute("data-result-player", "annie")
    expect(first).to_have_attribute("data-place", "1")
    expect(second).to_have_attribute("data-result-player", "bob")
    for each in (page, bob_page):
        expect(each.locator('[data-result-player="annie"]')).to_have_attribute(
            "data-result", "verified", timeout=20_000
        )
        expect(each.locator('[data-result-player="bob"]')).to_have_attribute(
            "data-result", "verified", timeout=20_000
        )
        expect(each.locator("[data-race-places-note]")).to_have_text("Places are final.", timeout=20_000)
        expect(each.locator("[data-race-code]")).to_have_text(dealt_as_hidden(CODE))
        expect(each.locator("[data-race-check]")).to_have_attribute("data-state", "fair")
    expect(page.locator('[data-result-player="annie"] td.watch a')).to_have_attribute(
        "href", re.compile(r"^/replay/\d+$")
    )
    page.screenshot(path=str(artifacts_dir / "race-results-1366.png"), full_page=True)
    bob_page.screenshot(path=str(artifacts_dir / "race-results-360.png"), full_page=True)
    assert_fits(bob_page)

    # A rematch: its host alone in the new race's lobby; Bob's results offer it to him.
    page.locator('[data-race-action="rematch"]').click()
    page.wait_for_url(lambda url: f"/race/{race_id}" not in url and "/race/" in url)
    view_is(page, "lobby")
    expect(player_item(page, "annie")).to_have_attribute("data-host", "true")
    expect(bob_page.locator("[data-race-rematch-offer]")).to_be_visible()
    bob_context.close()


def test_a_rematch_seats_the_players_who_accept_it_and_starts_when_every_seat_is_taken(
    asgi_server, page: Page, context, browser, page_problems, artifacts_dir
):
    base = asgi_server.url
    annie, bob = make_player("annie"), make_player("bob")
    race_id = finished_race([annie, bob], CODE, TOKENS).public_id
    sign_in(context, base, annie)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{base}/race/{race_id}")
    view_is(page, "results")
    bob_context, bob_page = second_player(browser, base, bob, page_problems)
    bob_page.set_viewport_size(PHONE)
    bob_page.goto(f"{base}/race/{race_id}")
    view_is(bob_page, "results")
    offer = bob_page.locator("[data-race-rematch-offer]")
    expect(offer).to_be_hidden()

    # Annie asks for a rematch: a new lobby with Annie alone in it, one seat free; nobody else
    # is seated for them, and Bob stays on his results, where the rematch is offered.
    page.locator('[data-race-action="rematch"]').click()
    page.wait_for_url(lambda url: f"/race/{race_id}" not in url and "/race/" in url)
    new_id = page.locator(ROOM).get_attribute("data-race-id")
    view_is(page, "lobby")
    expect(page.locator("[data-race-players] [data-player]")).to_have_count(1)
    expect(player_item(page, "annie")).to_have_attribute("data-host", "true")
    expect(page.locator("[data-race-seats-free]")).to_have_text("1 seat free")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("annie offers a rematch.")
    assert bob_page.url == f"{base}/race/{race_id}"
    bob_page.screenshot(path=str(artifacts_dir / "race-rematch-offer-360.png"), full_page=True)
    assert_fits(bob_page)

    # Bob accepts: he takes the last seat through the join, which starts the race by itself,
    # as the lobby says; nobody presses Start.
    bob_page.locator('[data-race-action="rematch-accept"]').click()
    bob_page.wait_for_url(f"{base}/race/{new_id}")
    for each in (page, bob_page):
        expect(each.locator(ROOM)).to_have_attribute("data-race-state", re.compile("countdown|running"))
    # Both seated: at the table, each has the other among the other players. (The lobby's list,
    # where Bob is during the countdown, is gone once it ends: on a slow machine, before a look.)
    for each, other in ((page, "bob"), (bob_page, "annie")):
        view_is(each, "table")
        expect(each.locator(f'[data-race-opponents] [data-opponent="{other}"]')).to_be_visible()
    bob_context.close()


def test_a_player_declines_a_rematch_from_the_results(
    asgi_server, page: Page, context, browser, page_problems
):
    base = asgi_server.url
    annie, bob = make_player("annie"), make_player("bob")
    race_id = finished_race([annie, bob], CODE, TOKENS).public_id
    sign_in(context, base, bob)
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/race/{race_id}")
    view_is(page, "results")
    annie_context, annie_page = second_player(browser, base, annie, page_problems)
    annie_page.goto(f"{base}/race/{race_id}")
    view_is(annie_page, "results")
    annie_page.locator('[data-race-action="rematch"]').click()
    annie_page.wait_for_url(lambda url: f"/race/{race_id}" not in url and "/race/" in url)

    offer = page.locator("[data-race-rematch-offer]")
    expect(offer).to_be_visible()
    page.locator('[data-race-action="rematch-decline"]').click()
    expect(page.locator('[data-race-action="rematch-accept"]')).to_be_hidden()
    expect(offer).to_contain_text("You declined the rematch.")
    # Read again, the page still knows: the offer stays declined.
    page.reload()
    view_is(page, "results")
    expect(offer).to_contain_text("You declined the rematch.")
    expect(page.locator('[data-race-action="rematch"]')).to_be_hidden()
    annie_context.close()
