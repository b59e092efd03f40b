"""Challenges in Chromium (docs/races.md, "Challenges"): the form at /race creates one, the
challenger plays at once and wins by gestures, a friend in another browser opens the link, sees
no figure of the challenger, accepts and plays, then gives up; both pages show the results side
by side with places. A third player is told the challenge has its two players.

The site runs over ASGI (helpers.AsgiServer), the WebSocket included. Every game deals the known
winning deal (issue_only), so the tests know the cards the server hides.
"""

import re

import pytest
from helpers import (
    TABLE,
    asgi_server_fixture,  # noqa: F401 (the asgi_server fixture)
    dealt_as_hidden,
    issue_only,
    make_player,
    sign_in,
    winning_game,
)
from playwright.sync_api import Page, expect
from race_pages import ROOM, player_item, second_player, view_is
from test_races import DESKTOP, PHONE, TABLET, assert_fits, play_tokens

from games.engine import Game

pytestmark = pytest.mark.browser

CODE, TOKENS = winning_game()
SIZES = ((PHONE, "360"), (TABLET, "768"), (DESKTOP, "1366"))
STATUS = "[data-race-status]"
LINE = "[data-challenge-line]"
UNTIL = r".+"  # the deadline, in the page's language and the device's time zone


def watch_console(context, problems: list[str], label: str) -> None:
    """Every console error of the context's pages is a problem of the test."""
    context.on(
        "console",
        lambda message: (
            message.type == "error" and problems.append(f"{label}: console error: {message.text}")
        ),
    )


def create_challenge(page: Page, base_url: str) -> str:
    """Create a challenge through the form at /race; its id, once the challenger's table shows."""
    page.goto(f"{base_url}/race")
    form = page.locator("[data-race-form]")
    form.locator('input[name="kind"][value="challenge"]').check()
    form.locator("[data-race-create]").click()
    page.wait_for_url(f"{base_url}/race/*")
    view_is(page, "table")
    return page.locator(ROOM).get_attribute("data-race-id")


def test_the_form_offers_a_race_or_a_challenge(
    asgi_server, page: Page, context, page_problems, artifacts_dir
):
    base = asgi_server.url
    watch_console(context, page_problems, "annie")
    page.goto(f"{base}/race?kind=challenge")
    expect(
        page.locator('[data-race-signed-out] a[href="/accounts/login/?next=/race%3Fkind%3Dchallenge"]')
    ).to_be_visible()

    sign_in(context, base, make_player("annie"))
    page.goto(f"{base}/race")
    form = page.locator("[data-race-form]")
    expect(form.locator('input[name="kind"][value="race"]')).to_be_checked()
    expect(form.locator('input[name="seats"][value="2"]')).to_be_visible()
    expect(form.locator('input[name="time_limit_minutes"][value="5"]')).to_be_visible()
    expect(form.locator("[data-race-create]")).to_have_text("Create the race")
    # A challenge: two players and no time limit, so the form asks for neither.
    form.locator('input[name="kind"][value="challenge"]').check()
    expect(form.locator('input[name="seats"][value="2"]')).to_be_hidden()
    expect(form.locator('input[name="time_limit_minutes"][value="5"]')).to_be_hidden()
    expect(form.locator("[data-race-create]")).to_have_text("Create the challenge")
    expect(form.locator('[data-kind-only="challenge"]')).to_contain_text("within 48 hours")

    # ?kind=challenge (the link of other pages) picks the challenge before the script runs.
    for viewport, name in SIZES:
        page.set_viewport_size(viewport)
        page.goto(f"{base}/race?kind=challenge")
        expect(form.locator('input[name="kind"][value="challenge"]')).to_be_checked()
        expect(form.locator('input[name="seats"][value="2"]')).to_be_hidden()
        assert_fits(page)
        page.screenshot(path=str(artifacts_dir / f"challenge-form-{name}.png"), full_page=True)


