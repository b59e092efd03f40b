"""Hidden-card ranked games dealt from a YU1 deal number (before whole shuffles) could be solved
from their face-up cards: the unfinished ones expire, so the page offers new ones at once (an
expired game counts against nobody). Daily-deal games are leaderboard's migration 0005; races'
and challenges' games under way finish as they are. docs/operations.md, "Upgrading"."""

from django.db import migrations


def expire_seeded_hidden_games(apps, schema_editor):
    IssuedGame = apps.get_model("games", "IssuedGame")
    IssuedGame.objects.filter(
        hidden=True, state="issued", contest="", daily_date__isnull=True, code__startswith="YU1-"
    ).update(state="expired")


class Migration(migrations.Migration):
    dependencies = [("games", "0011_whole_shuffle_codes")]

    operations = [migrations.RunPython(expire_seeded_hidden_games, migrations.RunPython.noop)]
