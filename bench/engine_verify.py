"""How fast the Python engine verifies ~150-token logs, and lists legal moves (one core).

    python bench/engine_verify.py [seconds per case]

The logs are fixed: seeded random legal play (with and without undo) on fixed deals, and the
real winning logs of the vector files lengthened with undos to about 150 tokens. Every run
measures the same work. Target: at least 4,000 logs per second on CPython 3.11.
"""

from __future__ import annotations

import copy
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Game, GameCode, Rules, verify  # noqa: E402
from games.engine.vectors.wins import load_wins  # noqa: E402

TOKENS = 150
LOGS = 64
SEED = 2026


def random_log(rng: random.Random, undo_rate: float) -> tuple[str, list[str]]:
    """A random legal game of TOKENS tokens on a random deal; foundation moves preferred."""
    while True:
        code = str(GameCode(rng.choice(list(Rules)), rng.randrange(26**7)))
        game = Game(code)
        tokens: list[str] = []
        while len(tokens) < TOKENS and not game.is_won():
            moves = list(game.legal_moves)
            if game.can_undo and (not moves or rng.random() < undo_rate):
                game.undo()
                tokens.append("U")
                continue
            if not moves:
                break
            home = [move for move in moves if move.to_foundation]
            move = rng.choice(home if home and rng.random() < 0.5 else moves)
            game.push(move)
            tokens.append(str(move))
        if len(tokens) >= TOKENS * 0.9:
            return code, tokens


def long_win(code: str, log: list[str]) -> tuple[str, list[str]]:
    """A real win, lengthened to about TOKENS tokens by undoing moves and playing them again."""
    tokens = list(log)
    every = max(2, len(log) * 2 // max(1, TOKENS - len(log)))
    lengthened: list[str] = []
    for index, token in enumerate(tokens):
        lengthened.append(token)
        if index % every == 0 and index < len(tokens) - 1 and len(lengthened) + 2 <= TOKENS:
            lengthened += ["U", token]
    return code, lengthened


def measure(name: str, cases: list[tuple[str, str]], seconds: float) -> float:
    for code, log in cases:  # warm up, and make sure every benchmark log is legal
        assert verify(code, log).legal, (code, log)
    runs = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for code, log in cases:
            verify(code, log)
        runs += len(cases)
    per_second = runs / (time.perf_counter() - start)
    tokens = sum(len(log.split()) for _, log in cases) / len(cases)
    micro = 1e6 / per_second
    print(f"{name:<28} {per_second:>9,.0f} logs/s  {micro:>7.1f} µs/log  ({tokens:.0f} tokens per log)")
    return per_second


def positions_of(cases: list[tuple[str, list[str]]]) -> list[Game]:
    positions = []
    for code, tokens in cases:
        game = Game(code)
        positions.append(copy.deepcopy(game))
        for token in tokens:
            game.play(token)
            positions.append(copy.deepcopy(game))
    return positions


def measure_legal_moves(positions: list[Game], seconds: float) -> float:
    runs = listed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for game in positions:
            listed += len(list(game.legal_moves))
        runs += len(positions)
    per_second = runs / (time.perf_counter() - start)
    average = listed / runs
    print(f"{'legal moves, listed':<28} {per_second:>9,.0f} positions/s  ({average:.1f} moves per position)")
    return per_second


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    rng = random.Random(SEED)
    no_undo = [random_log(rng, 0.0) for _ in range(LOGS)]
    with_undo = [random_log(rng, 0.1) for _ in range(LOGS)]
    wins = [long_win(code, log) for code, log in load_wins()]
    print(f"{platform.python_implementation()} {platform.python_version()}, {seconds:g} s per case")
    results = [
        measure("verify, no undo", [(code, " ".join(tokens)) for code, tokens in no_undo], seconds),
        measure("verify, 10% undo", [(code, " ".join(tokens)) for code, tokens in with_undo], seconds),
        measure("verify, wins with undo", [(code, " ".join(tokens)) for code, tokens in wins], seconds),
    ]
    all_logs = no_undo + with_undo + wins
    measure_legal_moves(positions_of(all_logs[:: max(1, len(all_logs) // 32)]), seconds)
    print(f"slowest verify case: {min(results):,.0f} logs/s (target 4,000)")


if __name__ == "__main__":
    main()
