"""Words the pages make themselves, in the player's language: "(you)" after the player's own
name on the boards, and why the server refused a result (the banner, Results, /me), worded by
the page from the reason's code and figures. Each in the four languages, its boxes measured at
360, 768 and 1366 px.
"""

import json
from pathlib import Path

import pytest
from helpers import make_player, recorded_win, sign_in, winning_game
from layout import LANGUAGES, SIZES, choose_language, layout_problems, settled
from playwright.sync_api import Page, expect
from test_accessibility import AXE, assert_no_axe_violation

pytestmark = pytest.mark.browser

CATALOG_DIR = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js" / "i18n"
CODE, TOKENS = winning_game()
MY_ROW = '[data-board="global"] [data-entry][data-me]'


def catalog(language: str) -> dict:
    return json.loads((CATALOG_DIR / f"{language}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def axe() -> str:
    return AXE.read_text()  # node_modules/axe-core: `npm ci` (test_accessibility.py says so when missing)


@pytest.mark.parametrize("language", LANGUAGES)
def test_you_on_the_boards_is_in_the_players_language(
    live_server, page: Page, context, language, axe, artifacts_dir
):
    bob = make_player("bob")
    recorded_win(make_player("annie"), CODE, TOKENS, hidden=True)
    recorded_win(bob, CODE, TOKENS[:1] + ["U"] + TOKENS, hidden=True)
    sign_in(context, live_server.url, bob)
    choose_language(context, live_server.url, language)
    page.goto(f"{live_server.url}/leaderboard")
    page.wait_for_selector('[data-page-status="ready"]')
    expect(page.locator("html")).to_have_attribute("lang", language)
    name = page.locator(f"{MY_ROW} .name")
    expect(name).to_have_text("bob")  # the name alone: "(you)" is drawn after it
    you = catalog(language)["boardsMine"]["you"]
    drawn = name.evaluate("(element) => getComputedStyle(element, '::after').content")
    assert drawn == json.dumps(f" {you}", ensure_ascii=False)
    if language != "en":
        assert "you" not in drawn
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        settled(page)
        assert layout_problems(page, f"{MY_ROW} td, {MY_ROW} .name", hit_test=False) == [], size
        # The name and "(you)" fit in the player's cell, unclipped.
        assert name.evaluate("(element) => element.scrollWidth <= element.clientWidth"), size
        page.locator('[data-board="global"]').screenshot(
            path=artifacts_dir / f"board-you-{size}-{language}.png"
        )
    assert_no_axe_violation(page, axe, f"the leaderboard in {language}")
