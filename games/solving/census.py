"""A census shared by many workers (`python manage.py census`): the deals go on the `census`
Celery queue, any number of workers on any number of machines settle them, PostgreSQL keeps
each deal's verdict once (`CensusVerdict`), and the JSON lines come out as the pure census
(`python -m games.solver.census`) writes them.

A deal already settled in the census is never searched again: enqueueing twice, or a task
redelivered after its worker was lost, writes nothing new. Each answer also joins the deal's
`SolvedDeal` row, so a deal's page shows its verdict and par.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from django.db.models import Count
from django.utils import timezone

from games.engine import GameCode, Rules
from games.models import CensusVerdict
from games.solver import solve
from games.solver.census import census_line, parse_deals
from games.solving.solved import solved_deal_store
from games.task_queue import CENSUS_DEAL_SETTLE
from yukon_site.celery import task_named

CENSUS_FIELDS = ("code", "result", "seconds", "nodes", "by", "moves")


def census_codes(*, rules: str, deals: str) -> list[str]:
    """The codes of `deals` (`START-END` or `random:SEED:COUNT`, as the pure census reads them)."""
    return [str(GameCode(Rules(rules), number)) for number in dict.fromkeys(parse_deals(deals))]


def census_enqueue(*, census: str, codes: Iterable[str], seconds: float, max_nodes: int) -> int:
    """Send one task a deal not yet settled in `census`; how many were sent."""
    settled = set(CensusVerdict.objects.filter(census=census).values_list("code", flat=True))
    task = task_named(CENSUS_DEAL_SETTLE)
    sent = 0
    for code in codes:
        if code not in settled:
            task.apply_async((census, code, seconds, max_nodes))
            sent += 1
    return sent


def census_deal_settle(*, census: str, code: str, seconds: float, max_nodes: int) -> CensusVerdict | None:
    """Search one deal of the census and keep its line; None when it was settled already."""
    if CensusVerdict.objects.filter(census=census, code=code).exists():
        return None
    game_code = GameCode.parse(code)
    solution = solve(game_code, time_limit=seconds, max_nodes=max_nodes)
    solved_deal_store(code=game_code, solution=solution, time_limit=seconds)
    line = census_line(code, solution)
    verdict = CensusVerdict(census=census, settled_at=timezone.now(), **{**line, "by": line["by"][:200]})
    # Two deliveries of one deal at once (a worker lost mid-task): the first row stays.
    CensusVerdict.objects.bulk_create([verdict], ignore_conflicts=True)
    return verdict


def census_progress(*, census: str) -> dict[str, int]:
    """How many deals of the census have each verdict so far."""
    rows = CensusVerdict.objects.filter(census=census).values("result").annotate(count=Count("pk"))
    return {row["result"]: row["count"] for row in rows.order_by("result")}


def census_export(*, census: str, out: Path) -> int:
    """Write the census's lines (one JSON object a deal, in code order) to `out`; how many."""
    rows = CensusVerdict.objects.filter(census=census).order_by("code").values_list(*CENSUS_FIELDS)
    count = 0
    with out.open("w", encoding="utf-8") as handle:
        for row in rows.iterator():
            handle.write(json.dumps(dict(zip(CENSUS_FIELDS, row, strict=True))) + "\n")
            count += 1
    return count
