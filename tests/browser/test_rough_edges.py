"""What a new player met on the race and leaderboard pages, in Chromium on the shipped settings:
a player out of a race shows no online dot; the race table's Finish (button and E, each move a
tap); the boards' heading names the boards shown, in four languages; a short board ends where
its rows end; today's daily deal, once played, says so with its board and the player's replay;
Tagalog pages say Code, Commitment and Board in Tagalog; the header shows a phone player's whole
name, and /me's title keeps it whole; a tab pressed before the leaderboard's script has run is not lost.

Screenshots: test-artifacts/leaderboard-short-{360,1366}.png, header-name-360.png, me-title-{12,20}-360.png,
race-finish-1366.png, leaderboard-daily-played-360.png.
"""

import re
import uuid
from datetime import timedelta

import pytest
from helpers import (
    BAR,
    asgi_server_fixture,  # noqa: F401 (the asgi_server fixture)
    finish_offered_after,
    issue_only,
    make_player,
    recorded_win,
    sign_in,
    wait_for_moves,
    winning_game,
)
from layout import choose_language
from playwright.sync_api import Page, expect
from race_pages import create_race, finished_race, opponent, play_tokens, player_item, second_player, view_is

from games.engine import Game

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("short_race_countdown")]

CODE, TOKENS = winning_game()
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
PAGE_READY = '[data-page-status="ready"]'
FINISH = '[data-action="finish"]'
# The board's own height under its last part (the pager): room kept for rows that are not there.
EMPTY_UNDER_ROWS = """(board) =>
  board.getBoundingClientRect().bottom - board.lastElementChild.getBoundingClientRect().bottom"""
HEADINGS = {
    "en": {"hidden": "Ranked boards", "open": "Open-deal boards", "races": "Race ratings"},
    "ms": {"hidden": "Papan berkedudukan", "open": "Papan agihan terbuka", "races": "Penarafan perlumbaan"},
    "hi": {"hidden": "रैंक वाले बोर्ड", "open": "खुली बाज़ियों के बोर्ड", "races": "रेस रेटिंग"},
    "tl": {
        "hidden": "Mga ranked na talaan",
        "open": "Mga talaan ng bukas na balasa",
        "races": "Mga rating sa karera",
    },
}


def race_at_the_tables(asgi_server, page: Page, context, browser, page_problems, monkeypatch):
    """Annie (this page, desktop) and Bob (a phone) at their tables of a race of three seats."""
    base = asgi_server.url
    issue_only(monkeypatch, CODE)
    annie, bob = make_player("annie"), make_player("bob")
    sign_in(context, base, annie)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(reduced_motion="reduce")
    race_id = create_race(page, base, seats=3)
    bob_context, bob_page = second_player(browser, base, bob, page_problems)
    bob_page.set_viewport_size(PHONE)
    bob_page.goto(f"{base}/race/{race_id}")
    view_is(bob_page, "lobby")
    bob_page.locator('[data-race-action="join"]').click()
    expect(player_item(page, "bob")).to_be_visible()
    page.locator('[data-race-action="start"]').click()
    for each in (page, bob_page):
        view_is(each, "table")
    return bob_context, bob_page


def test_a_player_who_left_a_race_shows_no_online_dot(
    asgi_server, page: Page, context, browser, page_problems, monkeypatch
):
    bob_context, bob_page = race_at_the_tables(
        asgi_server, page, context, browser, page_problems, monkeypatch
    )
    bob_page.locator('[data-race-action="leave-race"]').click()
    bob_page.locator('[data-dialog="confirm"] [data-close="leave"]').click()
    view_is(bob_page, "lobby")  # watching the others, out
    bob = player_item(bob_page, "bob")
    expect(bob).to_have_attribute("data-status", "out")
    expect(bob).to_have_attribute("data-connected", "true")  # still on the page, watching
    expect(bob.locator(".race-dot")).to_be_hidden()
    expect(opponent(page, "bob")).to_have_attribute("data-status", "out")
    expect(opponent(page, "bob").locator(".race-dot")).to_be_hidden()
    expect(player_item(bob_page, "annie").locator(".race-dot")).to_be_visible()  # still racing, online
    bob_context.close()


