"""The pages around the game in Chromium: leaderboards, the player's games, replays.

Their data is made through the real services (issue, submit, verify by replay, record on the
boards); the pages must show exactly that. Screenshots of a phone and a desktop go to
test-artifacts/.
"""

import re
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from helpers import (
    BAR,
    assert_shows,
    dealt_as_hidden,
    game_after,
    make_player,
    open_game,
    recorded_win,
    sign_in,
    stoppable_server,  # noqa: F401 (the `server` fixture)
    wait_for_the_worker,
    winning_game,
)
from playwright.sync_api import Page, expect

from daily.models import DailyDeal
from games.engine import Game, verify
from games.issuing.services import game_issue
from games.log_input import SubmissionInput
from games.models import SolvedDeal
from games.solving.par import deal_par_solve
from games.submissions.intake import submission_create

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 768}
GLOBAL_ROWS = '[data-board="global"] [data-entry]'
DEAL_ROWS = '[data-board="deal"] [data-entry]'


def padded(tokens: list[str], extra: int) -> list[str]:
    """The same win `extra` moves longer ("move, undo" pairs first): its score is `extra` lower."""
    return [tokens[0], "U"] * extra + tokens


CODE, TOKENS = winning_game()
CODE = dealt_as_hidden(CODE)  # as hidden-card games deal it: so every win of it shares one deal board
RELAXED = CODE.replace("-C-", "-R-")


def players_on(page: Page, rows: str) -> list[str]:
    return page.locator(rows).evaluate_all("(rows) => rows.map((row) => row.dataset.player)")


def ready(page: Page) -> None:
    page.wait_for_selector('[data-page-status="ready"]')


def shoot(page: Page, artifacts_dir, name: str) -> None:
    """A phone and a desktop screenshot of the page as it is; the page fits the phone's width."""
    for size, suffix in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), (
            f"{name} scrolls sideways"
        )
        page.screenshot(path=artifacts_dir / f"{name}-{suffix}.png", full_page=suffix == "phone")


