"""Accessibility and stability of every page a player reaches, in Chromium.

README promises: pages pass axe-core with no violation, log no console error, and do not shift
while they load (Lighthouse's CLS < 0.05). Each page is opened as a player finds it (signed out
or in, with results made through the real services), then:

- axe-core (npm, pinned in package-lock.json; `make test` installs it) checks the page as it is
  once ready, every rule of its default set, with no rule turned off and no element left out;
  on the table, each of its dialogs once open (Game…, Aids, Help, the confirm dialog, Results,
  the win banner) and each step of the walkthrough, in all four languages at 1366 and 360 px,
  with a few other pages in each of them;
- every console error and uncaught error fails the test (conftest's `page_problems`, which also
  catches CSP violations and requests outside this machine);
- a PerformanceObserver registered before the page's first byte sums its layout shifts (those
  not caused by input) until it is ready and a second more. The sum of every shift is at least
  Lighthouse's CLS (the worst 5-second window of shifts), so it is held to the same < 0.05.
"""

import re
from pathlib import Path

import helpers
import pytest
from helpers import (
    BAR,
    READY,
    TABLE,
    WIN,
    asgi_server_fixture,  # noqa: F401 (the asgi_server fixture)
    issue_only,
    make_player,
    open_game,
    pause,
    play_all,
    play_token,
    recorded_win,
    sign_in,
    wait_for_moves,
    wait_until_hidden_ranked,
    walkthrough_move,
    winning_game,
)
from playwright.sync_api import Page, expect
from race_pages import rated
from watch import watch_for_problems

from games.engine import Game

pytestmark = pytest.mark.browser

PROJECT_DIR = Path(__file__).resolve().parents[2]
AXE = PROJECT_DIR / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
CLS_LIMIT = 0.05
PAGE_READY = '[data-page-status="ready"]'  # the leaderboard and /me, once their data are shown

CODE, TOKENS = winning_game()
OPEN_CODE = "YU1-C-AAAAAAB"  # another deal, typed or shared: an open deal


# --- axe-core ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        pytest.fail(
            f"{AXE.relative_to(PROJECT_DIR)} is missing: run `npm ci` in {PROJECT_DIR} "
            "(`make test` does it) to install axe-core for the accessibility tests",
            pytrace=False,
        )
    return AXE.read_text()


