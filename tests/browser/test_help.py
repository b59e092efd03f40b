"""Help in Chromium: the /help page (its headings, its rule per refusal, offline), the link from
a refused move to its rule, and the first-game walkthrough (offered once, completed, skipped,
started again from Help).
"""

import re

import pytest
from helpers import (
    READY,
    card_point,
    column_point,
    open_game,
    stoppable_server,  # noqa: F401 (the `server` fixture)
    tap_card,
    tap_column,
    wait_for_moves,
    wait_for_the_worker,
    walkthrough_move,
)
from playwright.sync_api import Page, expect

from games.engine import REFUSAL_CODES, Game, Move, card_label

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "device_scale_factor": 2}
NOTICE = "[data-notice]"
TOUR = "[data-tour]"
OFFER = "[data-tour-offer]"
WALKTHROUGH_CODE = "YU1-C-AAAAABR"
WALKTHROUGH_MOVES = ["AH>F", "TD>4", "KC>1", "QH>1", "9D>5", "AC>F"]


def headings(page: Page) -> list[tuple[str, str]]:
    return page.evaluate(
        """() => [...document.querySelectorAll("main h1, main h2, main h3")]
            .map((h) => [h.tagName, h.textContent.trim()])"""
    )


def in_view(page: Page, selector: str) -> bool:
    return page.locator(selector).evaluate(
        "(e) => { const r = e.getBoundingClientRect(); return r.top >= -1 && r.top < innerHeight; }"
    )


@pytest.mark.browser_context_args(**PHONE)
def test_the_help_page_reads_on_a_phone_with_a_section_per_refusal(live_server, page: Page, artifacts_dir):
    page.goto(f"{live_server.url}/help")
    # Headings screen readers can walk: one h1, then sections (h2) and rules (h3).
    found = headings(page)
    assert [level for level, _ in found].count("H1") == 1 and found[0] == ["H1", "How to play Yukon"]
    titles = [text for _, text in found]
    sections = ("Moves", "Scores", "Game codes", "The daily deal", "What the server checks", "Strategy tips")
    assert set(sections) <= set(titles)
    assert "Is every deal winnable?" in titles
    for code in REFUSAL_CODES:
        expect(page.locator(f"#rule-{code}")).to_have_count(1)
    # The examples are drawn with the table's cards, by the page itself: no image is loaded.
    assert page.locator(".example .card").count() > 20
    assert page.evaluate("() => document.images.length") == 0
    # The worked examples are the engine's arithmetic.
    expect(page.locator("#ranked-score")).to_contain_text("100 × 52 + 2,000 − 112 = 7,088")
    expect(page.locator("#points")).to_contain_text("= 625 points")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=artifacts_dir / "help-phone.png")
    page.locator("#groups").scroll_into_view_if_needed()
    page.screenshot(path=artifacts_dir / "help-phone-example.png")


def test_a_refused_move_links_to_its_rule(live_server, page: Page):
    game = Game(WALKTHROUGH_CODE)
    open_game(page, live_server.url, WALKTHROUGH_CODE)
    tap_card(page, "AH")  # the last card of column 1 goes home: column 1 is empty
    game.push(Move.parse("AH>F"))
    wait_for_moves(page, 1)
    assert game.check_move(Move.parse("TD>1").card, 0) == "empty_needs_king"
    tap_card(page, "TD")
    tap_column(page, 1)
    link = page.locator(f"{NOTICE} a[data-rule-link]")
    expect(link).to_have_text("An empty column takes only a King.")
    expect(link).to_have_attribute("href", "/help#rule-empty_needs_king")
    link.click()
    expect(page).to_have_url(re.compile(r"/help#rule-empty_needs_king$"))
    expect(page.locator("#rule-empty_needs_king h3")).to_have_text("An empty column takes only a King")
    page.wait_for_function("() => document.querySelector(':target')?.id === 'rule-empty_needs_king'")
    assert in_view(page, "#rule-empty_needs_king h3")
    # Back to the game: it is where it was.
    page.go_back()
    page.wait_for_selector(READY)
    expect(page.locator("[data-bar]")).to_have_attribute("data-moves", "1")


def test_the_help_page_loads_offline_after_one_visit(server, page: Page):
    open_game(page, server.url, "YU1-C-AAAAAAC")
    wait_for_the_worker(page)
    server.stop()
    assert not server.is_reachable()
    page.goto(f"{server.url}/help#rule-wrong_colour")
    expect(page.locator("h1")).to_have_text("How to play Yukon")
    expect(page.locator("#rule-wrong_colour h3")).to_be_visible()
    # Its styles came from the cache too: the drawn cards have the table's size and look.
    width = page.locator(".example .card").first.evaluate("(card) => card.getBoundingClientRect().width")
    assert 40 <= width <= 50
    page.goto(f"{server.url}/")  # and the game, from Help's link
    page.wait_for_selector(READY)


