"""The first-game walkthrough's script (frontend/static/frontend/js/walkthrough.js) against the
Python engine: every step is legal, together they teach what they claim, the deal can be won
from where the walkthrough leaves it, and every step has its words in every language.
"""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings

from games.engine import FOUNDATION, Game, Move, verify
from games.engine.cards import KING, RANK, RED

JS_DIR = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js"
# A win of the walkthrough's deal that starts with the walkthrough's six moves (found by search).
WINNING_LOG = (
    "AH>F TD>4 KC>1 QH>1 9D>5 AC>F 4S>1 3S>4 KD>2 4H>1 9C>4 AD>F TC>6 2D>F QS>2 7H>1 5H>1 JD>2 7S>6 "
    "6H>1 9H>3 8H>4 7C>4 3H>1 5D>4 2C>F AS>F 3C>F KS>5 4C>F QD>5 7D>7 JS>5 2H>F 5S>5 2S>F 3H>F 3S>F "
    "4H>F 8C>2 TS>1 JH>3 JC>1 3D>F 4S>F 4D>F 5C>F 5H>F 5D>F 5S>F 6D>F 6C>F 6S>F 6H>F 7S>F 7H>F 7D>F "
    "7C>F 8D>F 8C>F 8S>F 8H>F 9D>F 9H>F 9S>F 9C>F TC>F TS>F TD>F JD>F KH>6 TH>F JS>F JH>F JC>F QD>F "
    "QS>F QC>F QH>F KH>F KS>F KD>F KC>F"
)


def walkthrough() -> tuple[str, list[tuple[str, str]]]:
    source = (JS_DIR / "walkthrough.js").read_text(encoding="utf-8")
    code = re.search(r'code: "(YU1-[CR]-[A-Z]{7})"', source).group(1)
    steps = re.findall(r'\{ move: "([^"]+)", text: "([^"]+)" \}', source)
    return code, steps


def lesson(game: Game, move: Move) -> dict[str, bool]:
    """What a move shows: to a foundation, an unordered group, a flip, a King into an empty column."""
    source = next(i for i, column in enumerate(game.columns) if move.card in column)
    column = game.columns[source]
    start = column.index(move.card)
    group = column[start:]
    pairs = zip(group, group[1:], strict=False)
    ordered = all(RANK[low] + 1 == RANK[high] and RED[low] != RED[high] for high, low in pairs)
    return {
        "foundation": move.dest == FOUNDATION,
        "unordered_group": len(group) >= 3 and not ordered,
        "flip": start == game.face_down[source] and start > 0,
        "king_to_empty": move.dest != FOUNDATION and not game.columns[move.dest] and RANK[move.card] == KING,
    }


def test_the_steps_are_legal_and_teach_the_game():
    code, steps = walkthrough()
    assert code.startswith("YU1-C-"), "the walkthrough plays Classic, the default rules"
    assert 5 <= len(steps) <= 7
    game, taught = Game(code), set()
    for token, _ in steps:
        move = Move.parse(token)
        assert game.check_move(move.card, move.dest) is None, f"{token} is refused"
        taught |= {name for name, shown in lesson(game, move).items() if shown}
        game.push(move)
    assert taught == {"foundation", "unordered_group", "flip", "king_to_empty"}
    assert game.columns[0] and RANK[game.columns[0][0]] == KING  # the emptied column holds a King


def test_the_deal_can_be_won_from_where_the_walkthrough_ends():
    code, steps = walkthrough()
    tokens = WINNING_LOG.split()
    assert tokens[: len(steps)] == [token for token, _ in steps]
    assert verify(code, tokens).won


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_every_step_has_its_words(language):
    catalog = json.loads((JS_DIR / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    _, steps = walkthrough()
    for _, key in steps + [("", "tour.done"), ("", "tour.progress")]:
        group, name = key.split(".")
        assert catalog[group][name].strip(), f"{language}: {key}"