def test_leaderboard_tabs_hidden_and_open_deals_around_me_daily_deals_and_a_deal_board(
    live_server, page: Page, context, artifacts_dir
):
    annie, bob, carol, dave, emil, fay, gus = (
        make_player(name) for name in ("Annie-42", "bob", "carol", "dave", "emil", "fay", "gus")
    )
    # Hidden-card games: the global boards (and their deal's board).
    recorded_win(annie, CODE, TOKENS, hidden=True)
    recorded_win(bob, CODE, padded(TOKENS, 3), hidden=True)
    recorded_win(emil, CODE, padded(TOKENS, 5), hidden=True)
    recorded_win(fay, CODE, padded(TOKENS, 8), hidden=True)
    recorded_win(carol, RELAXED, TOKENS, hidden=True)
    # Deals whose code was known: the open-deal boards and their deal's board, never the global ones.
    recorded_win(dave, CODE, padded(TOKENS, 1), ranked=False)  # a shared code
    recorded_win(gus, CODE, padded(TOKENS, 2))  # a ranked game issued with its code
    sign_in(context, live_server.url, bob)

    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/leaderboard?page_size=3")
    ready(page)
    board = page.locator('[data-board="global"]')
    expect(board).to_have_attribute("data-count", "4")
    assert players_on(page, GLOBAL_ROWS) == ["Annie-42", "bob", "emil"]
    expect(page.locator(f"{GLOBAL_ROWS}[data-me]")).to_have_attribute("data-player", "bob")
    best = page.locator(GLOBAL_ROWS).first
    expect(best.locator(".rank")).to_have_text("1")
    expect(best.locator(".score")).to_have_text(f"{verify(CODE, TOKENS).score:,}")
    expect(best.locator(".watch a")).to_have_attribute("href", re.compile(r"^/replay/\d+$"))

    # Keyset pages: next, then back.
    page.get_by_role("button", name="Next →").click()
    expect(page.locator(GLOBAL_ROWS)).to_have_count(1)
    assert players_on(page, GLOBAL_ROWS) == ["fay"]
    expect(page.locator(GLOBAL_ROWS).first.locator(".rank")).to_have_text("4")
    page.get_by_role("button", name="← Previous").click()
    expect(page.locator(GLOBAL_ROWS)).to_have_count(3)

    # Tabs: the rule sets and the periods; the address keeps the choice.
    page.get_by_role("button", name="Relaxed").click()
    expect(page.locator(GLOBAL_ROWS)).to_have_count(1)
    assert players_on(page, GLOBAL_ROWS) == ["carol"]
    expect(page).to_have_url(re.compile(r"\?rules=relaxed&page_size=3$"))
    page.get_by_role("button", name="Today").click()
    expect(board).to_have_attribute("data-period", "day")
    assert players_on(page, GLOBAL_ROWS) == ["carol"]
    page.get_by_role("button", name="Classic").click()
    expect(board).to_have_attribute("data-rules", "classic")
    expect(page.locator(GLOBAL_ROWS)).to_have_count(3)
    page.get_by_role("button", name="This week").click()
    expect(board).to_have_attribute("data-period", "week")
    assert players_on(page, GLOBAL_ROWS) == ["Annie-42", "bob", "emil"]

    # Around me: the signed-in player with those above and below, asked for by the name the
    # boards show (a public answer, kept and cacheable), not by the session.
    with page.expect_response(lambda response: "around=" in response.url) as asked:
        page.get_by_role("button", name="Around me").click()
    assert "around=bob" in asked.value.url and asked.value.status == 200
    assert asked.value.headers["cache-control"].startswith("public")
    expect(board).to_have_attribute("data-around", "true")
    expect(page.locator(GLOBAL_ROWS)).to_have_count(4)
    expect(page.locator(f"{GLOBAL_ROWS}[data-me]")).to_have_attribute("data-rank", "2")
    page.get_by_role("button", name="Top").click()
    expect(board).to_have_attribute("data-around", "false")

    # Open deals: the wins of deals whose code was known, on boards of their own; the address keeps it.
    about = page.locator("[data-deals-about]")
    expect(about).to_have_text(re.compile(r"^Hidden-card games: the server showed each face-down card"))
    page.locator('[data-deals-choice="open"]').click()
    expect(board).to_have_attribute("data-deals", "open")
    expect(page.locator('[data-deals-choice="open"]')).to_have_attribute("aria-pressed", "true")
    expect(page).to_have_url(re.compile(r"\?deals=open&period=week&page_size=3$"))
    expect(about).to_have_text(re.compile(r"^Open deals: games whose cards were all known before play"))
    expect(board).to_have_attribute("data-count", "2")
    assert players_on(page, GLOBAL_ROWS) == ["dave", "gus"]
    expect(page.locator(f"{GLOBAL_ROWS}[data-me]")).to_have_count(0)  # bob won a hidden-card game only
    page.get_by_role("button", name="Around me").click()
    expect(board.locator(".board-message")).to_have_text(
        "You have no entry on this board yet: win any deal whose code you know to get one."
    )
    page.get_by_role("button", name="Top").click()
    page.get_by_role("button", name="Relaxed").click()
    expect(board).to_have_attribute("data-rules", "relaxed")
    expect(board.locator(".board-message")).to_have_text(
        "No Relaxed win on an open deal this week yet: the first one takes the top."
    )
    page.get_by_role("button", name="Classic").click()
    page.get_by_role("button", name="All time").click()
    expect(board).to_have_attribute("data-period", "all")
    expect(page.locator(GLOBAL_ROWS)).to_have_count(2)
    assert players_on(page, GLOBAL_ROWS) == ["dave", "gus"]
    page.locator('[data-deals-choice="hidden"]').click()
    expect(board).to_have_attribute("data-deals", "hidden")
    expect(page).to_have_url(re.compile(r"/leaderboard\?page_size=3$"))
    expect(board).to_have_attribute("data-count", "4")
    assert players_on(page, GLOBAL_ROWS) == ["Annie-42", "bob", "emil"]

    # Today's deals, each with Play (a hidden-card game: no code on the page) and its day's board.
    expect(page.locator("[data-daily-deals] [data-daily]")).to_have_count(2)
    daily = {deal.rules: deal.code for deal in DailyDeal.objects.all()}
    for rules, code in daily.items():
        card = page.locator(f'[data-daily="{rules}"]')
        expect(card.locator(".code")).to_have_text("Hidden deal")
        expect(card.get_by_role("link", name="Play")).to_have_attribute("href", f"/?daily={rules}")
        assert code not in page.content()
    daily_board = page.locator('[data-board="daily"]')
    expect(daily_board).to_be_hidden()  # until asked for: shown at once, it would shift the page
    page.locator('[data-daily="classic"]').get_by_role("button", name="Board").click()
    expect(daily_board).to_have_attribute("data-rules", "classic")
    expect(page.locator("[data-daily-board-title]")).to_contain_text("Classic daily deal, ")
    expect(daily_board.locator(".board-message")).to_contain_text("No win on today's Classic daily deal yet")
    page.locator('[data-daily="relaxed"]').get_by_role("button", name="Board").click()
    expect(daily_board).to_have_attribute("data-rules", "relaxed")
    relaxed_board = page.locator('[data-daily="relaxed"] [data-daily-board]')
    expect(relaxed_board).to_have_attribute("aria-pressed", "true")
    expect(daily_board.locator(".board-message")).to_contain_text("No win on today's Relaxed daily deal yet")

    # A deal's board by its code: hidden-card games and open deals alike, with the solver's
    # verdict and par once it has searched the deal.
    assert deal_par_solve(code=CODE, time_limit=5.0).result == "won"
    field = page.locator("[data-deal-input]")
    field.fill("YU1-X-AAAAAAB")
    field.press("Enter")
    expect(page.locator("[data-deal-error]")).to_contain_text("rule letter")
    field.fill(CODE.lower())
    field.press("Enter")
    expect(page.locator('[data-board="deal"]')).to_have_attribute("data-count", "6")
    assert players_on(page, DEAL_ROWS) == ["Annie-42", "dave", "gus"]
    expect(page.locator('[data-deal-facts] [data-fact="players"] dd')).to_have_text("6")
    expect(page.locator('[data-deal-facts] [data-fact="won"] dd')).to_have_text("6")
    expect(page.locator('[data-deal-facts] [data-fact="winnable"] dd')).to_have_text("Yes")
    expect(page.locator('[data-deal-facts] [data-fact="par"] dd')).to_have_text(re.compile(r"^\d+$"))
    expect(page.locator("[data-deal-play]")).to_have_attribute("href", f"/play/{CODE}")
    page.goto(f"{live_server.url}/leaderboard?deal={CODE}")
    ready(page)
    expect(page.locator(DEAL_ROWS)).to_have_count(6)
    expect(page.locator(GLOBAL_ROWS)).to_have_count(4)
    page.goto(f"{live_server.url}/leaderboard?deals=open&deal={CODE}")  # a shared address keeps the choice
    ready(page)
    expect(board).to_have_attribute("data-deals", "open")
    expect(page.locator(GLOBAL_ROWS)).to_have_count(2)
    shoot(page, artifacts_dir, "leaderboard")