def axe_violations(page: Page, axe_source: str) -> list[dict]:
    """axe-core's violations on the page as it is now.

    Not `page.add_script_tag`: that inlines the file in a <script>, which the page's
    Content-Security-Policy (script-src 'self') rightly refuses. An evaluation through the
    DevTools protocol is not subject to the page's CSP, and leaves it as it is.
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source)
    return page.evaluate(_AXE_RUN)


# The page's felt is a gradient, and axe-core cannot tell a text's contrast over a gradient: it
# leaves color-contrast "incomplete" for most of the page. So color-contrast runs again with the
# page's background set, in turn, to each colour of that gradient (the worst case lies at one
# end), then the page is given its own background back. Nothing is left out of the first run.
_AXE_RUN = r"""async () => {
  const shape = (v, note = "") => ({
    id: v.id, impact: v.impact, help: v.help + note, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary})),
  });
  const found = (await axe.run(document, {resultTypes: ["violations"]})).violations.map((v) => shape(v));
  const body = document.body;
  const stops = getComputedStyle(body).backgroundImage.match(/rgba?\([^)]*\)/g) ?? [];
  const own = body.style.cssText;
  try {
    for (const colour of stops) {
      body.style.background = colour;
      const results = await axe.run(document, {runOnly: ["color-contrast"], resultTypes: ["violations"]});
      found.push(...results.violations.map((v) => shape(v, ` (on the felt's ${colour})`)));
    }
  } finally {
    body.style.cssText = own;
  }
  return found;
}"""


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} ({v['helpUrl']})")
        for node in v["nodes"][:5]:
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"    {node['target']}  — {summary[:240]}")
        if len(v["nodes"]) > 5:
            lines.append(f"    … and {len(v['nodes']) - 5} more")
    return "\n".join(lines)


def assert_no_axe_violation(page: Page, axe_source: str, what: str) -> None:
    violations = axe_violations(page, axe_source)
    assert not violations, f"axe-core found violations on {what}:\n{describe(violations)}"


# --- console errors and layout shifts -------------------------------------------------------------


@pytest.fixture
def context(context, page_problems: list[str]):
    """conftest's context (CSP violations, uncaught errors, outside requests), and every console
    error too: README promises pages that log none. (CSP errors are noted by conftest already.)"""

    def note_console_error(message) -> None:
        if message.type == "error" and "Content Security Policy" not in message.text:
            where = message.location.get("url", "") if message.location else ""
            page_problems.append(f"console error: {message.text}" + (f" ({where})" if where else ""))

    context.on("console", note_console_error)
    return context


_MEASURE_LAYOUT_SHIFTS = """
window.__layoutShift = 0;
window.__layoutShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    window.__layoutShift += entry.value;
    // What moved, for the failure message: each source's element and how it moved.
    for (const source of entry.sources || []) {
      const node = source.node;
      const name = node && node.nodeType === 1
        ? node.tagName.toLowerCase() + (node.id ? "#" + node.id : "") +
          (node.getAttribute("class") ? "." + node.getAttribute("class").trim().replaceAll(" ", ".") : "")
        : String(node && node.nodeName);
      const from = source.previousRect, to = source.currentRect;
      window.__layoutShifts.push(
        `${entry.value.toFixed(4)} ${name} (${from.x},${from.y} ${from.width}x${from.height}` +
        ` -> ${to.x},${to.y} ${to.width}x${to.height}) at ${Math.round(entry.startTime)} ms`);
    }
  }
}).observe({type: "layout-shift", buffered: true});
"""


def settle(page: Page, seconds: float = 1.0) -> None:
    """The fonts loaded, two frames drawn, then `seconds` more (late shifts are counted too)."""
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    pause(page, seconds)


def layout_shift(page: Page) -> float:
    return page.evaluate("() => window.__layoutShift")


def layout_shifts(page: Page) -> str:
    """What moved while the page loaded, one line a moved element, for a failure's message."""
    return "\n".join(page.evaluate("() => window.__layoutShifts"))


# --- pages -------------------------------------------------------------------------------------


def seed_boards():
    """Two players with verified wins: a hidden-card game (the global boards, this month's standing
    kept) and an open deal; race ratings under Classic rules (Annie's /me shows hers, and a first
    race to make under Relaxed); today's daily deals stored already (picking them runs the solver,
    seconds on a busy machine)."""
    from django.utils import timezone

    from daily.models import DailyDeal

    for code in (CODE, CODE.replace("-C-", "-R-")):
        rules = "classic" if "-C-" in code else "relaxed"
        DailyDeal.objects.get_or_create(date=timezone.now().date(), rules=rules, defaults={"code": code})
    annie, bob = make_player("Annie-42"), make_player("bob")
    hidden = recorded_win(annie, CODE, TOKENS, hidden=True)
    recorded_win(bob, CODE, TOKENS, ranked=False)
    rated(annie, "classic", 1579.4, 3)
    rated(bob, "classic", 1512.0, 1)
    keep_this_season()  # /me says Annie's best season
    return annie, hidden


def keep_this_season() -> None:
    """This month's Classic standing kept, as the periodic task keeps it once the month is over."""
    import datetime as dt

    from django.conf import settings
    from django.utils import timezone

    from leaderboard.boards import season_bounds, season_key
    from leaderboard.seasons import season_snapshot_take

    season = season_key(timezone.now())
    closed = season_bounds(season)[1] + dt.timedelta(seconds=settings.LEADERBOARD_SEASON_SETTLE_SECONDS)
    season_snapshot_take(board=f"classic:season:{season}", now=closed)


