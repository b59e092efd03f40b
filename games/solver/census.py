"""``python -m games.solver.census``: settle many deals, for hours, surviving interruption.

    python -m games.solver.census --rules classic --deals 0-999 --seconds 10 --workers 2
    python -m games.solver.census --rules relaxed --deals random:7:1000 --seconds 60

``--deals`` is a range of deal numbers (``START-END``, both included), a seeded sample
(``random:SEED:COUNT``: COUNT YU1 deal numbers drawn by Python's ``random.Random(SEED)``), or
the deals an earlier census left unsettled (``unsettled:PATH``, a census file, gzipped or not:
a second pass with more time).
One JSON line a deal is appended to ``--out`` (default ``census-<rules>-<deals>-<S>s.jsonl``)
as soon as it is settled: code, verdict, seconds, positions searched, what decided it, and the
win's length. Started again with the same output, it reads what is there and goes on with
the deals not yet in it; a line cut short by a kill is dropped first.

``--recheck P`` re-proves a share P of the ``unwinnable`` answers with the simple checker
(checker.py) within ``--recheck-positions``; a win found there stops the census with exit
status 3. Exit status 2: unusable arguments.
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import random
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from games.engine import DEAL_COUNT, GameCode, Rules

from .api import UNKNOWN, UNWINNABLE, Solution, solve
from .checker import DEFAULT_LIMIT, Disagreement, recheck_unwinnable
from .position import Position

EXIT_DONE, EXIT_UNUSABLE, EXIT_DISAGREEMENT = 0, 2, 3


DEALS_HELP = "START-END, random:SEED:COUNT, or unsettled:PATH (an earlier census's unknown deals)"


def parse_deals(text: str, rules: Rules = Rules.CLASSIC) -> list[int]:
    """``START-END``, ``random:SEED:COUNT`` or ``unsettled:PATH`` as a list of deal numbers
    (an earlier census's deals must be of ``rules``)."""
    if text.startswith("unsettled:"):
        return unsettled_deals(Path(text.removeprefix("unsettled:")), rules)
    try:
        if text.startswith("random:"):
            _, seed, count = text.split(":")
            rng = random.Random(int(seed))
            return [rng.randrange(DEAL_COUNT) for _ in range(int(count))]
        start, end = (int(part) for part in text.split("-"))
    except ValueError:
        raise ValueError(f"--deals {text!r}: expected {DEALS_HELP}") from None
    if not 0 <= start <= end < DEAL_COUNT:
        raise ValueError(f"--deals {text!r}: expected 0 <= START <= END < {DEAL_COUNT}")
    return list(range(start, end + 1))


def unsettled_deals(path: Path, rules: Rules) -> list[int]:
    """The deal numbers a census file answered ``unknown``, in its order."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            entries = [json.loads(line) for line in handle if line.strip()]
        codes = [GameCode.parse(entry["code"]) for entry in entries if entry["result"] == UNKNOWN]
    except (OSError, ValueError, KeyError) as error:
        raise ValueError(f"--deals unsettled:{path}: {error!r}") from None
    if any(code.rules is not rules for code in codes):
        raise ValueError(f"--deals unsettled:{path}: a census of other rules than {rules.value}")
    return [code.number for code in codes]


def read_done(path: Path) -> dict[str, dict[str, Any]]:
    """The answers already in ``path``; a last line cut short by a kill is cut off the file."""
    done: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return done
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        path.write_bytes(complete)
    for line in complete.decode("utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            done[entry["code"]] = entry
    return done


def census_line(code: str, solution: Solution) -> dict[str, Any]:
    """A deal's line in a census: its verdict, the search's time and size, what decided it, and
    the win's length (None unless won). The Celery census (games/solving/census.py) writes the same."""
    return {
        "code": code,
        "result": solution.result,
        "seconds": round(solution.seconds, 3),
        "nodes": solution.nodes,
        "by": solution.by,
        "moves": solution.length,
    }


def settle(job: tuple[str, float, int, bool, int]) -> dict[str, Any]:
    """One deal's line (run in a worker process)."""
    code, seconds, max_nodes, recheck, recheck_positions = job
    entry = census_line(code, solve(code, time_limit=seconds, max_nodes=max_nodes))
    if recheck and entry["result"] == UNWINNABLE:
        try:
            proved = recheck_unwinnable(Position.from_code(code), recheck_positions)
        except Disagreement as error:
            entry["recheck"] = f"DISAGREES: {error}"
        else:
            entry["recheck"] = "agrees" if proved else "too big"
    return entry


def jobs(codes: Sequence[str], args: argparse.Namespace) -> Iterator[tuple[str, float, int, bool, int]]:
    picker = random.Random(f"recheck:{args.deals}")
    for code in codes:
        recheck = picker.random() < args.recheck
        yield code, args.seconds, args.max_nodes, recheck, args.recheck_positions


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.solver.census", description=__doc__.split("\n")[0])
    parser.add_argument("--rules", choices=[rules.value for rules in Rules], default="classic")
    parser.add_argument("--deals", required=True, help=DEALS_HELP)
    parser.add_argument("--seconds", type=float, default=10.0, help="time limit per deal")
    parser.add_argument("--max-nodes", type=int, default=10_000_000, help="positions held per deal")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--out", type=Path, help="the JSON lines file (default: named after the census)")
    parser.add_argument(
        "--recheck", type=float, default=0.0, metavar="P", help="share of unwinnable re-proved"
    )
    parser.add_argument("--recheck-positions", type=int, default=DEFAULT_LIMIT, metavar="N")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    rules = Rules(args.rules)
    try:
        numbers = parse_deals(args.deals, rules)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_UNUSABLE
    if args.seconds <= 0 or args.workers <= 0 or args.max_nodes <= 0:
        parser.error("--seconds, --workers and --max-nodes must be positive")
    deals_name = re.sub(r"[^\w.-]", "_", args.deals)
    out = args.out or Path(f"census-{rules.value}-{deals_name}-{args.seconds:g}s.jsonl")
    done = read_done(out)
    codes = [str(GameCode(rules, number)) for number in numbers]
    todo = [code for code in dict.fromkeys(codes) if code not in done]
    print(f"{len(done)} deals already in {out}; settling {len(todo)}", file=sys.stderr)
    status = EXIT_DONE
    with out.open("a", encoding="utf-8") as handle, multiprocessing.Pool(args.workers) as pool:
        for entry in pool.imap_unordered(settle, jobs(todo, args)):
            handle.write(json.dumps(entry) + "\n")
            handle.flush()
            if str(entry.get("recheck", "")).startswith("DISAGREES"):
                print(f"error: {entry['recheck']}", file=sys.stderr)
                status = EXIT_DISAGREEMENT
                break
    return status


if __name__ == "__main__":
    sys.exit(main())
