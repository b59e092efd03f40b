"""Helpers for the browser tests of the game table.

Expected positions come from the Python engine (the server's truth); cards, columns and
figures are found by their data hooks (data-card, data-column, data-foundation, data-face,
data-moves, …), never by CSS classes. Gestures are real pointer input: clicks, double
clicks and drags with the mouse, taps on a touch screen.
"""

import json
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from games.engine import FOUNDATION, UNDO, Game, Move, card_name, verify

PROJECT_DIR = Path(__file__).resolve().parents[2]
SOLVER_FIXTURES = PROJECT_DIR / "games" / "solver" / "fixtures" / "winning_logs.json"

# A deal and a log that wins it (found by a depth-first search with the Python engine);
# used when the solver's fixtures are not there.
WINNING_CODE = "YU1-C-AAAAAAC"
WINNING_LOG = (
    "AS>F 2H>4 TD>5 2S>F 6S>7 5D>7 KS>1 AH>F 7D>4 4H>6 JC>1 QS>3 4D>5 7C>6 3S>5 JS>1 JD>3 QD>1 8D>5 "
    "3S>6 3C>5 2H>F 3S>F 3C>6 6S>4 3C>5 3S>6 2H>6 AC>6 2C>5 KH>2 TS>3 QS>2 6S>7 QS>3 9C>1 QS>2 8D>1 "
    "QS>3 6H>1 QD>6 QS>2 QD>1 QH>6 2D>1 6C>4 AD>F 8C>6 9D>2 3H>6 5H>2 4S>2 4C>7 6D>6 3D>2 5S>6 8D>6 "
    "QS>3 8C>5 QS>2 KC>4 2D>F 3D>F QS>3 8D>1 QS>2 8C>2 8D>4 QS>3 8D>1 5S>1 8D>4 QS>2 8C>5 QS>3 8D>1 "
    "5C>6 AC>F 2H>F 3S>F 4S>F 2C>F 3C>F 4D>F 3H>F 4H>F 5S>F 5H>F 6H>F 4C>F 5C>F 6C>F 7C>F 5D>F 6D>F "
    "7D>F 8D>F 9D>F 8C>F 9C>F TD>F 6S>F 7S>F 7H>F TC>F 8S>F 9S>F TS>F JS>F JD>F QD>F QS>F KS>F KD>F "
    "QC>2 8H>F 9H>F JH>2 TH>F JH>F JC>F QC>F QH>F KH>F KC>F"
)

READY = '[data-app-status="ready"]'
BAR = "[data-bar]"


def winning_game() -> tuple[str, list[str]]:
    """A winning (code, tokens): the shortest Classic win of the solver's fixtures, else ours."""
    wins = []
    try:
        fixtures = json.loads(SOLVER_FIXTURES.read_text())
        entries = fixtures if isinstance(fixtures, list) else next(iter(fixtures.values()), [])
        for entry in entries:
            code, log = entry["code"], entry["log"]
            tokens = log.split() if isinstance(log, str) else [str(token) for token in log]
            if "-C-" in code and verify(code, tokens).won:
                wins.append((code, tokens))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, StopIteration):
        pass  # no fixtures yet, or another shape: our own win will do
    return min(wins, key=lambda win: len(win[1]), default=(WINNING_CODE, WINNING_LOG.split()))


# --- what the engine says, what the page shows -----------------------------------------------


def expected_columns(game: Game) -> list[list[str]]:
    """Each column bottom to top as the markup must show it: EMPTY for a face-down card."""
    return [
        ["EMPTY" if depth < hidden else card_name(card) for depth, card in enumerate(column)]
        for column, hidden in zip(game.columns, game.face_down, strict=True)
    ]


def expected_foundations(game: Game) -> dict[str, str | None]:
    """The top card of each foundation, by suit letter."""
    return {
        suit: card_name(index * 13 + count - 1) if count else None
        for index, (suit, count) in enumerate(zip("SHDC", game.foundations, strict=True))
    }


def shown_columns(page: Page) -> list[list[str]]:
    return page.evaluate(
        """() => [1, 2, 3, 4, 5, 6, 7].map((n) =>
            [...document.querySelectorAll(`[data-column="${n}"] [data-card]`)].map((c) => c.dataset.card))"""
    )


