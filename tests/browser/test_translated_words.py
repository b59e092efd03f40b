"""Words the pages make themselves, in the player's language: "(you)" after the player's own
name on the boards, and why the server refused a result (the banner, Results, /me), worded by
the page from the reason's code and figures. Each in the four languages, its boxes measured at
360, 768 and 1366 px.
"""

import json
import re
import subprocess
import uuid
from pathlib import Path

import pytest
from helpers import READY, WIN, make_player, open_game, play_all, recorded_win, sign_in, winning_game
from layout import LANGUAGES, SIZES, choose_language, layout_problems, settled
from playwright.sync_api import Page, expect
from test_accessibility import AXE, assert_no_axe_violation

from games.engine import Game
from games.engine.errors import REFUSAL_CODES
from games.engine.move import MOVES_BY_TEXT
from games.models import Submission

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


# --- why the server refused a result -----------------------------------------------------------

OUTBOX_KEY = "yukon.outbox.v1"
RESULT = '[data-dialog="results"] [data-result]'
ME_GAME = "[data-submission]"


def refused_move() -> tuple[str, str, dict]:
    """A first move the rules refuse with figures (a card, a colour): its token, code and params."""
    game = Game(CODE)
    for move in MOVES_BY_TEXT.values():
        code = game.check_move(move.card, move.dest)
        if code in ("wrong_colour", "wrong_rank"):
            return str(move), code, {"move": 1, "token": str(move), **game.refusal_params(code, move)}
    raise AssertionError(f"no refused move with figures on {CODE}")


def fill(template: str, params: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda found: str(params[found.group(1)]), template)


def reason_words(language: str, code: str, params: dict) -> str:
    """The reason as the page should word it, from the catalogs (English refusals: the engine's)."""
    words = catalog(language)
    reasons = words["submissionReasons"]
    if code in REFUSAL_CODES:
        refusals = words.get("refusals") or engine_refusals()
        template = refusals[code][params["variant"]] if "variant" in params else refusals[code]
        refusal = fill(template, params)
        return fill(reasons["move"], {**params, "refusal": refusal})
    shown = {name: f"{value:,}" if isinstance(value, int) else value for name, value in params.items()}
    return fill(reasons[code], shown)


def engine_refusals() -> dict:
    """English refusals: the engine's MESSAGES_EN (refusals.js), read by node."""
    module = (CATALOG_DIR.parent / "engine" / "refusals.js").as_uri()
    script = f"import {{ MESSAGES_EN }} from {json.dumps(module)}; console.log(JSON.stringify(MESSAGES_EN));"
    node = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    return json.loads(node.stdout)


