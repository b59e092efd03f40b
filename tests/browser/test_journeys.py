"""Player journeys, end to end: Chromium against the site as README starts it.

One server process for the module (`make run` on a fresh SQLite file, or `make stack` on a fresh
PostgreSQL database and a Redis database of its own when REDIS_URL is set), on the settings it
ships with, the server's code as it is. Players sign up and in through the forms and
play by pointer gestures 200–300 ms apart; the winning lines come from the project's solver on
the deal the page shows. Every check goes through the pages (and what they ask of the API).
The harness is journeys.py; screenshots go to test-artifacts/journey-*.png, the server's output
to test-artifacts/journey-server-<run|stack>.log.
"""

import os
import re
import zlib
from dataclasses import dataclass
from urllib.parse import urlparse

import pytest
from helpers import BAR, READY, TABLE, WIN, assert_shows, game_after, wait_for_moves, wait_for_the_worker
from journeys import (
    ARTIFACTS_DIR,
    DEAL_BOARD,
    GLOBAL_BOARD,
    NAV,
    SLOW_MS,
    VERDICT,
    VERDICT_MS,
    Deal,
    JourneyServer,
    Pace,
    Player,
    banner_ranks,
    deal_on_table,
    first_moves,
    journey_stack_data,
    leave_ranked_game,
    me_figures,
    me_history,
    new_player,
    open_deal_board,
    open_results,
    outbox_entry_of_game,
    page_move_times,
    play_line,
    rank_of_period,
    ready,
    row_of,
    settled_verdict,
    shot,
    show_period,
    sign_in_from_me,
    sign_up,
    stop_process,
    wait_for_a_ranked_deal,
    wait_until_settled,
    winning_line,
)
from playwright.sync_api import Page, expect
from race_pages import create_race, opponent, view_is
from watch import let_pages_report, watch_for_problems

from games.engine import DEAL_COUNT, Game, Rules, format_code, verify

pytestmark = [pytest.mark.browser, pytest.mark.journey]

PERIODS = ("all", "season", "week", "day")
MAX_DEALS = 5  # ranked deals tried before one the solver wins
LEFT_AFTER = 4  # moves of a game left unfinished


@pytest.fixture(scope="module")
def journey_server(tmp_path_factory):
    """`make stack` when REDIS_URL is set (a fresh database `yukon_journey`, Redis database
    REDIS_URL's + 1), else `make run` on a fresh SQLite file; stopped with its process group."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    if os.environ.get("REDIS_URL"):
        target, data = "stack", journey_stack_data()
    else:
        target = "run"
        data = {"DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('journey') / 'journey.sqlite3'}"}
    log_path = ARTIFACTS_DIR / f"journey-server-{target}.log"
    log_path.write_text("")
    server = JourneyServer(target=target, data=data, log_path=log_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def pace(request) -> Pace:
    """A human pace, seeded by the test's name (the same draws every run)."""
    seed = zlib.crc32(request.node.nodeid.encode())
    print(f"pace seed {seed}")
    return Pace(seed)


@dataclass
class LeftGame:
    deal: Deal
    moves: int


def leave_after_a_few_moves(page: Page, deal: Deal, pace: Pace) -> LeftGame:
    """A few moves of the ranked deal on the table, then New deal → "Submit and leave"."""
    game = Game(deal.code)
    play_line(page, game, first_moves(deal.code, LEFT_AFTER), pace)
    leave_ranked_game(page)
    expect(page.locator(BAR)).not_to_have_attribute("data-game-id", deal.game_id, timeout=SLOW_MS)
    return LeftGame(deal, game.moves_made)


def take_a_winnable_ranked_deal(
    page: Page, server: JourneyServer, pace: Pace, left: list[LeftGame]
) -> tuple[Deal, list[str]]:
    """The ranked hidden-card game on the table, if the solver wins its deal (read from the
    server's database: the page never has it); otherwise it is left unfinished (and goes into
    `left`) and the next one is tried."""
    deal = wait_for_a_ranked_deal(page, server)
    for _ in range(MAX_DEALS):
        tokens = winning_line(deal.code)
        if tokens:
            return deal, tokens
        print(f"no win found for {deal.code}: left unfinished after {LEFT_AFTER} moves")
        left.append(leave_after_a_few_moves(page, deal, pace))
        deal = wait_for_a_ranked_deal(page, server, not_game=deal.game_id)
    pytest.fail(f"the solver won none of {MAX_DEALS} ranked deals")