# Signed-out pages: the address, and what says the page is ready.
SIGNED_OUT_PAGES = [
    ("/", READY),
    (f"/play/{OPEN_CODE}", READY),
    ("/leaderboard", PAGE_READY),
    ("/leaderboard?deals=open", PAGE_READY),
    ("/leaderboard?deals=races", PAGE_READY),
    ("/help", "main h1"),
    ("/accounts/login/", "main form"),
    ("/accounts/signup/", "main form"),
    ("/accounts/password/reset/", "main form"),
]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize(("path", "ready"), SIGNED_OUT_PAGES, ids=[path for path, _ in SIGNED_OUT_PAGES])
def test_signed_out_pages_pass_axe_and_log_no_error(
    live_server, page: Page, axe_source: str, path: str, ready: str, viewport: dict
):
    seed_boards()
    page.set_viewport_size(viewport)
    page.goto(f"{live_server.url}{path}")
    page.wait_for_selector(ready)
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, f"{path} (signed out, {viewport['width']} px wide)")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_signed_in_pages_pass_axe_and_log_no_error(
    live_server, page: Page, context, axe_source: str, viewport: dict, monkeypatch
):
    annie, win = seed_boards()
    issue_only(monkeypatch, CODE)
    sign_in(context, live_server.url, annie)
    page.set_viewport_size(viewport)
    where = f"({viewport['width']} px wide, signed in)"

    # The table with a ranked hidden-card game on it.
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    wait_until_hidden_ranked(page)
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, f"/ with a ranked game {where}")

    # The boards, with the player's own row; the player's page, with a verified win.
    # The account page (a server-rendered form) too.
    for path, ready in (
        ("/leaderboard", PAGE_READY),
        ("/leaderboard?deals=open", PAGE_READY),
        ("/leaderboard?deals=races", PAGE_READY),
        ("/me", PAGE_READY),
        ("/accounts/profile/", "main form"),
    ):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_selector(ready)
        settle(page, 0.3)
        assert_no_axe_violation(page, axe_source, f"{path} {where}")

    # The replay of a verified win.
    page.goto(f"{live_server.url}/replay/{win.pk}")
    expect(page.locator("[data-replay]")).to_have_attribute("data-replay-status", "paused")
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, f"/replay/{win.pk} {where}")


def play_paced_from_each_card(page: Page, game: Game, tokens: list[str]) -> None:
    """play_all, with each move a pace after the table takes moves again. The page's clock stops
    while a turned-up card waits for the server, and the move times are on that clock: paced from
    the previous move only, a move right after a slow answer (a busy machine) can come < 40 ms
    after the previous one on that clock, and the server refuses the win."""
    for token in tokens:
        expect(page.locator(TABLE)).not_to_have_attribute("data-turning", "true")
        helpers.pause(page, helpers.MOVE_PACE_S)
        play_token(page, game, token)
        wait_for_moves(page, game.moves_made)


def test_the_win_banner_passes_axe(live_server, page: Page, context, axe_source: str, monkeypatch):
    """A ranked hidden-card game won through the table, as a player does: the banner with the
    server's verdict, the ranks and the deal's check; then an open deal won signed out."""
    player = make_player("annie")
    issue_only(monkeypatch, CODE)
    sign_in(context, live_server.url, player)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    wait_until_hidden_ranked(page)
    play_paced_from_each_card(page, Game(CODE), TOKENS)
    banner = page.locator(WIN)
    expect(banner).to_be_visible()
    expect(banner.locator("[data-win-verdict]")).to_have_attribute("data-state", "verified", timeout=15_000)
    expect(banner.locator('[data-win="deal-check"]')).to_have_attribute("data-state", "fair")
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, "the win banner of a ranked game (signed in)")

    # Signed out, an open deal: the banner asks the player to sign in to send the result.
    context.clear_cookies()
    open_game(page, live_server.url, CODE)
    play_all(page, Game(CODE), TOKENS)
    expect(banner).to_be_visible()
    expect(banner.locator("[data-verdict-sign-in]")).to_be_visible()
    expect(page.locator(BAR)).to_have_attribute("data-code", CODE)
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, "the win banner of an open deal (signed out)")


# --- the table's dialogs and the walkthrough, in each language ----------------------------------