def shown_faces(page: Page) -> list[list[str]]:
    return page.evaluate(
        """() => [1, 2, 3, 4, 5, 6, 7].map((n) =>
            [...document.querySelectorAll(`[data-column="${n}"] [data-card]`)].map((c) => c.dataset.face))"""
    )


def shown_foundations(page: Page) -> dict[str, str | None]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll("[data-foundation]")].map((f) =>
            [f.dataset.foundation, f.querySelector("[data-card]")?.dataset.card ?? null]))"""
    )


def bar_figures(page: Page) -> dict[str, str]:
    return page.locator(BAR).evaluate(
        "({dataset: d}) => ({moves: d.moves, points: d.points, score: d.score, code: d.code})"
    )


def assert_shows(page: Page, game: Game) -> None:
    """The page shows exactly the engine's position: cards, faces, foundations and figures."""
    assert shown_columns(page) == expected_columns(game)
    assert shown_foundations(page) == expected_foundations(game)
    assert bar_figures(page) == {
        "moves": str(game.moves_made),
        "points": str(game.points),
        "score": str(game.ranked_score()),
        "code": str(game.code),
    }


def open_game(page: Page, base_url: str, code: str) -> None:
    """Open the deal of `code` through its share link and wait until the table is playable.

    Cards slide when they move; the tests turn that off (as a player can), so that a card
    is where it will stay by the time the next gesture looks for it.
    """
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{base_url}/play/{code}")
    page.wait_for_selector(READY)
    expect(page.locator(BAR)).to_have_attribute("data-code", code)


# --- gestures ------------------------------------------------------------------------------------


def card_point(page: Page, name: str) -> tuple[float, float]:
    """A point on the visible part of a card: its top strip, which the next card never covers."""
    return tuple(
        page.evaluate(
            """(name) => {
                const r = document.querySelector(`[data-card="${name}"]`).getBoundingClientRect();
                return [r.left + r.width / 2, r.top + 5];
            }""",
            name,
        )
    )


def column_point(page: Page, number: int) -> tuple[float, float]:
    """A point on a column: on its last card, or on the empty slot."""
    return tuple(
        page.evaluate(
            """(n) => {
                const column = document.querySelector(`[data-column="${n}"]`);
                const r = (column.lastElementChild ?? column).getBoundingClientRect();
                return [r.left + r.width / 2, r.top + Math.min(r.height / 2, 40)];
            }""",
            number,
        )
    )


def foundations_point(page: Page) -> tuple[float, float]:
    box = page.locator("[data-foundations]").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def tap_card(page: Page, name: str) -> None:
    page.mouse.click(*card_point(page, name))


def tap_column(page: Page, number: int) -> None:
    page.mouse.click(*column_point(page, number))


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 12, start[1] + 12, steps=2)
    page.mouse.move(*end, steps=4)
    page.mouse.up()


def drag_card_to_column(page: Page, name: str, number: int) -> None:
    drag(page, card_point(page, name), column_point(page, number))


def play_token(page: Page, game: Game, token: str) -> None:
    """Play one log token through the table the way a player would, and on `game` too.

    To a foundation: one tap on the card. To a column: tap the card, tap the column — or a
    drag when a tap would send the card to its foundation instead. An undo: the U key.
    """
    if token == UNDO:
        page.keyboard.press("u")
        game.undo()
        return
    move = Move.parse(token)
    name = card_name(move.card)
    sent_home = _sent_home.pop(id(page), None)
    if sent_home and sent_home[0] == name:
        # A tap on the card a tap just sent home counts as the second half of that double tap.
        time.sleep(max(0.0, sent_home[1] + DOUBLE_TAP_S - time.monotonic()))
    if move.dest == FOUNDATION:
        tap_card(page, name)
        _sent_home[id(page)] = (name, time.monotonic())
    elif Move(move.card, FOUNDATION) in game.legal_moves and _is_last_card(game, move.card):
        drag_card_to_column(page, name, move.dest + 1)
    else:
        tap_card(page, name)
        tap_column(page, move.dest + 1)
    game.push(move)


# The card each page last sent to its foundation with a tap, and when.
_sent_home: dict[int, tuple[str, float]] = {}
DOUBLE_TAP_S = 0.35


def _is_last_card(game: Game, card: int) -> bool:
    return any(column and column[-1] == card for column in game.columns)


def wait_for_moves(page: Page, moves: int) -> None:
    expect(page.locator(BAR)).to_have_attribute("data-moves", str(moves))
