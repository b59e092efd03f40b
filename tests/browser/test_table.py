"""The game table in Chromium, checked against the Python engine.

Each test drives the page as a player does (taps, drags, keys) and compares what the page
shows — cards by data-card/data-face, figures by the game bar's data-* — with a Python
`Game` that plays the same moves.
"""

import re

import pytest
from helpers import (
    BAR,
    READY,
    WINNING_CODE,
    WINNING_LOG,
    assert_shows,
    card_point,
    column_point,
    drag,
    foundations_point,
    open_game,
    play_token,
    shown_columns,
    shown_faces,
    tap_card,
    tap_column,
    wait_for_moves,
    winning_game,
)
from playwright.sync_api import Page, expect

from games.engine import FOUNDATION, Game, Move, card_name, verify

pytestmark = pytest.mark.browser

UUID4 = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "device_scale_factor": 2}
NOTICE = "[data-notice]"
SELECTED = "[data-selected]"
TARGETS = "[data-target]"


def sentence(message: str) -> str:
    """How the page shows an engine message: a capital first letter and a full stop."""
    return message[0].upper() + message[1:] + "."


def refusal_of(game: Game, token: str) -> tuple[str, str]:
    move = Move.parse(token)
    code = game.check_move(move.card, move.dest)
    assert code is not None, f"{token} was meant to be refused"
    return code, game.explain(code, move)


def device_figures(page: Page, base_url: str, rules: str) -> dict[str, str]:
    """The device's own figures of `rules` as /me shows them (stats.js), signed in or not."""
    page.goto(f"{base_url}/me")
    card = page.locator(f'[data-device-figures="{rules}"]')
    expect(card).to_be_visible()
    return {
        key: card.locator(f'[data-figure="{key}"]').inner_text()
        for key in ("games", "wins", "win_rate", "current_streak", "best_streak", "fewest_moves")
    }


def confirm_leaving(page: Page) -> None:
    page.locator('[data-dialog="confirm"] [data-close="leave"]').click()


def test_the_deal_shows_exactly_what_the_engine_deals(live_server, page: Page):
    for code in ("YU1-C-AAAAAAB", "YU1-R-ZZZZZZZ"):
        open_game(page, live_server.url, code)
        assert_shows(page, Game(code))
        faces = shown_faces(page)
        assert [column.count("down") for column in faces] == [0, 1, 2, 3, 4, 5, 6]
        assert [column.count("up") for column in faces] == [1, 5, 5, 5, 5, 5, 5]
    # A face-down card gives nothing away: no name, no id, no text, a neutral label.
    assert page.evaluate(
        """() => [...document.querySelectorAll('[data-face="down"]')].every((card) =>
            card.dataset.card === "EMPTY" && !card.id && card.textContent === ""
            && card.getAttribute("aria-label") === "face-down card")"""
    )
    assert page.locator('[data-face="down"]').count() == 21
    expect(page.locator("[data-foundation]")).to_have_count(4)
    suits = page.locator("[data-foundation]").evaluate_all(
        "(slots) => slots.map((s) => s.dataset.foundation)"
    )
    assert suits == list("SHDC")