def chips(places) -> dict[str, str]:
    """A list of rank chips (/me) as period → rank ("" without an entry)."""
    expect(places.locator("li[data-period]")).to_have_count(4)
    return places.locator("li[data-period]").evaluate_all(
        "(items) => Object.fromEntries(items.map((li) => [li.dataset.period, li.dataset.rank]))"
    )


def submit_unfinished(user, tokens: list[str]) -> None:
    """A ranked game left after a few moves: submitted, verified, not won."""
    from django.test import TestCase

    from games.issuing.dealing import known_deals

    with known_deals([CODE]):
        game = game_issue(user=user, rules="classic", now=timezone.now() - timedelta(hours=1))[0]
    times = [400 * (index + 1) for index in range(len(tokens))]
    data = SubmissionInput(
        client_id=uuid.uuid4(), game_id=game.pk, code=None, log=" ".join(tokens), move_times_ms=times,
        duration_ms=times[-1], finished_at=timezone.now(),
    )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission_create(user=user, data=data)


def test_me_shows_the_players_figures_ranks_on_hidden_and_open_boards_and_games(
    live_server, page: Page, context, artifacts_dir
):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/me")
    ready(page)
    prompt = page.locator("[data-me-signed-out]")
    expect(prompt).to_be_visible()
    expect(prompt.get_by_role("link", name="Sign in")).to_have_attribute("href", "/accounts/login/?next=/me")
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts_dir / "me-signed-out-phone.png")

    annie = make_player("Annie-42")
    won = recorded_win(annie, CODE, TOKENS, hidden=True)  # the global (hidden-card) boards
    submit_unfinished(annie, TOKENS[:6])
    recorded_win(annie, RELAXED, TOKENS, ranked=False)  # by its code: the open-deal boards
    sign_in(context, live_server.url, annie)
    page.reload()
    ready(page)
    expect(page.locator("[data-me-title]")).to_have_text("Annie-42")
    classic = page.locator('[data-rules-figures="classic"]')
    figures = {
        key: classic.locator(f'[data-figure="{key}"]').inner_text()
        for key in ("best_score", "ranked_wins", "win_rate", "fewest_moves", "current_streak", "best_streak")
    }
    assert figures == {
        "best_score": f"{won.score:,}",
        "ranked_wins": "1",
        "win_rate": "50%",
        "fewest_moves": str(won.moves),
        "current_streak": "0",  # the win, then a game left unfinished
        "best_streak": "1",
    }
    expect(classic.locator(".figures-from")).to_have_text(
        "From your ranked games, as the server verified them (a game left unfinished counts as played)."
    )
    expect(classic.locator('[data-figure="ranked_games_finished"]')).to_have_text("2")
    # Places now: first on each hidden-card board of Classic, on no open-deal board of it.
    hidden, opened = (
        classic.locator('ul.rank-chips[data-deals="hidden"]'),
        classic.locator('ul.rank-chips[data-deals="open"]'),
    )
    assert chips(hidden) == {"all": "1", "season": "1", "week": "1", "day": "1"}
    assert chips(opened) == {"all": "", "season": "", "week": "", "day": ""}
    expect(hidden.locator('[data-period="all"] a')).to_have_attribute(
        "href", "/leaderboard?rules=classic&period=all&around=me"
    )
    expect(hidden.locator('[data-period="all"] strong')).to_have_text("#1")
    expect(opened.locator('[data-period="all"] strong')).to_have_text("—")
    expect(opened.locator('[data-period="all"] a')).to_have_attribute(
        "href", "/leaderboard?deals=open&rules=classic&period=all&around=me"
    )
    relaxed = page.locator('[data-rules-figures="relaxed"]')
    expect(relaxed.locator('[data-figure="unranked_wins"]')).to_have_text("1")
    expect(relaxed.locator('[data-figure="best_score"]')).to_have_text("—")
    # The Relaxed win by its code: first on each open-deal board of Relaxed, on no hidden-card board.
    hidden, opened = (
        relaxed.locator('ul.rank-chips[data-deals="hidden"]'),
        relaxed.locator('ul.rank-chips[data-deals="open"]'),
    )
    assert chips(hidden) == {"all": "", "season": "", "week": "", "day": ""}
    assert chips(opened) == {"all": "1", "season": "1", "week": "1", "day": "1"}
    expect(opened.locator('[data-period="week"] a')).to_have_attribute(
        "href", re.compile(r"^/leaderboard\?deals=open&rules=relaxed&period=week&around=me$")
    )
    expect(opened.locator('[data-period="week"] strong')).to_have_text("#1")

    games = page.locator("[data-history] [data-submission]")
    expect(games).to_have_count(3)
    results = games.evaluate_all("(items) => items.map((item) => item.dataset.result)")
    assert results == ["won", "lost", "won"]  # newest first
    expect(games.nth(2).get_by_role("link", name="Watch")).to_have_attribute("href", f"/replay/{won.pk}")
    expect(games.nth(1).get_by_role("link", name="Watch")).to_have_count(0)
    shoot(page, artifacts_dir, "me")


