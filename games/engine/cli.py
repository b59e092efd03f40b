"""``python -m games.engine deal|verify|moves``: the engine from a shell.

CODE is a game code of either version (docs/rules.md, "Game codes"): ``YU1-C-AAAAAAB`` (a deal
number, open deals) or ``YU2-C-`` and 46 characters (the deck's permutation index, any deal).

Exit status: 0 for a legal log (or a deal shown), 1 for an illegal log, 2 for unusable input
(a bad code, an unreadable log file) with the reason on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .cards import CARD_LABELS, CARD_NAMES, SUIT_SYMBOLS
from .codes import GameCode
from .errors import InvalidCodeError
from .game import Game
from .layout import format_table
from .move import FOUNDATION, Move
from .verify import VerifyError, replay, verify

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNUSABLE = 0, 1, 2
BYTE_ORDER_MARK = "\ufeff"
SAMPLE_YU1 = "YU1-C-AAAAAAB"
SAMPLE_YU2 = str(GameCode.parse(SAMPLE_YU1).whole())  # the same deal
CODE_HELP = f"a game code: YU1 like {SAMPLE_YU1}, or YU2 (YU2-C- and 46 characters)"


class UnusableInput(Exception):
    """Input the engine cannot work on at all: reported on stderr with exit status 2."""


def deal_dict(game: Game) -> dict[str, Any]:
    """The ``deal --json`` shape (also the shape of the ``deals.json`` vectors)."""
    return {
        "code": str(game.code),
        "rules": game.rules.value,
        "columns": [[CARD_NAMES[card] for card in column] for column in game.columns],
        "face_down": list(game.face_down),
    }


def describe_move(game: Game, move: Move) -> str:
    """``10♦ and 2 more onto J♣ in column 5``: a legal move in words."""
    label = CARD_LABELS[move.card]
    if move.dest == FOUNDATION:
        return f"{label} to the {SUIT_SYMBOLS[move.card // 13]} foundation"
    target = game.columns[move.dest]
    where = (
        f"onto {CARD_LABELS[target[-1]]} in column {move.dest + 1}"
        if target
        else f"to empty column {move.dest + 1}"
    )
    source = next((column for column in game.columns if move.card in column), None)
    if source is None:
        return f"take back {label} {where}"
    more = len(source) - source.index(move.card) - 1
    return f"{label} and {more} more {where}" if more else f"{label} {where}"


def _parse_code(text: str) -> GameCode:
    try:
        return GameCode.parse(text)
    except InvalidCodeError as error:
        raise UnusableInput(f"bad game code: {error}") from None


def _read_log(path: str | None, stdin: TextIO) -> str:
    if path is None:
        return ""
    try:
        if path == "-":
            return stdin.read().removeprefix(BYTE_ORDER_MARK)
        with open(path, encoding="utf-8-sig") as handle:  # a byte-order mark is not a token
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        shown = "standard input" if path == "-" else path
        raise UnusableInput(f"cannot read the log from {shown}: {error}") from None


def _symbols_fit(out: TextIO) -> bool:
    try:
        "".join(SUIT_SYMBOLS).encode(out.encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def _print_json(data: object, out: TextIO) -> None:
    print(json.dumps(data, ensure_ascii=not _symbols_fit(out)), file=out)


def _error_line(error: VerifyError) -> str:
    return f"illegal at move {error.index + 1} `{error.token}`: {error.reason} ({error.code})"


def run_deal(args: argparse.Namespace, out: TextIO) -> int:
    game = Game(_parse_code(args.code))
    if args.json:
        _print_json(deal_dict(game), out)
    else:
        print(format_table(game, symbols=_symbols_fit(out)), file=out)
    return EXIT_LEGAL


def run_verify(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    code = _parse_code(args.code)
    verdict = verify(code, _read_log(args.log, stdin))
    if args.json:
        _print_json(verdict.to_dict(), out)
    else:
        figures = (
            f"{verdict.moves} moves, {verdict.foundation_cards} cards on the foundations, "
            f"score {verdict.score}, points {verdict.points}"
        )
        if verdict.error is not None:
            print(_error_line(verdict.error), file=out)
            print(f"before it: {figures}", file=out)
        else:
            print(f"legal, {'won' if verdict.won else 'not won'}: {figures}", file=out)
    return EXIT_LEGAL if verdict.legal else EXIT_ILLEGAL


def run_moves(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    code = _parse_code(args.code)
    log = _read_log(args.log, stdin)
    game, error = replay(code, log)
    moves = None if error is not None else list(game.legal_moves)
    if args.json:
        data: dict[str, Any] = {"code": str(code), "log": " ".join(log.split())}
        data["moves"] = None if moves is None else [str(move) for move in moves]
        data["error"] = None if error is None else _error_dict(error)
        _print_json(data, out)
    elif error is not None:
        print(_error_line(error), file=out)
    elif game.is_won():
        print("the game is won: no more moves", file=out)
    else:
        print(f"{len(moves)} legal moves" if moves else "no legal move", file=out)
        symbols = _symbols_fit(out)
        for move in moves:
            print(f"{str(move):<6} {describe_move(game, move)}" if symbols else str(move), file=out)
    return EXIT_ILLEGAL if error is not None else EXIT_LEGAL


def _error_dict(error: VerifyError) -> dict[str, Any]:
    return {"index": error.index, "token": error.token, "code": error.code, "reason": error.reason}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="The Yukon Online rules engine.",
        epilog=f"CODE: a game code, YU1 like {SAMPLE_YU1} or YU2 like {SAMPLE_YU2} "
        '(docs/rules.md, "Game codes"); lower case and surrounding spaces are accepted.',
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    deal = commands.add_parser("deal", help="show the layout of a deal")
    deal.add_argument("code", metavar="CODE", help=CODE_HELP)
    verify_cmd = commands.add_parser("verify", help="replay a log and give the verdict")
    verify_cmd.add_argument("code", metavar="CODE", help=CODE_HELP)
    verify_cmd.add_argument("log", metavar="LOG", help="a file holding the log, or - for standard input")
    moves = commands.add_parser("moves", help="list the legal moves after a log, in canonical order")
    moves.add_argument("code", metavar="CODE", help=CODE_HELP)
    moves.add_argument(
        "log", metavar="LOG", nargs="?", help="a file holding the log, or - (default: no move)"
    )
    for command in (deal, verify_cmd, moves):
        command.add_argument("--json", action="store_true", help="print JSON for tools")
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = out if out is not None else sys.stdout
    stdin = stdin if stdin is not None else sys.stdin
    try:
        if args.command == "deal":
            return run_deal(args, out)
        if args.command == "verify":
            return run_verify(args, out, stdin)
        return run_moves(args, out, stdin)
    except UnusableInput as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_UNUSABLE