WALKTHROUGH_CODE = "YU1-C-AAAAABR"  # test_help's: the walkthrough's deal and its six moves
WALKTHROUGH_MOVES = ["AH>F", "TD>4", "KC>1", "QH>1", "9D>5", "AC>F"]
TOUR = "[data-tour]"
CONFIRM = '[data-dialog="confirm"]'
OUTBOX_KEY = "yukon.outbox.v1"
LANGUAGES = ["en", "ms", "hi", "tl"]


def choose_language(context, base_url: str, language: str) -> None:
    """As test_i18n's `choose`: the device's choice (as the picker keeps it) and the server's
    cookie, before any page."""
    # Not on a new tab's about:blank, whose storage is closed to scripts.
    context.add_init_script(
        f"if (location.protocol.startsWith('http')) localStorage.setItem('yukon.language.v1', '{language}')"
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])


def check_dialog(page: Page, axe_source: str, name: str, what: str) -> None:
    """Opens the table's dialog `name` with its button, checks it once open, closes it (Esc)."""
    dialog = page.locator(f'[data-dialog="{name}"]')
    page.locator(f'[data-action="{name}"]').click()
    expect(dialog).to_be_visible()
    settle(page, 0.2)
    assert_no_axe_violation(page, axe_source, what)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


TABLE_DIALOG_RUNS = [(language, size) for language in LANGUAGES for size in (DESKTOP, PHONE)]


@pytest.mark.parametrize(
    ("language", "viewport"),
    TABLE_DIALOG_RUNS,
    ids=[f"{language}-{size['width']}" for language, size in TABLE_DIALOG_RUNS],
)
def test_the_walkthrough_and_the_tables_dialogs_pass_axe(
    live_server, page: Page, context, axe_source: str, language: str, viewport: dict
):
    """Signed out, from Help's link (/?tour=1): each step of the walkthrough, then, with its game in
    progress, the confirm dialog of New deal ("Leave this game?"), Game…, Aids and Help."""
    choose_language(context, live_server.url, language)
    page.set_viewport_size(viewport)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/?tour=1")
    page.wait_for_selector(READY)
    expect(page.locator("html")).to_have_attribute("lang", language)
    where = f"({language}, {viewport['width']} px wide)"

    tour = page.locator(TOUR)
    game = Game(WALKTHROUGH_CODE)
    for number, token in enumerate(WALKTHROUGH_MOVES, start=1):
        expect(tour).to_have_attribute("data-step", str(number))
        settle(page, 0.2)
        assert_no_axe_violation(page, axe_source, f"step {number} of the walkthrough {where}")
        walkthrough_move(page, game, token)
    expect(tour).to_have_attribute("data-step", "done")
    settle(page, 0.2)
    assert_no_axe_violation(page, axe_source, f"the walkthrough's last word {where}")
    tour.locator('[data-tour-action="finish"]').click()
    expect(tour).to_be_hidden()

    # The walkthrough's game is in progress: New deal asks before leaving it.
    confirm = page.locator(CONFIRM)
    page.locator('[data-action="new-deal"]').click()
    expect(confirm).to_be_visible()
    settle(page, 0.2)
    assert_no_axe_violation(page, axe_source, f"the confirm dialog of New deal {where}")
    confirm.locator('[data-close="stay"]').click()
    expect(confirm).to_be_hidden()

    for name in ("new-game", "settings", "help"):
        check_dialog(page, axe_source, name, f"the {name} dialog {where}")

    # A second tab of the table says the game is open in this one (one table a browser).
    other = context.new_page()
    other.set_viewport_size(viewport)
    other.goto(f"{live_server.url}/")
    expect(other.locator('[data-dialog="elsewhere"]')).to_be_visible()
    settle(other, 0.2)
    assert_no_axe_violation(other, axe_source, f"the dialog of a second tab {where}")
    other.close()


RESULTS_RUNS = [(language, size) for language in LANGUAGES for size in (DESKTOP, PHONE)]