def test_a_replay_plays_a_recorded_win_to_the_end(live_server, page: Page, artifacts_dir):
    annie = make_player("Annie-42")
    win = recorded_win(annie, CODE, TOKENS, gap_ms=160)
    # The deal's par as the solver would store it: three moves fewer than this win.
    SolvedDeal.objects.update_or_create(
        code=CODE,
        defaults={"rules": "classic", "result": "won", "par": len(TOKENS) - 3, "solved_at": timezone.now()},
    )
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/replay/{win.pk}")
    replay = page.locator("[data-replay]")
    expect(replay).to_have_attribute("data-replay-status", "paused")
    expect(replay).to_have_attribute("data-steps", str(len(TOKENS)))
    expect(page.locator("[data-replay-info]")).to_contain_text("Annie-42")
    expect(page.locator("[data-replay-info]")).to_contain_text(f"· 3 more than par ({len(TOKENS) - 3})")
    assert_shows(page, Game(CODE))

    # Step forward and back, by the buttons and the keys.
    page.get_by_role("button", name="One move forward").click()
    page.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-step", "2")
    page.get_by_role("button", name="One move back").click()
    expect(replay).to_have_attribute("data-step", "1")
    assert_shows(page, game_after(CODE, TOKENS[:1]))

    # At 4×, real timing: 160 ms a move becomes 40 ms; the end is the engine's won position.
    page.get_by_role("button", name="4×").click()
    page.get_by_role("button", name="Play").click()
    expect(replay).to_have_attribute("data-replay-status", "playing")
    page.wait_for_timeout(1200)
    page.get_by_role("button", name="Pause").click()
    expect(replay).to_have_attribute("data-replay-status", "paused")
    step = int(replay.get_attribute("data-step"))
    assert 5 < step < len(TOKENS)
    assert_shows(page, game_after(CODE, TOKENS[:step]))
    shoot(page, artifacts_dir, "replay")
    page.get_by_role("button", name="Play").click()
    expect(replay).to_have_attribute("data-replay-status", "ended", timeout=20_000)
    final = game_after(CODE, TOKENS)
    assert final.is_won()
    assert_shows(page, final)
    assert page.locator("[data-foundations] [data-card]").count() == 4
    assert page.locator("[data-column] [data-card]").count() == 0  # all 52 cards on the foundations
    expect(page.locator(BAR)).to_have_attribute("data-score", str(win.score))

    page.get_by_role("button", name="Back to the deal").click()
    expect(replay).to_have_attribute("data-step", "0")
    assert_shows(page, Game(CODE))

    page.goto(f"{live_server.url}/replay/999999")
    expect(page.locator("[data-replay-message]")).to_contain_text("no such win")


