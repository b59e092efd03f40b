"""Winning logs for the vectors, kept in ``wins.txt`` (one ``CODE LOG`` line each).

``python -m games.engine.vectors.wins`` finds them again: with the project's solver
(``python -m games.solver CODE --json``) when it is there, else with the small depth-first
search below, which wins easy deals only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ..cards import RANK, RED
from ..codes import GameCode, Rules
from ..game import Game
from ..move import COLUMN_COUNT, FOUNDATION, MOVES
from ..verify import verify

WINS_FILE = Path(__file__).with_name("wins.txt")
# The deals whose wins the vectors hold: both rule letters, and at least five deals.
WIN_CODES = (
    "YU1-C-AAAAAAA",
    "YU1-R-AAAAAAB",
    "YU1-C-AAAAAAC",
    "YU1-R-AAAAAAD",
    "YU1-C-AAAAAAF",
    "YU1-R-AAAAAAG",
    "YU1-C-AAAAAAH",
)


def load_wins() -> list[tuple[str, list[str]]]:
    wins = []
    for line in WINS_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            code, _, log = line.partition(" ")
            wins.append((code, log.split()))
    return wins


def _safe_to_foundation(game: Game, card: int) -> bool:
    """A foundation move nothing could ever want back (the other colour's foundations are close)."""
    rank = RANK[card]
    if rank <= 2:
        return True
    others = [count for suit, count in enumerate(game.foundations) if RED[suit * 13] != RED[card]]
    return min(others) >= rank - 1


def _candidates(game: Game) -> list[tuple[int, int]]:
    columns, face_down = game.columns, game.face_down
    forced, flips, others = [], [], []
    for source, column in enumerate(columns):
        for position in range(face_down[source], len(column)):
            card = column[position]
            if position == len(column) - 1 and game.check_move(card, FOUNDATION) is None:
                (forced if _safe_to_foundation(game, card) else flips).append((card, FOUNDATION))
            for dest in range(COLUMN_COUNT):
                if game.check_move(card, dest) is not None:
                    continue
                if position == 0 and not columns[dest]:
                    continue  # a King from one empty column to another
                if position == face_down[source]:
                    flips.append((card, dest))
                elif position > face_down[source]:
                    below = column[position - 1]
                    proper = RANK[below] == RANK[card] + 1 and (
                        game.rules is Rules.RELAXED or RED[below] != RED[card]
                    )
                    if not proper:
                        others.append((card, dest))
    if forced:
        return forced[:1]
    return flips + others


def dfs_win(code: str, budget: int = 300_000) -> list[str] | None:
    """A winning log by depth-first search with a table of seen positions, or None."""
    game = Game(code)
    seen: set[tuple] = set()
    path: list[tuple[int, int]] = []
    stack = [iter(_candidates(game))]
    nodes = 0
    while stack:
        if game.is_won():
            return [str(MOVES[card][dest]) for card, dest in path]
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if path:
                path.pop()
                game.undo()
            continue
        game.apply_move(*step)
        key = (game.columns, game.face_down, game.foundations)
        nodes += 1
        if key in seen or nodes > budget:
            game.undo()
            if nodes > budget:
                return None
            continue
        seen.add(key)
        path.append(step)
        stack.append(iter(_candidates(game)))
    return None


def solver_win(code: str) -> list[str] | None:
    """Ask the project's solver; None when it is missing or finds no win."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "games.solver", code, "--json"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        answer = json.loads(done.stdout)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None
    return answer["log"].split() if answer.get("result") == "won" else None


def main() -> None:
    lines = ["# CODE LOG: winning logs for the vectors, found by `python -m games.engine.vectors.wins`"]
    for code in WIN_CODES:
        log = solver_win(code) or dfs_win(code)
        if log is None:
            print(f"{code}: no win found", file=sys.stderr)
            continue
        verdict = verify(code, log)
        assert verdict.won, (code, verdict)
        lines.append(f"{GameCode.parse(code)} {' '.join(log)}")
        print(f"{code}: won in {len(log)} moves", file=sys.stderr)
    WINS_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
