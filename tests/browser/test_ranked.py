"""Ranked play in Chromium: accounts from the page, hidden-card games issued by the server (their
face-down cards turned up by the server as the moves expose them), results submitted, verified by
the server's replay and shown with their ranks, the deal checked against the server's commitment;
offline wins sent later.

The server draws ranked deals at random; these tests make its draw the deal of a known
winning log (`issue_only`; the page never learns the code, the tests read it from the server's
row); the moves are played at a quick player's pace, and the server judges them with its shipped
thresholds. (tests/browser/test_journeys.py plays the whole journey
against a server process, with nothing of the server changed.)
"""

import pytest
from helpers import (
    BAR,
    PASSWORD,
    READY,
    WIN,
    assert_shows,
    dealt_as_hidden,
    issue_only,
    make_player,
    play_all,
    play_token,
    sign_in,
    stoppable_server,  # noqa: F401 (the `server` fixture)
    token_played,
    wait_for_moves,
    wait_for_the_worker,
    wait_until_hidden_ranked,
    winning_game,
)
from playwright.sync_api import Page, expect

from games.engine import FOUNDATION, Game, Move
from games.models import IssuedGame, Reveal, Submission

pytestmark = pytest.mark.browser

NAV = "[data-account-nav]"
PHONE = {"width": 360, "height": 740}


def open_signed_in(page: Page, context, base_url: str, name: str, monkeypatch):
    """A new player, signed in, on the game page with a hidden-card ranked game of the known win:
    (player, game id)."""
    code, _ = winning_game()
    issue_only(monkeypatch, code)
    player = make_player(name)
    sign_in(context, base_url, player)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{base_url}/")
    page.wait_for_selector(READY)
    game_id, dealt = wait_until_hidden_ranked(page)
    assert dealt == dealt_as_hidden(code)
    return player, game_id


