"""Real winning logs for tests and load benchmarks.

    python -m games.solver.winning_logs --count N --rules classic|relaxed --out FILE.json
        [--start NUMBER] [--time-limit S] [--shorten S] [--jobs J]

Solves deals from number ``--start`` on and keeps the first N it wins, in deal order:
``[{"code": "YU1-C-…", "log": "…", "moves": 93}, …]``. Every log has been replayed by the
engine as a win. ``--shorten S`` gives each win S more seconds to get shorter.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

from games.engine import GameCode, Rules

from .api import solve

BATCH = 16  # deals handed out at a time to the worker processes


def solve_number(rules: Rules, number: int, time_limit: float, shorten: float) -> dict[str, object] | None:
    code = GameCode(rules, number)
    solution = solve(code, time_limit=time_limit + shorten, shorten=shorten)
    if not solution.won:
        return None
    return {"code": str(code), "log": solution.log, "moves": solution.length}


def winning_logs(
    count: int, rules: Rules, *, start: int = 0, time_limit: float = 10.0, shorten: float = 0.0, jobs: int = 1
) -> Iterator[dict[str, object]]:
    """The first ``count`` wins from deal ``start`` on, in deal order."""
    found = 0
    number = start
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        while found < count:
            numbers = range(number, number + BATCH * jobs)
            args = [[rules] * len(numbers), numbers, [time_limit] * len(numbers), [shorten] * len(numbers)]
            for entry in pool.map(solve_number, *args):
                if entry is not None and found < count:
                    found += 1
                    yield entry
            number += len(numbers)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.solver.winning_logs", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--count", type=int, required=True, metavar="N")
    parser.add_argument("--rules", choices=[rules.value for rules in Rules], required=True)
    parser.add_argument("--out", required=True, metavar="FILE.json")
    parser.add_argument("--start", type=int, default=0, metavar="NUMBER", help="the first deal number tried")
    parser.add_argument(
        "--time-limit", type=float, default=10.0, metavar="S", help="to find a win (default 10)"
    )
    parser.add_argument(
        "--shorten", type=float, default=0.0, metavar="S", help="more seconds to shorten a win"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="processes to solve with (default 1)"
    )
    args = parser.parse_args(argv)
    if args.count <= 0 or args.jobs <= 0:
        parser.error("--count and --jobs must be positive")
    entries = []
    for entry in winning_logs(
        args.count,
        Rules(args.rules),
        start=args.start,
        time_limit=args.time_limit,
        shorten=args.shorten,
        jobs=args.jobs,
    ):
        entries.append(entry)
        print(f"{entry['code']}  {entry['moves']} moves  ({len(entries)}/{args.count})", file=sys.stderr)
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(entries, handle, indent=1)
        handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