@pytest.mark.parametrize(
    ("language", "viewport"),
    RESULTS_RUNS,
    ids=[f"{language}-{size['width']}" for language, size in RESULTS_RUNS],
)
def test_the_results_dialog_passes_axe(
    live_server, page: Page, context, axe_source: str, language: str, viewport: dict
):
    """Signed in, a win of an open deal sent from this device's outbox (as the game sends one) and
    verified: the Results chip opens the list with its verdict."""
    player = make_player("mei")
    sign_in(context, live_server.url, player)
    choose_language(context, live_server.url, language)
    page.set_viewport_size(viewport)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/play/{CODE}")
    page.wait_for_selector(READY)
    page.evaluate(
        """([code, log]) => import("/static/frontend/js/sync.js").then((sync) => {
            const times = log.split(" ").map((_, i) => 200 * (i + 1));
            sync.enqueueResult({client_id: crypto.randomUUID(), code, log, move_times_ms: times,
                duration_ms: times.at(-1) + 300, finished_at: new Date().toISOString(),
                client_version: "test", rules: "classic", won: true, moves: times.length});
            dispatchEvent(new Event("online"));  // the page sends waiting results at once
        })""",
        [CODE, " ".join(TOKENS)],
    )
    page.wait_for_function(
        f"""() => {{ const entries = JSON.parse(localStorage.getItem('{OUTBOX_KEY}') ?? '[]');
                    return entries.length === 1 && entries[0].state === 'verified'; }}""",
        timeout=15_000,
    )
    expect(page.locator("[data-results-chip]")).to_be_visible()
    check_dialog(page, axe_source, "results", f"the Results dialog ({language}, {viewport['width']} px wide)")


# Other pages in the other languages: server-rendered words, and the scripts' catalogs.
LANGUAGE_PAGES = [
    ("ms", "/leaderboard", PAGE_READY),
    ("ms", "/accounts/password/reset/", "main form"),
    ("hi", "/help", "main h1"),
    ("hi", "/accounts/login/", "main form"),
    ("tl", "/accounts/signup/", "main form"),
    ("tl", "/leaderboard?deals=open", PAGE_READY),
    ("hi", "/leaderboard?deals=races", PAGE_READY),
]


@pytest.mark.parametrize(
    ("language", "path", "ready"),
    LANGUAGE_PAGES,
    ids=[f"{language}-{path}" for language, path, _ in LANGUAGE_PAGES],
)
def test_pages_in_other_languages_pass_axe(
    live_server, page: Page, context, axe_source: str, language: str, path: str, ready: str
):
    seed_boards()
    choose_language(context, live_server.url, language)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{path}")
    page.wait_for_selector(ready)
    expect(page.locator("html")).to_have_attribute("lang", language)
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, f"{path} ({language}, {PHONE['width']} px wide)")


# --- layout shift while loading ------------------------------------------------------------------

CLS_PAGES = [
    (path, ready, size, signed_in)
    for path, ready, signed_in in [
        ("/", READY, False),
        ("/leaderboard", PAGE_READY, False),
        ("/leaderboard?deals=races", PAGE_READY, True),
        ("/me", PAGE_READY, True),
        ("/help", "main h1", False),
    ]
    for size in (DESKTOP, PHONE)
]


@pytest.mark.parametrize(
    ("path", "ready", "viewport", "signed_in"),
    CLS_PAGES,
    ids=[f"{path}-{size['width']}" for path, _, size, _ in CLS_PAGES],
)
def test_pages_do_not_shift_while_they_load(
    live_server, page: Page, context, path: str, ready: str, viewport: dict, signed_in: bool
):
    annie, _ = seed_boards()
    if signed_in:
        sign_in(context, live_server.url, annie)
    page.set_viewport_size(viewport)
    page.add_init_script(_MEASURE_LAYOUT_SHIFTS)
    page.goto(f"{live_server.url}{path}")
    page.wait_for_selector(ready)
    settle(page, 1.0)
    cls = layout_shift(page)
    print(f"CLS {path} at {viewport['width']}x{viewport['height']}: {cls:.4f}")
    moved = layout_shifts(page)
    assert cls < CLS_LIMIT, f"{path} shifts while it loads: CLS {cls:.4f} (limit {CLS_LIMIT}):\n{moved}"


# --- the race pages (docs/races.md), over ASGI: the lobby and the table need the WebSocket ------------


RACE_ROOM = "[data-race]"


def race_view_is(page: Page, view: str) -> None:
    expect(page.locator(RACE_ROOM)).to_have_attribute("data-race-view", view, timeout=20_000)