# --- the walkthrough ---------------------------------------------------------------------------


def step_text(page: Page) -> str:
    return page.locator("[data-tour-text]").text_content()


def test_the_walkthrough_is_offered_once_and_can_be_completed(live_server, page: Page, artifacts_dir):
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    expect(page.locator(OFFER)).to_be_visible()
    page.locator(OFFER).get_by_role("button", name="Take the tour").click()
    expect(page.locator("[data-bar]")).to_have_attribute("data-code", WALKTHROUGH_CODE)
    game = Game(WALKTHROUGH_CODE)
    for number, token in enumerate(WALKTHROUGH_MOVES, start=1):
        move = Move.parse(token)
        expect(page.locator(TOUR)).to_have_attribute("data-step", str(number))
        progress = f"Step {number} of {len(WALKTHROUGH_MOVES)}"
        expect(page.locator("[data-tour-progress]")).to_have_text(progress)
        # The suggested card is lit, and so is where it goes; the sentence names it.
        expect(page.locator('[data-tour-mark="from"]')).to_have_attribute("data-card", token.split(">")[0])
        target = page.locator('[data-tour-mark="to"]')
        if move.dest == 7:
            expect(target).to_have_attribute("data-foundation", "SHDC"[move.card // 13])
        else:
            expect(target).to_have_attribute("data-column", str(move.dest + 1))
        assert card_label(move.card) in step_text(page)
        if number == 2:
            page.screenshot(path=artifacts_dir / "walkthrough-desktop.png")
            # Another legal move (4♦ onto 5♣) is not played: the walkthrough says what to do.
            page.mouse.click(*card_point(page, "4D"))
            page.mouse.click(*column_point(page, 7))
            expect(page.locator(NOTICE)).to_contain_text("highlighted move")
            expect(page.locator("[data-bar]")).to_have_attribute("data-moves", "1")
        walkthrough_move(page, game, token)
    expect(page.locator(TOUR)).to_have_attribute("data-step", "done")
    expect(page.locator("[data-tour-text]")).to_contain_text("Well done")
    expect(page.locator('[data-tour-mark="from"]')).to_have_count(0)
    page.locator(TOUR).get_by_role("button", name="Play on").click()
    expect(page.locator(TOUR)).to_be_hidden()
    # The game goes on as any other, and the walkthrough is not offered again.
    page.keyboard.press("u")
    wait_for_moves(page, game.moves_made)
    expect(page.locator("[data-bar]")).to_have_attribute("data-points", str(game.points - 10))
    page.evaluate("() => localStorage.removeItem('yukon.game.v1')")
    page.reload()
    page.wait_for_selector(READY)
    expect(page.locator(OFFER)).to_be_hidden()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('yukon.tour.v1')).state") == "done"


@pytest.mark.browser_context_args(**PHONE)
def test_the_walkthrough_can_be_declined_skipped_and_started_again(live_server, page: Page, artifacts_dir):
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    page.locator(OFFER).get_by_role("button", name="No, thanks").click()
    expect(page.locator(OFFER)).to_be_hidden()
    page.reload()
    page.wait_for_selector(READY)
    expect(page.locator(OFFER)).to_be_hidden()  # offered once only

    # From the table's Help dialog, which also links to /help.
    page.get_by_role("button", name="Help").click()
    dialog = page.locator('[data-dialog="help"]')
    rules_link = dialog.get_by_role("link", name="All the rules, scores and questions")
    expect(rules_link).to_have_attribute("href", "/help")
    dialog.get_by_role("button", name="Take the tour").click()
    expect(page.locator(TOUR)).to_be_visible()
    game = Game(WALKTHROUGH_CODE)
    walkthrough_move(page, game, WALKTHROUGH_MOVES[0])
    expect(page.locator(TOUR)).to_have_attribute("data-step", "2")
    page.screenshot(path=artifacts_dir / "walkthrough-phone.png")
    # A reload carries on at the same step.
    page.reload()
    page.wait_for_selector(READY)
    expect(page.locator(TOUR)).to_have_attribute("data-step", "2")
    page.locator(TOUR).get_by_role("button", name="Skip the tour").click()
    expect(page.locator(TOUR)).to_be_hidden()
    expect(page.locator('[data-tour-mark="from"]')).to_have_count(0)
    # Skipped: any move may be played now.
    tap_card(page, "4D")
    tap_column(page, 1)
    expect(page.locator(NOTICE)).to_have_text("An empty column takes only a King.")

    # From /help's link: /?tour=1, which asks before leaving the game in progress.
    page.goto(f"{live_server.url}/help")
    page.locator("[data-tour-link]").click()
    page.locator('[data-dialog="confirm"] [data-close="leave"]').click()
    expect(page.locator(TOUR)).to_have_attribute("data-step", "1")
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.locator("[data-bar]")).to_have_attribute("data-moves", "0")
