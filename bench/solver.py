"""How strong and how fast the solver is on random Classic deals.

    python bench/solver.py [--count N] [--time-limit S] [--jobs J] [--fresh]

The deals are fixed: the first N of one seeded list of random Classic deal numbers, so a
run with --count 200 measures the first 200 deals of the default 1,000. Each deal is solved
once with a time limit (default 10 s, no shortening), by J processes (default 2). Every
answer is appended to bench/results/solver-<time limit>s.jsonl as it comes, and a run
starts by reading that file: an interrupted run resumes, and a longer run reuses the deals
a shorter one did (--fresh starts over; --retry-unknown searches the unknown ones again, the
later answer replacing the earlier).

Prints: % won, % proven unwinnable, % unknown, the median and 95th percentile seconds per
deal, and the mean length of the wins. Reference on this kind of machine: KDE's KPatience
solver wins 71.5%, proves 5.0% unwinnable, leaves 23.5% undecided, median 5 ms (its rules:
no take-backs, no group cap). Target: win at least 75%, leave at most 20% undecided,
median under 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import DEAL_COUNT, GameCode, Rules  # noqa: E402
from games.solver import UNKNOWN, UNWINNABLE, WON, solve  # noqa: E402

SEED = 7
RESULTS = Path(__file__).resolve().parent / "results"


def deal_codes(count: int) -> list[str]:
    """The first ``count`` deals of the fixed list (the same list whatever the count)."""
    rng = random.Random(SEED)
    return [str(GameCode(Rules.CLASSIC, rng.randrange(DEAL_COUNT))) for _ in range(count)]


def solve_one(code: str, time_limit: float) -> dict[str, object]:
    solution = solve(code, time_limit=time_limit)
    return {"code": code, **solution.to_dict()}


def load_results(path: Path) -> dict[str, dict[str, object]]:
    results = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entry = json.loads(line)
                results[entry["code"]] = entry
    return results


def report(entries: list[dict[str, object]], time_limit: float) -> str:
    total = len(entries)
    share = {
        result: 100 * sum(e["result"] == result for e in entries) / total
        for result in (WON, UNWINNABLE, UNKNOWN)
    }
    seconds = sorted(float(e["seconds"]) for e in entries)
    lengths = [int(e["moves"]) for e in entries if e["moves"] is not None]
    return "\n".join(
        [
            f"{total} random Classic deals, {time_limit:g} s each, Python {platform.python_version()}",
            f"  won                 {share[WON]:5.1f}%   (KPatience 71.5%, target >= 75%)",
            f"  proven unwinnable   {share[UNWINNABLE]:5.1f}%   (KPatience  5.0%)",
            f"  unknown             {share[UNKNOWN]:5.1f}%   (KPatience 23.5%, target <= 20%)",
            f"  median              {statistics.median(seconds):7.3f} s (KPatience 0.005 s, target < 0.5 s)",
            f"  95th percentile     {seconds[math.ceil(0.95 * total) - 1]:7.3f} s",
            f"  mean win length     {statistics.mean(lengths) if lengths else 0:7.1f} moves",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="deals (default 1,000)")
    parser.add_argument("--time-limit", type=float, default=10.0, metavar="S", help="per deal (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    parser.add_argument(
        "--retry-unknown",
        action="store_true",
        help="solve again the deals left unknown (a search on a busy machine gets less of a core)",
    )
    args = parser.parse_args()

    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"solver-{args.time_limit:g}s.jsonl"
    if args.fresh and path.exists():
        path.unlink()
    codes = deal_codes(args.count)
    done = load_results(path)
    todo = [
        code
        for code in codes
        if code not in done or (args.retry_unknown and done[code]["result"] == UNKNOWN)
    ]
    print(
        f"{len(codes) - len(todo)} of {len(codes)} deals already in {path}; solving {len(todo)}",
        file=sys.stderr,
    )
    with path.open("a", encoding="utf-8") as out, ProcessPoolExecutor(max_workers=args.jobs) as pool:
        entries = pool.map(solve_one, todo, [args.time_limit] * len(todo), chunksize=1)
        for finished, entry in enumerate(entries, start=len(codes) - len(todo) + 1):
            out.write(json.dumps(entry) + "\n")
            out.flush()
            done[entry["code"]] = entry
            if finished % 50 == 0:
                print(f"  {finished}/{len(codes)}", file=sys.stderr)
    print(report([done[code] for code in codes], args.time_limit))
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
