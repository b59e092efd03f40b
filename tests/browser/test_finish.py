"""Finish (docs/ui.md, "Finish"): the button (and the E key) offered only once foundation moves
alone win, the moves it plays at a visible pace, each counted and logged as a tap would be,
what stops it, the win's celebration, and the button at 360 and 1366 px in all four languages
with no axe-core violation and no console error.

Games are resumed from the device's saved game (`yukon.game.v1`, as a reload does) a few moves
before the end of a known win; the moves that remain are played by gestures.
Screenshots: test-artifacts/finish-offered-{360,1366}.png, finish-running-1366.png,
finish-celebration-{360,1366}.png, finish-<language>-360.png, finish-help-<language>-360.png.
"""

import json
import re
from pathlib import Path

import pytest
from helpers import BAR, READY, WIN, finish_offered_after, play_token, resume_saved, wait_for_moves
from playwright.sync_api import Page, expect

from games.engine import Game, verify
from games.engine.vectors.wins import load_wins

pytestmark = pytest.mark.browser

PROJECT_DIR = Path(__file__).resolve().parents[2]
AXE = PROJECT_DIR / "node_modules" / "axe-core" / "axe.min.js"
CATALOGS = PROJECT_DIR / "frontend" / "static" / "frontend" / "js" / "i18n"
FINISH = '[data-action="finish"]'
NOTICE = "[data-notice]"
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "device_scale_factor": 2}
FINISH_JS = (CATALOGS.parent / "finish.js").read_text()
DOUBLE_PRESS_MS = int(re.search(r"const DOUBLE_PRESS_MS = (\d+);", FINISH_JS)[1])
MIN_GAP_MS = 200  # the pace docs/ui.md promises, above the server's timing checks
LANGUAGES = {"en": "Finish", "ms": "Selesaikan", "hi": "पूरा करें", "tl": "Tapusin"}

CODE, LINE = load_wins()[0]
# The action bar's buttons whose words touch their edges or take more than two lines.
CRAMPED_BUTTONS = """() => [...document.querySelectorAll("nav.actions button")].flatMap((button) => {
  const box = button.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(button);
  const text = range.getBoundingClientRect();
  const lines = [...range.getClientRects()].map((rect) => Math.round(rect.top));
  const touching = text.left < box.left + 2 || text.right > box.right - 2;
  return touching || new Set(lines).size > 2 ? [button.textContent.trim()] : [];
})"""  # YU1-C-AAAAAAA and a win of it


FIRST = finish_offered_after(CODE, LINE)


@pytest.fixture
def console_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    return errors


def resume(page: Page, base_url: str, tokens: list[str], *, motion: bool = False) -> Game:
    """The game of CODE with `tokens` played, as the device kept it (a reload resumes it)."""
    if not motion:
        page.emulate_media(reduced_motion="reduce")
    resume_saved(page, base_url, CODE, tokens)
    game = Game(CODE)
    for token in tokens:
        game.play(token)
    wait_for_moves(page, game.moves_made)
    return game


def saved_game(page: Page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('yukon.game.v1'))")


def moves_shown(page: Page) -> int:
    return int(page.locator(BAR).get_attribute("data-moves"))