def test_tap_to_foundation_tap_tap_drag_refusal_and_undo(live_server, page: Page):
    code = "YU1-C-AAAAAAC"
    game = Game(code)
    open_game(page, live_server.url, code)

    tap_card(page, "AS")  # the last card of column 6 fits its foundation: one tap sends it
    game.push(Move.parse("AS>F"))
    wait_for_moves(page, 1)
    assert_shows(page, game)

    tap_card(page, "2H")  # selects 2♥ and the cards on it; they are marked, as are the places they may go
    expect(page.locator(SELECTED)).to_have_count(5)
    destinations = {m.dest for m in game.legal_moves if card_name(m.card) == "2H"}
    expect(page.locator(TARGETS)).to_have_count(len(destinations))
    tap_column(page, 4)
    game.push(Move.parse("2H>4"))
    wait_for_moves(page, 2)
    expect(page.locator(SELECTED)).to_have_count(0)
    assert_shows(page, game)

    # Dropped with the pointer in the gap just left of column 5: the card is mostly over it.
    gap = page.locator('[data-column="5"]').bounding_box()["x"] - 2
    start = card_point(page, "TD")
    drag(page, (start[0] - 25, start[1]), (gap, column_point(page, 5)[1]))
    game.push(Move.parse("TD>5"))
    wait_for_moves(page, 3)
    assert_shows(page, game)

    # A drag dropped anywhere on the foundation row finds the card's own foundation.
    drag(page, card_point(page, "2S"), foundations_point(page))
    game.push(Move.parse("2S>F"))
    wait_for_moves(page, 4)
    assert_shows(page, game)

    # A refused move clears the selection and says why, in the engine's words.
    refused, message = refusal_of(game, "9S>1")
    tap_card(page, "9S")
    tap_column(page, 1)
    expect(page.locator(NOTICE)).to_have_text(sentence(message))
    expect(page.locator(NOTICE)).to_have_attribute("data-refusal", refused)
    expect(page.locator(SELECTED)).to_have_count(0)
    assert_shows(page, game)

    # Undo three ways: the button, Ctrl+Z, U. Cards, faces and points come back; the counter stays.
    # The first undo of the visit says so, where it happens, with a link to Help's rule.
    page.get_by_role("button", name="Undo").click()
    note = page.locator(NOTICE)
    expect(note).to_contain_text("the move is taken back but stays counted, so Moves never goes down")
    expect(note).to_contain_text("a card turned face down again gives back its 5")
    expect(note.locator("a")).to_have_attribute("href", "/help#rule-nothing_to_undo")
    game.undo()
    # A refusal takes the notice's place; the next undos say nothing more (once a visit).
    refused, message = refusal_of(game, "9S>1")
    tap_card(page, "9S")
    tap_column(page, 1)
    expect(note).to_have_text(sentence(message))
    page.keyboard.press("Control+z")
    page.keyboard.press("u")
    for _ in range(2):
        game.undo()
    expect(page.locator(BAR)).to_have_attribute("data-points", str(game.points))
    assert_shows(page, game)
    assert game.moves_made == 4
    expect(note).to_be_hidden()  # an undo clears the refusal, and says nothing more


def test_double_tap_places_a_card_and_a_slow_second_tap_cancels(live_server, page: Page):
    code = "YU1-C-AAAAAAC"
    game = Game(code)
    open_game(page, live_server.url, code)

    # 8♦ fits on 9♠ (column 2, 6 cards) and on 9♣ (column 7, 11 cards): the longest column wins.
    assert {str(m) for m in game.legal_moves if card_name(m.card) == "8D"} == {"8D>2", "8D>7"}
    page.mouse.dblclick(*card_point(page, "8D"))
    game.push(Move.parse("8D>7"))
    wait_for_moves(page, 1)
    assert_shows(page, game)

    # After 300 ms, a tap on the selected card puts it down.
    tap_card(page, "QH")
    expect(page.locator(SELECTED)).to_have_count(2)
    page.wait_for_timeout(350)
    tap_card(page, "QH")
    expect(page.locator(SELECTED)).to_have_count(0)
    # Escape puts it down too; a tap on a face-down card or an empty place does nothing.
    tap_card(page, "QH")
    expect(page.locator(SELECTED)).to_have_count(2)
    page.keyboard.press("Escape")
    expect(page.locator(SELECTED)).to_have_count(0)
    assert_shows(page, game)


