"""The review queue's ReplayFlag moved to games/ (fair play opens cases too, and may import games
only): gone from leaderboard's state only. Its table (leaderboard_replayflag) and its rows stay;
games' 0014 takes it into its state."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0006_dailydeal_moved_to_daily")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="ReplayFlag")],
            database_operations=[],
        )
    ]