def test_the_race_pages_pass_axe_log_no_error_and_do_not_shift(
    asgi_server, page: Page, context, browser, page_problems, axe_source: str, monkeypatch, settings
):
    """A race from its form to its results, in two browsers: Annie in English at 1366 px, Bob in
    Hindi at 360 px. Each view once shown: the form, the lobby (and its layout shifts while it
    loads), the table with the other player's figures, the Leave dialog, the results."""
    settings.RACE_COUNTDOWN_SECONDS = 2
    issue_only(monkeypatch, CODE)
    annie, bob = make_player("annie"), make_player("bob")
    base = asgi_server.url
    sign_in(context, base, annie)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{base}/race")
    page.wait_for_selector("[data-race-form]")
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, "/race (signed in, 1366 px wide)")
    page.locator('[data-race-form] input[name="seats"][value="3"]').check()
    page.locator("[data-race-create]").click()
    race_view_is(page, "lobby")
    race_id = page.locator(RACE_ROOM).get_attribute("data-race-id")

    bob_context = browser.new_context()
    watch_for_problems(bob_context, page_problems, label="bob")
    bob_context.on(
        "console",
        lambda message: (
            message.type == "error" and page_problems.append(f"bob: console error: {message.text}")
        ),
    )
    bob_page = bob_context.new_page()  # first: the language's script is for the pages it opens
    choose_language(bob_context, base, "hi")
    sign_in(bob_context, base, bob)
    bob_page.set_viewport_size(PHONE)
    bob_page.emulate_media(reduced_motion="reduce")
    bob_page.add_init_script(_MEASURE_LAYOUT_SHIFTS)
    bob_page.goto(f"{base}/race/{race_id}")
    race_view_is(bob_page, "lobby")
    expect(bob_page.locator("html")).to_have_attribute("lang", "hi")
    settle(bob_page, 1.0)
    cls = layout_shift(bob_page)
    assert cls < CLS_LIMIT, f"the race's lobby shifts while it loads: CLS {cls:.4f} (limit {CLS_LIMIT})"
    assert_no_axe_violation(bob_page, axe_source, "the lobby (signed in, not seated, hi, 360 px wide)")
    bob_page.locator('[data-race-action="join"]').click()
    expect(page.locator('[data-race-players] [data-player="bob"]')).to_be_visible()
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, "the lobby (the host, two players, 1366 px wide)")

    page.locator('[data-race-action="start"]').click()
    expect(page.locator(RACE_ROOM)).to_have_attribute("data-race-state", "countdown")
    assert_no_axe_violation(page, axe_source, "the countdown (1366 px wide)")
    for each in (page, bob_page):
        race_view_is(each, "table")
    game = Game(CODE)
    play_paced_from_each_card(page, game, TOKENS[:2])
    expect(bob_page.locator('[data-opponent="annie"]')).to_have_attribute("data-moves", str(game.moves_made))
    for each, what in ((page, "1366 px wide"), (bob_page, "hi, 360 px wide")):
        settle(each, 0.3)
        assert_no_axe_violation(each, axe_source, f"the race's table ({what})")

    bob_page.locator('[data-race-action="leave-race"]').click()
    expect(bob_page.locator('[data-dialog="confirm"]')).to_be_visible()
    assert_no_axe_violation(bob_page, axe_source, "the Leave dialog (hi, 360 px wide)")
    bob_page.locator('[data-dialog="confirm"] [data-close="leave"]').click()
    race_view_is(bob_page, "lobby")  # out: the standings, while Annie plays on
    settle(bob_page, 0.3)
    assert_no_axe_violation(bob_page, axe_source, "the standings of a player out (hi, 360 px wide)")
    page.locator('[data-race-action="leave-race"]').click()
    page.locator('[data-dialog="confirm"] [data-close="leave"]').click()
    for each, what in ((page, "1366 px wide"), (bob_page, "hi, 360 px wide")):
        race_view_is(each, "results")
        expect(each.locator("[data-race-places-note]")).to_have_text(
            re.compile("Places are final.|स्थान अंतिम हैं।"), timeout=20_000
        )
        settle(each, 0.3)
        assert_no_axe_violation(each, axe_source, f"the race's results ({what})")
    bob_context.close()


