"""The figures of a census (`python -m games.solver.census`): how many deals were won, proven
unwinnable and left unsettled, each with its 95% Wilson interval, and the distributions of the
win's length (the par found) and of the time to an answer. docs/winnability.md is written from it.

    .venv/bin/python bench/winnability.py docs/data/census-classic-10s.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import statistics
from collections import Counter
from pathlib import Path

Z95 = 1.959964


def wilson(hits: int, total: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share `hits / total`."""
    if total == 0:
        return 0.0, 0.0
    share = hits / total
    middle = (share + Z95**2 / (2 * total)) / (1 + Z95**2 / total)
    half = Z95 * math.sqrt(share * (1 - share) / total + Z95**2 / (4 * total**2)) / (1 + Z95**2 / total)
    return middle - half, middle + half


def census_lines(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def quantiles(values: list[float], points=(0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)) -> str:
    ordered = sorted(values)
    picked = [ordered[min(len(ordered) - 1, int(p * len(ordered)))] for p in points]
    return ", ".join(f"p{round(p * 100)} {value:g}" for p, value in zip(points, picked, strict=True))


def report(path: Path) -> str:
    lines = census_lines(path)
    total = len(lines)
    counts = Counter(line["result"] for line in lines)
    rows = [f"{path.name}: {total} deals"]
    for result in ("won", "unwinnable", "unknown"):
        low, high = wilson(counts[result], total)
        share = counts[result] / total if total else 0.0
        rows.append(f"  {result:<11} {counts[result]:>5}  {share:7.2%}  (95%: {low:.2%} to {high:.2%})")
    settled = counts["won"] + counts["unwinnable"]
    low, high = wilson(settled, total)
    rows.append(f"  {'settled':<11} {settled:>5}  {settled / total:7.2%}  (95%: {low:.2%} to {high:.2%})")
    pars = [line["moves"] for line in lines if line["result"] == "won" and line.get("moves")]
    if pars:
        rows.append(f"  win length (moves): mean {statistics.mean(pars):.1f}; {quantiles(pars)}")
    seconds = [line["seconds"] for line in lines if line["result"] != "unknown"]
    if seconds:
        rows.append(f"  seconds to an answer (settled deals): {quantiles(seconds)}")
    rechecks = Counter(line["recheck"] for line in lines if "recheck" in line)
    if rechecks:
        rows.append(f"  unwinnable answers re-proved by the simple checker: {dict(rechecks)}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("census", type=Path, nargs="+", help="JSON lines of a census (.jsonl or .jsonl.gz)")
    for path in parser.parse_args().census:
        print(report(path))


if __name__ == "__main__":
    main()