def test_the_race_table_offers_finish_and_its_moves_count_as_taps(
    asgi_server, page: Page, context, browser, page_problems, monkeypatch, artifacts_dir
):
    bob_context, bob_page = race_at_the_tables(
        asgi_server, page, context, browser, page_problems, monkeypatch
    )
    game = Game(CODE)
    first = finish_offered_after(CODE, TOKENS)
    play_tokens(page, game, TOKENS[:first])
    left = len(game.finish_moves())
    assert left >= 3, "the win offers Finish too late to stop it"
    finish = page.locator(FINISH)
    expect(finish).to_be_visible()
    expect(finish).to_have_text("Finish")
    page.screenshot(path=str(artifacts_dir / "race-finish-1366.png"))
    page.keyboard.press("e")  # E starts it, Escape stops it, the button goes on
    expect(finish).to_have_attribute("data-finish-state", "running")
    page.keyboard.press("Escape")
    expect(finish).to_have_attribute("data-finish-state", "ready")
    finish.click()
    total = game.moves_made + left
    wait_for_moves(page, total)
    expect(page.locator("[data-race-note]")).to_have_text("You finished: waiting for the others.")
    expect(finish).to_be_hidden()
    # Each move went to the race like a tap's: the other player sees them all, and the win.
    expect(opponent(bob_page, "annie")).to_have_attribute("data-moves", str(total))
    expect(opponent(bob_page, "annie")).to_have_attribute("data-foundation-cards", "52")
    expect(opponent(bob_page, "annie")).to_have_attribute("data-status", "finished")
    assert page.locator(BAR).get_attribute("data-moves") == str(total)
    bob_context.close()


@pytest.mark.parametrize("language", ["en", "ms", "hi", "tl"])
def test_the_boards_heading_names_the_boards_shown(live_server, page: Page, context, language):
    choose_language(context, live_server.url, language)
    page.goto(f"{live_server.url}/leaderboard")
    page.wait_for_selector(PAGE_READY)
    heading = page.locator("#global-title")
    expect(heading).to_have_text(HEADINGS[language]["hidden"])
    for deals in ("open", "races", "hidden"):
        page.locator(f'[data-deals-choice="{deals}"]').click()
        expect(heading).to_have_text(HEADINGS[language][deals])
    page.goto(f"{live_server.url}/leaderboard?deals=open")
    page.wait_for_selector(PAGE_READY)
    expect(heading).to_have_text(HEADINGS[language]["open"])