def rank_on(banner, board: str):
    return banner.locator(f'[data-win-ranks] [data-board="{board}"]')


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_sign_up_win_a_ranked_deal_and_find_it_on_the_leaderboard(
    live_server, page: Page, monkeypatch, artifacts_dir
):
    code, tokens = winning_game()
    issue_only(monkeypatch, code)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    expect(page.locator(BAR)).to_have_attribute("data-ranked", "false")
    expect(page.locator(f"{BAR} [data-kind]")).to_have_text("Unranked")

    # A win made signed out waits on the device (here, one of an earlier visit, a shared code).
    page.evaluate(
        """([code, log]) => import("/static/frontend/js/sync.js").then((sync) => {
            const times = log.split(" ").map((_, i) => 200 * (i + 1));
            sync.enqueueResult({code, log, move_times_ms: times, duration_ms: times.at(-1),
                finished_at: new Date().toISOString(), client_version: "test", rules: "classic", won: true});
        })""",
        [code, " ".join(tokens)],
    )

    # Sign up from the header; the account pages bring the player back to the game.
    page.locator(NAV).get_by_role("link", name="Sign up").click()
    page.fill("#id_username", "annie")
    page.fill("#id_email", "annie@example.com")
    page.fill("#id_display_name", "Annie-42")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_selector(READY)
    expect(page.locator(NAV).locator("[data-account-name]")).to_have_text("Annie-42")

    # Signed in: the waiting win goes (unranked: a shared code), and is verified.
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('yukon.outbox.v1')).every((r) => r.state === 'verified')"
    )
    earlier = Submission.objects.get(ranked=False)
    assert (earlier.user.username, earlier.status, earlier.won) == ("annie", "verified", True)

    # Signed in, the untouched deal became a ranked hidden-card game, issued by the server: the
    # page shows its face-up cards and no code; the face-down ones come as the moves turn them up.
    game_id, dealt = wait_until_hidden_ranked(page)
    issued = IssuedGame.objects.get(pk=game_id)
    code = dealt_as_hidden(code)  # the same deal, dealt as a whole shuffle: from here, its code
    assert (issued.user.display_name, issued.hidden, dealt) == ("Annie-42", True, code)
    expect(page.locator(BAR)).to_have_attribute("data-code", "")
    # (The code is on the page already, but only in the Results, with the earlier win by code.)
    table_and_bar = page.locator(BAR).inner_html() + page.locator("[data-table]").inner_html()
    kept = page.evaluate(
        "() => ['yukon.pool.v2', 'yukon.game.v1'].map((key) => localStorage.getItem(key)).join()"
    )
    assert code not in table_and_bar and code not in kept
    game = Game(code)
    # One clear score: a ranked game's standing shows from its first card on a foundation.
    score_cell = page.locator("[data-score-cell]")
    expect(score_cell).to_be_hidden()
    first_up = next(i for i, token in enumerate(tokens) if Move.parse(token).dest == FOUNDATION) + 1
    play_all(page, game, tokens[:first_up])
    expect(score_cell).to_be_visible()
    expect(score_cell.locator("dd")).to_have_text(str(100 - game.moves_made))
    play_all(page, game, tokens[first_up:])
    assert_shows(page, game, hidden=True)
    assert issued.reveals.count() == 21  # every face-down card, each asked for when it turned up

    # The win is submitted at once, replayed by the server and verified: ranks on the banner.
    banner = page.locator(WIN)
    expect(banner).to_be_visible()
    expect(banner.locator("[data-win-verdict]")).to_have_attribute("data-state", "verified", timeout=15_000)
    for board in ("classic:all", f"deal:{code}"):
        expect(rank_on(banner, board)).to_have_attribute("data-rank", "1")
    expect(banner.locator("[data-win-ranks] li")).to_have_count(5)  # all time, month, week, day, deal
    # With the verdict the server publishes the deal: the page checks it against the commitment
    # it was given with the game, and the deal can be shared.
    deal_check = banner.locator('[data-win="deal-check"]')
    expect(deal_check).to_have_attribute("data-state", "fair")
    expect(deal_check).to_contain_text(code)
    expect(banner.locator('[data-win-link="share"]')).to_have_attribute("href", f"/play/{code}")
    # The table's code box names the deal too, where it said "Hidden deal".
    expect(page.locator("[data-code-text]")).to_have_text(str(code))
    # Challenging a friend is a match of its own: a challenge on a new hidden deal (/race).
    expect(banner.locator('[data-win-link="challenge"]')).to_have_attribute("href", "/race?kind=challenge")
    submission = Submission.objects.get(game_id=game_id)
    assert (submission.status, submission.won, submission.ranked) == ("verified", True, True)
    assert submission.log == " ".join(tokens) and submission.client_version
    page.screenshot(path=artifacts_dir / "ranked-win-desktop.png")
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts_dir / "ranked-win-phone.png")
    page.set_viewport_size({"width": 1366, "height": 768})

    # The deal's board, and the global board, show the win under the player's name.
    banner.locator('[data-win-link="board"]').click()
    expect(page).to_have_url(f"{live_server.url}/leaderboard?deal={code}")
    deal_row = page.locator('[data-board="deal"] [data-entry]')
    expect(deal_row).to_have_count(1)
    expect(deal_row).to_have_attribute("data-player", "Annie-42")
    expect(deal_row).to_have_attribute("data-me", "")
    global_row = page.locator('[data-board="global"] [data-entry]')
    expect(global_row).to_have_attribute("data-player", "Annie-42")
    expect(global_row.locator(".score")).to_have_text(f"{submission.score:,}")

    # Sign out and in again from the header: each time back on the same page.
    page.locator(NAV).get_by_role("link", name="Sign out").click()
    page.get_by_role("button", name="Sign Out").click()
    expect(page).to_have_url(f"{live_server.url}/leaderboard?deal={code}")
    expect(page.locator(NAV)).to_have_attribute("data-signed-in", "false")
    page.locator(NAV).get_by_role("link", name="Sign in").click()
    page.fill("#id_login", "annie")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    expect(page).to_have_url(f"{live_server.url}/leaderboard?deal={code}")
    expect(page.locator(NAV).locator("[data-account-name]")).to_have_text("Annie-42")


def test_a_ranked_redeal_takes_every_move_back_and_a_ranked_game_left_is_submitted(
    live_server, page: Page, context, monkeypatch, artifacts_dir
):
    code, tokens = winning_game()
    player, first_id = open_signed_in(page, context, live_server.url, "bert", monkeypatch)
    # The page keeps three more games per rule set at hand, refilled as it takes one.
    page.wait_for_function(
        """() => { const pool = JSON.parse(localStorage.getItem("yukon.pool.v2"));
                   return pool.games.classic.length === 3 && pool.games.relaxed.length === 3; }"""
    )
    assert IssuedGame.objects.filter(user=player, hidden=True).count() == 1 + 3 + 3

    game = Game(code)
    for token in tokens[:3]:
        play_token(page, game, token)
    wait_for_moves(page, 3)

    # Redeal in a ranked game: every move taken back, one undo at a time; the counter keeps them.
    page.get_by_role("button", name="Redeal").click()
    confirm = page.locator('[data-dialog="confirm"]')
    expect(confirm.locator("[data-confirm-text]")).to_contain_text("takes back every move")
    confirm.get_by_role("button", name="Take every move back").click()
    token_played(page)  # the page played three undos: the next move comes at a player's pace after them
    for _ in range(3):
        game.undo()
    expect(page.locator("[data-action=undo]")).to_be_disabled()
    assert_shows(page, game, hidden=True)
    assert game.moves_made == 3
    expect(page.locator(BAR)).to_have_attribute("data-game-id", first_id)
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.game.v1'))")
    assert saved["log"] == tokens[:3] + ["U", "U", "U"]
    play_token(page, game, tokens[0])
    wait_for_moves(page, 4)

    # Leaving it: submitted as it stands, and the next deal is ranked too.
    page.get_by_role("button", name="New deal").click()
    expect(confirm.locator("[data-confirm-title]")).to_have_text("Leave this ranked game?")
    confirm.get_by_role("button", name="Submit and leave").click()
    wait_until_hidden_ranked(page, not_game=first_id)
    wait_for_moves(page, 0)

    page.locator("[data-results-chip]").click()
    result = page.locator('[data-dialog="results"] [data-result]')
    expect(result).to_have_attribute("data-state", "verified", timeout=15_000)
    expect(result.locator(".result-state")).to_contain_text("counted as a game played, not won")
    expect(page.locator("[data-results-chip]")).to_be_hidden()  # the verdict is seen
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts_dir / "results-phone.png")
    left = Submission.objects.get(game_id=first_id)
    assert (left.status, left.won, left.moves) == ("verified", False, 4)
    assert left.log == " ".join(tokens[:3] + ["U", "U", "U", tokens[0]])