def test_redeal_new_deal_and_a_typed_code(live_server, page: Page):
    code = "YU1-C-AAAAAAC"
    open_game(page, live_server.url, code)
    tap_card(page, "AS")
    wait_for_moves(page, 1)

    page.get_by_role("button", name="Redeal").click()  # a game in progress: asks first
    confirm_leaving(page)
    wait_for_moves(page, 0)
    assert_shows(page, Game(code))

    page.get_by_role("button", name="Game…").click()
    dialog = page.locator('[data-dialog="new-game"]')
    field = dialog.locator("[data-code-input]")
    field.fill("YU1-X-AAAAAAB")
    field.press("Enter")
    expect(dialog.locator("[data-code-error]")).to_contain_text("rule letter")
    field.fill("  yu1-r-aaaaaab ")  # white space and lower case are fine
    dialog.get_by_role("button", name="Play").click()
    expect(page.locator(BAR)).to_have_attribute("data-code", "YU1-R-AAAAAAB")
    expect(page).to_have_url(re.compile(r"/play/YU1-R-AAAAAAB$"))
    expect(page.locator("[data-rules-text]")).to_have_text("Relaxed")
    assert_shows(page, Game("YU1-R-AAAAAAB"))

    page.get_by_role("button", name="New deal").click()  # nothing played yet: no question
    expect(page.locator(BAR)).not_to_have_attribute("data-code", "YU1-R-AAAAAAB")
    new_code = page.locator(BAR).get_attribute("data-code")
    assert re.fullmatch(r"YU1-R-[A-Z]{7}", new_code)
    assert_shows(page, Game(new_code))
    expect(page.locator("[data-share-link]")).to_have_attribute("href", f"/play/{new_code}")
    # On the device: the Classic game left after a move counts as played and not won; the games
    # left with no move made count for nothing.
    assert device_figures(page, live_server.url, "classic") == {
        "games": "1", "wins": "0", "win_rate": "0%", "current_streak": "0", "best_streak": "0",
        "fewest_moves": "—",
    }  # fmt: skip
    assert device_figures(page, live_server.url, "relaxed")["games"] == "0"


def test_relaxed_accepts_a_same_colour_move_that_classic_refuses(live_server, page: Page):
    classic = Game("YU1-C-AAAAAAA")
    refused, message = refusal_of(classic, "6C>2")
    assert refused == "wrong_colour"
    open_game(page, live_server.url, "YU1-C-AAAAAAA")
    tap_card(page, "6C")
    tap_column(page, 2)
    expect(page.locator(NOTICE)).to_have_text(sentence(message))
    assert_shows(page, classic)

    relaxed = Game("YU1-R-AAAAAAA")
    open_game(page, live_server.url, "YU1-R-AAAAAAA")
    tap_card(page, "6C")
    tap_column(page, 2)
    relaxed.push(Move.parse("6C>2"))
    wait_for_moves(page, 1)
    assert_shows(page, relaxed)


def test_a_whole_game_won_through_the_table(live_server, page: Page):
    code, tokens = winning_game()
    game = Game(code)
    open_game(page, live_server.url, code)
    # One clear score: signed out, a shared code counts on no board, so the bar shows the
    # points during play and the ranked score only on the win.
    score_cell = page.locator("[data-score-cell]")
    expect(score_cell).to_be_hidden()
    for token in tokens:
        play_token(page, game, token)
        wait_for_moves(page, game.moves_made)
        if not game.is_won():
            assert page.locator(BAR).get_attribute("data-score-shown") == "false"
    assert game.is_won() and game.foundation_cards == 52
    assert_shows(page, game)
    expect(score_cell).to_be_visible()
    expect(score_cell.locator("dd")).to_have_text(f"{7200 - game.moves_made:,}")

    verdict = verify(code, tokens)
    banner = page.locator('[data-dialog="win"]')
    expect(banner).to_be_visible()
    shown = {
        name: banner.locator(f'[data-win="{name}"]').get_attribute("data-value")
        for name in ("moves", "score", "points")
    }
    assert shown == {"moves": str(verdict.moves), "score": str(verdict.score), "points": str(verdict.points)}
    assert verdict.won and verdict.score == 7200 - verdict.moves
    # The first win on this device: a best only once the server has verified it, which a
    # signed-out player's win waits for them to sign in to be.
    expect(banner).to_have_attribute("data-new-best", "provisional")
    expect(banner.locator('[data-win="best"]')).to_have_text(
        "Your best yet (Classic), once you sign in and the server has verified it."
    )

    # The result waits in the outbox for the server, keyed by a client_id.
    outbox = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.outbox.v1'))")
    assert len(outbox) == 1
    entry = outbox[0]
    assert re.fullmatch(UUID4, entry["client_id"])
    assert entry["code"] == code and entry["log"] == " ".join(tokens)
    assert len(entry["move_times_ms"]) == len(tokens)
    assert entry["move_times_ms"] == sorted(entry["move_times_ms"])
    assert entry["duration_ms"] >= entry["move_times_ms"][-1]
    assert entry["finished_at"] and entry["client_version"]
    assert entry["state"] == "waiting" and entry["game"] is None  # a shared code: unranked
    # Signed out, nothing is sent: the banner says so, and the game bar shows it waiting.
    expect(banner.locator("[data-verdict-sign-in]")).to_be_visible()
    expect(page.locator("[data-results-chip]")).to_have_attribute("data-pending", "1")
    upload = page.evaluate("() => import('/static/frontend/js/sync.js').then((sync) => sync.uploadPending())")
    assert upload == {"sent": 0, "pending": 1, "reason": "signed_out"}
    # No loss, no automatic play, and a won game takes no more moves.
    banner.get_by_role("button", name="Close").click()
    tap_card(page, "KC")
    page.keyboard.press("u")
    wait_for_moves(page, game.moves_made)
    # The device counts the game it saw won, signed out as it is (the server knows nothing yet).
    assert device_figures(page, live_server.url, "classic") == {
        "games": "1", "wins": "1", "win_rate": "100%", "current_streak": "1", "best_streak": "1",
        "fewest_moves": str(game.moves_made),
    }  # fmt: skip