@pytest.mark.browser_context_args(**DESKTOP)
def test_finish_is_offered_only_when_foundation_moves_alone_win_and_plays_them_at_a_visible_pace(
    live_server, page: Page, artifacts_dir, console_errors
):
    game = resume(page, live_server.url, LINE[: FIRST - 1])
    assert game.finish_moves() is None
    finish = page.locator(FINISH)
    expect(finish).to_be_hidden()
    # The key says why it does nothing yet.
    page.keyboard.press("e")
    expect(page.locator(NOTICE)).to_have_text(
        "Finish works once every card is face up and each one can go to its foundation in turn."
    )
    wait_for_moves(page, game.moves_made)

    play_token(page, game, LINE[FIRST - 1])  # the move that makes the finish possible, by a gesture
    wait_for_moves(page, game.moves_made)
    button = page.get_by_role("button", name="Finish")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-keyshortcuts", "E")
    # Screen readers hear it after the move that made it possible.
    expect(page.locator("[data-announcer]")).to_have_text(
        re.compile(r"^\S.* to column \d; Finish is offered: press E or the Finish button\s*$")
    )  # the move (LINE[FIRST - 1], a move to a column), then the offer
    page.screenshot(path=artifacts_dir / "finish-offered-1366.png")

    expected = [str(move) for move in game.finish_moves()]
    played_before = len(saved_game(page)["log"])
    button.click()
    expect(finish).to_have_attribute("data-finish-state", "running")
    expect(finish).to_have_text("Stop")
    page.wait_for_timeout(700)
    page.screenshot(path=artifacts_dir / "finish-running-1366.png")
    banner = page.locator(WIN)
    expect(banner).to_be_visible(timeout=2000 + 400 * len(expected))
    expect(finish).to_be_hidden()

    saved = saved_game(page)
    assert saved["log"][played_before:] == expected, "Finish plays the engine's finish moves, in order"
    assert len(saved["log"]) == played_before + len(expected)
    times = saved["moveTimes"][played_before - 1 :]
    gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
    assert min(gaps) >= MIN_GAP_MS, f"a finish move came {min(gaps)} ms after the one before: {gaps}"
    verdict = verify(CODE, saved["log"])
    assert verdict.won
    wait_for_moves(page, verdict.moves)  # each one counted as a move
    expect(banner.locator('[data-win="moves"]')).to_have_attribute("data-value", str(verdict.moves))
    outbox = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.outbox.v1'))")
    assert [entry["log"] for entry in outbox] == [" ".join(saved["log"])]
    assert console_errors == []


def wait_for_moves_at_least(page: Page, moves: int) -> None:
    """Until the bar counts `moves` or more: a finish under way goes on while this waits, and a
    count it only passes through may fall between two looks of wait_for_moves."""
    page.wait_for_function(
        "([bar, moves]) => Number(document.querySelector(bar).dataset.moves) >= moves", arg=[BAR, moves]
    )


def stays_stopped(page: Page) -> int:
    """The finish has stopped, and no move comes after (a few of its paces later): the moves."""
    expect(page.locator(FINISH)).to_have_attribute("data-finish-state", "ready")
    stopped_at = moves_shown(page)
    page.wait_for_timeout(900)
    assert moves_shown(page) == stopped_at
    return stopped_at


