"""``python -m games.solver``: solve a deal, a layout or a game in progress from a shell.

    python -m games.solver YU1-C-AAAAAAB [--time-limit S] [--max-nodes N] [--shorten] [--json]
    python -m games.solver --layout FILE.json --rules classic|relaxed [...]
    python -m games.solver YU1-C-AAAAAAB --log FILE [--hint]   (the game so far; - reads stdin)
    python -m games.solver --batch START COUNT                 (Classic deals START … START+COUNT−1)

Exit status: 0 when an answer was given (whatever it is), 2 for unusable input.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from typing import TextIO

from games.engine import GameCode, InvalidCodeError, Rules

from .api import DEFAULT_MAX_NODES, DEFAULT_TIME_LIMIT, UNKNOWN, UNWINNABLE, WON, Solution, solve
from .position import LayoutError, Position

EXIT_ANSWERED, EXIT_UNUSABLE = 0, 2


class UnusableInput(Exception):
    """Input the solver cannot work on: reported on stderr with exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.solver",
        description="Search a Yukon deal for a win, knowing the face-down cards.",
    )
    parser.add_argument(
        "code", metavar="CODE", nargs="?", help="a game code: YU1-C-AAAAAAB, or a whole deal's YU2-C-…"
    )
    parser.add_argument(
        "--layout", metavar="FILE", help="a layout in the shape of `games.engine deal --json`"
    )
    parser.add_argument("--rules", choices=[rules.value for rules in Rules], help="the rules for --layout")
    parser.add_argument("--log", metavar="FILE", help="the moves played so far (a file, or - for stdin)")
    parser.add_argument("--hint", action="store_true", help="print only the next move of a winning line")
    parser.add_argument("--batch", nargs=2, type=int, metavar=("START", "COUNT"), help="solve Classic deals")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="S")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES, metavar="N")
    parser.add_argument("--shorten", action="store_true", help="after a win, use the time left to shorten it")
    parser.add_argument("--json", action="store_true", help="print JSON for tools")
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    out = out if out is not None else sys.stdout
    chosen = sum(x is not None for x in (args.code, args.layout, args.batch))
    if chosen != 1:
        parser.error("give one of CODE, --layout FILE or --batch START COUNT")
    if args.time_limit <= 0 or args.max_nodes <= 0:
        parser.error("--time-limit and --max-nodes must be positive")
    try:
        if args.batch is not None:
            return run_batch(*args.batch, args=args, out=out)
        position = _read_position(args)
    except UnusableInput as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_UNUSABLE
    solution = solve(position, time_limit=args.time_limit, max_nodes=args.max_nodes, shorten=args.shorten)
    if args.hint:
        move = str(solution.moves[0]) if solution.moves else None
        if args.json:
            print(json.dumps({"hint": move, **solution.to_dict()}), file=out)
        else:
            print(move or "no win found from here", file=out)
        return EXIT_ANSWERED
    if args.json:
        print(json.dumps(solution.to_dict()), file=out)
    else:
        name = str(position.code) if position.code is not None else "layout"
        print(f"{name}  {position.rules.value}  {describe(solution)}", file=out)
        if solution.log:
            print(solution.log, file=out)
    return EXIT_ANSWERED


def _read_position(args: argparse.Namespace) -> Position:
    if args.layout is not None:
        if args.log is not None:
            raise UnusableInput("--log goes with a game code, not with --layout")
        try:
            with open(args.layout, encoding="utf-8") as handle:
                data = json.load(handle)
            return Position.from_layout(data, args.rules)
        except (OSError, ValueError) as error:  # LayoutError and JSON errors are ValueErrors
            raise UnusableInput(f"cannot use the layout {args.layout}: {error}") from None
    if args.rules is not None:
        raise UnusableInput("--rules goes with --layout; a game code names its rules")
    try:
        code = GameCode.parse(args.code)
    except InvalidCodeError as error:
        raise UnusableInput(f"bad game code: {error}") from None
    if args.log is None:
        return Position.from_code(code)
    try:
        log = sys.stdin.read() if args.log == "-" else open(args.log, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as error:
        raise UnusableInput(f"cannot read the log: {error}") from None
    try:
        return Position.from_log(code, log)
    except (ValueError, LayoutError) as error:
        raise UnusableInput(str(error)) from None


def describe(solution: Solution) -> str:
    """``won in 93 moves (10,420 positions, 0.87 s)``"""
    figures = f"({solution.nodes:,} positions, {solution.seconds:.2f} s)"
    if solution.result == WON:
        return f"won in {solution.length} moves {figures}"
    if solution.result == UNWINNABLE:
        return f"unwinnable: every line searched {figures}"
    return f"unknown: limit reached {figures}"


def run_batch(start: int, count: int, *, args: argparse.Namespace, out: TextIO) -> int:
    if count <= 0 or start < 0:
        raise UnusableInput("--batch needs a start of 0 or more and a positive count")
    solutions = []
    for number in range(start, start + count):
        try:
            code = GameCode(Rules.CLASSIC, number)
        except InvalidCodeError as error:
            raise UnusableInput(str(error)) from None
        solution = solve(code, time_limit=args.time_limit, max_nodes=args.max_nodes, shorten=args.shorten)
        solutions.append(solution)
        if args.json:
            print(json.dumps({"code": str(code), **solution.to_dict()}), file=out, flush=True)
        else:
            print(f"{code}  {describe(solution)}", file=out, flush=True)
    print(summary(solutions), file=sys.stderr if args.json else out)
    return EXIT_ANSWERED


def summary(solutions: Sequence[Solution]) -> str:
    """One line of figures: the share of each answer, times, and the mean winning length."""
    total = len(solutions)
    shares = []
    for result in (WON, UNWINNABLE, UNKNOWN):
        n = sum(1 for s in solutions if s.result == result)
        shares.append(f"{result} {n} ({100 * n / total:.1f}%)")
    seconds = sorted(s.seconds for s in solutions)
    p95 = seconds[math.ceil(0.95 * total) - 1]  # nearest rank
    lengths = [s.length for s in solutions if s.length is not None]
    mean_length = f"{statistics.mean(lengths):.1f}" if lengths else "-"
    return (
        f"{total} deals: {', '.join(shares)}; median {statistics.median(seconds):.3f} s, "
        f"p95 {p95:.3f} s; mean length {mean_length} moves"
    )
