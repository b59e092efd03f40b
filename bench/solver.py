"""How strong and how fast the solver is on random Classic deals.

    python bench/solver.py [--count N] [--time-limit S] [--jobs J] [--fresh]
    taskset -c 1 python bench/solver.py --count 40 --jobs 1 --side-by-side /tmp/old/oldsolver

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

--side-by-side DIR: DIR holds another copy of the games/solver package (say the last commit's:
`git archive HEAD games/solver | tar -x -C /tmp/old`, kept outside the repository). Each
deal is solved by that copy and then by this one, one after the other in the same process,
and the two are reported side by side: settled (won or proven unwinnable), won, unwinnable,
median and 95th percentile seconds, and positions a second. Pin it to one core (taskset) and
use --jobs 1 for figures "on one core". Results go to solver-<S>s-<DIR name>.jsonl and
solver-<S>s-current.jsonl, resumed like the others.
"""

from __future__ import annotations

import argparse
import importlib.util
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


def solve_one(code: str, time_limit: float, other: str | None = None) -> dict[str, object]:
    solver = solve if other is None else load_other(other).solve
    solution = solver(code, time_limit=time_limit)
    return {"code": code, **solution.to_dict()}


def load_other(directory: str):  # noqa: ANN201 (a module)
    """Another copy of the games.solver package, imported under a name of its own."""
    name = "other_solver_" + Path(directory).name.replace("-", "_")
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, Path(directory) / "__init__.py", submodule_search_locations=[directory]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def side_by_side(columns: dict[str, list[dict[str, object]]]) -> str:
    """settled / won / unwinnable / median / p95 / positions a second, one column a solver."""
    rows = {"settled": [], "won": [], "unwinnable": [], "median s": [], "p95 s": [], "positions/s": []}
    for entries in columns.values():
        total = len(entries)
        won = sum(e["result"] == WON for e in entries)
        unwinnable = sum(e["result"] == UNWINNABLE for e in entries)
        seconds = sorted(float(e["seconds"]) for e in entries)
        rate = sum(int(e["nodes"]) for e in entries) / max(sum(seconds), 1e-9)
        rows["settled"].append(f"{100 * (won + unwinnable) / total:.1f}%")
        rows["won"].append(f"{100 * won / total:.1f}%")
        rows["unwinnable"].append(f"{100 * unwinnable / total:.1f}%")
        rows["median s"].append(f"{statistics.median(seconds):.3f}")
        rows["p95 s"].append(f"{seconds[math.ceil(0.95 * total) - 1]:.3f}")
        rows["positions/s"].append(f"{rate:,.0f}")
    lines = ["".ljust(14) + "".join(name.rjust(16) for name in columns)]
    lines += [
        label.ljust(14) + "".join(value.rjust(16) for value in values) for label, values in rows.items()
    ]
    return "\n".join(lines)


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
    parser.add_argument("--side-by-side", metavar="DIR", help="also solve each deal with the package in DIR")
    args = parser.parse_args()

    RESULTS.mkdir(exist_ok=True)
    if args.side_by_side:
        return run_side_by_side(args)
    path = RESULTS / f"solver-{args.time_limit:g}s.jsonl"
    if args.fresh and path.exists():
        path.unlink()
    codes = deal_codes(args.count)
    done = load_results(path)
    todo = [
        code for code in codes if code not in done or (args.retry_unknown and done[code]["result"] == UNKNOWN)
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


def run_side_by_side(args: argparse.Namespace) -> int:
    """Each deal by the other copy, then by this one, in one process: the same machine state."""
    other = str(Path(args.side_by_side).resolve())
    paths = {
        Path(other).name: RESULTS / f"solver-{args.time_limit:g}s-{Path(other).name}.jsonl",
        "current": RESULTS / f"solver-{args.time_limit:g}s-current.jsonl",
    }
    codes = deal_codes(args.count)
    done = {}
    for name, path in paths.items():
        if args.fresh and path.exists():
            path.unlink()
        done[name] = load_results(path)
    for code in codes:
        for (name, path), solver in zip(paths.items(), (other, None), strict=True):
            if code not in done[name]:
                entry = solve_one(code, args.time_limit, solver)
                with path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(entry) + "\n")
                done[name][code] = entry
    print(f"{len(codes)} random Classic deals, {args.time_limit:g} s each, one after the other")
    print(side_by_side({name: [done[name][code] for code in codes] for name in paths}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