def queue(page: Page, *, tokens: list[str], times: list[int]) -> None:
    """A result in the page's outbox as the game puts it there (sync.js `enqueueResult`), sent at once."""
    page.evaluate(
        """([code, log, times, clientId]) => import("/static/frontend/js/sync.js").then((sync) => {
            sync.enqueueResult({client_id: clientId, code, log, move_times_ms: times,
                duration_ms: times.at(-1) + 300, finished_at: new Date().toISOString(),
                client_version: "test", rules: "classic", won: false, moves: times.length});
            dispatchEvent(new Event("online"));
        })""",
        [CODE, " ".join(tokens), times, str(uuid.uuid4())],
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_result_is_explained_in_the_players_language(
    live_server, page: Page, context, language, axe, artifacts_dir
):
    player = make_player("mei")
    sign_in(context, live_server.url, player)
    choose_language(context, live_server.url, language)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    token, code, params = refused_move()
    queue(page, tokens=[token], times=[0])
    page.wait_for_function(
        f"() => JSON.parse(localStorage.getItem('{OUTBOX_KEY}') ?? '[]').some((e) => e.state === 'rejected')",
        timeout=15_000,
    )
    queue(page, tokens=TOKENS[:3], times=[0, 10, 400])  # move 2 came 10 ms after move 1
    page.wait_for_function(
        f"""() => JSON.parse(localStorage.getItem('{OUTBOX_KEY}') ?? '[]')
                .filter((e) => e.state === 'rejected').length === 2""",
        timeout=15_000,
    )
    refused = {
        submission.reason_code: submission
        for submission in Submission.objects.filter(user=player, status="rejected")
    }
    assert set(refused) == {code, "timing_move"}
    assert refused[code].reason_params == params
    timing = refused["timing_move"].reason_params
    assert timing == {"move": 2, "token": TOKENS[1], "gap_ms": 10, "minimum_ms": 40}
    expected = [reason_words(language, "timing_move", timing), reason_words(language, code, params)]
    english = [refused["timing_move"].reason, refused[code].reason]

    # Results: newest first.
    page.locator("[data-results-chip]").click()
    states = page.locator(f"{RESULT} [data-state-text]")
    expect(states).to_have_count(2)
    for shown, words, sentence in zip(states.all(), expected, english, strict=True):
        expect(shown).to_contain_text(words)
        if language != "en":
            expect(shown).not_to_contain_text(sentence)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        settled(page)
        assert layout_problems(page, f"{RESULT} [data-state-text]", hit_test=False) == [], size
        page.locator('[data-dialog="results"]').screenshot(
            path=artifacts_dir / f"refused-results-{size}-{language}.png"
        )
    assert_no_axe_violation(page, axe, f"Results with refused results in {language}")

    # The player's page.
    page.goto(f"{live_server.url}/me")
    page.wait_for_selector('[data-page-status="ready"]')
    outcomes = page.locator(f"{ME_GAME}[data-status='rejected'] .outcome")
    expect(outcomes).to_have_count(2)
    for shown, words in zip(outcomes.all(), expected, strict=True):
        expect(shown).to_contain_text(words)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        settled(page)
        # The reasons only: /me's figures (Malay at 768 px) are another part of the page.
        outcome = f"{ME_GAME}[data-status='rejected'] .outcome"
        assert layout_problems(page, outcome, hit_test=False, whole_page=False) == [], size
        page.locator(ME_GAME).first.screenshot(path=artifacts_dir / f"refused-me-{size}-{language}.png")
    assert_no_axe_violation(page, axe, f"/me with refused results in {language}")


def test_a_refused_win_is_explained_on_the_win_banner_in_each_language(
    live_server, page: Page, context, settings, axe, artifacts_dir
):
    # A minimum pace no person keeps: the win the table sends is refused (timing_average).
    settings.SUBMISSION_MIN_AVERAGE_MOVE_MS = 60_000
    player = make_player("ravi")
    sign_in(context, live_server.url, player)
    page.emulate_media(reduced_motion="reduce")
    open_game(page, live_server.url, CODE)
    expect(page.locator("[data-account-name]")).to_have_text("ravi")
    play_all(page, Game(CODE), TOKENS)
    verdict = page.locator(f"{WIN} [data-win-verdict]")
    expect(verdict).to_have_attribute("data-state", "rejected", timeout=15_000)
    refused = Submission.objects.get(user=player)
    assert (refused.status, refused.reason_code) == ("rejected", "timing_average")
    assert refused.reason_params["minimum_ms"] == 60_000
    parts = f"{WIN} h2, {WIN} [data-verdict-text], {WIN} .buttons button"
    for language in LANGUAGES:
        if language != "en":  # the won game stays on the table; its banner comes back in the new language
            with page.expect_navigation():
                page.select_option("#language-picker", language)
            page.wait_for_selector(READY)
        expect(page.locator(WIN)).to_be_visible()
        words = reason_words(language, "timing_average", refused.reason_params)
        expect(verdict.locator("[data-verdict-text]")).to_contain_text(words)
        if language != "en":
            expect(verdict).not_to_contain_text(refused.reason)
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            settled(page)
            assert layout_problems(page, parts, hit_test=False) == [], f"{language} at {size}"
            page.locator(WIN).screenshot(path=artifacts_dir / f"refused-banner-{size}-{language}.png")
        assert_no_axe_violation(page, axe, f"the win banner of a refused win in {language}")
