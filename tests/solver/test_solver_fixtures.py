"""The committed winning logs (games/solver/fixtures/winning_logs.json) are real wins."""

from __future__ import annotations

import json
from pathlib import Path

import games.solver
from games.engine import GameCode, Rules, verify

FIXTURE = Path(games.solver.__file__).parent / "fixtures" / "winning_logs.json"


def load() -> list[dict]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_the_fixture_holds_about_a_hundred_classic_and_thirty_relaxed_wins():
    entries = load()
    rules = [GameCode.parse(entry["code"]).rules for entry in entries]
    assert rules.count(Rules.CLASSIC) >= 100
    assert rules.count(Rules.RELAXED) >= 30
    assert len({entry["code"] for entry in entries}) == len(entries)


def test_every_stored_log_replays_as_a_win_with_its_move_count():
    for entry in load():
        assert set(entry) == {"code", "log", "moves"}
        verdict = verify(entry["code"], entry["log"])
        assert verdict.legal and verdict.won, entry["code"]
        assert verdict.moves == entry["moves"] == len(entry["log"].split())
