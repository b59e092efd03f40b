"""The table says what really happens, in each language: a win kept signed out says where it
goes once sent (a shared code's: its deal's board and the open-deal board); the Game… dialog
tells a signed-out player what a new deal is for them; Redeal of an unranked game asks to start
the deal again, not to leave the game. Each shown in the four languages, its boxes measured at
360, 768 and 1366 px.
"""

import json
from pathlib import Path

import pytest
from helpers import (
    BAR,
    READY,
    WIN,
    make_player,
    open_game,
    play_all,
    sign_in,
    tap_card,
    wait_for_moves,
    winning_game,
)
from layout import LANGUAGES, SIZES, choose_language, layout_problems, settled
from playwright.sync_api import Page, expect
from test_accessibility import AXE, assert_no_axe_violation

from games.engine import Game

pytestmark = pytest.mark.browser

CATALOG_DIR = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js" / "i18n"
CODE, TOKENS = winning_game()
GAME_DIALOG = '[data-dialog="new-game"]'
CONFIRM = '[data-dialog="confirm"]'


def catalog(language: str) -> dict:
    return json.loads((CATALOG_DIR / f"{language}.json").read_text(encoding="utf-8"))


def words(language: str, key: str) -> str:
    entry = catalog(language)
    for part in key.split("."):
        entry = entry[part]
    return entry


@pytest.fixture(scope="module")
def axe() -> str:
    return AXE.read_text()  # node_modules/axe-core: `npm ci` (test_accessibility.py says so when missing)


def measured(page: Page, parts: str, name: str, artifacts_dir, *, shoot: str) -> None:
    """At each width: `parts` fit (inside the window, unspilled, not overlapping); a screenshot
    of `shoot`. Not hit-tested: a dialog taller than a phone scrolls, and its lower parts lie
    under its own edge until then."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        settled(page)
        assert layout_problems(page, parts, hit_test=False) == [], f"{name} at {size}"
        page.locator(shoot).screenshot(path=artifacts_dir / f"{name}-{size}.png")


def test_a_signed_out_win_of_a_shared_code_says_where_it_goes_in_each_language(
    live_server, page: Page, context, axe, artifacts_dir
):
    page.emulate_media(reduced_motion="reduce")
    open_game(page, live_server.url, CODE)  # a shared link: an open deal
    play_all(page, Game(CODE), TOKENS)
    verdict = page.locator(f"{WIN} [data-verdict-text]")
    parts = f"{WIN} h2, {WIN} [data-verdict-text], {WIN} [data-verdict-sign-in] a, {WIN} .buttons button"
    for language in ["en", "ms", "hi", "tl"]:
        if language != "en":  # the won game stays on the table; the banner comes back in the new language
            with page.expect_navigation():
                page.select_option("#language-picker", language)
            page.wait_for_selector(READY)
        expect(page.locator(WIN)).to_be_visible()
        expect(verdict).to_have_text(words(language, "keptWin.open"))
        assert "leaderboard" not in verdict.text_content().lower()
        expect(page.locator(f"{WIN} [data-verdict-sign-in]")).to_be_visible()  # how to send it
        # A best once verified, which a signed-out win waits for the player to sign in to be.
        classic = words(language, "rules.classic")
        best = words(language, "win.provisionalBestSignedOut").replace("{rules}", classic)
        expect(page.locator(f'{WIN} [data-win="best"]')).to_have_text(best)
        measured(page, parts, f"win-kept-{language}", artifacts_dir, shoot=WIN)
        assert_no_axe_violation(page, axe, f"the win banner, signed out, in {language}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_dialog_says_what_a_new_deal_is_signed_out_and_signed_in(
    live_server, page: Page, context, language, axe, artifacts_dir
):
    choose_language(context, live_server.url, language)
    page.emulate_media(reduced_motion="reduce")
    open_game(page, live_server.url, CODE)
    dialog = page.locator(GAME_DIALOG)
    signed_in_note = dialog.locator("[data-deal-note]")
    signed_out_note = dialog.locator("[data-deal-note-signed-out]")

    page.locator('[data-action="new-game"]').click()
    expect(signed_out_note).to_have_text(words(language, "newGameSignedOut.note"))
    expect(signed_out_note).to_be_visible()
    expect(signed_in_note).to_be_hidden()  # "Signed in, a new deal is ranked" is not for them
    parts = f"{GAME_DIALOG} .dialog-note, {GAME_DIALOG} h2, {GAME_DIALOG} button"
    measured(page, parts, f"game-dialog-signed-out-{language}", artifacts_dir, shoot=GAME_DIALOG)
    assert_no_axe_violation(page, axe, f"the Game… dialog, signed out, in {language}")
    # Winnable deals only: neither note (the option says why).
    dialog.locator('input[name="winnableOnly"]').check()
    expect(signed_out_note).to_be_hidden()
    expect(signed_in_note).to_be_hidden()
    dialog.locator('input[name="winnableOnly"]').uncheck()  # a setting kept on the device
    expect(signed_out_note).to_be_visible()
    page.keyboard.press("Escape")

    player = make_player("siti")
    sign_in(context, live_server.url, player)
    open_game(page, live_server.url, CODE)
    expect(page.locator("[data-account-name]")).to_have_text("siti")
    # The header is the server's page; the table learns of the account from /api/session/: once
    # it has, the bar calls the deal an open deal (signed out: unranked).
    expect(page.locator(f"{BAR} [data-kind]")).to_have_attribute("data-kind", "open")
    page.locator('[data-action="new-game"]').click()
    expect(signed_in_note).to_have_text(words(language, "ranked.dealNote"))
    expect(signed_in_note).to_be_visible()
    expect(signed_out_note).to_be_hidden()


@pytest.mark.parametrize("language", LANGUAGES)
def test_redeal_of_an_unranked_game_asks_to_start_the_deal_again(
    live_server, page: Page, context, language, axe, artifacts_dir
):
    choose_language(context, live_server.url, language)
    page.emulate_media(reduced_motion="reduce")
    open_game(page, live_server.url, CODE)
    tap_card(page, TOKENS[0].split(">")[0])
    wait_for_moves(page, 1)

    page.locator('[data-action="redeal"]').click()
    confirm = page.locator(CONFIRM)
    expect(confirm.locator("[data-confirm-title]")).to_have_text(words(language, "redealAsk.title"))
    expect(confirm.locator("[data-confirm-text]")).to_have_text(words(language, "redealAsk.text"))
    expect(confirm.locator('[data-close="leave"]')).to_have_text(words(language, "redealAsk.yes"))
    assert words(language, "redealAsk.title") != words(language, "confirm.title")
    parts = f"{CONFIRM} h2, {CONFIRM} p, {CONFIRM} button"
    measured(page, parts, f"redeal-confirm-{language}", artifacts_dir, shoot=CONFIRM)
    assert_no_axe_violation(page, axe, f"Redeal's question in {language}")
    confirm.locator('[data-close="leave"]').click()
    wait_for_moves(page, 0)
    expect(page.locator(BAR)).to_have_attribute("data-code", CODE)  # the same deal, from the start

    # New deal still asks to leave the game: it is another deal.
    tap_card(page, TOKENS[0].split(">")[0])
    wait_for_moves(page, 1)
    page.locator('[data-action="new-deal"]').click()
    expect(confirm.locator("[data-confirm-title]")).to_have_text(words(language, "confirm.title"))
    confirm.locator('[data-close="stay"]').click()
