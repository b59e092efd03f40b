"""``python -m games.engine deal|verify|moves``: output shapes and exit statuses."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Game, GameCode
from games.engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
CODE = "YU1-C-AAAAAAB"


class Terminal(io.StringIO):
    encoding = "utf-8"


class AsciiTerminal(io.StringIO):
    encoding = "ascii"


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = Terminal()
    status = main(list(argv), out=out, stdin=io.StringIO(stdin))
    return status, out.getvalue()


def test_deal_prints_one_line_per_column_with_hidden_cards():
    status, text = run("deal", " yu1-c-aaaaaab ")
    lines = text.splitlines()
    assert status == 0
    assert lines[0].startswith("YU1-C-AAAAAAB  Classic")
    assert lines[2] == "1  4♣"
    assert lines[3].split() == ["2", "##", "2♥", "Q♥", "5♥", "3♣", "K♣"]
    assert lines[8].split()[:7] == ["7", "##", "##", "##", "##", "##", "##"]


def test_deal_json():
    status, text = run("deal", "yu1-r-aaaaaab", "--json")
    data = json.loads(text)
    assert status == 0
    assert list(data) == ["code", "rules", "columns", "face_down"]
    assert (data["code"], data["rules"], data["face_down"]) == (
        "YU1-R-AAAAAAB",
        "relaxed",
        [0, 1, 2, 3, 4, 5, 6],
    )
    assert data["columns"][0] == ["4C"] and [len(c) for c in data["columns"]] == [1, 6, 7, 8, 9, 10, 11]


def test_a_yu2_code_deals_like_the_yu1_code_it_is_the_whole_of():
    whole = str(GameCode.parse(CODE).whole())
    status, text = run("deal", f" {whole.lower()}\n", "--json")
    assert status == 0
    assert json.loads(text) == {**json.loads(run("deal", CODE, "--json")[1]), "code": whole}
    log = "3D>1 AH>F KS>1"
    assert run("verify", whole, "-", stdin=log) == run("verify", CODE, "-", stdin=log)


def test_deal_without_symbols_on_an_ascii_terminal():
    out = AsciiTerminal()
    assert main(["deal", CODE], out=out) == 0
    assert "2 ## 2H QH 5H 3C KC" in out.getvalue().replace("  ", " ")


def test_bad_code_is_unusable_input(capsys):
    assert run("deal", "YU3-C-AAAAAAB")[0] == 2
    assert "expected YU1 or YU2" in capsys.readouterr().err
    assert run("moves", "YU2-C-AAAAAAB")[0] == 2
    assert "exactly 46 characters" in capsys.readouterr().err
    assert run("verify", "YU1-C-AAAAAA", "-")[0] == 2
    assert "7 letters" in capsys.readouterr().err


def test_verify_from_standard_input_json():
    status, text = run("verify", CODE, "-", "--json", stdin="3D>1\nAH>F\n")
    assert status == 0
    assert json.loads(text) == {
        "legal": True,
        "won": False,
        "moves": 2,
        "foundation_cards": 1,
        "score": 98,
        "points": 10,
        "error": None,
    }


def test_verify_from_a_file_illegal(tmp_path):
    log = tmp_path / "game.log"
    log.write_text("3D>1 AH>F AD>F\n")
    status, text = run("verify", CODE, str(log), "--json")
    assert status == 1
    assert json.loads(text)["error"] == {
        "index": 2, "token": "AD>F", "code": "not_last_card",
        "reason": "only the last card of a column can go to a foundation",
    }  # fmt: skip


def test_verify_malformed_token_is_illegal_not_unusable():
    status, text = run("verify", CODE, "-", stdin="3D>1 9X>2")
    assert status == 1
    assert "illegal at move 2 `9X>2`" in text and "(bad_token)" in text


def test_verify_readable_output():
    assert run("verify", CODE, "-", stdin="3D>1 AH>F")[1] == (
        "legal, not won: 2 moves, 1 cards on the foundations, score 98, points 10\n"
    )


def test_verify_unreadable_file(tmp_path, capsys):
    assert run("verify", CODE, str(tmp_path / "missing.log"))[0] == 2
    assert "cannot read the log" in capsys.readouterr().err
    binary = tmp_path / "binary.log"
    binary.write_bytes(b"\xff\xfe\x00")
    assert run("verify", CODE, str(binary))[0] == 2


def test_moves_lists_the_legal_moves_in_canonical_order():
    status, text = run("moves", CODE, "--json")
    expected = [str(move) for move in Game(CODE).legal_moves]
    assert status == 0
    assert json.loads(text) == {"code": CODE, "log": "", "moves": expected, "error": None}


def test_moves_after_a_log():
    status, text = run("moves", CODE, "-", stdin="3D>1  AH>F")
    game = Game(CODE)
    game.play("3D>1")
    game.play("AH>F")
    lines = text.splitlines()
    assert status == 0
    assert lines[0] == f"{len(game.legal_moves)} legal moves"
    assert [line.split()[0] for line in lines[1:]] == [str(move) for move in game.legal_moves]


def test_moves_describe_themselves():
    text = run("moves", CODE)[1]
    assert "TC>4   10♣ and 4 more onto J♦ in column 4" in text
    assert "3D>1   3♦ onto 4♣ in column 1" in text


def test_moves_after_an_illegal_log():
    status, text = run("moves", CODE, "-", "--json", stdin="AD>F")
    data = json.loads(text)
    assert status == 1 and data["moves"] is None and data["error"]["code"] == "not_last_card"


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["verify", CODE])
    assert caught.value.code == 2


def test_the_module_runs():
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", CODE, "-", "--json"],
        input="3D>1 AH>F",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["points"] == 10


def test_a_byte_order_mark_at_the_start_of_a_log_file_is_ignored(tmp_path):
    log = tmp_path / "notepad.log"
    log.write_bytes("\ufeff3D>1 AH>F\r\n".encode())
    assert run("verify", CODE, str(log))[0] == 0
    assert run("verify", CODE, "-", stdin="\ufeff3D>1 AH>F")[0] == 0