def test_a_short_board_ends_where_its_rows_end(live_server, page: Page, artifacts_dir):
    for index, name in enumerate(["annie", "bob", "carol"]):
        recorded_win(make_player(name), CODE, TOKENS, hidden=True, gap_ms=160 + index)
    for width, height in ((360, 740), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/leaderboard")
        page.wait_for_selector(PAGE_READY)
        board = page.locator('[data-board="global"]')
        expect(board.locator("[data-entry]")).to_have_count(3)
        gap = board.evaluate(EMPTY_UNDER_ROWS)
        page.screenshot(path=str(artifacts_dir / f"leaderboard-short-{width}.png"), full_page=True)
        assert gap <= 1, f"{gap:.0f} px of empty board under the last row at {width} px"


def daily_win(user) -> int:
    """`user`'s win of today's classic daily deal (the known winning deal), verified: its id."""
    from django.test import TestCase
    from django.utils import timezone

    from daily.services import daily_deal_pick, daily_game_issue
    from games.engine import GameCode, Move
    from games.hidden.reveals import game_reveal
    from games.issuing.dealing import known_deals
    from games.log_input import SubmissionInput
    from games.submissions.intake import submission_create

    now = timezone.now()
    # Issued 20 minutes ago, but today: just after midnight, at midnight, and won 2 minutes on.
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    issued_at = max(now - timedelta(minutes=20), midnight)
    now = max(now, issued_at + timedelta(minutes=2))
    with known_deals([GameCode.parse(CODE)]):
        daily_deal_pick(date=now.date(), rules="classic")
    game, _ = daily_game_issue(user=user, rules="classic", now=issued_at)
    times = [300 * (index + 1) for index in range(len(TOKENS))]
    replay = Game(CODE)
    for length, token in enumerate(TOKENS, start=1):
        before = replay.face_down
        replay.push(Move.parse(token))
        if replay.face_down != before:
            received = issued_at + timedelta(milliseconds=5_000 + times[length - 1] + 40)
            game_reveal(user=user, game_id=game.pk, log=" ".join(TOKENS[:length]),
                        move_times_ms=times[:length], now=received)  # fmt: skip
    data = SubmissionInput(
        client_id=uuid.uuid4(), game_id=game.pk, code=None, log=" ".join(TOKENS),
        move_times_ms=times, duration_ms=times[-1] + 500, finished_at=now,
    )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission, _ = submission_create(user=user, data=data, now=now)
    submission.refresh_from_db()
    assert (submission.status, submission.won) == ("verified", True), submission.reason
    return submission.pk


def test_the_daily_deal_played_today_says_played_with_its_board_and_replay(
    live_server, page: Page, context, artifacts_dir
):
    annie = make_player("annie")
    won = daily_win(annie)
    sign_in(context, live_server.url, annie)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/leaderboard")
    page.wait_for_selector(PAGE_READY)
    classic = page.locator('[data-daily="classic"]')
    expect(classic.locator("[data-daily-played]")).to_have_text("Played")
    expect(classic.locator("[data-daily-played]")).to_have_attribute("href", "/?daily=classic")
    expect(classic.locator("[data-daily-play]")).to_have_count(0)
    expect(classic.locator("[data-daily-replay]")).to_have_attribute("href", f"/replay/{won}")
    relaxed = page.locator('[data-daily="relaxed"]')
    expect(relaxed.locator("[data-daily-play]")).to_have_text("Play")  # not played: still Play
    expect(relaxed.locator("[data-daily-played]")).to_have_count(0)
    classic.locator("[data-daily-board]").click()
    expect(page.locator('[data-board="daily"] [data-entry]')).to_have_count(1)
    page.screenshot(path=str(artifacts_dir / "leaderboard-daily-played-360.png"), full_page=True)
    expect(classic.locator("[data-daily-replay]")).to_have_text("Watch your win")
    classic.locator("[data-daily-replay]").click()
    page.wait_for_url(f"**/replay/{won}")


def test_tagalog_pages_say_code_commitment_and_board_in_tagalog(live_server, page: Page, context):
    race = finished_race([make_player("annie"), make_player("bob")], CODE, TOKENS)
    choose_language(context, live_server.url, "tl")
    page.goto(f"{live_server.url}/race/{race.public_id}")
    view_is(page, "results")
    facts = page.locator("[data-race-deal] dt")
    expect(facts).to_have_count(3)
    shown = facts.all_inner_texts()
    assert "Code" not in shown and "Commitment" not in shown, shown
    page.goto(f"{live_server.url}/leaderboard")
    page.wait_for_selector(PAGE_READY)
    expect(page.locator('[data-daily="classic"] [data-daily-board]')).not_to_have_text("Board")
    nav = page.locator(".site-nav").inner_text()
    assert not re.search(r"\bBoards?\b", nav), nav


def test_the_header_shows_a_players_whole_name_on_a_phone(live_server, page: Page, context, artifacts_dir):
    player = make_player("annabelle_fitzgerald")
    sign_in(context, live_server.url, player)
    for path in ("/leaderboard", "/"):
        page.set_viewport_size(PHONE)
        page.goto(f"{live_server.url}{path}")
        who = page.locator(".site-nav .who")
        expect(who).to_have_text(player.public_name)
        cut = who.evaluate(
            "(who) => who.scrollWidth > who.clientWidth + 1 || who.getBoundingClientRect().right > innerWidth"
        )
        assert not cut, f"the name is cut on {path}"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator(".site-header").screenshot(path=str(artifacts_dir / "header-name-360.png"))


def test_a_players_page_title_keeps_their_name_whole_on_a_phone(live_server, browser, artifacts_dir):
    """/me's title is the player's name, beside "Back to the game": a name that fits the row is
    never broken inside it (the button takes a row of its own); the widest name allowed (20 W's)
    wraps inside the page rather than widen it."""
    for name, fits in (("walker33942a", True), ("W" * 20, False)):
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        sign_in(context, live_server.url, make_player(name))
        page.goto(f"{live_server.url}/me")
        title = page.locator("[data-me-title]")
        expect(title).to_have_text(name)
        lines = title.evaluate(
            """(h) => { const r = document.createRange(); r.selectNodeContents(h);
                return new Set([...r.getClientRects()].map((line) => Math.round(line.top))).size; }"""
        )
        if fits:
            assert lines == 1, f"{name} is broken over {lines} lines"
        assert title.evaluate("(h) => h.getBoundingClientRect().right") <= PHONE["width"]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        page.locator(".page-head").screenshot(path=str(artifacts_dir / f"me-title-{len(name)}-360.png"))
        context.close()


def test_a_tab_pressed_before_the_leaderboards_script_has_run_is_not_lost(live_server, page: Page):
    held = []

    def hold(route) -> None:
        held.append(route)  # answered below, once the tab was pressed

    page.route(re.compile(r".*/frontend/js/leaderboard(\.[0-9a-f]+)?\.js$"), hold)
    page.goto(f"{live_server.url}/leaderboard", wait_until="commit")
    tab = page.locator('[data-deals-choice="open"]')
    expect(tab).to_be_visible()
    assert held and page.locator("html").get_attribute("data-page-status") is None
    tab.click()
    for route in held:
        route.continue_()
    page.wait_for_selector(PAGE_READY)
    expect(tab).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-board="global"]')).to_have_attribute("data-deals", "open")
    expect(page).to_have_url(re.compile(r"\?deals=open$"))
