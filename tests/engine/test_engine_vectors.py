"""The shared vector files (games/engine/vectors/*.json): the engine agrees with every case, the
files cover what the contract promises, and they are what the generator writes today."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import REFUSAL_CODES, WHOLE_DEAL_COUNT, Game, GameCode, InvalidCodeError, Rules, verify
from games.engine.cli import deal_dict
from games.engine.codes import WHOLE_ALPHABET
from games.engine.vectors import build

VECTORS = Path(build.__file__).parent


def cases(name: str) -> list[dict]:
    return json.loads((VECTORS / f"{name}.json").read_text(encoding="utf-8"))["cases"]


def replayed(code: str, log: str) -> Game:
    game = Game(code)
    for token in log.split():
        game.play(token)
    return game


@pytest.mark.parametrize("case", cases("codes"), ids=lambda case: repr(case["input"]))
def test_codes(case):
    if "error" in case:
        with pytest.raises(InvalidCodeError):
            GameCode.parse(case["input"])
    else:
        code = GameCode.parse(case["input"])
        # A YU2 index is written as a decimal string: JSON has no big integers.
        assert isinstance(case["number"], int if code.version == 1 else str)
        expected = (case["code"], case["rules"], int(case["number"]))
        assert (str(code), code.rules.value, code.number) == expected
        assert GameCode.parse(str(code)) == code
        if "whole_of" in case:
            yu1 = GameCode.parse(case["whole_of"])
            assert (yu1.version, code.version, yu1.whole()) == (1, 2, code)
            assert code.deck() == yu1.deck() and Game(code).columns == Game(yu1).columns


@pytest.mark.parametrize("case", cases("deals"), ids=lambda case: case["code"])
def test_deals(case):
    assert deal_dict(Game(case["code"])) == case


@pytest.mark.parametrize("case", cases("logs"), ids=lambda case: case["name"])
def test_logs(case):
    assert verify(case["code"], case["log"]).to_dict() == case["verdict"]


@pytest.mark.parametrize(
    "case", cases("legal_moves"), ids=lambda case: f"{case['code']}+{len(case['log'].split())}"
)
def test_legal_moves(case):
    assert [str(move) for move in replayed(case["code"], case["log"]).legal_moves] == case["moves"]


@pytest.mark.parametrize(
    "case", cases("positions"), ids=lambda case: f"{case['code']}+{len(case['log'].split())}"
)
def test_positions(case):
    assert replayed(case["code"], case["log"]).to_dict() == case["position"]


# --- What the files must cover -------------------------------------------------------------------


def test_enough_deals_of_both_rule_sets():
    codes = [case["code"] for case in cases("deals")]
    assert len(codes) >= 20
    assert {"YU1-C-AAAAAAA", "YU1-C-AAAAAAB", "YU1-R-ZZZZZZZ", "YU1-C-NXMRLXW"} <= set(codes)
    assert {GameCode.parse(code).rules for code in codes} == set(Rules)


def test_codes_of_both_versions():
    parsed = [case for case in cases("codes") if "code" in case]
    yu2 = [case for case in parsed if case["code"].startswith("YU2-")]
    assert {int(case["number"]) for case in yu2} >= {0, WHOLE_DEAL_COUNT - 1}
    assert {case["rules"] for case in yu2} == {rules.value for rules in Rules}
    assert any(case["input"] != case["input"].strip() for case in yu2), "white space"
    assert any(case["input"] != case["input"].upper() for case in yu2), "lower case"
    assert len({case["whole_of"] for case in yu2 if "whole_of" in case}) >= 3
    refused = [case["input"].strip().upper().split("-") for case in cases("codes") if "error" in case]
    yu2_parts = [parts[2] for parts in refused if len(parts) == 3 and parts[:2] == ["YU2", "C"]]
    assert {0, 7, 45, 47} <= {len(part) for part in yu2_parts}, "deal parts too short and too long"
    assert set("ILOU") <= {ch for part in yu2_parts if len(part) == 46 for ch in part}, "characters left out"
    no_deal = "".join(WHOLE_ALPHABET[WHOLE_DEAL_COUNT >> shift & 31] for shift in range(225, -5, -5))
    assert no_deal in yu2_parts, "the index 52! itself"
    assert any(parts[0] == "YU3" for parts in refused)


def test_yu2_deals_have_the_layouts_of_the_yu1_deals_they_are_the_whole_of():
    layouts = {case["code"]: case["columns"] for case in cases("deals")}
    pairs = [(case["code"], case["whole_of"]) for case in cases("codes") if "whole_of" in case]
    assert len(pairs) >= 3
    for yu2, yu1 in pairs:
        assert layouts[yu2] == layouts[yu1], f"{yu2} is not the deal of {yu1}"


def test_every_refusal_code_and_enough_logs():
    logs = cases("logs")
    assert len(logs) >= 60
    shown = {case["verdict"]["error"]["code"] for case in logs if case["verdict"]["error"]}
    assert shown == set(REFUSAL_CODES)
    assert len({case["name"] for case in logs}) == len(logs), "each case says what it shows"


def test_wins_on_five_deals_with_take_backs_and_undo():
    wins = [case for case in cases("logs") if case["verdict"]["won"] and case["verdict"]["legal"]]
    assert len({case["code"] for case in wins}) >= 5
    assert all(case["verdict"]["foundation_cards"] == 52 for case in wins)
    assert any(" U " in case["log"] for case in wins)
    assert any(case["verdict"]["points"] > 625 for case in wins)  # take-backs re-scored
    assert all(case["verdict"]["points"] == 625 for case in wins if " U " in case["log"])


def test_illegal_at_the_first_a_middle_and_the_last_token():
    indexes = {
        (case["verdict"]["error"]["index"], len(case["log"].split()))
        for case in cases("logs")
        if case["verdict"]["error"] and case["verdict"]["error"]["code"] != "bad_token"
    }
    assert any(index == 0 and length > 1 for index, length in indexes)
    assert any(0 < index < length - 1 for index, length in indexes)
    assert any(index == length - 1 and length > 1 for index, length in indexes)


def test_legal_moves_positions():
    listed = cases("legal_moves")
    assert len(listed) >= 15
    games = [replayed(case["code"], case["log"]) for case in listed]
    assert any(not column for game in games for column in game.columns)
    assert {game.rules for game in games} == set(Rules)
    foundation_tops = [
        {f"{'A23456789TJQK'[n - 1]}{'SHDC'[suit]}" for suit, n in enumerate(game.foundations) if n}
        for game in games
    ]
    assert any(
        move.split(">")[0] in tops
        for case, tops in zip(listed, foundation_tops, strict=True)
        for move in case["moves"]
    ), "some position offers a take-back"


def test_positions_include_undo():
    assert any("U" in case["log"].split() for case in cases("positions"))


# --- The files are what the generator writes ---------------------------------------------------


def test_the_files_are_up_to_date():
    designed = build.log_cases()
    assert cases("codes") == build.code_cases()
    assert cases("deals") == build.deal_cases()
    assert cases("logs") == [case.to_vector() for case in designed]
    assert cases("legal_moves") == build.legal_move_cases(designed)
    assert cases("positions") == build.position_cases(designed)
