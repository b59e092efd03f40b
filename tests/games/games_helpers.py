"""Winning logs, paced move times and submission bodies for the games tests."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from pathlib import Path

from django.utils import timezone

from games.engine import GameCode, verify

PROJECT_DIR = Path(__file__).resolve().parents[2]
VECTOR_LOGS = PROJECT_DIR / "games" / "engine" / "vectors" / "logs.json"
SOLVER_WINS = PROJECT_DIR / "games" / "solver" / "fixtures" / "winning_logs.json"
PACE_MS = 170  # above every default timing threshold


def winning_logs() -> list[dict]:
    """[{code, log, moves}] of clean wins (no undo): the engine vectors, plus the solver's when present."""
    wins = {}
    cases = json.loads(VECTOR_LOGS.read_text())["cases"]
    for case in cases:
        if case["verdict"]["won"] and case["verdict"]["legal"] and "U" not in case["log"].split():
            wins.setdefault(
                case["code"], {"code": case["code"], "log": case["log"], "moves": case["verdict"]["moves"]}
            )
    if SOLVER_WINS.exists():
        for case in json.loads(SOLVER_WINS.read_text()):
            wins.setdefault(case["code"], {"code": case["code"], "log": case["log"], "moves": case["moves"]})
    return list(wins.values())


WINS = winning_logs()
CLASSIC_WIN = next(win for win in WINS if win["code"] == "YU1-C-AAAAAAA")
RELAXED_WIN = next(win for win in WINS if win["code"].startswith("YU1-R-"))


def deal_number(code: str) -> int:
    return GameCode.parse(code).number


def paced(log: str, step_ms: int = PACE_MS, *, first_ms: int = 0) -> list[int]:
    """Times as the page's clock gives them: the first move at 0 (the clock starts with it),
    then one every `step_ms`; `first_ms` shifts them all (a clock started with the deal)."""
    return [first_ms + step_ms * index for index in range(len(log.split()))]


def body(
    *, log: str, game: int | None = None, code: str | None = None, step_ms: int = PACE_MS, **extra
) -> dict:
    """A submission body as the page sends it."""
    times = paced(log, step_ms)
    data = {
        "client_id": str(uuid.uuid4()),
        "log": log,
        "move_times_ms": times,
        "duration_ms": (times[-1] if times else 0) + 400,
        "finished_at": timezone.now().isoformat(),
        "client_version": "test",
    }
    if game is not None:
        data["game"] = game
    if code is not None:
        data["code"] = code
    data.update(extra)
    return data


def expected_score(log: str, code: str) -> int:
    return verify(code, log).score


AN_HOUR_AGO = timedelta(hours=1)
