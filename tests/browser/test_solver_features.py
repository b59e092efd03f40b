"""The solver at the table, in Chromium: "Winnable deals only" in the New game dialog (a stash of
the server's winnable codes kept on the device, offline too), and hints (the move shown with the
table's own marks, the game marked assisted and sent so).

Winnable deals are put in the server's pool by the real refill service, on deals of the solver's
fixture (each settled in milliseconds); hints are searched by the real solver.
"""

import json
import re
from pathlib import Path

import pytest
from helpers import (
    BAR,
    READY,
    WIN,
    make_player,
    open_game,
    play_all,
    play_token,
    sign_in,
    stoppable_server,  # noqa: F401 (the `server` fixture)
    tap_column,
    token_played,
    wait_for_moves,
    wait_for_pace,
    wait_until_hidden_ranked,
    winning_game,
)
from playwright.sync_api import Page, expect

import games.solving.hints
from games.engine import FOUNDATION, UNDO, Game, GameCode, Move, verify
from games.models import Submission
from games.solver import Position
from games.solving.hints import SEARCHING_KEY, hint_search, position_key
from games.solving.pool import deal_pool_refill

pytestmark = pytest.mark.browser

FIXTURES = json.loads(
    (Path(__file__).resolve().parents[2] / "games/solver/fixtures/winning_logs.json").read_text()
)
WINNABLE = [entry["code"] for entry in FIXTURES if "-C-" in entry["code"]][2:5]  # three Classic wins
# Proven unwinnable before any search, by the deadlock test (a census line the checker re-proved):
# the answer is the proof, however busy the machine.
UNWINNABLE = "YU1-C-AKHIIHV"
NOTICE = "[data-notice]"
DIALOG = '[data-dialog="new-game"]'
HINT = '[data-action="hint"]'


def put_in_pool(codes: list[str]) -> None:
    """The refill service's own work, on these deals instead of random ones."""
    numbers = [GameCode.parse(code).number for code in codes]
    refill = deal_pool_refill(rules="classic", count=len(numbers), time_limit=5.0, numbers=numbers)
    assert refill.won == len(codes)


def stash(page: Page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('yukon.winnable.v1') ?? 'null')")


def tick_winnable(page: Page) -> None:
    """Game… → tick "Winnable deals only"; the stash fills from the server meanwhile."""
    page.locator('[data-action="new-game"]').click()
    dialog = page.locator(DIALOG)
    expect(dialog).to_be_visible()
    dialog.get_by_label("Winnable deals only").check()
    expect(dialog.locator("[data-deal-note]")).to_be_hidden()  # "a new deal is ranked" is not so now
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('yukon.winnable.v1') ?? '{}').classic?.length === 3"
    )


def shown_code(page: Page) -> str:
    return page.locator(BAR).get_attribute("data-code")


# --- Winnable deals only ----------------------------------------------------------------------------


def test_winnable_deals_come_from_the_servers_codes_as_open_deals_even_when_signed_in(
    live_server, page: Page, context, artifacts_dir
):
    put_in_pool(WINNABLE)
    sign_in(context, live_server.url, make_player("wyn"))
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    ranked_game, ranked = wait_until_hidden_ranked(page)  # signed in: ranked hidden-card games
    assert ranked not in WINNABLE

    tick_winnable(page)
    page.locator(DIALOG).screenshot(path=artifacts_dir / "new-game-winnable.png")
    page.locator(DIALOG).get_by_role("button", name="Deal a new game").click()
    bar = page.locator(BAR)
    # The new game is dealt after the dialog closes: a winnable deal, its code known, an open deal.
    expect(bar).to_have_attribute("data-code", re.compile("^(" + "|".join(map(re.escape, WINNABLE)) + ")$"))
    first = shown_code(page)
    expect(bar).to_have_attribute("data-ranked", "false")
    expect(bar).to_have_attribute("data-hidden", "false")
    expect(bar).not_to_have_attribute("data-game-id", ranked_game)
    kind = bar.locator("[data-kind]")
    expect(kind).to_have_attribute("data-kind", "open")
    expect(kind).to_have_text("Open deal")
    expect(kind).to_have_attribute(
        "title",
        "Open deal: a winnable deal, every card known; a win goes on this deal's board and the "
        "open-deal board",
    )
    kept = stash(page)
    assert first not in kept["classic"] and first in kept["dealt"] and len(kept["classic"]) == 2

    # New deal keeps to the option, and never deals a code twice.
    page.locator('[data-action="new-deal"]').click()
    expect(bar).not_to_have_attribute("data-code", first)
    second = shown_code(page)
    assert second in WINNABLE and second != first

    # The choice stays with the device.
    page.reload()
    page.wait_for_selector(READY)
    assert shown_code(page) == second  # the game in progress resumes
    page.locator('[data-action="new-game"]').click()
    expect(page.locator(DIALOG).get_by_label("Winnable deals only")).to_be_checked()


