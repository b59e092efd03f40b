"""`python manage.py solve_deals --rules classic --count 50`: fill the pool of winnable deals by hand.

Searches `--count` random deals never searched before and stores each answer (the periodic task
does the same in bounded runs). `--par` searches instead the par of deals that have a board
(a counted win) and none yet: what the solver queue does after a deal's first win.
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.models import RulesChoice, SolvedDeal, Submission
from games.solving.par import deal_par_solve
from games.solving.pool import deal_pool_refill, deal_pool_size


class Command(BaseCommand):
    help = "Search random deals with the solver and store the answers (the winnable pool), or deals' par."

    def add_arguments(self, parser):
        parser.add_argument("--rules", choices=RulesChoice.values, default=RulesChoice.CLASSIC)
        parser.add_argument("--count", type=int, default=20, help="deals to search (default 20)")
        parser.add_argument(
            "--time-limit", type=float, help="seconds per deal (default: SOLVER_POOL_TIME_LIMIT, or "
            "SOLVER_PAR_TIME_LIMIT with --par)",
        )  # fmt: skip
        parser.add_argument("--par", action="store_true", help="search the par of deals that have a board")

    def handle(self, *args, rules, count, time_limit=None, par=False, **options):
        if count < 1:
            raise CommandError("--count must be 1 or more")
        if time_limit is not None and time_limit <= 0:
            raise CommandError("--time-limit must be more than 0")
        if par:
            self._par(rules=rules, count=count, time_limit=time_limit)
            return
        limit = time_limit or settings.SOLVER_POOL_TIME_LIMIT
        self.stdout.write(f"{rules}: searching {count} random deals, up to {limit:g} s each")
        done = iter(range(1, count + 1))

        def progress(row: SolvedDeal) -> None:
            self._line(next(done), count, row)

        refill = deal_pool_refill(rules=rules, count=count, time_limit=limit, progress=progress)
        self.stdout.write(
            f"{rules}: {refill.solved} deals searched, {refill.won} won; "
            f"{refill.pool_size} winnable deals in the pool"
        )

    def _par(self, *, rules: str, count: int, time_limit: float | None) -> None:
        searched = SolvedDeal.objects.filter(shortened=True).values("code")
        codes = list(
            Submission.objects.filter(rules=rules, status="verified", won=True, assisted=False, voided=False)
            .exclude(code__in=searched)
            .values_list("code", flat=True)
            .distinct()
            .order_by("code")[:count]
        )
        self.stdout.write(f"{rules}: searching the par of {len(codes)} deals with a board")
        for index, code in enumerate(codes, start=1):
            self._line(index, len(codes), deal_par_solve(code=code, time_limit=time_limit))
        self.stdout.write(f"{rules}: {deal_pool_size(rules=rules)} winnable deals known")

    def _line(self, index: int, total: int, row: SolvedDeal) -> None:
        found = f"won, par {row.par}" if row.result == SolvedDeal.Result.WON else row.result
        figures = f"{row.nodes} positions, {row.seconds:.2f} s"
        self.stdout.write(f"[{index}/{total}] {row.code}: {found} ({figures})")
