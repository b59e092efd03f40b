"""The walkthrough is offered until the newcomer answers: a change of language first (which
reloads the page) offers it again, in the new language; No, thanks or a first move of their own
ends the offer for good. The offer measured in each language at 360, 768 and 1366 px.
"""

import json
from pathlib import Path

import pytest
from helpers import BAR, READY, play_token, wait_for_moves
from layout import LANGUAGES, SIZES, layout_problems, settled
from playwright.sync_api import Page, expect
from test_accessibility import AXE, assert_no_axe_violation

from games.engine import Game

pytestmark = pytest.mark.browser

CATALOG_DIR = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js" / "i18n"
OFFER = "[data-tour-offer]"
TOUR = "[data-tour]"


def tour_words(language: str) -> dict:
    return json.loads((CATALOG_DIR / f"{language}.json").read_text(encoding="utf-8"))["tour"]


def tour_state(page: Page):
    return page.evaluate("() => JSON.parse(localStorage.getItem('yukon.tour.v1'))?.state ?? null")


@pytest.fixture(scope="module")
def axe() -> str:
    return AXE.read_text()  # node_modules/axe-core: `npm ci` (test_accessibility.py says so when missing)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_newcomer_who_switches_language_first_is_offered_the_tour_in_it(
    live_server, page: Page, language, axe, artifacts_dir
):
    first = "ms" if language == "en" else "en"  # the browser's language, before the choice
    page.emulate_media(reduced_motion="reduce")
    page.context.add_cookies([{"name": "django_language", "value": first, "url": live_server.url}])
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    expect(page.locator(OFFER)).to_be_visible()
    expect(page.locator(OFFER)).to_contain_text(tour_words(first)["offer"])
    assert tour_state(page) == "offered"

    with page.expect_navigation():
        page.select_option("#language-picker", language)
    page.wait_for_selector(READY)
    expect(page.locator("html")).to_have_attribute("lang", language)
    offer = page.locator(OFFER)
    expect(offer).to_be_visible()
    expect(offer).to_contain_text(tour_words(language)["offer"])
    parts = f"{OFFER}, {OFFER} p, {OFFER} button"
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        settled(page)
        assert layout_problems(page, f"{OFFER} p, {OFFER} button") == [], size
        assert layout_problems(page, parts, hit_test=False) == [], size
        page.screenshot(path=artifacts_dir / f"tour-offer-{size}-{language}.png")
    assert_no_axe_violation(page, axe, f"the tour's offer in {language}")

    # Taken in the new language.
    offer.get_by_role("button", name=tour_words(language)["start"]).click()
    expect(page.locator(TOUR)).to_have_attribute("data-step", "1")
    expect(page.locator("[data-tour-progress]")).to_have_text(
        tour_words(language)["progress"].format(step=1, total=6)
    )


def test_no_thanks_or_a_first_move_ends_the_offer(live_server, browser, page: Page):
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    page.reload()  # shown, not answered: offered again
    page.wait_for_selector(READY)
    page.locator(OFFER).get_by_role("button", name="No, thanks").click()
    expect(page.locator(OFFER)).to_be_hidden()
    page.reload()
    page.wait_for_selector(READY)
    expect(page.locator(OFFER)).to_be_hidden()
    assert tour_state(page) == "declined"

    # Another newcomer plays a move of their own instead: that is an answer too.
    other_context = browser.new_context()
    try:
        other = other_context.new_page()
        other.emulate_media(reduced_motion="reduce")
        other.goto(f"{live_server.url}/")
        other.wait_for_selector(READY)
        expect(other.locator(OFFER)).to_be_visible()
        game = Game(other.locator(BAR).get_attribute("data-code"))
        play_token(other, game, str(next(iter(game.legal_moves))))
        wait_for_moves(other, 1)
        expect(other.locator(OFFER)).to_be_hidden()
        assert tour_state(other) == "declined"
        other.evaluate("() => localStorage.removeItem('yukon.game.v1')")  # no game under way now
        other.reload()
        other.wait_for_selector(READY)
        expect(other.locator(OFFER)).to_be_hidden()
    finally:
        other_context.close()


@pytest.mark.parametrize("width", [360, 1366])
def test_a_notice_while_the_tour_is_offered_shows_above_the_offer(live_server, browser, artifacts_dir, width):
    """Signed out, a newcomer presses Hint while the walkthrough is offered: the answer (sign in
    to get hints) is drawn above the offer, both readable, never one over the other."""
    context = browser.new_context(viewport={"width": width, "height": 740 if width == 360 else 768})
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    offer = page.locator(OFFER)
    expect(offer).to_be_visible()
    page.get_by_role("button", name="Hint").click()
    notice = page.locator("[data-notice]")
    expect(notice).to_contain_text("sign in to get them")
    assert layout_problems(page, f"{OFFER}, [data-notice]", hit_test=False) == []
    page.screenshot(path=artifacts_dir / f"tour-offer-notice-{width}.png")
    context.close()