def test_offline_the_stash_deals_winnable_codes_then_a_random_deal_with_a_notice(server, page: Page):
    put_in_pool(WINNABLE)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{server.url}/")
    page.wait_for_selector(READY)
    tick_winnable(page)
    page.locator(DIALOG).get_by_role("button", name="Cancel").click()

    server.stop()
    assert not server.is_reachable()
    bar = page.locator(BAR)
    dealt = []
    for _ in WINNABLE:
        before = shown_code(page)
        page.locator('[data-action="new-deal"]').click()
        expect(bar).not_to_have_attribute("data-code", before)
        dealt.append(shown_code(page))
        expect(page.locator(NOTICE)).to_be_hidden()
    assert sorted(dealt) == sorted(WINNABLE)  # each kept code once
    assert stash(page)["classic"] == []

    # Nothing kept and no network: a random deal all the same, and the player is told.
    page.locator('[data-action="new-deal"]').click()
    expect(page.locator(NOTICE)).to_contain_text(
        "No winnable deal is kept on this device and there is no connection"
    )
    fallback = shown_code(page)
    assert fallback not in WINNABLE and fallback.startswith("YU1-C-")
    expect(page.locator(READY)).to_be_attached()


# --- Hints --------------------------------------------------------------------------------------------


def hinted_move(page: Page) -> Move:
    """The move the table shows: the selected group's first card and the one lit destination."""
    card = page.locator("[data-card][data-selected]").first.get_attribute("data-card")
    targets = page.locator("[data-target]")
    expect(targets).to_have_count(1)
    column = targets.first.get_attribute("data-column")
    return Move.parse(f"{card}>{'F' if column is None else column}")


def play_hinted(page: Page, game: Game, move: Move) -> None:
    """Play the shown move the way a player follows it: tap the lit place (the card is already lifted)."""
    wait_for_pace(page)
    if move.dest == FOUNDATION:
        page.locator("[data-foundations] [data-target]").click()
    else:
        tap_column(page, move.dest + 1)
    token_played(page)
    game.push(move)
    wait_for_moves(page, game.moves_made)


def test_a_hint_lights_a_legal_move_and_a_win_after_it_is_sent_assisted(
    live_server, page: Page, context, artifacts_dir
):
    code, tokens = winning_game()
    sign_in(context, live_server.url, make_player("hana"))
    open_game(page, live_server.url, code)
    game = Game(code)
    bar = page.locator(BAR)
    expect(bar.locator("[data-assisted]")).to_be_hidden()

    page.locator(HINT).click()
    expect(page.locator(NOTICE)).to_contain_text("Hint: ")
    move = hinted_move(page)
    assert move in game.legal_moves
    assert verify(code, [str(move)]).legal
    expect(page.locator("[data-announcer]")).to_contain_text("Hint: ")
    expect(bar.locator("[data-assisted]")).to_be_visible()
    expect(bar).to_have_attribute("data-assisted", "true")
    page.screenshot(path=artifacts_dir / "hint-desktop.png")
    play_hinted(page, game, move)
    assert page.evaluate("() => JSON.parse(localStorage.getItem('yukon.game.v1')).assisted") is True

    # Back to the deal, the known win up to its last moves, then the hints (the H key) finish it.
    play_token(page, game, UNDO)
    play_all(page, game, tokens[:-3])
    bodies = []
    page.on(
        "request",
        lambda request: (
            bodies.append(request.post_data_json)
            if request.method == "POST" and request.url.endswith("/api/submissions/")
            else None
        ),
    )
    while not game.is_won():
        moves = game.moves_made
        page.keyboard.press("h")
        expect(page.locator("[data-card][data-selected]").first).to_be_visible()
        move = hinted_move(page)
        assert move in game.legal_moves
        play_hinted(page, game, move)
        assert game.moves_made == moves + 1

    banner = page.locator(WIN)
    expect(banner).to_be_visible()
    expect(banner.locator("[data-win-assisted]")).to_be_visible()
    expect(banner.locator("[data-win-verdict]")).to_have_attribute("data-state", "verified", timeout=15_000)
    assert [body["assisted"] for body in bodies] == [True]
    submission = Submission.objects.get()
    assert (submission.code, submission.won, submission.assisted) == (code, True, True)