def test_a_reload_resumes_the_game_exactly(live_server, page: Page):
    code = "YU1-C-AAAAAAC"
    game = Game(code)
    open_game(page, live_server.url, code)
    for token in ("AS>F", "2H>4", "TD>5"):
        play_token(page, game, token)
    page.keyboard.press("u")
    game.undo()
    wait_for_moves(page, 3)
    expect(page.locator(BAR)).to_have_attribute("data-points", str(game.points))
    page.wait_for_timeout(1100)  # let the clock show a second
    time_before = page.locator("[data-time]").text_content()

    page.goto(f"{live_server.url}/")  # the game in progress, not a new one
    page.wait_for_selector(READY)
    assert_shows(page, game)
    assert page.locator("[data-time]").text_content() >= time_before
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.game.v1'))")
    assert saved["log"] == ["AS>F", "2H>4", "TD>5", "U"]
    assert len(saved["moveTimes"]) == 4

    play_token(page, game, "TD>5")  # and it plays on
    wait_for_moves(page, 4)
    assert_shows(page, game)

    # A link to another deal does not throw the game in progress away without asking.
    page.goto(f"{live_server.url}/play/YU1-R-AAAAAAB")
    page.wait_for_selector(READY)
    page.locator('[data-dialog="confirm"] [data-close="stay"]').click()
    expect(page).to_have_url(re.compile(f"/play/{code}$"))
    assert_shows(page, game)
    page.goto(f"{live_server.url}/play/YU1-R-AAAAAAB")
    page.wait_for_selector(READY)
    confirm_leaving(page)
    expect(page.locator(BAR)).to_have_attribute("data-code", "YU1-R-AAAAAAB")
    assert_shows(page, Game("YU1-R-AAAAAAB"))


