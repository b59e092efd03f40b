"""``python -m games.solver.census``: one JSON line a deal, and a census killed goes on."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.engine import GameCode, Rules
from games.solver.census import main, parse_deals, read_done

PROJECT_DIR = Path(__file__).resolve().parents[2]
DEALS = "0-5"
CODES = {str(GameCode(Rules.CLASSIC, number)) for number in range(6)}
# Verdicts may depend on the machine's speed, so no test reads them: only which deals are in.
ARGS = ["--deals", DEALS, "--seconds", "30", "--max-nodes", "3000", "--workers", "1"]


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_deals_are_a_range_or_a_seeded_sample():
    assert parse_deals("3-5") == [3, 4, 5]
    assert parse_deals("random:7:4") == parse_deals("random:7:4") != parse_deals("random:8:4")
    assert len(parse_deals("random:7:4")) == 4
    for bad in ("5-3", "x", "random:7", "-1-2"):
        with pytest.raises(ValueError):
            parse_deals(bad)


def test_a_second_pass_takes_the_deals_a_census_left_unsettled(tmp_path):
    path = tmp_path / "census.jsonl.gz"
    answers = {3: "won", 9: "unknown", 4: "unwinnable", 1: "unknown"}
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for number, result in answers.items():
            handle.write(json.dumps({"code": str(GameCode(Rules.CLASSIC, number)), "result": result}) + "\n")
    assert parse_deals(f"unsettled:{path}") == [9, 1]
    with pytest.raises(ValueError, match="other rules"):
        parse_deals(f"unsettled:{path}", Rules.RELAXED)
    with pytest.raises(ValueError, match="unsettled"):
        parse_deals(f"unsettled:{tmp_path / 'missing.jsonl'}")


def test_a_line_cut_short_by_a_kill_is_dropped(tmp_path):
    path = tmp_path / "census.jsonl"
    path.write_text('{"code": "YU1-C-AAAAAAA", "result": "won"}\n{"code": "YU1-C-AAA', encoding="utf-8")
    assert list(read_done(path)) == ["YU1-C-AAAAAAA"]
    assert path.read_text(encoding="utf-8").endswith("}\n")


def test_a_killed_census_resumes_where_it_stopped(tmp_path):
    out = tmp_path / "census.jsonl"
    command = [sys.executable, "-m", "games.solver.census", *ARGS, "--out", str(out)]
    census = subprocess.Popen(command, cwd=PROJECT_DIR, start_new_session=True, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (out.exists() and out.read_text(encoding="utf-8").count("\n") >= 1):
            assert census.poll() is None, "the census ended before it could be killed"
            assert time.monotonic() < deadline, "no line in two minutes"
            time.sleep(0.05)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(census.pid, signal.SIGKILL)  # the census and its workers: its own session
        census.wait()
    first = lines(out)
    assert 1 <= len(first) and {entry["code"] for entry in first} <= CODES
    assert main([*ARGS, "--out", str(out)]) == 0
    entries = lines(out)
    assert entries[: len(first)] == first  # kept, not searched again
    assert sorted(entry["code"] for entry in entries) == sorted(CODES)  # each deal once
    for entry in entries:
        assert entry["result"] in {"won", "unwinnable", "unknown"}
        assert entry["nodes"] > 0 or entry["by"] == "deadlock"
        assert (entry["moves"] is not None) == (entry["result"] == "won")