def test_two_friends_play_a_challenge_to_the_results_and_a_third_is_told_it_is_full(
    asgi_server, page: Page, context, browser, page_problems, monkeypatch, artifacts_dir
):
    base = asgi_server.url
    issue_only(monkeypatch, CODE)
    annie, bob, carol = make_player("annie"), make_player("bob"), make_player("carol")
    watch_console(context, page_problems, "annie")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    sign_in(context, base, annie)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(reduced_motion="reduce")

    # Annie creates the challenge: her table at once, with the link to send.
    race_id = create_challenge(page, base)
    expect(page.locator(ROOM)).to_have_attribute("data-race-state", "running")
    expect(page.locator("#race-play-title")).to_have_text("Challenge")
    expect(page.locator(LINE)).to_have_text(
        re.compile(rf"^Send the link to a friend: they can play until {UNTIL}\.$")
    )
    page.locator('[data-race-action="copy-challenge"]').click()
    expect(page.locator("[data-notice]")).to_have_text("Link copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == f"{base}/race/{race_id}"
    page.screenshot(path=str(artifacts_dir / "challenge-table-1366.png"))

    # Bob opens the link in his own browser: who challenges him, the rules and the deadline, and
    # nothing of Annie's game.
    bob_context, bob_page = second_player(browser, base, bob, page_problems)
    watch_console(bob_context, page_problems, "bob")
    bob_page.set_viewport_size(PHONE)
    bob_page.goto(f"{base}/race/{race_id}")
    view_is(bob_page, "invite")
    expect(bob_page.locator("#race-lobby-title")).to_have_text("annie challenges you")
    expect(bob_page.locator("[data-race-summary]")).to_have_text(
        re.compile(rf"^Classic · open until {UNTIL}$")
    )
    expect(bob_page.locator("[data-challenge-about]")).to_be_visible()
    expect(bob_page.locator(STATUS)).to_have_text(
        "annie is playing: you will see both results when both are done."
    )
    expect(player_item(bob_page, "annie")).to_have_attribute("data-moves", "")
    expect(player_item(bob_page, "annie").locator(".race-figures")).to_have_count(0)
    expect(bob_page.locator('[data-race-action="join"]')).to_have_text("Accept the challenge")
    assert_fits(bob_page)
    bob_page.screenshot(path=str(artifacts_dir / "challenge-invite-360.png"), full_page=True)

    # Annie wins by gestures, then waits: until when, and the link to send.
    annie_game = Game(CODE)
    play_tokens(page, annie_game, TOKENS)
    view_is(page, "waiting")
    expect(page.locator(STATUS)).to_have_text(
        re.compile(
            rf"^You are done\. Waiting for a friend to take up the challenge until {UNTIL} at the latest"
        )
    )
    expect(page.locator("[data-race-share]")).to_be_visible()
    expect(page.locator("[data-race-link]")).to_have_value(f"{base}/race/{race_id}")
    expect(player_item(page, "annie")).to_have_attribute("data-status", "finished", timeout=20_000)
    page.screenshot(path=str(artifacts_dir / "challenge-waiting-1366.png"), full_page=True)
    # Bob is told she finished, never how.
    expect(bob_page.locator(STATUS)).to_have_text(
        "annie has finished: you will see both results when both are done.", timeout=20_000
    )
    expect(player_item(bob_page, "annie")).to_have_attribute("data-moves", "")

    # Carol has the link too; once Bob accepts, her page says the challenge has its two players.
    carol_context, carol_page = second_player(browser, base, carol, page_problems)
    watch_console(carol_context, page_problems, "carol")
    carol_page.set_viewport_size(TABLET)
    carol_page.goto(f"{base}/race/{race_id}")
    view_is(carol_page, "invite")
    expect(carol_page.locator('[data-race-action="join"]')).to_be_visible()

    # Bob accepts: his own table of the same deal at once, with one line about Annie.
    bob_page.locator('[data-race-action="join"]').click()
    view_is(bob_page, "table")
    expect(bob_page.locator(LINE)).to_have_text(
        "annie has finished: you will see both results when both are done."
    )
    expect(bob_page.locator("[data-race-opponents] > *")).to_have_count(0)
    expect(bob_page.locator('[data-race-action="copy-challenge"]')).to_be_hidden()
    expect(page.locator(STATUS)).to_have_text(
        re.compile(
            rf"^You are done\. Waiting for bob until {UNTIL} at the latest: then you will see both results\.$"
        )
    )
    expect(page.locator("[data-race-share]")).to_be_hidden()
    expect(carol_page.locator(STATUS)).to_have_text(
        "This challenge has its two players: the results show here when both are done."
    )
    expect(carol_page.locator("#race-lobby-title")).to_have_text("Challenge")
    expect(carol_page.locator('[data-race-action="join"]')).to_be_hidden()
    assert_fits(carol_page)
    carol_page.screenshot(path=str(artifacts_dir / "challenge-full-768.png"), full_page=True)

    # Bob plays a few moves: Annie's page shows none of his figures.
    bob_game = Game(CODE)
    play_tokens(bob_page, bob_game, TOKENS[:12])  # a real game (docs/races.md: at least 10 moves)
    expect(bob_page.locator(TABLE)).not_to_have_attribute("data-turning", "true")  # no reveal crosses Leave
    assert_fits(bob_page)
    bob_page.screenshot(path=str(artifacts_dir / "challenge-table-360.png"))
    expect(player_item(page, "bob")).to_have_attribute("data-status", "playing")
    expect(player_item(page, "bob")).to_have_attribute("data-moves", "")

    # Bob gives up: both are done, and every page shows the results side by side.
    bob_page.locator('[data-race-action="leave-race"]').click()
    dialog = bob_page.locator('[data-dialog="confirm"]')
    expect(dialog.locator("[data-confirm-title]")).to_have_text("Give up the challenge?")
    expect(dialog.locator('[data-close="stay"]')).to_have_text("Keep playing")
    dialog.locator('[data-close="leave"]').click()
    for each in (page, bob_page, carol_page):
        view_is(each, "results", timeout=20_000)
    for each in (page, bob_page):
        rows = each.locator("[data-race-places] tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_have_attribute("data-result-player", "annie")
        expect(rows.nth(0)).to_have_attribute("data-place", "1")
        expect(rows.nth(1)).to_have_attribute("data-result-player", "bob")
        expect(rows.nth(1)).to_have_attribute("data-place", "2")
        for name in ("annie", "bob"):
            expect(each.locator(f'[data-result-player="{name}"]')).to_have_attribute(
                "data-result", "verified", timeout=20_000
            )
        expect(each.locator("[data-race-places-note]")).to_have_text("Places are final.", timeout=20_000)
        expect(each.locator("[data-race-results-summary]")).to_have_text("Classic · challenge")
        expect(each.locator("[data-race-code]")).to_have_text(dealt_as_hidden(CODE))
        expect(each.locator("[data-race-check]")).to_have_attribute("data-state", "fair")
        expect(each.locator("[data-race-new]")).to_have_attribute("href", "/race?kind=challenge")
    expect(page.locator('[data-result-player="annie"] td.moves')).to_have_text(str(annie_game.moves_made))
    expect(page.locator('[data-result-player="bob"] td.moves')).to_have_text(str(bob_game.moves_made))
    # The new rating beside its change: "1,583 (+83)".
    expect(page.locator('[data-result-player="annie"] td.rating')).to_have_text(
        re.compile(r"^[\d,]+ \(\+\d+\)$")
    )
    page.screenshot(path=str(artifacts_dir / "challenge-results-1366.png"), full_page=True)
    bob_page.screenshot(path=str(artifacts_dir / "challenge-results-360.png"), full_page=True)
    assert_fits(bob_page)

    # A rematch is a new challenge by the one who asks: Annie plays at once, Bob's page follows
    # the link to the invitation.
    page.locator('[data-race-action="rematch"]').click()
    page.wait_for_url(lambda url: f"/race/{race_id}" not in url and "/race/" in url)
    view_is(page, "table")
    new_id = page.locator(ROOM).get_attribute("data-race-id")
    bob_page.wait_for_url(f"{base}/race/{new_id}")
    view_is(bob_page, "invite")
    expect(bob_page.locator("#race-lobby-title")).to_have_text("annie challenges you")
    carol_context.close()
    bob_context.close()