def test_keyboard_play_with_announcements(live_server, page: Page):
    code = "YU1-C-AAAAAAC"
    game = Game(code)
    open_game(page, live_server.url, code)
    table = page.locator("[data-table]")
    table.focus()
    announcer = page.locator("[data-announcer]")

    # The cursor starts on column 1's card; five steps right reach column 6, whose last card is A♠.
    expect(table).to_have_attribute("aria-activedescendant", "card-5D")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(table).to_have_attribute("aria-activedescendant", "card-AS")
    page.keyboard.press("f")
    game.push(Move.parse("AS>F"))
    wait_for_moves(page, 1)
    expect(announcer).to_contain_text("A♠ to the ♠ foundation")

    # 2♥ in column 3: pick it up with Enter, carry it to column 4, put it down with Space.
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    for _ in range(4):
        page.keyboard.press("ArrowUp")
    expect(table).to_have_attribute("aria-activedescendant", "card-2H")
    page.keyboard.press("Enter")
    expect(page.locator(SELECTED)).to_have_count(5)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    game.push(Move.parse("2H>4"))
    wait_for_moves(page, 2)
    expect(announcer).to_contain_text("2♥ and 4 cards on it to column 4")
    assert_shows(page, game)

    # A refused move is announced; Escape cancels; U undoes.
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(page.locator(NOTICE)).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator(SELECTED)).not_to_have_count(0)
    page.keyboard.press("Escape")
    expect(page.locator(SELECTED)).to_have_count(0)
    page.keyboard.press("u")
    game.undo()
    expect(announcer).to_contain_text("taken back")
    assert_shows(page, game)


def test_the_aids_change_how_the_table_helps_and_are_remembered(live_server, page: Page):
    code = "YU1-C-AAAAAAC"
    game = Game(code)
    open_game(page, live_server.url, code)
    page.get_by_role("button", name="Aids").click()
    dialog = page.locator('[data-dialog="settings"]')
    expect(dialog.get_by_label("Placement help")).to_be_checked()
    expect(dialog.get_by_label("Interactive rules")).to_be_checked()
    expect(dialog.get_by_label("Auto placement")).not_to_be_checked()
    expect(dialog.get_by_label("Double click")).to_be_checked()
    expect(dialog.get_by_label("Four-colour deck")).not_to_be_checked()
    for name in ("Placement help", "Interactive rules", "Four-colour deck", "Auto placement"):
        dialog.get_by_label(name).click()
    dialog.get_by_role("button", name="Done").click()

    def colour(card: str) -> str:
        return page.locator(f'[data-card="{card}"]').evaluate("(c) => getComputedStyle(c).color")

    assert len({colour("5D"), colour("QH"), colour("9S"), colour("JC")}) == 4  # four colours

    tap_card(page, "2H")  # no placement help: nothing lights up
    expect(page.locator(SELECTED)).to_have_count(5)
    expect(page.locator(TARGETS)).to_have_count(0)
    tap_column(page, 1)  # refused, and without interactive rules nothing is shown
    expect(page.locator(SELECTED)).to_have_count(0)
    expect(page.locator(NOTICE)).to_be_hidden()

    # Auto placement: 8♦ dropped back on its own column finds the longest column that takes it.
    start = card_point(page, "8D")
    drag(page, start, (start[0], start[1] + 60))
    game.push(Move.parse("8D>7"))
    wait_for_moves(page, 1)
    assert_shows(page, game)

    page.reload()
    page.wait_for_selector(READY)
    page.get_by_role("button", name="Aids").click()
    expect(dialog.get_by_label("Placement help")).not_to_be_checked()
    expect(dialog.get_by_label("Four-colour deck")).to_be_checked()
    expect(dialog.get_by_label("Auto placement")).to_be_checked()


