"""The browser engine against the Python engine, step by step (no database).

Random legal play (seeded) on ~200 deals, with undos, take-backs and some wins; after every
step both engines must list the same legal moves in the same order and serialise the same
position and scores. At some steps every card × destination (and U) is probed for its refusal
code, and both ``verify`` functions judge the logs and corrupted copies of them.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engine import DEAL_COUNT, Game, Move, Rules, format_code, verify

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "js" / "differential_runner.mjs"
NODE = shutil.which("node")
pytestmark = [
    pytest.mark.skipif(NODE is None, reason="node is not installed: the browser engine cannot run"),
]

SEED = 20261129
GAMES = 200
MAX_TOKENS = 150
PROBE_EVERY = 10
CARD_NAMES = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]
DESTINATIONS = [*"1234567", "F"]
CANDIDATES = [f"{card}>{dest}" for card in CARD_NAMES for dest in DESTINATIONS]
BAD_TOKENS = ["9X>2", "td>5", "TD>8", "TD>0", "TD-5", "TD>", ">5", "u", "F", "TD>5>6", "AS>f"]
# Refusal codes as letters, in the order of docs/rules.md (the runner uses the same alphabet).
REFUSAL_LETTERS = {
    code: chr(97 + i)
    for i, code in enumerate(
        "bad_token game_over nothing_to_undo face_down not_foundation_top same_column not_last_card "
        "foundation_order group_too_large empty_needs_king wrong_rank wrong_colour".split()
    )
}
EDGE_NUMBERS = [0, 1, 2**32 - 1, 2**32, 2**32 + 1, DEAL_COUNT - 1]


def random_codes(rng: random.Random) -> list[str]:
    numbers = EDGE_NUMBERS + [rng.randrange(DEAL_COUNT) for _ in range(GAMES - len(EDGE_NUMBERS))]
    return [format_code(rng.choice([Rules.CLASSIC, Rules.RELAXED]), n) for n in numbers]


def random_play(rng: random.Random, code: str) -> tuple[list[str], list[dict]]:
    """Tokens of a random legal game and what Python sees after each (step 0 is the deal).

    Half the games play at random; the others mostly prefer foundation moves, then moves
    that turn a card up, so that many are won within the budget.
    """
    game = Game.from_code(code)
    tokens: list[str] = []
    steps = [observe(game, probe=True)]
    focus = rng.choice([0.0, 0.9])
    while len(tokens) < MAX_TOKENS and not game.is_won():
        moves = list(game.legal_moves)
        if tokens and (not moves or rng.random() < 0.05):
            try:
                game.undo()
            except ValueError:  # nothing left to take back
                break
            tokens.append("U")
        else:
            if rng.random() < focus:
                moves = most_useful(game, moves)
            move = rng.choice(moves)
            game.push(move)
            tokens.append(str(move))
        won = game.is_won()
        steps.append(observe(game, probe=won or len(steps) % PROBE_EVERY == 0))
    return tokens, steps


def most_useful(game: Game, moves: list[Move]) -> list[Move]:
    """The moves that help most: to a foundation, then turning a card up, then the rest."""
    face_down = game.face_down
    depth = {card: (column, i) for column, cards in enumerate(game.columns) for i, card in enumerate(cards)}

    def usefulness(move: Move) -> int:
        if str(move).endswith(">F"):
            return 3
        if move.card not in depth:
            return -2  # a take-back
        column, i = depth[move.card]
        if i == face_down[column] > 0:
            return 2
        return -1 if i == 0 else 0  # a King from the bottom to another empty column gains nothing

    best = max(map(usefulness, moves))
    return [m for m in moves if usefulness(m) == best]


def observe(game: Game, *, probe: bool) -> dict:
    step = {"legal_moves": [str(m) for m in game.legal_moves], "position": game.to_dict()}
    if probe:
        step["refusals"] = refusal_signature(game)
    return step


def refusal_signature(game: Game) -> str:
    letters = []
    for text in CANDIDATES:
        move = Move.parse(text)
        refusal = game.check_move(move.card, move.dest)
        letters.append("." if refusal is None else REFUSAL_LETTERS[refusal])
    undo = "game_over" if game.is_won() else None if game.can_undo else "nothing_to_undo"
    letters.append("." if undo is None else REFUSAL_LETTERS[undo])
    return "".join(letters)


def corrupted_logs(rng: random.Random, tokens: list[str]) -> list[str]:
    """The log itself, and copies with one token replaced or appended (mostly refused ones)."""
    logs = [" ".join(tokens), " ".join(tokens) + " U"]
    for pool in (CANDIDATES, BAD_TOKENS, ["U"]):
        cut = rng.randrange(len(tokens) + 1)
        logs.append(" ".join([*tokens[:cut], rng.choice(pool), *tokens[cut + 1 :]]))
    logs.append(" ".join(tokens) + " " + rng.choice(CANDIDATES))
    logs.append("\n  ".join(tokens) + "\t")  # any white space separates tokens
    return logs


@pytest.fixture(scope="module")
def games() -> list[dict]:
    rng = random.Random(SEED)
    cases = []
    for code in random_codes(rng):
        tokens, steps = random_play(rng, code)
        probe = [i for i, step in enumerate(steps) if "refusals" in step]
        logs = corrupted_logs(rng, tokens)
        cases.append({"code": code, "log": " ".join(tokens), "probe": probe, "verify": logs, "steps": steps})
    return cases


@pytest.fixture(scope="module")
def javascript(games: list[dict], tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    path = tmp_path_factory.mktemp("differential") / "cases.json"
    path.write_text(json.dumps([{k: case[k] for k in ("code", "log", "probe", "verify")} for case in games]))
    result = subprocess.run([NODE, str(RUNNER), str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_sample_covers_the_rules(games: list[dict]) -> None:
    """Guard the generator itself: wins, undos, take-backs and both rule sets occur."""
    logs = [case["log"].split() for case in games]
    assert sum(case["steps"][-1]["position"]["won"] for case in games) >= 10
    assert sum(log.count("U") for log in logs) >= 200
    take_backs = sum(
        1
        for case, log in zip(games, logs, strict=True)
        for token, before, after in zip(log, case["steps"][:-1], case["steps"][1:], strict=True)
        if token != "U" and sum(after["position"]["foundations"]) < sum(before["position"]["foundations"])
    )
    assert take_backs >= 20
    assert any(case["code"][4] == "R" for case in games) and any(case["code"][4] == "C" for case in games)
    signatures = "".join(s.get("refusals", "") for case in games for s in case["steps"])
    assert set(signatures) >= {".", *"bcdefghijkl"}, "every refusal code but bad_token is probed"


def test_same_steps(games: list[dict], javascript: list[dict]) -> None:
    assert len(javascript) == len(games)
    for python, js in zip(games, javascript, strict=True):
        assert js["error"] is None, (python["code"], js["error"])
        assert len(js["steps"]) == len(python["steps"]), python["code"]
        tokens = ["(deal)", *python["log"].split()]
        for index, (mine, theirs) in enumerate(zip(python["steps"], js["steps"], strict=True)):
            where = f"{python['code']} after {' '.join(tokens[: index + 1])}"
            assert theirs["legal_moves"] == mine["legal_moves"], where
            assert theirs["position"] == mine["position"], where
            assert theirs.get("refusals") == mine.get("refusals"), where


def test_same_verdicts(games: list[dict], javascript: list[dict]) -> None:
    for python, js in zip(games, javascript, strict=True):
        for log, theirs in zip(python["verify"], js["verdicts"], strict=True):
            assert theirs == verify(python["code"], log).to_dict(), f"{python['code']}: {log}"
