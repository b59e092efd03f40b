"""`python manage.py rebuild_board_entries [--user ID ...]`: put every result on the boards it
enters today.

Run once after upgrading to the release with open-deal boards (docs/operations.md, "Upgrading"):
the global boards now rank hidden-card games only, so the entries of games whose code the
player knew move to the open-deal boards (`open:classic:all`, …), and wins submitted by code
join them. Player by player, in one transaction each: the entries are recomputed from the
counted results (as after a void), Redis follows after each commit, and the places stored on
results (`ranks`) that name a global board for a game that was not hidden-card are renamed to
the open-deal board of the same period. Running it again changes nothing more.

Run it once again after upgrading to whole-shuffle hidden deals: hidden-card games dealt from a
YU1 deal number leave the global and daily boards for the open-deal boards the same way.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from leaderboard.services import player_boards_regroup, players_with_entries_or_wins

REPORT_EVERY = 1000  # players between two progress lines


class Command(BaseCommand):
    help = "Recompute every player's board entries from their results (after upgrading to open-deal boards)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--user",
            action="append",
            type=int,
            default=[],
            metavar="ID",
            help="only this player (repeatable)",
        )

    def handle(self, *args, **options) -> None:
        players = options["user"] or players_with_entries_or_wins()
        entries = renamed = 0
        for done, user_id in enumerate(players, start=1):
            changed, moved = player_boards_regroup(user_id=user_id)
            entries, renamed = entries + changed, renamed + moved
            if done % REPORT_EVERY == 0:
                self.stderr.write(f"{done:,}/{len(players):,} players")
        self.stdout.write(
            f"{len(players):,} player(s): {entries:,} entries written or removed, "
            f"the places of {renamed:,} result(s) moved to the open-deal boards"
        )