def test_a_foundation_card_can_be_taken_back_by_drag(live_server, page: Page):
    # Our winning log takes 3♠ back from its foundation at some point: play up to there.
    code, tokens = WINNING_CODE, WINNING_LOG.split()
    game = Game(code)
    open_game(page, live_server.url, code)
    for token in tokens:
        move = Move.parse(token)
        if move.dest != FOUNDATION and game.foundations[move.card // 13] == move.card % 13 + 1:
            break
        play_token(page, game, token)
    wait_for_moves(page, game.moves_made)
    points = game.points
    start = card_point(page, card_name(move.card))
    drag(page, (start[0], start[1] + 20), column_point(page, move.dest + 1))
    game.push(move)
    wait_for_moves(page, game.moves_made)
    assert_shows(page, game)
    assert game.points == points  # a take-back costs nothing


@pytest.mark.browser_context_args(**PHONE)
def test_a_phone_plays_by_touch_without_sideways_scrolling(live_server, page: Page, artifacts_dir):
    code = "YU1-C-AAAAAAC"
    game = Game(code)
    open_game(page, live_server.url, code)
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert page.evaluate("() => document.documentElement.scrollHeight <= innerHeight")
    # Every card corner is large enough to read on a 360-pixel screen.
    rank_size = page.locator('[data-card="8D"]').evaluate(
        """(card) => {
            const rank = document.createTreeWalker(card, NodeFilter.SHOW_TEXT).nextNode();
            return parseFloat(getComputedStyle(rank.parentElement).fontSize);
        }"""
    )
    assert rank_size >= 14
    page.screenshot(path=artifacts_dir / "table-phone.png")

    page.touchscreen.tap(*card_point(page, "AS"))
    game.push(Move.parse("AS>F"))
    wait_for_moves(page, 1)
    page.touchscreen.tap(*card_point(page, "2H"))
    page.touchscreen.tap(*column_point(page, 4))
    game.push(Move.parse("2H>4"))
    wait_for_moves(page, 2)
    assert_shows(page, game)
    tap_card(page, "QH")
    page.screenshot(path=artifacts_dir / "table-phone-selected.png")
    assert shown_columns(page)[3][-1] == "8D"
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_desktop_screenshot_of_a_game_under_way(live_server, page: Page, artifacts_dir):
    code, tokens = winning_game()
    game = Game(code)
    open_game(page, live_server.url, code)
    for token in tokens[:30]:
        play_token(page, game, token)
    wait_for_moves(page, game.moves_made)
    assert_shows(page, game)
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=artifacts_dir / "table-desktop.png")
    # The table fits other screens as well: a phone on its side, a tablet, a small laptop.
    for width, height in ((740, 360), (768, 1024), (1024, 768), (320, 568)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        page_size = "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        assert page.evaluate(page_size) == [width, height]


def test_the_clock_counts_only_while_the_page_is_seen(live_server, page: Page):
    open_game(page, live_server.url, "YU1-C-AAAAAAC")
    page.wait_for_timeout(1100)
    expect(page.locator("[data-time]")).to_have_text("0:00")  # not before the first move
    tap_card(page, "AS")
    wait_for_moves(page, 1)
    page.evaluate(
        """() => {
            Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    page.wait_for_timeout(1300)
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('yukon.game.v1')).elapsedMs")
    assert saved < 500  # hidden: saved on the way out, and not counting
    page.evaluate(
        """() => {
            Object.defineProperty(document, "hidden", {configurable: true, get: () => false});
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    expect(page.locator("[data-time]")).to_have_text("0:01", timeout=3000)


def test_a_button_pressed_before_the_tables_script_has_run_is_not_lost(live_server, page: Page):
    """The page shows its buttons before its modules have run; a press in that moment is kept
    (early_presses.js) and pressed again once the table listens: here Help, while the game's
    module is held back on its way."""
    held = []

    def hold(route) -> None:
        held.append(route)  # answered below, once the button was pressed

    page.route(re.compile(r".*/frontend/js/app(\.[0-9a-f]+)?\.js$"), hold)
    page.goto(f"{live_server.url}/", wait_until="commit")
    help_button = page.get_by_role("button", name="Help")
    expect(help_button).to_be_visible()
    assert held and page.locator(BAR).get_attribute("data-app-status") == "loading"
    help_button.click()
    for route in held:
        route.continue_()
    page.wait_for_selector(READY)
    expect(page.locator('[data-dialog="help"]')).to_be_visible()


def test_the_first_tab_offers_a_skip_link_to_the_table(live_server, page: Page):
    """The header's links come before the table: the page's first Tab reaches a link past them,
    and Enter puts the keyboard on the table, where the arrow keys play."""
    open_game(page, live_server.url, "YU1-C-AAAAAAC")
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    expect(skip).to_have_text("Skip to the table")
    assert skip.bounding_box()["y"] >= 0  # in sight once focused
    page.keyboard.press("Enter")
    expect(page.locator("[data-table]")).to_be_focused()
    page.goto(f"{live_server.url}/leaderboard")
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link")).to_have_text("Skip to the content")
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()
