"""Write the vector files, the contract between the Python and the browser engines.

    python -m games.engine.vectors.build

rewrites codes.json, deals.json, logs.json, legal_moves.json, positions.json, hidden.json,
visible_deals.json and finish.json in this folder, identically on every run. Each log case is
designed: a small search over deals finds a position that shows a rule, and the case is named
after what it shows. The expected answers come from this engine; tests/engine checks the rules
themselves by hand-made positions. hidden.json and visible_deals.json: see design_hidden.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..cards import CARD_NAMES
from ..codes import GameCode
from ..errors import REFUSAL_CODES, InvalidCodeError
from ..game import Game
from ..move import UNDO
from .cases import Case, replayed
from .design_hidden import hidden_cases, visible_deal_cases
from .design_play import bad_token_cases, undo_cases, white_space_cases, win_cases
from .design_rules import all_rule_cases
from .wins import load_wins

HERE = Path(__file__).parent

CODE_INPUTS = (
    "YU1-C-AAAAAAA",
    " yu1-c-aaaaaab ",
    "\tYU1-R-AAAAAAB\n",
    "\u00a0YU1-C-AAAAAAC\u3000",
    "Yu1-r-AbCdEfG",
    "YU1-R-ZZZZZZZ",
    "YU1-C-NXMRLXV",
    "yu1-c-nxmrlxw",
    "YU1-R-NXMRLXX",
    "YU1-C-BAAAAAA",
    "YU1-R-AAAAAAZ",
    "YU0-C-AAAAAAA",
    "YU-C-AAAAAAA",
    "YU1-X-AAAAAAA",
    "YU1-CR-AAAAAAA",
    "YU1--AAAAAAA",
    "YU1-C-AAAAAA",
    "YU1-C-AAAAAAAA",
    "YU1-C-",
    "YU1-C-AAAA1AA",
    "YU1-C-AAA AAAA",
    "YU1-C-AAAAAA_",
    "YU1-C-ÄAAAAAA",
    "yu1-c-aaaaaaı",
    "YU1-C-AAAAAAſ",
    "\ufeffYU1-C-AAAAAAA",
    "YU1C-AAAAAAA",
    "YU1-C-AAAAAAA-",
    "YU1_C_AAAAAAA",
    "",
    "   ",
    # YU2: the permutation index in 46 characters of Crockford's base 32
    "YU2-C-0000000000000000000000000000000000000000000000",
    " yu2-r-0000000000000000000000000000000000000000000001\n",
    "YU2-R-1FVS99MCKMRS4WZTTB305DPQ5SC0N9W1HRNCFZZZZZZZZZ",
    "\tyu2-c-1fvs99mckmrs4wzttb305dpq5sc0n9w1hrncfzzzzzzzzz\u3000",
    "YU2-C-18MW0YNNFJRNFPJ0HV3ZGAWPX8NJB703ZDJRVAJJQRCZ1B",
    "Yu2-R-0pm0029rf6zbyjq0tg3xepw2mheadycycd2wm7qhwrx9sn",
    "YU2-C-1FVS99MCKMRS4WZTTB305DPQ5SC0N9W1HRNCG000000000",
    "YU2-C-ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ",
    "YU2-C-AAAAAAA",
    "YU2-C-000000000000000000000000000000000000000000000",
    "YU2-C-00000000000000000000000000000000000000000000000",
    "YU2-C-",
    "YU2-C-000000000000000000000000000000000000000000000I",
    "YU2-C-000000000000000000000000000000000000000000000L",
    "YU2-C-O000000000000000000000000000000000000000000000",
    "yu2-c-000000000000000000000000000000000000000000000u",
    "YU2-C-0000000000000000000000000000000000000000000-00",
    "YU2-C-00000000000000000000000 0000000000000000000000",
    "YU2-C-000000000000000000000000000000000000000000000ß",
    "YU2-X-0000000000000000000000000000000000000000000000",
    "YU3-C-0000000000000000000000000000000000000000000000",
    "YU3-C-AAAAAAA",
)
# YU1 codes whose YU2 code (GameCode.whole(): the same deck) is a case of codes.json and deals.json.
WHOLE_OF = ("YU1-C-AAAAAAA", "YU1-C-AAAAAAB", "YU1-R-AAAAAAB", "YU1-C-NXMRLXW", "YU1-R-ZZZZZZZ")

DEAL_CODES = (
    "YU1-C-AAAAAAA",
    "YU1-R-AAAAAAA",
    "YU1-C-AAAAAAB",
    "YU1-R-AAAAAAB",
    "YU1-C-AAAAAAC",
    "YU1-R-AAAAAAD",
    "YU1-C-AAAAAAZ",
    "YU1-R-AAAAABA",
    "YU1-C-AAAZZZZ",
    "YU1-C-BAAAAAA",
    "YU1-R-HELLOYU",
    "YU1-C-KLONDIK",
    "YU1-R-MMMMMMM",
    "YU1-C-NXMRLXV",
    "YU1-C-NXMRLXW",
    "YU1-R-NXMRLXW",
    "YU1-C-NXMRLXX",
    "YU1-C-QWERTYU",
    "YU1-R-SOLITRE",
    "YU1-C-ZZZZZZY",
    "YU1-C-ZZZZZZZ",
    "YU1-R-ZZZZZZZ",
    "YU2-C-0000000000000000000000000000000000000000000000",
    "YU2-R-1FVS99MCKMRS4WZTTB305DPQ5SC0N9W1HRNCFZZZZZZZZZ",
    "YU2-C-18MW0YNNFJRNFPJ0HV3ZGAWPX8NJB703ZDJRVAJJQRCZ1B",
    "YU2-R-0PM0029RF6ZBYJQ0TG3XEPW2MHEADYCYCD2WM7QHWRX9SN",
    *(str(GameCode.parse(code).whole()) for code in WHOLE_OF),
)
# These must all be different layouts (the deal number's high word is seeded too).
DISTINCT_DEALS = ("YU1-C-AAAAAAA", "YU1-C-AAAAAAB", "YU1-R-ZZZZZZZ", "YU1-C-NXMRLXW", "YU1-C-NXMRLXV")

ABOUT = {
    "codes": "Game codes: an input, and the canonical code, rules and number it parses to, or the "
    "error invalid_code. NXMRLXW is deal 2^32. A YU1 number is a JSON number; a YU2 number, the "
    "permutation index (up to 52! - 1), is a decimal string, as JSON has no big integers. whole_of: a YU1 "
    "code with the same deck (its deal is the same layout; GameCode.whole() of it is code).",
    "deals": "Layouts (the `deal --json` shape): each column bottom to top; the bottom face_down[k] cards of "
    "column k are face down. AAAAAAA, AAAAAAB, ZZZZZZZ and NXMRLXW (2^32) are different deals; C and R "
    "of one number are the same layout. The YU2 codes include index 0 (the ordered deck AS 2S … KC), "
    "52! - 1 (the reverse deck) and the YU2 codes of YU1 deals, whose layouts are those of the YU1 codes.",
    "logs": "Move logs and their verdicts (the `verify --json` shape). Each case was found by a search "
    "for a position that shows what its name says; the log leads there, the last tokens show it. "
    "Compare every field except error.reason, the sentence a player reads.",
    "legal_moves": "The legal moves after a log, in canonical order (docs/rules.md).",
    "positions": "The position after a log (Game.to_dict()); undo included.",
    "hidden": "Games from a visible deal, whose face-down cards are unknown until revealed (docs/rules.md, "
    '"Positions with unknown face-down cards"). Build the game from deal and revealed, then take the '
    "steps in order: a token is played (result: played, or the refusal code), a reveal {column, depth, "
    "card} is told (result: revealed, or the refusal code); after each step, awaiting is the place "
    "waiting for a reveal (or null) and points the points. Then compare position and the legal moves. "
    "Every reveal of a real deal was answered from the deal of code, and the game matched Game(code) "
    "at every step.",
    "finish": 'Finishing (docs/rules.md, "Finishing"): after a log, the foundation moves that win when '
    "foundation moves alone do and no card lies face down, lowest rank first (the leftmost column at equal "
    "ranks); null when a card lies face down, when a card is blocked, or when the game is won.",
    "visible_deals": "Visible deals (VisibleDeal.to_dict()): the visible deal of a code, deals a game is "
    "built from (position: its to_dict()), and deals refused with invalid_position.",
}


def code_cases() -> list[dict[str, Any]]:
    cases = []
    for text in CODE_INPUTS:
        try:
            code = GameCode.parse(text)
        except InvalidCodeError:
            cases.append({"input": text, "error": "invalid_code"})
        else:
            cases.append(_code_case(text, code))
    for text in WHOLE_OF:
        whole = GameCode.parse(text).whole()
        cases.append({**_code_case(str(whole), whole), "whole_of": text})
    return cases


def _code_case(text: str, code: GameCode) -> dict[str, Any]:
    number: int | str = code.number if code.version == 1 else str(code.number)
    return {"input": text, "code": str(code), "rules": code.rules.value, "number": number}


def deal_cases() -> list[dict[str, Any]]:
    from ..cli import deal_dict

    cases = [deal_dict(Game(code)) for code in DEAL_CODES]
    layouts = [Game(code).columns for code in DISTINCT_DEALS]
    assert len(set(layouts)) == len(layouts), "the checked deals must differ"
    for code in WHOLE_OF:
        assert Game(GameCode.parse(code).whole()).columns == Game(code).columns, f"{code}: another layout"
    return cases


def log_cases() -> list[Case]:
    wins = load_wins()
    cases = all_rule_cases() + undo_cases() + bad_token_cases() + white_space_cases() + win_cases(wins)
    shown_codes = {case.expect for case in cases}
    missing = set(REFUSAL_CODES) - shown_codes
    assert not missing, f"no case shows {missing}"
    return cases


def _position_logs(cases: list[Case]) -> list[tuple[str, list[str]]]:
    """Where to list legal moves: deals, the positions the designed cases reached, and a whole game."""
    picked = [("YU1-C-AAAAAAA", []), ("YU1-R-AAAAAAA", []), ("YU1-C-NXMRLXW", [])]
    for case in cases:
        if case.tail_from and case.expect in (None, "empty_needs_king", "wrong_colour", "not_foundation_top"):
            picked.append((case.code, case.log[: case.tail_from]))
    code, log = load_wins()[0]
    picked += [(code, log[: len(log) // 3]), (code, log[: 2 * len(log) // 3]), (code, log)]
    return picked


def legal_move_cases(cases: list[Case]) -> list[dict[str, Any]]:
    result = []
    for code, log in _position_logs(cases):
        game = replayed(code, log)
        result.append({"code": code, "log": " ".join(log), "moves": [str(move) for move in game.legal_moves]})
    listed = [case["moves"] for case in result]
    assert any(any(">" in move and move.split(">")[1] != "F" for move in moves) for moves in listed)
    assert any(
        not column for case in result for column in replayed(case["code"], case["log"].split()).columns
    )
    assert any(_has_take_back(case) for case in result), "some position must offer a take-back"
    return result


def _has_take_back(case: dict[str, Any]) -> bool:
    game = replayed(case["code"], case["log"].split())
    on_foundations = {CARD_NAMES[s * 13 + n - 1] for s, n in enumerate(game.foundations) if n}
    return any(move.split(">")[0] in on_foundations for move in case["moves"])


def position_cases(cases: list[Case]) -> list[dict[str, Any]]:
    logs = [(code, log) for code, log in _position_logs(cases)[::3]]
    logs += [(case.code, case.log) for case in cases if case.expect is None and UNDO in case.log]
    return [
        {"code": code, "log": " ".join(log), "position": replayed(code, log).to_dict()} for code, log in logs
    ]


def finish_cases() -> list[dict[str, Any]]:
    """On each winning log: a position with face-down cards, the last one before finishing is
    possible, the first one where it is, one halfway through the finish, the same after a
    foundation move and its undo, and the won game."""
    result = []
    for code, log in load_wins():
        game, all_up, first = Game(code), None, None
        for index, token in enumerate(log):
            game.play(token)
            if all_up is None and not any(game.face_down):
                all_up = index + 1
            if first is None and game.finish_moves() is not None:
                first = index + 1
        assert all_up is not None and first is not None, f"{code}: the win never finishes"
        ends = [all_up - 1, first - 1, first, first + 1, (first + len(log)) // 2, len(log)]
        logs = [log[:end] for end in dict.fromkeys(ends)]
        logs.insert(4, [*log[: first + 1], UNDO])
        for tokens in logs:
            moves = replayed(code, tokens).finish_moves()
            listed = None if moves is None else [str(move) for move in moves]
            result.append({"code": code, "log": " ".join(tokens), "moves": listed})
    return result


def _visible(text: str) -> str:
    """JSON text with invisible characters (U+00A0, U+2028, U+FEFF, …) written as escapes."""
    return "".join(
        ch if ch == " " or (ch.isprintable() and not ch.isspace()) else f"\\u{ord(ch):04x}" for ch in text
    )


def write(name: str, cases: list[dict[str, Any]]) -> None:
    """One case a line, so that a change shows as a small diff."""
    lines = ",\n".join("  " + _visible(json.dumps(case, ensure_ascii=False)) for case in cases)
    text = f'{{\n "about": {json.dumps(ABOUT[name], ensure_ascii=False)},\n "cases": [\n{lines}\n ]\n}}\n'
    json.loads(text)
    (HERE / f"{name}.json").write_text(text, encoding="utf-8")


def main() -> None:
    cases = log_cases()
    write("codes", code_cases())
    write("deals", deal_cases())
    write("logs", [case.to_vector() for case in cases])
    write("legal_moves", legal_move_cases(cases))
    write("positions", position_cases(cases))
    write("hidden", hidden_cases())
    write("visible_deals", visible_deal_cases())
    write("finish", finish_cases())
    for name in ABOUT:
        count = len(json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))["cases"])
        print(f"{name}.json: {count} cases")


if __name__ == "__main__":
    main()
