"""``python -m games.solver``: codes, layouts, games in progress, batches."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from games.engine import verify
from games.solver.cli import EXIT_ANSWERED, EXIT_UNUSABLE, main

EASY = "YU1-C-AAAAAAC"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def test_json_answer_has_the_documented_shape():
    status, text = run(EASY, "--json", "--time-limit", "10")
    assert status == EXIT_ANSWERED
    answer = json.loads(text)
    assert set(answer) == {"result", "log", "moves", "nodes", "seconds"}
    assert answer["result"] == "won"
    assert answer["moves"] == len(answer["log"].split())
    assert verify(EASY, answer["log"]).won


def test_text_answer_names_the_deal_and_gives_the_log():
    status, text = run(EASY)
    first, log = text.splitlines()
    assert first.startswith(f"{EASY}  classic  won in ") and "positions" in first
    assert verify(EASY, log).won


def test_a_layout_file_with_rules(tmp_path):
    subprocess_out = subprocess.run(
        [sys.executable, "-m", "games.engine", "deal", EASY, "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    layout = tmp_path / "layout.json"
    layout.write_text(subprocess_out)
    status, text = run("--layout", str(layout), "--rules", "relaxed", "--json")
    assert status == EXIT_ANSWERED
    answer = json.loads(text)
    assert answer["result"] == "won"
    assert verify(EASY.replace("-C-", "-R-"), answer["log"]).won


def test_a_hint_after_the_moves_so_far(tmp_path):
    log = tmp_path / "log.txt"
    log.write_text("AS>F\n")
    status, text = run(EASY, "--log", str(log), "--hint", "--json")
    answer = json.loads(text)
    assert status == EXIT_ANSWERED and answer["result"] == "won"
    assert answer["hint"] == answer["log"].split()[0]
    assert verify(EASY, f"AS>F {answer['log']}").won


def test_limits_give_unknown():
    status, text = run("YU1-C-VIAIQSQ", "--max-nodes", "500", "--json")
    assert status == EXIT_ANSWERED
    assert json.loads(text)["result"] == "unknown"
    status, text = run("YU1-C-VIAIQSQ", "--max-nodes", "500", "--hint")
    assert text.strip() == "no win found from here"


def test_batch_prints_a_line_per_deal_and_a_summary():
    status, text = run("--batch", "2", "3", "--time-limit", "2")
    lines = text.splitlines()
    assert status == EXIT_ANSWERED and len(lines) == 4
    assert [line.split()[0] for line in lines[:3]] == ["YU1-C-AAAAAAC", "YU1-C-AAAAAAD", "YU1-C-AAAAAAE"]
    assert lines[3].startswith("3 deals: won ") and "median" in lines[3] and "mean length" in lines[3]


@pytest.mark.parametrize(
    "argv",
    [
        ["YU1-X-AAAAAAA"],
        ["--layout", "/nonexistent/layout.json"],
        [EASY, "--rules", "classic"],
        [EASY, "--log", "/nonexistent/log.txt"],
    ],
)
def test_unusable_input_exits_2_with_a_reason(argv, capsys):
    status, _ = run(*argv)
    assert status == EXIT_UNUSABLE
    assert capsys.readouterr().err.startswith("error: ")


def test_an_illegal_log_is_unusable(tmp_path, capsys):
    log = tmp_path / "log.txt"
    log.write_text("KS>F")
    status, _ = run(EASY, "--log", str(log))
    assert status == EXIT_UNUSABLE
    assert "illegal" in capsys.readouterr().err


def test_code_and_batch_together_are_refused(capsys):
    with pytest.raises(SystemExit) as exit_info:
        run(EASY, "--batch", "0", "2")
    assert exit_info.value.code == 2