def test_a_ranked_win_made_offline_waits_then_is_sent_and_verified(server, page: Page, context, monkeypatch):
    code, tokens = winning_game()
    _, game_id = open_signed_in(page, context, server.url, "cleo", monkeypatch)
    wait_for_the_worker(page)
    game = Game(code)
    play_all(page, game, tokens[:-12])

    server.stop()
    assert not server.is_reachable()
    play_all(page, game, tokens[-12:])
    banner = page.locator(WIN)
    expect(banner).to_be_visible()
    verdict = banner.locator("[data-win-verdict]")
    expect(verdict).to_have_attribute("data-state", "waiting")
    # A best only once verified: until then the banner says it is provisional.
    best = banner.locator('[data-win="best"]')
    expect(banner).to_have_attribute("data-new-best", "provisional")
    expect(best).to_have_text("Your best yet (Classic), once the server has verified it.")
    expect(page.locator("[data-results-chip]")).to_have_attribute("data-pending", "1")
    (entry,) = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.outbox.v1'))")
    assert (entry["game"], entry["state"], entry["won"]) == (int(game_id), "waiting", True)
    assert not Submission.objects.exists()

    # The server is back: the browser says it is online again, and the win goes.
    server.start()
    page.evaluate("() => dispatchEvent(new Event('online'))")
    expect(verdict).to_have_attribute("data-state", "verified", timeout=15_000)
    expect(rank_on(banner, "classic:all")).to_have_attribute("data-rank", "1")
    expect(banner).to_have_attribute("data-new-best", "new")
    expect(best).to_have_text("New personal best (Classic)!")
    expect(page.locator("[data-results-chip]")).to_be_hidden()
    submission = Submission.objects.get(game_id=game_id)
    assert (submission.status, submission.won, str(submission.client_id)) == (
        "verified",
        True,
        entry["client_id"],
    )


def first_turn_up(code: str, tokens: list[str]) -> tuple[int, int]:
    """The index of the first token that turns a face-down card up, and its column (from 0)."""
    game = Game(code)
    for index, token in enumerate(tokens):
        before = list(game.face_down)
        game.push(Move.parse(token))
        turned = [column for column, count in enumerate(game.face_down) if count != before[column]]
        if turned:
            return index, turned[0]
    raise AssertionError(f"no move of the line turns a card up on {code}")


def test_a_ranked_game_that_loses_the_network_waits_at_the_card_and_goes_on_when_it_is_back(
    live_server, page: Page, context, monkeypatch
):
    code, tokens = winning_game()
    _, game_id = open_signed_in(page, context, live_server.url, "dora", monkeypatch)
    game = Game(code)
    exposing, column = first_turn_up(code, tokens)
    play_all(page, game, tokens[:exposing])

    # Offline, the move that turns a card up is played; the card waits for the network, and the
    # page says so. The clock stops meanwhile: a card that comes late is not play.
    context.set_offline(True)
    play_token(page, game, tokens[exposing], await_card=False)
    wait_for_moves(page, exposing + 1)
    table = page.locator("[data-table]")
    expect(table).to_have_attribute("data-turning", "true")
    expect(page.locator("[data-notice]")).to_have_text(
        f"No connection: the card turned up in column {column + 1} shows as soon as the network is back."
    )
    page.wait_for_timeout(3_000)  # a player waiting for the network
    assert not Reveal.objects.filter(game_id=game_id).exists()

    # Back online, the card comes and play goes on to a win the server verifies: its times
    # between reveals are no longer than the server's own, the wait included.
    context.set_offline(False)
    expect(table).to_have_attribute("data-turning", "false", timeout=15_000)
    token_played(page)  # a player's pace from the card's arrival
    assert_shows(page, game, hidden=True)
    play_all(page, game, tokens[exposing + 1 :])
    banner = page.locator(WIN)
    expect(banner.locator("[data-win-verdict]")).to_have_attribute("data-state", "verified", timeout=15_000)
    submission = Submission.objects.get(game_id=game_id)
    assert (submission.status, submission.won) == ("verified", True), submission.reason
