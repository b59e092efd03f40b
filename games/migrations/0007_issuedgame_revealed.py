"""IssuedGame.revealed: a copy of each hidden-card game's Reveal rows on its own row, so that a
reveal replays from the locked row alone (games.hidden.reveals.game_reveal). Existing reveals are
copied; going back drops the copy, the Reveal rows stay."""

from itertools import groupby
from operator import itemgetter

from django.db import migrations, models

BATCH = 500  # games written in one UPDATE


def copy_reveals_to_games(apps, schema_editor):
    IssuedGame = apps.get_model("games", "IssuedGame")
    Reveal = apps.get_model("games", "Reveal")
    rows = (
        Reveal.objects.order_by("game_id", "prefix_length")
        .values_list("game_id", "column", "depth", "card", "prefix_length")
        .iterator(chunk_size=2000)
    )
    games = []
    for game_id, reveals in groupby(rows, key=itemgetter(0)):
        revealed = [
            {"column": column, "depth": depth, "card": card, "prefix_length": prefix_length}
            for _, column, depth, card, prefix_length in reveals
        ]
        games.append(IssuedGame(pk=game_id, revealed=revealed))
        if len(games) == BATCH:
            IssuedGame.objects.bulk_update(games, ["revealed"])
            games = []
    IssuedGame.objects.bulk_update(games, ["revealed"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_daily_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="issuedgame",
            name="revealed",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(copy_reveals_to_games, migrations.RunPython.noop, elidable=True),
    ]