def _other_browser(browser, base: str, page_problems: list[str], *, label: str, language: str, user=None):
    """Another browser (its own cookies) in `language`, signed in as `user` (or signed out); its
    console errors and layout shifts watched as the first page's."""
    other = browser.new_context()
    watch_for_problems(other, page_problems, label=label)
    other.on(
        "console",
        lambda message: (
            message.type == "error" and page_problems.append(f"{label}: console error: {message.text}")
        ),
    )
    other_page = other.new_page()
    choose_language(other, base, language)
    if user is not None:
        sign_in(other, base, user)
    other_page.emulate_media(reduced_motion="reduce")
    other_page.add_init_script(_MEASURE_LAYOUT_SHIFTS)
    return other, other_page


def test_the_challenge_pages_pass_axe_and_log_no_error(
    asgi_server, page: Page, context, browser, page_problems, axe_source: str, monkeypatch
):
    """A challenge (docs/races.md, "Challenges") in four browsers: Annie in English at 1366 px
    creates it from the form and gives up after two moves (the wait); Bob in Hindi at 360 px sees
    the invitation, accepts, plays, opens the give-up dialog and gives up (the results); a visitor
    signed out (Tagalog, 360 px) is asked to sign in; Carol in Malay at 768 px finds it full."""
    issue_only(monkeypatch, CODE)
    annie, bob, carol = make_player("annie"), make_player("bob"), make_player("carol")
    base = asgi_server.url
    sign_in(context, base, annie)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{base}/race?kind=challenge")
    page.wait_for_selector("[data-race-form]")
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, "/race?kind=challenge (signed in, 1366 px wide)")
    page.locator("[data-race-create]").click()
    race_view_is(page, "table")
    race_id = page.locator(RACE_ROOM).get_attribute("data-race-id")
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, "the challenger's table (1366 px wide)")

    visitor, visitor_page = _other_browser(browser, base, page_problems, label="visitor", language="tl")
    visitor_page.set_viewport_size(PHONE)
    visitor_page.goto(f"{base}/race/{race_id}")
    race_view_is(visitor_page, "invite")
    expect(visitor_page.locator("[data-race-sign-in]")).to_be_visible()
    settle(visitor_page, 1.0)
    cls = layout_shift(visitor_page)
    assert cls < CLS_LIMIT, (
        f"the challenge's invitation shifts while it loads: CLS {cls:.4f} (limit {CLS_LIMIT})"
    )
    assert_no_axe_violation(visitor_page, axe_source, "the invitation (signed out, tl, 360 px wide)")
    visitor.close()

    game = Game(CODE)
    play_paced_from_each_card(page, game, TOKENS[:2])
    expect(page.locator(TABLE)).not_to_have_attribute("data-turning", "true")  # no reveal crosses Leave
    page.locator('[data-race-action="leave-race"]').click()
    page.locator('[data-dialog="confirm"] [data-close="leave"]').click()
    race_view_is(page, "waiting")
    settle(page, 0.3)
    assert_no_axe_violation(page, axe_source, "the wait, no one has taken it up (1366 px wide)")

    bob_context, bob_page = _other_browser(browser, base, page_problems, label="bob", language="hi", user=bob)
    bob_page.set_viewport_size(PHONE)
    bob_page.goto(f"{base}/race/{race_id}")
    race_view_is(bob_page, "invite")
    expect(bob_page.locator("html")).to_have_attribute("lang", "hi")
    settle(bob_page, 0.3)
    assert_no_axe_violation(bob_page, axe_source, "the invitation (signed in, hi, 360 px wide)")
    bob_page.locator('[data-race-action="join"]').click()
    race_view_is(bob_page, "table")
    bob_game = Game(CODE)
    play_paced_from_each_card(bob_page, bob_game, TOKENS[:2])
    expect(bob_page.locator(TABLE)).not_to_have_attribute("data-turning", "true")
    settle(bob_page, 0.3)
    assert_no_axe_violation(bob_page, axe_source, "the friend's table (hi, 360 px wide)")

    carol_context, carol_page = _other_browser(
        browser, base, page_problems, label="carol", language="ms", user=carol
    )
    carol_page.set_viewport_size({"width": 768, "height": 1024})
    carol_page.goto(f"{base}/race/{race_id}")
    race_view_is(carol_page, "invite")
    expect(carol_page.locator('[data-race-action="join"]')).to_be_hidden()
    settle(carol_page, 0.3)
    assert_no_axe_violation(carol_page, axe_source, "a challenge with its two players (ms, 768 px wide)")
    carol_context.close()

    bob_page.locator('[data-race-action="leave-race"]').click()
    expect(bob_page.locator('[data-dialog="confirm"]')).to_be_visible()
    assert_no_axe_violation(bob_page, axe_source, "the give-up dialog (hi, 360 px wide)")
    bob_page.locator('[data-dialog="confirm"] [data-close="leave"]').click()
    for each, what in ((page, "1366 px wide"), (bob_page, "hi, 360 px wide")):
        race_view_is(each, "results")
        expect(each.locator("[data-race-places-note]")).to_have_text(
            re.compile("Places are final.|स्थान अंतिम हैं।"), timeout=20_000
        )
        settle(each, 0.3)
        assert_no_axe_violation(each, axe_source, f"the challenge's results ({what})")
    bob_context.close()


