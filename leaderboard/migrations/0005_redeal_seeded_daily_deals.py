"""Today's and later daily deals picked as YU1 deal numbers (an HMAC of the date) could be solved
from their face-up cards: they are forgotten, with the unfinished games of them, so the day is
dealt again as a whole shuffle at its next request and nobody is told `daily_played` for a game
they never finished. Finished games of them keep their day (one game a day). The boards follow
with `manage.py rebuild_board_entries` (docs/operations.md, "Upgrading")."""

import datetime as dt

from django.db import migrations


def redeal_seeded_daily_deals(apps, schema_editor):
    DailyDeal = apps.get_model("leaderboard", "DailyDeal")
    IssuedGame = apps.get_model("games", "IssuedGame")
    today = dt.datetime.now(dt.UTC).date()
    seeded = DailyDeal.objects.filter(date__gte=today, code__startswith="YU1-")
    IssuedGame.objects.filter(
        daily_date__gte=today, state="issued", code__in=list(seeded.values_list("code", flat=True))
    ).delete()
    seeded.delete()


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0004_whole_shuffle_codes"), ("games", "0012_retire_seeded_hidden_games")]

    operations = [migrations.RunPython(redeal_seeded_daily_deals, migrations.RunPython.noop)]