def win(page: Page, deal: Deal, tokens: list[str], pace: Pace, *, reload_after: int | None = None) -> int:
    """The deal on the table won by gestures; the banner opens. Returns the page's ranked score.
    `reload_after`: the page is reloaded after that many moves, and the game must go on from
    where it was (its moves, and the cards the server turned up)."""
    bar = page.locator(BAR)
    # The deal the line was found for: a hidden-card game's code is on no page until it is over.
    expect(bar).to_have_attribute("data-code", "" if deal.hidden else deal.code)
    if deal.game_id:
        expect(bar).to_have_attribute("data-game-id", deal.game_id)
    wait_for_moves(page, 0)
    game = Game(deal.code)
    if reload_after is None:
        play_line(page, game, tokens, pace)
    else:
        play_line(page, game, tokens[:reload_after], pace)
        expect(page.locator(TABLE)).to_have_attribute("data-turning", "false")  # no card on its way
        page.reload()
        page.wait_for_selector(READY, timeout=SLOW_MS)
        expect(bar).to_have_attribute("data-game-id", deal.game_id)
        wait_for_moves(page, reload_after)
        assert_shows(page, game, hidden=deal.hidden)
        shot(page, "ranked-resumed")
        play_line(page, game, tokens[reload_after:], pace)
    assert game.is_won()
    expect(page.locator(WIN)).to_be_visible()
    times = page_move_times(page)
    gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
    print(
        f"{deal.code}: {len(tokens)} moves; the page's clock at the first moves {times[:3]} ms, "
        f"gaps {min(gaps, default=0)}–{max(gaps, default=0)} ms"
    )
    return int(page.locator(BAR).get_attribute("data-score"))


def check_verified(page: Page, name: str, what: str) -> dict[str, int]:
    """The banner's verdict once settled (screenshot `journey-<name>.png`); it must be verified.
    Returns its ranks."""
    state, words = settled_verdict(page, VERDICT_MS)
    shot(page, name)
    assert state == "verified", f"the server did not verify {what}: the banner says {words!r}"
    return banner_ranks(page)


def check_not_on_ranked_boards(page: Page, base_url: str, player: Player) -> None:
    """/leaderboard around the player, each period: no entry (an unranked win only)."""
    page.goto(f"{base_url}/leaderboard?around=me")
    ready(page)
    board = page.locator(GLOBAL_BOARD)
    expect(board).to_have_attribute("data-around", "true")
    for period in PERIODS:
        show_period(page, period)
        expect(board).to_have_attribute("data-state", "empty")
        expect(board.locator(".board-message")).to_have_text(
            "You have no entry on this board yet: win a ranked deal to get one."
        )
        expect(row_of(page, GLOBAL_BOARD, player)).to_have_count(0)


def check_on_deal_board(page: Page, base_url: str, player: Player, code: str, rank: int, score: int) -> None:
    open_deal_board(page, base_url, code)
    row = row_of(page, DEAL_BOARD, player)
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-me", "")
    expect(row).to_have_attribute("data-rank", str(rank))
    expect(row.locator(".score")).to_have_text(f"{score:,}")


def check_on_ranked_boards(
    page: Page, base_url: str, player: Player, ranks: dict, score: int, name: str, *, deals: str = "hidden"
) -> None:
    """/leaderboard, Classic, all time / this week / today, of hidden-card games (or of open
    deals): the player's row at the banner's rank (screenshots journey-<name>-<period>.png)."""
    page.goto(f"{base_url}/leaderboard" + ("?deals=open" if deals == "open" else ""))
    ready(page)
    expect(page.locator(f'[data-deals-choice="{deals}"]')).to_have_attribute("aria-pressed", "true")
    for period in PERIODS:
        show_period(page, period)
        row = row_of(page, GLOBAL_BOARD, player)
        expect(row).to_have_count(1)
        expect(row).to_have_attribute("data-me", "")
        expect(row).to_have_attribute("data-rank", str(rank_of_period(ranks, "classic", period, deals=deals)))
        expect(row.locator(".score")).to_have_text(f"{score:,}")
        shot(page, f"{name}-{period}")