def test_a_hint_searched_meanwhile_shows_when_found_and_a_dropped_one_says_busy(
    live_server, page: Page, context, settings, artifacts_dir
):
    """The search runs on the hints queue's worker (here: another request holds the process's one
    search): the page asks with its ticket about once a second until the answer is there."""
    settings.SOLVER_HINT_TIME_LIMIT = 0.05
    code, _tokens = winning_game()
    sign_in(context, live_server.url, make_player("noor"))
    open_game(page, live_server.url, code)
    bar = page.locator(BAR)
    key = position_key(Position.from_code(code))
    games.solving.hints._eager_search.acquire()  # busy: the answer is a ticket
    try:
        with page.expect_response(lambda response: response.url.endswith("/api/hint/")) as asked:
            page.locator(HINT).click()
        assert asked.value.status == 202
        expect(page.locator(HINT)).to_have_attribute("aria-busy", "true")
        # A search queued for the worker: the page keeps reading its ticket (202) meanwhile.
        games.solving.hints.cache.set(SEARCHING_KEY.format(key=key), 1)
        with page.expect_response(lambda response: "/api/hint/" in response.url and response.status == 202):
            pass
        settings.SOLVER_HINT_TIME_LIMIT = 2.0
        games.solving.hints._eager_search.release()
        hint_search(code=code, log="")  # what the hints worker does
        games.solving.hints._eager_search.acquire()
        expect(page.locator(NOTICE)).to_contain_text("Hint: ")
        move = hinted_move(page)
        assert verify(code, [str(move)]).legal
        expect(bar).to_have_attribute("data-assisted", "true")

        # A search dropped unstarted (the queue was too long): nothing given, nothing marked.
        games.solving.hints.cache.clear()
        page.evaluate("() => localStorage.removeItem('yukon.hinted.v1')")
        open_game(page, live_server.url, UNWINNABLE)
        settings.SOLVER_HINT_TIME_LIMIT = 0.05
        page.locator(HINT).click()
        expect(page.locator(NOTICE)).to_have_text("The hint finder is busy: try again in a moment.")
        expect(page.locator(BAR).locator("[data-assisted]")).to_be_hidden()
        page.screenshot(path=artifacts_dir / "hint-busy.png")
    finally:
        games.solving.hints._eager_search.release()


def test_no_win_from_here_too_many_hints_and_no_connection_are_told(
    live_server, page: Page, context, settings
):
    settings.GAMES_THROTTLE_RATES = {**settings.GAMES_THROTTLE_RATES, "hint": "1/min"}
    sign_in(context, live_server.url, make_player("ivo"))
    open_game(page, live_server.url, UNWINNABLE)

    page.locator(HINT).click()
    expect(page.locator(NOTICE)).to_have_text(
        "There is no win from here: undo some moves and try another way."
    )
    expect(page.locator("[data-selected]")).to_have_count(0)
    expect(page.locator(BAR).locator("[data-assisted]")).to_be_visible()  # the server counted the hint

    page.locator(HINT).click()  # the second hint of the minute
    expect(page.locator(NOTICE)).to_contain_text("Too many hints for now: try again in ")

    context.route("**/api/hint/", lambda route: route.abort())
    page.locator(HINT).click()
    expect(page.locator(NOTICE)).to_have_text("Hints need a connection: you are offline.")


def test_a_ranked_game_gets_no_hint_and_a_signed_out_player_is_offered_to_sign_in(
    live_server, page: Page, context
):
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/api/hint/" in request.url else None)

    open_game(page, live_server.url, "YU1-C-AAAAAAB")  # signed out
    button = page.locator(HINT)
    expect(button).to_have_attribute("data-hint-state", "signIn")
    button.click()
    expect(page.locator(NOTICE)).to_contain_text("Hints are worked out by the server: sign in to get them.")
    expect(page.locator("[data-notice] [data-notice-link]")).to_have_attribute(
        "href", "/accounts/login/?next=%2Fplay%2FYU1-C-AAAAAAB"
    )

    sign_in(context, live_server.url, make_player("rae"))
    page.reload()
    page.wait_for_selector(READY)
    page.locator('[data-action="new-deal"]').click()  # signed in: a ranked deal
    expect(page.locator(BAR)).to_have_attribute("data-ranked", "true")
    expect(button).to_have_attribute("aria-disabled", "true")
    expect(button).to_have_attribute(
        "title", "No hints in a ranked game: ranked deals are played without help"
    )
    page.keyboard.press("h")
    expect(page.locator(NOTICE)).to_have_text(
        "No hints in a ranked game: ranked deals are played without help."
    )
    page.locator(NOTICE).evaluate("(notice) => { notice.hidden = true; }")
    button.click(force=True)  # aria-disabled: it still says why when pressed
    expect(page.locator(NOTICE)).to_have_text(
        "No hints in a ranked game: ranked deals are played without help."
    )
    assert asked == []
