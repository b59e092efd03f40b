"""Quick match in Chromium (docs/races.md, "Quick match"): two players who press "Find an opponent"
in two browsers meet in one race (its countdown, then each their table); a player alone waits,
sees how long and within which rating window, and Cancel (or leaving the page) takes the ticket
out of the queue; after the wait the page offers an asynchronous match, a challenge played at
once that the next player's quick match takes up.

The site runs over ASGI (helpers.AsgiServer), the WebSocket included, in this process: the test
reads the queue's rows (races.models.QuickMatchTicket) from the same database.
"""

import re
import time

import pytest
from helpers import (
    BAR,
    asgi_server_fixture,  # noqa: F401 (the asgi_server fixture)
    issue_only,
    make_player,
    pause,
    sign_in,
    winning_game,
)
from playwright.sync_api import Page, expect
from race_pages import ROOM, opponent, second_player, view_is
from test_challenges import watch_console
from test_races import DESKTOP, PHONE, TABLET, assert_fits, play_tokens

from games.engine import Game

pytestmark = pytest.mark.browser

CODE, TOKENS = winning_game()
SIZES = ((PHONE, "360"), (TABLET, "768"), (DESKTOP, "1366"))
QUICK = "[data-quick-match]"
STATUS = "[data-quick-status]"
WAITED = "[data-quick-waited]"
OFFER = "[data-quick-offer]"
RACE_URL = re.compile(r"/race/[\w-]+$")
LOOKING = re.compile(r"^Looking for a player rated within ±\d+ of you…$")


def find_an_opponent(page: Page, base_url: str, rules: str = "classic") -> None:
    """Open /race, pick the rule set of quick match and press "Find an opponent"."""
    page.goto(f"{base_url}/race")
    quick = page.locator(QUICK)
    quick.locator(f'input[name="quick_rules"][value="{rules}"]').check()
    quick.locator("[data-quick-find]").click()


def expect_dealt(page: Page) -> None:
    """The seat's table shows its deal (the table's view comes a moment before its cards)."""
    expect(page.locator('[data-column="1"] [data-card]')).to_have_count(1)


def tickets(user, **filters) -> list:
    from races.models import QuickMatchTicket

    return list(QuickMatchTicket.objects.filter(user=user, **filters))


def wait_for_tickets(page: Page, user, count: int, timeout: float = 15.0, **filters) -> list:
    """The player's tickets once there are `count` of them (the page's asks reach the server).
    Between looks, `pause`, never time.sleep (why: helpers.pause): asleep, this held the page's
    ask, or its leave, until the wait ran out."""
    deadline = time.monotonic() + timeout
    while len(found := tickets(user, **filters)) != count:
        assert time.monotonic() < deadline, f"{user.username}: {len(found)} tickets, not {count}"
        pause(page, 0.2)
    return found


def test_the_forms_take_no_press_before_their_script_handles_them(
    asgi_server, page: Page, context, page_problems
):
    # The page's modules wait for the words of its language (i18n.js, a top-level await): the
    # page has loaded before its script handles the forms. A press in that moment used to send
    # the form to the server (a reload of /race with the form's fields), and the press was lost.
    base = asgi_server.url
    annie = make_player("annie")
    watch_console(context, page_problems, "annie")
    sign_in(context, base, annie)
    held = []
    page.route("**/i18n/*.json", lambda route: held.append(route))  # on its way, as on a slow line
    page.goto(f"{base}/race")
    deadline = time.monotonic() + 10  # the held request may reach this thread after the load
    while not held:
        assert time.monotonic() < deadline, "the page asks for its catalog before its script runs"
        pause(page, 0.05)
    buttons = [page.locator("[data-race-create]"), page.locator("[data-quick-find]")]
    for button in buttons:
        expect(button).to_be_disabled()
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.locator("[data-quick-find]").click(force=True)  # pressed anyway, as soon as it shows
    page.wait_for_timeout(500)
    assert navigations == [] and page.url == f"{base}/race"

    for route in held:
        route.continue_()
    for button in buttons:
        expect(button).to_be_enabled()
    page.locator("[data-quick-find]").click()
    expect(page.locator(QUICK)).to_have_attribute("data-quick-state", "waiting")
    wait_for_tickets(page, annie, 1, rules="classic")
    assert navigations == []


def test_two_players_who_ask_for_a_quick_match_meet_in_one_race(
    asgi_server, page: Page, context, browser, page_problems, monkeypatch, settings, artifacts_dir
):
    # The first to ask learns of the match at its next ask (≤ 2.5 s later): a countdown long
    # enough for both pages to see it, even when a slow machine takes seconds to open them (7 s
    # once ran out before they had).
    settings.RACE_COUNTDOWN_SECONDS = 14
    issue_only(monkeypatch, CODE)
    base = asgi_server.url
    annie, bob = make_player("annie"), make_player("bob")
    watch_console(context, page_problems, "annie")
    sign_in(context, base, annie)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(reduced_motion="reduce")

    find_an_opponent(page, base)
    expect(page.locator(STATUS)).to_have_text(LOOKING)
    wait_for_tickets(page, annie, 1, rules="classic")

    bob_context, bob_page = second_player(browser, base, bob, page_problems)
    watch_console(bob_context, page_problems, "bob")
    bob_page.set_viewport_size(PHONE)
    find_an_opponent(bob_page, base)

    # Both pages open the same race: its countdown, then each player's own table.
    for each in (bob_page, page):
        each.wait_for_url(RACE_URL, timeout=30_000)  # a busy machine: not a speed check
    race_id = page.locator(ROOM).get_attribute("data-race-id")
    assert bob_page.url == page.url == f"{base}/race/{race_id}"
    for each in (page, bob_page):
        expect(each.locator(ROOM)).to_have_attribute("data-race-state", "countdown")
        expect(each.locator("[data-race-countdown]")).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "quick-match-countdown-1366.png"))
    for each in (page, bob_page):
        view_is(each, "table", timeout=20_000)  # the countdown's end
        expect(each.locator(BAR)).to_have_attribute("data-moves", "0")
    assert tickets(annie) == [] and tickets(bob) == []  # nobody waits any more

    # A real race: Annie's moves by gestures reach Bob's page as figures.
    annie_game = Game(CODE)
    expect_dealt(page)
    play_tokens(page, annie_game, TOKENS[:2])
    expect(opponent(bob_page, "annie")).to_have_attribute("data-moves", str(annie_game.moves_made))
    bob_page.screenshot(path=str(artifacts_dir / "quick-match-table-360.png"))
    bob_context.close()