@pytest.mark.browser_context_args(**DESKTOP)
def test_undo_a_tap_or_the_key_stops_a_finish_and_the_moves_made_stay(
    live_server, page: Page, console_errors
):
    game = resume(page, live_server.url, LINE[:FIRST])
    finish = page.locator(FINISH)
    start = game.moves_made

    # Undo while it runs: the finish stops, the undo takes back its last move, nothing moves after.
    page.keyboard.press("e")
    expect(finish).to_have_attribute("data-finish-state", "running")
    wait_for_moves_at_least(page, start + 2)
    page.keyboard.press("u")
    stopped_at = stays_stopped(page)
    expect(finish).to_have_text("Finish")  # offered again: the position still finishes
    assert saved_game(page)["log"][-1] == "U"

    # A tap on the table stops it too.
    finish.click()
    wait_for_moves_at_least(page, stopped_at + 1)
    table = page.locator("[data-table]").bounding_box()
    page.mouse.click(table["x"] + table["width"] - 4, table["y"] + table["height"] - 4)  # the bare felt
    stopped_at = stays_stopped(page)

    # Escape stops it.
    page.keyboard.press("e")
    wait_for_moves_at_least(page, stopped_at + 1)
    page.keyboard.press("Escape")
    stopped_at = stays_stopped(page)

    # And the key again: E starts, E stops (not at once: a double press is not a stop). The
    # presses' times are read in the page: on a loaded machine they can arrive further apart
    # than a double press (finish.js's DOUBLE_PRESS_MS), and the second is then a stop.
    page.evaluate(
        """() => { window.finishPresses = [];
        addEventListener("keydown", (event) => event.key === "e" && finishPresses.push(performance.now()),
                         {capture: true}); }"""
    )
    page.keyboard.press("e")
    page.keyboard.press("e")
    first, second = page.evaluate("finishPresses")
    if second - first < DOUBLE_PRESS_MS:
        expect(finish).to_have_attribute("data-finish-state", "running")
    else:
        stopped_at = stays_stopped(page)
        page.keyboard.press("e")
        expect(finish).to_have_attribute("data-finish-state", "running")
    # Three moves are 500 ms after the start, past the double press's 300 ms: the next E stops.
    wait_for_moves_at_least(page, stopped_at + 3)
    page.keyboard.press("e")
    stopped_at = stays_stopped(page)
    # Every move made so far is kept and replays: a reload offers the finish again.
    assert verify(CODE, saved_game(page)["log"]).error is None
    page.reload()
    page.wait_for_selector(READY)
    wait_for_moves(page, stopped_at)
    expect(page.get_by_role("button", name="Finish")).to_be_visible()
    assert console_errors == []


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1366"])
def test_the_win_celebrates_and_with_reduced_motion_nothing_moves(
    live_server, browser, artifacts_dir, viewport
):
    width = viewport["viewport"]["width"]
    for motion in (True, False):
        context = browser.new_context(**viewport)
        page = context.new_page()
        errors: list[str] = []
        page.on(
            "console", lambda message, errors=errors: message.type == "error" and errors.append(message.text)
        )
        game = resume(page, live_server.url, LINE[:FIRST], motion=motion)
        button = page.get_by_role("button", name="Finish")
        expect(button).to_be_visible()
        if motion:
            box, size = button.bounding_box(), page.viewport_size
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
            actions = page.locator("nav.actions").bounding_box()
            assert box["y"] + box["height"] <= actions["y"] or box["y"] >= actions["y"] + actions["height"]
            page.screenshot(path=artifacts_dir / f"finish-offered-{width}.png")
        button.click()
        banner = page.locator(WIN)
        expect(banner).to_be_visible(timeout=2000 + 400 * len(game.finish_moves()))
        expect(banner).to_have_attribute("data-celebrating", "true")
        running = page.evaluate(
            """() => document.getAnimations().filter((a) => a.animationName === "win-hop" ||
                 a.animationName === "win-pop").length"""
        )
        if motion:
            assert running >= 5, "the Kings and the banner's suits hop"
            page.wait_for_timeout(450)
            page.screenshot(path=artifacts_dir / f"finish-celebration-{width}.png")
        else:
            assert running == 0, "nothing moves with reduced motion"
        expect(banner).not_to_have_attribute("data-celebrating", "true", timeout=3000)
        assert errors == []
        context.close()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_finish_button_in_each_language_fits_a_phone_and_passes_axe(
    live_server, browser, artifacts_dir, language
):
    if not AXE.is_file():
        pytest.fail(f"{AXE.relative_to(PROJECT_DIR)} is missing: run `npm ci`", pytrace=False)
    context = browser.new_context(**PHONE)
    context.add_init_script(f"localStorage.setItem('yukon.language.v1', '{language}')")
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    resume(page, live_server.url, LINE[:FIRST])
    button = page.get_by_role("button", name=LANGUAGES[language])
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert 0 <= box["x"] and box["x"] + box["width"] <= 360, box
    # Above the action bar, whose buttons have room for their words (one row or two).
    assert box["y"] + box["height"] <= page.locator("nav.actions").bounding_box()["y"]
    assert page.evaluate(CRAMPED_BUTTONS) == [], language
    scroll = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert scroll[0] <= scroll[1]
    page.evaluate("() => document.fonts.ready")
    page.screenshot(path=artifacts_dir / f"finish-{language}-360.png")
    page.evaluate(AXE.read_text())
    violations = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    assert violations == [], json.dumps(violations, indent=1)[:3000]
    # The Help dialog lists the key.
    page.locator('[data-action="help"]').click()
    help_dialog = page.locator('[data-dialog="help"]')
    expect(help_dialog.locator("kbd").get_by_text("E", exact=True)).to_be_visible()
    catalog = json.loads((CATALOGS / f"{language}.json").read_text(encoding="utf-8"))["finish"]
    expect(help_dialog.locator('[data-i18n="finish.key"]')).to_have_text(catalog["key"])
    expect(help_dialog.locator('[data-i18n="finish.helpDoes"]')).to_have_text(catalog["helpDoes"])
    help_dialog.locator('[data-i18n="finish.helpDoes"]').scroll_into_view_if_needed()
    page.screenshot(path=artifacts_dir / f"finish-help-{language}-360.png")
    violations = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    assert violations == [], json.dumps(violations, indent=1)[:3000]
    assert errors == []
    context.close()
