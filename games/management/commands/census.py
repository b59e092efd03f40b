"""`python manage.py census --name classic-10s --rules classic --deals random:2026:2000 --seconds 10`:
a census shared by every worker of the `census` queue (games/solving/census.py).

Run it to send the deals not yet settled (again after an interruption: nothing settled is sent
twice), start workers anywhere with `celery -A yukon_site worker -Q census`, follow it with
`--progress`, and write its JSON lines with `--export FILE` (the format of
`python -m games.solver.census`).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.models import RulesChoice
from games.solving.census import census_codes, census_enqueue, census_export, census_progress


class Command(BaseCommand):
    help = "Send a census's deals to the census queue, show its progress, or export its JSON lines."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="the census's name (its rows in PostgreSQL)")
        parser.add_argument("--rules", choices=RulesChoice.values, default=RulesChoice.CLASSIC)
        parser.add_argument("--deals", help="START-END, or random:SEED:COUNT (deal numbers)")
        parser.add_argument("--seconds", type=float, default=10.0, help="time limit per deal")
        parser.add_argument("--max-nodes", type=int, default=10_000_000, help="positions held per deal")
        parser.add_argument("--progress", action="store_true", help="how many deals are settled")
        parser.add_argument("--export", type=Path, metavar="FILE", help="write the JSON lines")

    def handle(self, *args, name, rules, deals, seconds, max_nodes, progress, export, **options):
        if export is not None:
            count = census_export(census=name, out=export)
            self.stdout.write(f"{name}: {count} lines written to {export}")
            return
        if progress:
            self.stdout.write(f"{name}: {census_progress(census=name)}")
            return
        if not deals:
            raise CommandError("--deals is needed to send a census (or --progress, --export)")
        if seconds <= 0 or max_nodes <= 0:
            raise CommandError("--seconds and --max-nodes must be positive")
        try:
            codes = census_codes(rules=rules, deals=deals)
        except ValueError as error:
            raise CommandError(str(error)) from None
        sent = census_enqueue(census=name, codes=codes, seconds=seconds, max_nodes=max_nodes)
        self.stdout.write(f"{name}: {len(codes)} deals, {sent} sent to the census queue")
