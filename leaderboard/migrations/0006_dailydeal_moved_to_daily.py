"""The daily deal moved to an app of its own (daily/): gone from leaderboard's state only. Its
table (leaderboard_dailydeal) and its rows stay; daily's 0001_initial takes it into its state."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0005_redeal_seeded_daily_deals")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="DailyDeal")],
            database_operations=[],
        )
    ]