def test_a_race_or_a_replay_that_is_not_there_answers_404_with_its_friendly_page(live_server, page: Page):
    """Before, both answered 200; and the service worker, which serves its cached shell for any
    answer that is not OK, would have hidden a 404 behind the shell of a page that is there."""
    open_game(page, live_server.url, CODE)
    wait_for_the_worker(page)
    for path, view, words, kept in [
        ("/race/NOPE12345", "[data-race-missing]", "There is no such race.", False),
        ("/replay/99999", "[data-replay-message]", "no such win", True),  # a page the worker keeps
    ]:
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 404, path
        assert response.from_service_worker == kept, "the worker passes the 404 through"
        expect(page.locator(view)).to_be_visible()
        expect(page.locator(view)).to_contain_text(words)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_the_pages_open_offline_and_say_their_data_needs_a_connection(server, page: Page, artifacts_dir):
    open_game(page, server.url, CODE)
    wait_for_the_worker(page)
    server.stop()

    page.goto(f"{server.url}/leaderboard")
    expect(page.locator("[data-offline]")).to_be_visible()
    expect(page.locator('[data-board="global"] .board-message')).to_have_text(
        "This board needs a connection."
    )
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts_dir / "leaderboard-offline-phone.png")
    page.goto(f"{server.url}/replay/12")
    expect(page.locator("[data-replay-message]")).to_contain_text("needs a connection")
    page.goto(f"{server.url}/play/{CODE}")  # and the game still plays
    expect(page.locator(BAR)).to_have_attribute("data-code", CODE)