def test_the_quick_match_wait_passes_axe_logs_no_error_and_does_not_shift(
    asgi_server, page: Page, context, browser, page_problems, axe_source: str, monkeypatch, artifacts_dir
):
    """Quick match (docs/races.md) on /race, in two browsers that do not pair (other rule sets):
    Annie in English at 1366 px and Bob in Hindi at 360 px each wait, then are offered the
    asynchronous match. The section is in the page from its first paint; the wait and the offer
    shift nothing (the offer comes with no input: its shifts would count)."""
    import races.matching

    # The page offers the asynchronous match when the server's answer says it may (30 s as
    # shipped): the server runs in this process, so here its answer says 2 s.
    monkeypatch.setattr(races.matching, "ASYNCHRONOUS_AFTER_SECONDS", 2)
    annie, bob = make_player("annie"), make_player("bob")
    base = asgi_server.url
    sign_in(context, base, annie)
    bob_context, bob_page = _other_browser(browser, base, page_problems, label="bob", language="hi", user=bob)
    page.add_init_script(_MEASURE_LAYOUT_SHIFTS)
    page.emulate_media(reduced_motion="reduce")
    for each, viewport, rules, what in (
        (page, DESKTOP, "classic", "1366 px wide"),
        (bob_page, PHONE, "relaxed", "hi, 360 px wide"),
    ):
        each.set_viewport_size(viewport)
        each.goto(f"{base}/race")
        quick = each.locator("[data-quick-match]")
        expect(quick).to_be_visible()
        settle(each, 0.5)
        cls = layout_shift(each)
        assert cls < CLS_LIMIT, f"/race shifts while it loads ({what}): CLS {cls:.4f} (limit {CLS_LIMIT})"
        quick.locator(f'input[name="quick_rules"][value="{rules}"]').check()
        quick.locator("[data-quick-find]").click()
        expect(quick).to_have_attribute("data-quick-state", "waiting")
        expect(quick.locator("[data-quick-status]")).to_contain_text("±")
        assert_no_axe_violation(each, axe_source, f"the quick match's wait ({what})")
        before = layout_shift(each)
        expect(quick.locator("[data-quick-offer]")).to_be_visible(timeout=10_000)
        settle(each, 0.5)
        shift = layout_shift(each) - before
        assert shift < CLS_LIMIT, f"the asynchronous offer shifts /race ({what}): {shift:.4f}"
        assert_no_axe_violation(each, axe_source, f"the quick match's asynchronous offer ({what})")
        each.screenshot(path=str(artifacts_dir / f"quick-match-offer-{rules}.png"), full_page=True)
        quick.locator("[data-quick-cancel]").click()
        expect(quick).to_have_attribute("data-quick-state", "idle")
    bob_context.close()