def test_ranked_journey_sign_up_win_boards_me_replay_a_second_device_and_a_game_left(
    journey_server: JourneyServer, page: Page, context, browser, page_problems: list[str], pace: Pace
):
    """Sign up from the header; take a ranked hidden-card game; win it by taps and drags (the
    page reloaded halfway: the game goes on where it was); the banner shows the verified result,
    its ranks and the deal checked against the server's commitment; the player is on
    /leaderboard (all, week, day) and on the deal's board; /me shows the personal best and the
    games; the replay plays the win; a second browser signed in through the form sees the same.
    A ranked game left after a few moves (a deal the solver could not win, else the next deal,
    deliberately) is recorded as played: verified, not won.

    Screenshots: journey-ranked-signed-up, journey-ranked-resumed (after a reload mid-game),
    journey-ranked-win, journey-ranked-left-results,
    journey-ranked-board-all / -week / -day, journey-ranked-deal-board, journey-ranked-me,
    journey-ranked-replay, journey-ranked-second-device-me (.png).
    """
    url = journey_server.url
    player = new_player("ranked")
    sign_up(page, url, player)
    wait_for_a_ranked_deal(page, journey_server)
    shot(page, "ranked-signed-up")

    left: list[LeftGame] = []
    deal, tokens = take_a_winnable_ranked_deal(page, journey_server, pace, left)
    score = win(page, deal, tokens, pace, reload_after=len(tokens) // 2)  # a reload mid-game
    banner = page.locator(WIN)
    expect(banner.locator('[data-win="score"]')).to_have_text(f"{score:,}")
    ranks = check_verified(page, "ranked-win", f"the ranked win of {deal.code} (game {deal.game_id})")
    expect(page.locator(f"{VERDICT} [data-verdict-text]")).to_contain_text("Ranked: your places")
    for period in PERIODS:
        assert rank_of_period(ranks, "classic", period), f"no {period} rank on the banner: {ranks}"
    assert ranks.get(f"deal:{deal.code}"), f"no rank on the deal's board on the banner: {ranks}"
    assert len(ranks) == 5, ranks  # all time, season, week, day and the deal
    # With the verdict the server published the deal and its secret: the page checked them
    # against the commitment it was given with the game.
    deal_check = banner.locator('[data-win="deal-check"]')
    expect(deal_check).to_have_attribute("data-state", "fair")
    expect(deal_check).to_contain_text(deal.code)
    # The player's first win, verified: a personal best now (before the verdict, a provisional one).
    expect(banner).to_have_attribute("data-new-best", "new")
    expect(banner.locator('[data-win="best"]')).to_have_text("New personal best (Classic)!")

    # A ranked game left unfinished: the one the solver could not win, else the next deal.
    if left:
        banner.get_by_role("button", name="Close").click()
    else:
        banner.locator('[data-close="new-deal"]').click()
        next_deal = wait_for_a_ranked_deal(page, journey_server, not_game=deal.game_id)
        left.append(leave_after_a_few_moves(page, next_deal, pace))
        wait_for_a_ranked_deal(page, journey_server, not_game=next_deal.game_id)
    for game in left:
        entry = outbox_entry_of_game(page, game.deal.game_id)
        assert (entry["won"], entry["moves"]) == (False, game.moves), entry
        wait_until_settled(page, entry["client_id"])
    results = open_results(page)
    shot(page, "ranked-left-results")
    for game in left:
        entry = outbox_entry_of_game(page, game.deal.game_id)
        item = results.locator(f'[data-result="{entry["client_id"]}"]')
        assert entry["state"] == "verified", (
            f"the ranked game {game.deal.game_id} left after {game.moves} moves was not verified: "
            f"{entry['state']}, {entry.get('reason')!r}"
        )
        expect(item.locator(".result-state")).to_have_text("Verified: counted as a game played, not won.")
        expect(item.locator(".result-outcome")).to_contain_text(f"Left after {game.moves} moves")
    results.get_by_role("button", name="Close").click()

    # The boards: all time, this week, today, and the deal's own.
    check_on_ranked_boards(page, url, player, ranks, score, "ranked-board")
    check_on_deal_board(page, url, player, deal.code, ranks[f"deal:{deal.code}"], score)
    shot(page, "ranked-deal-board")
    # Back at the table, the player finds their next game, not the old win's banner again.
    page.goto(f"{url}/")
    wait_for_a_ranked_deal(page, journey_server, not_game=deal.game_id)
    expect(page.locator(WIN)).to_be_hidden()

    # /me: the personal best, the figures and every game, newest first.
    page.locator(NAV).locator("[data-account-name]").click()
    expect(page).to_have_url(f"{url}/me")
    ready(page)
    expect(page.locator("[data-me-title]")).to_have_text(player.display_name)
    played = 1 + len(left)
    figures = me_figures(page)
    assert figures == {
        "best_score": f"{score:,}",
        "ranked_wins": "1",
        "ranked_games_finished": str(played),
        "win_rate": f"{round(100 / played)}%",
        "fewest_moves": str(len(tokens)),
        "unranked_wins": "0",
    }, figures
    classic = page.locator('[data-rules-figures="classic"]')
    expect(classic.locator("[data-device-best]")).to_have_attribute("data-device-best", "verified")
    best = classic.locator("[data-best-game]")
    expect(best.locator(".code")).to_have_text(deal.code)
    hidden_places = classic.locator('[data-deals="hidden"]')
    hidden_all = hidden_places.locator('[data-period="all"]')
    expect(hidden_all).to_have_attribute("data-rank", str(ranks["classic:all"]))
    expect(classic.locator('[data-deals="open"] [data-period="all"]')).to_have_attribute("data-rank", "")
    history = me_history(page, played)
    assert sorted(item["result"] for item in history) == ["lost"] * len(left) + ["won"], history
    assert {item["status"] for item in history} == {"verified"}, history
    assert {item["kind"] for item in history} == {"ranked"}, history
    assert {item["code"] for item in history} == {deal.code} | {game.deal.code for game in left}, history
    shot(page, "ranked-me")

    # The replay plays the win, move by move at the player's own pace (4×), to the won position.
    best_id = best.get_attribute("data-best-game")
    best.get_by_role("link", name="Watch").click()
    expect(page).to_have_url(f"{url}/replay/{best_id}")
    replay = page.locator("[data-replay]")
    expect(replay).to_have_attribute("data-replay-status", "paused", timeout=SLOW_MS)
    expect(replay).to_have_attribute("data-steps", str(len(tokens)))
    expect(page.locator("[data-replay-info]")).to_contain_text(player.display_name)
    assert_shows(page, Game(deal.code))
    page.get_by_role("button", name="4×").click()
    page.get_by_role("button", name="Play").click()
    expect(replay).to_have_attribute("data-replay-status", "playing")
    expect(replay).to_have_attribute("data-replay-status", "ended", timeout=120_000)
    assert_shows(page, game_after(deal.code, tokens))
    expect(page.locator("[data-column] [data-card]")).to_have_count(0)
    shot(page, "ranked-replay")

    # A second device: signed in through the form, the same best and the same games.
    other = browser.new_context()
    try:
        watch_for_problems(other, page_problems, "second device:")
        second = other.new_page()
        second.emulate_media(reduced_motion="reduce")
        sign_in_from_me(second, url, player)
        assert me_figures(second) == figures
        second_best = second.locator('[data-rules-figures="classic"] [data-best-game]')
        expect(second_best.locator(".code")).to_have_text(deal.code)
        assert me_history(second, played) == history
        shot(second, "ranked-second-device-me")
        let_pages_report(other)
    finally:
        other.close()


def take_a_winnable_open_deal(page: Page) -> tuple[Deal, list[str]]:
    """New deal until the page deals one the solver wins (the deals are untouched: no question)."""
    for _ in range(MAX_DEALS):
        page.locator('[data-action="new-deal"]').click()
        expect(page.locator(BAR)).to_have_attribute("data-ranked", "false")
        wait_for_moves(page, 0)
        deal = deal_on_table(page)
        tokens = winning_line(deal.code)
        if tokens:
            return deal, tokens
        print(f"no win found for {deal.code}: the next deal")
    pytest.fail(f"the solver won none of {MAX_DEALS} open deals")


def test_offline_journey_a_win_made_offline_uploads_by_itself_and_counts_where_the_page_said(
    journey_server: JourneyServer, page: Page, context, pace: Pace
):
    """Sign up; the page loads and its service worker takes control; the server goes away for
    real (its process stopped) and the browser goes offline. No ranked game can start offline
    (the server deals each face-down card as it turns up), so New deal deals an open deal and the
    bar says so; it is won; back online (the server started again on the same port), the result
    uploads by itself, is verified and counts where the bar said it would: the open-deal boards
    and the deal's board, none of the hidden-card boards.

    Screenshots: journey-offline-deal, journey-offline-waiting, journey-offline-verified,
    journey-offline-board (the deal's board), journey-offline-open-board-all / -week / -day (.png).
    """
    url = journey_server.url
    player = new_player("offline")
    sign_up(page, url, player)
    wait_for_the_worker(page)
    wait_for_a_ranked_deal(page, journey_server)

    journey_server.stop()
    assert not journey_server.is_reachable()
    context.set_offline(True)
    try:
        deal, tokens = take_a_winnable_open_deal(page)
        kind = page.locator(f"{BAR} [data-kind]")
        expect(kind).to_have_text("Open deal")
        offline = re.compile(r"^Open deal: no ranked game could start \(offline\)")
        expect(kind).to_have_attribute("title", offline)
        shot(page, "offline-deal")
        score = win(page, deal, tokens, pace)
        verdict = page.locator(VERDICT)
        expect(verdict).to_have_attribute("data-state", "waiting")
        expect(verdict.locator("[data-verdict-text]")).to_have_text("Waiting for a connection.")
        expect(page.locator("[data-results-chip]")).to_have_attribute("data-pending", re.compile(r"^[1-9]"))
        shot(page, "offline-waiting")
    finally:
        if journey_server.process is None:
            journey_server.start()
        context.set_offline(False)

    ranks = check_verified(page, "offline-verified", f"the win of {deal.code} made offline")
    expect(page.locator(f"{VERDICT} [data-verdict-text]")).to_contain_text("Open deal: your places")
    expect(page.locator("[data-results-chip]")).to_have_attribute("data-pending", "0")
    assert ranks.get(f"deal:{deal.code}"), f"no rank on the deal's board on the banner: {ranks}"
    for period in PERIODS:
        assert rank_of_period(ranks, "classic", period, deals="open"), f"no open {period} rank: {ranks}"
        assert rank_of_period(ranks, "classic", period) is None, f"a hidden-card board's rank: {ranks}"
    assert len(ranks) == 5, ranks  # all time, season, week, day and the deal
    check_on_ranked_boards(page, url, player, ranks, score, "offline-open-board", deals="open")
    check_not_on_ranked_boards(page, url, player)
    check_on_deal_board(page, url, player, deal.code, ranks[f"deal:{deal.code}"], score)
    shot(page, "offline-board")


def test_finish_journey_a_ranked_win_finished_with_the_finish_button_is_verified(
    journey_server: JourneyServer, page: Page, pace: Pace
):
    """Sign up; take a ranked hidden-card game; play its winning line by gestures only until
    foundation moves alone win (every card turned up, each told by the server); Finish is
    offered then and not before; one press plays the rest, and the server verifies the win at
    its shipped thresholds: the log it replays is the one the page played, a move each.

    Screenshots: journey-finish-offered, journey-finish-win (.png).
    """
    url = journey_server.url
    sign_up(page, url, new_player("finish"))
    deal, tokens = take_a_winnable_ranked_deal(page, journey_server, pace, [])
    line = Game(deal.code)
    offered_after = next(count for count in range(len(tokens)) if _finishes(deal.code, tokens[:count]))
    finish = page.locator('[data-action="finish"]')
    expect(finish).to_be_hidden()
    play_line(page, line, tokens[: offered_after - 1], pace)
    expect(finish).to_be_hidden()  # one move short of a finish: not offered
    play_line(page, line, tokens[offered_after - 1 : offered_after], pace)
    button = page.get_by_role("button", name="Finish")
    expect(button).to_be_visible()
    shot(page, "finish-offered")
    finish_moves = [str(move) for move in line.finish_moves()]
    assert not any(line.face_down), "every card is face up when Finish is offered"

    pace.wait_for_the_next_move(page)
    button.click()
    expect(page.locator(WIN)).to_be_visible(timeout=SLOW_MS)
    entry = outbox_entry_of_game(page, deal.game_id)
    log = entry["log"].split()
    assert log == tokens[:offered_after] + finish_moves, (
        "the page sends what it played: the line, then the finish"
    )
    times = entry["move_times_ms"][offered_after - 1 :]
    gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
    assert min(gaps) >= 200, f"finish moves {gaps} ms apart"
    print(
        f"{deal.code}: {offered_after} tokens by hand, {len(finish_moves)} by Finish, {min(gaps)}+ ms apart"
    )
    check_verified(page, "finish-win", f"the ranked win of {deal.code} finished with the Finish button")
    counted = verify(deal.code, log).moves  # every finish move counted, as if tapped
    expect(page.locator(WIN).locator('[data-win="moves"]')).to_have_attribute("data-value", str(counted))


def _finishes(code: str, tokens: list[str]) -> bool:
    game = Game(code)
    for token in tokens:
        game.play(token)
    return game.finish_moves() is not None


def open_boards_and(code: str, ranks: dict[str, int]) -> list[str]:
    """The boards a win of an open deal enters, as named on its banner: the four Classic
    open-deal boards (all time, this month, this week, today) and the deal's own."""
    periods = [key for key in ranks if key.startswith("open:classic:")]
    assert sorted(key.split(":")[2] for key in periods) == ["all", "day", "season", "week"], ranks
    return [*periods, f"deal:{code}"]


def winnable_shared_code(seed: int, tries: int = 8) -> tuple[str, list[str]]:
    """A Classic deal someone could have shared, that the solver wins (a seeded draw)."""
    import random

    draw = random.Random(seed)
    for _ in range(tries):
        code = format_code(Rules.CLASSIC, draw.randrange(DEAL_COUNT))
        tokens = winning_line(code)
        if tokens:
            return code, tokens
    pytest.fail(f"the solver won none of {tries} random deals")


def test_daily_and_shared_journey_the_daily_deal_with_hidden_cards_and_a_shared_link_open(
    journey_server: JourneyServer, page: Page, context, pace: Pace
):
    """Signed up, the player opens today's daily deal (/leaderboard, its Play link): a hidden-card
    game, its code on no page; won, it is verified and on the day's daily board only, its deal
    published when the day is over; the daily deal cannot be played twice a day. Then a shared
    link (/play/<code>): an open deal, every card known, on its deal's board and the open-deal
    boards, on none of the hidden-card boards. /me counts one ranked win and one unranked.

    Screenshots: journey-daily-game, journey-daily-win, journey-daily-board, journey-shared-win,
    journey-shared-board, journey-unranked-me (.png).
    """
    url = journey_server.url
    player = new_player("daily")
    sign_up(page, url, player)

    # The daily deal, from the leaderboard page's Play link: no code shown.
    page.locator(NAV).get_by_role("link", name="Leaderboards").click()
    ready(page)
    daily = page.locator('[data-daily="classic"]')
    expect(daily).to_be_visible(timeout=SLOW_MS)
    expect(page.locator("[data-daily-deals]")).not_to_contain_text("YU1-")
    daily.get_by_role("link", name="Play").click()
    page.wait_for_selector('[data-app-status="ready"]', timeout=SLOW_MS)
    bar = page.locator(BAR)
    expect(bar).to_have_attribute("data-daily", re.compile(r"^\d{4}-\d{2}-\d{2}$"), timeout=SLOW_MS)
    expect(page).to_have_url(f"{url}/")
    day = bar.get_attribute("data-daily")
    daily_deal = deal_on_table(page, journey_server)
    assert daily_deal.hidden and daily_deal.ranked, daily_deal
    expect(page.locator(f"{BAR} [data-kind]")).to_have_text("Ranked")
    expect(page.locator("[data-code-text]")).to_have_text(f"Daily deal {day}")
    shot(page, "daily-game")
    daily_tokens = winning_line(daily_deal.code)
    assert daily_tokens, (
        f"the solver found no win of today's daily deal {daily_deal.code} (it should be winnable)"
    )
    daily_score = win(page, daily_deal, daily_tokens, pace)
    daily_ranks = check_verified(page, "daily-win", f"the win of the daily deal {daily_deal.code}")
    expect(page.locator(f"{VERDICT} [data-verdict-text]")).to_contain_text("Ranked: your places")
    assert daily_ranks == {f"daily:classic:day:{day}": 1}, daily_ranks
    deal_check = page.locator(f'{WIN} [data-win="deal-check"]')
    expect(deal_check).to_have_attribute("data-state", "pendingDaily")
    assert daily_deal.code not in page.content()  # published when the day is over, not before

    # Its board on /leaderboard; a second game of it the same day is refused, saying why.
    page.goto(f"{url}/leaderboard")
    ready(page)
    page.locator('[data-daily="classic"]').get_by_role("button", name="Board").click()
    row = row_of(page, '[data-board="daily"]', player)
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-rank", "1")
    expect(row.locator(".score")).to_have_text(f"{daily_score:,}")
    shot(page, "daily-board")
    page.locator('[data-daily="classic"]').get_by_role("link", name="Played").click()
    page.wait_for_selector('[data-app-status="ready"]', timeout=SLOW_MS)
    expect(page.locator("[data-notice]")).to_contain_text("You have played today's Classic daily deal")
    # Back at the table: the next game waits, not the daily win's banner again.
    expect(page.locator(WIN)).to_be_hidden()
    expect(bar).to_have_attribute("data-moves", "0")

    # A shared link: /play/<code>, an open deal.
    shared_code, shared_tokens = winnable_shared_code(pace.seed)
    page.goto(f"{url}/play/{shared_code}")
    page.wait_for_selector('[data-app-status="ready"]', timeout=SLOW_MS)
    shared_deal = deal_on_table(page)
    assert (shared_deal.code, shared_deal.ranked) == (shared_code, False)
    expect(page.locator(f"{BAR} [data-kind]")).to_have_text("Open deal")
    shared_score = win(page, shared_deal, shared_tokens, pace)
    shared_ranks = check_verified(page, "shared-win", f"the win of the shared deal {shared_code}")
    expect(page.locator(f"{VERDICT} [data-verdict-text]")).to_contain_text("Open deal: your places")
    assert set(shared_ranks) == set(open_boards_and(shared_code, shared_ranks)), shared_ranks

    # On its own board and the open-deal boards, on none of the hidden-card boards.
    check_on_deal_board(page, url, player, shared_code, shared_ranks[f"deal:{shared_code}"], shared_score)
    shot(page, "shared-board")
    check_on_ranked_boards(page, url, player, shared_ranks, shared_score, "shared-open-board", deals="open")
    check_not_on_ranked_boards(page, url, player)

    page.goto(f"{url}/me")
    ready(page)
    figures = me_figures(page)
    counts = (figures["unranked_wins"], figures["ranked_wins"], figures["ranked_games_finished"])
    assert counts == ("1", "1", "1"), figures
    assert figures["best_score"] == f"{daily_score:,}", figures  # the daily deal's is a ranked best
    history = me_history(page, 2)
    assert [(item["code"], item["kind"], item["result"], item["status"]) for item in history] == [
        (shared_code, "open", "won", "verified"),
        ("Hidden deal", "ranked", "won", "verified"),  # its code is named once the day is over
    ], history
    shot(page, "unranked-me")


# --- a race -----------------------------------------------------------------------------------------

RACE_TRIES = 3  # races started before one whose deal the solver wins
RACE_LOSER_MOVES = 12  # a real game, so the winner gains (docs/races.md: at least 10 moves)


def race_started_by_two(page: Page, url: str, rival: Page, rival_url: str) -> str:
    """The host creates a two-seat race at /race; the rival opens its link and joins, which fills
    it: it starts. Both tables show once the countdown is over. The race's id."""
    race_id = create_race(page, url, seats=2)
    rival.goto(f"{rival_url}/race/{race_id}")
    view_is(rival, "lobby", timeout=SLOW_MS)
    rival.locator('[data-race-action="join"]').click()
    for each in (page, rival):
        view_is(each, "table", timeout=SLOW_MS)
        expect(each.locator(BAR)).to_have_attribute("data-moves", "0")
    return race_id


def leave_race(page: Page) -> None:
    page.locator('[data-race-action="leave-race"]').click()
    page.locator('[data-dialog="confirm"] [data-close="leave"]').click()


def test_race_journey_two_players_race_one_hidden_deal_from_a_link(
    journey_server: JourneyServer, page: Page, browser, page_problems: list[str], pace: Pace
):
    """Two players, two browsers: one creates a race at /race, the other opens its link and joins.
    Both play the same hidden-card deal by gestures; each sees the other's moves as figures. The
    winner's result is verified, the other leaves: places, verdicts and rating changes on both
    pages, the deal published and checked. The loser's page never received a card that only the
    winner had turned up. On the full stack the two players' sockets are served by two ASGI
    processes (make stack's Daphne, and one more on the same Redis and database).

    Screenshots: journey-race-lobby, journey-race-table, journey-race-rival, journey-race-results.
    """
    url = journey_server.url
    extra = None
    rival_url = url
    if journey_server.target == "stack":
        extra, rival_url = journey_server.another_asgi_process(ARTIFACTS_DIR / "journey-second-asgi.log")
    rival_context = browser.new_context()
    try:
        watch_for_problems(rival_context, page_problems, "rival:")
        rival = rival_context.new_page()
        rival.emulate_media(reduced_motion="reduce")
        host, other = new_player("racer"), new_player("rival")
        sign_up(page, url, host)
        sign_up(rival, rival_url, other)
        frames: list[str] = []  # what the rival's page receives on its race sockets
        sockets: dict[str, set[str]] = {"host": set(), "rival": set()}  # the ASGI processes' addresses
        rival.on("websocket", lambda socket: socket.on("framereceived", lambda frame: frames.append(frame)))
        rival.on("websocket", lambda socket: sockets["rival"].add(urlparse(socket.url).netloc))
        page.on("websocket", lambda socket: sockets["host"].add(urlparse(socket.url).netloc))

        for _ in range(RACE_TRIES):
            race_id = race_started_by_two(page, url, rival, rival_url)
            code = journey_server.race_code(race_id)
            tokens = winning_line(code)
            if tokens:
                break
            print(f"no win found for the race's deal {code}: both leave, and race again")
            leave_race(page)
            leave_race(rival)
            view_is(page, "results", timeout=SLOW_MS)
        else:
            pytest.fail(f"the solver won none of {RACE_TRIES} races' deals")
        shot(page, "race-table")

        # The rival makes a few moves; the host sees them as figures, then wins the deal.
        rival_game, host_game = Game(code), Game(code)
        rival_pace = Pace(pace.seed + 1)
        play_line(rival, rival_game, first_moves(code, RACE_LOSER_MOVES), rival_pace)
        rival_figures = opponent(page, other.display_name)
        expect(rival_figures).to_have_attribute("data-moves", str(rival_game.moves_made), timeout=SLOW_MS)
        play_line(page, host_game, tokens, pace)
        assert host_game.is_won()
        expect(page.locator("[data-race-note]")).to_have_text(
            "You finished: waiting for the others.", timeout=SLOW_MS
        )
        host_figures = opponent(rival, host.display_name)
        expect(host_figures).to_have_attribute("data-status", "finished", timeout=SLOW_MS)
        expect(host_figures).to_have_attribute("data-foundation-cards", "52", timeout=SLOW_MS)
        shot(rival, "race-rival")

        # Until now the rival's page was told figures only: no card only the host had seen.
        host_cards = journey_server.race_revealed_cards(race_id, host.username)
        rival_cards = journey_server.race_revealed_cards(race_id, other.username)
        only_the_hosts = host_cards - rival_cards
        assert len(host_cards) == 21 and only_the_hosts, (host_cards, rival_cards)
        stored = rival.evaluate("() => JSON.stringify({...localStorage}) + document.body.innerHTML")
        received = "".join(frame if isinstance(frame, str) else frame.decode() for frame in frames)
        assert any('"progress"' in frame for frame in frames), "the rival's page was told no progress"
        for card in only_the_hosts:
            assert f'"{card}"' not in received, f"the rival's socket carried {card}"
            assert f'"{card}"' not in stored and f">{card}<" not in stored, f"the rival's page holds {card}"
        assert code not in received and code not in stored

        # The rival leaves: the race is over; both pages show the verified places.
        leave_race(rival)
        for each in (page, rival):
            view_is(each, "results", timeout=VERDICT_MS)
            expect(each.locator("[data-race-places-note]")).to_have_text(
                "Places are final.", timeout=VERDICT_MS
            )
            first, second = each.locator("[data-race-places] tr").all()
            expect(first).to_have_attribute("data-result-player", host.display_name)
            expect(first).to_have_attribute("data-place", "1")
            expect(first).to_have_attribute("data-result", "verified")
            expect(second).to_have_attribute("data-result-player", other.display_name)
            expect(second).to_have_attribute("data-place", "2")
            expect(each.locator("[data-race-code]")).to_have_text(code)
            expect(each.locator("[data-race-check]")).to_have_attribute("data-state", "fair")
        expect(page.locator(f'[data-result-player="{host.display_name}"] .rating')).to_contain_text("+")
        shot(page, "race-results")
        if extra is not None:  # the full stack: each player's socket on an ASGI process of its own
            assert (
                len(sockets["host"]) == len(sockets["rival"]) == 1 and not sockets["host"] & sockets["rival"]
            )
        let_pages_report(rival_context)
    finally:
        rival_context.close()
        if extra is not None:
            stop_process(extra)