def test_a_player_alone_waits_then_cancel_or_leaving_the_page_leaves_the_queue(
    asgi_server, page: Page, context, page_problems, artifacts_dir
):
    base = asgi_server.url
    annie = make_player("annie")
    watch_console(context, page_problems, "annie")
    sign_in(context, base, annie)
    page.emulate_media(reduced_motion="reduce")

    page.set_viewport_size(DESKTOP)
    find_an_opponent(page, base, "relaxed")
    quick = page.locator(QUICK)
    expect(quick).to_have_attribute("data-quick-state", "waiting")
    expect(page.locator(STATUS)).to_have_text(LOOKING)
    expect(page.locator(WAITED)).to_have_text(re.compile(r"^Time waited: 0:0\d$"))
    expect(quick.locator("[data-quick-find]")).to_be_hidden()
    (ticket,) = wait_for_tickets(page, annie, 1, rules="relaxed")
    assert ticket.race_id is None and ticket.challenge_id is None
    # Each ask keeps the ticket and widens the window (100 points + 10 a second).
    expect(page.locator(STATUS)).not_to_have_text("Looking for a player rated within ±100 of you…")
    expect(page.locator(OFFER)).to_be_hidden()  # 30 s before an asynchronous match is offered
    for viewport, name in SIZES:
        page.set_viewport_size(viewport)
        assert_fits(page)
        page.screenshot(path=str(artifacts_dir / f"quick-match-waiting-{name}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)

    quick.locator("[data-quick-cancel]").click()
    expect(quick).to_have_attribute("data-quick-state", "idle")
    expect(quick.locator("[data-quick-find]")).to_be_visible()
    expect(quick.locator("[data-quick-find]")).to_be_focused()
    wait_for_tickets(page, annie, 0)

    # Waiting again, then away to another page: the page takes its ticket out on its way.
    find_an_opponent(page, base)
    wait_for_tickets(page, annie, 1, rules="classic")
    page.goto(f"{base}/leaderboard")
    wait_for_tickets(page, annie, 0)  # the leave, sent as the page goes


def test_the_asynchronous_match_is_offered_after_the_wait_and_the_next_player_takes_it_up(
    asgi_server, page: Page, context, browser, page_problems, monkeypatch, artifacts_dir
):
    import races.matching

    # The page offers the asynchronous match when the server's answer says it may
    # (`asynchronous_after_seconds`, 30 s): the server runs in this process, so its answer says
    # 3 s here, and the page is left as it ships.
    monkeypatch.setattr(races.matching, "ASYNCHRONOUS_AFTER_SECONDS", 3)
    issue_only(monkeypatch, CODE)
    base = asgi_server.url
    annie, bob = make_player("annie"), make_player("bob")
    watch_console(context, page_problems, "annie")
    sign_in(context, base, annie)
    page.set_viewport_size(PHONE)
    page.emulate_media(reduced_motion="reduce")

    find_an_opponent(page, base)
    expect(page.locator(STATUS)).to_have_text(LOOKING)
    offer = page.locator(OFFER)
    expect(offer).to_be_hidden()
    expect(offer).to_be_visible(timeout=10_000)
    expect(offer).to_contain_text(
        "Nobody close yet: play now and let the next player take on your result (an asynchronous match)."
    )
    assert_fits(page)
    page.screenshot(path=str(artifacts_dir / "quick-match-offer-360.png"), full_page=True)

    # Play now: a challenge of Annie's, her table at once, offered to the queue.
    offer.locator("[data-quick-async]").click()
    page.wait_for_url(RACE_URL)
    view_is(page, "table")
    expect(page.locator("#race-play-title")).to_have_text("Challenge")
    race_id = page.locator(ROOM).get_attribute("data-race-id")
    (ticket,) = wait_for_tickets(page, annie, 1, rules="classic")
    assert ticket.challenge.public_id == race_id
    annie_game = Game(CODE)
    expect_dealt(page)
    play_tokens(page, annie_game, TOKENS[:2])

    # Bob's quick match takes up Annie's challenge: his own table of it at once.
    bob_context, bob_page = second_player(browser, base, bob, page_problems)
    watch_console(bob_context, page_problems, "bob")
    bob_page.set_viewport_size(DESKTOP)
    find_an_opponent(bob_page, base)
    bob_page.wait_for_url(f"{base}/race/{race_id}", timeout=30_000)  # a busy machine: not a speed check
    view_is(bob_page, "table")
    expect(bob_page.locator(BAR)).to_have_attribute("data-moves", "0")
    expect_dealt(bob_page)
    expect(bob_page.locator("#race-play-title")).to_have_text("Challenge")
    bob_page.screenshot(path=str(artifacts_dir / "quick-match-challenge-taken-1366.png"))
    assert tickets(annie) == [] and tickets(bob) == []
    bob_context.close()
