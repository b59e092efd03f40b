"""The daily deal, moved from leaderboard/ with its table (leaderboard_dailydeal) and rows: taken
into daily's state only, after leaderboard's 0006 let it go. The content type (and so the admin's
permissions and history of it) follows the model."""

from django.db import migrations, models


def content_type_move(apps, schema_editor, *, before: str, after: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.using(schema_editor.connection.alias).filter(
        app_label=before, model="dailydeal"
    ).update(app_label=after)


def content_type_to_daily(apps, schema_editor) -> None:
    content_type_move(apps, schema_editor, before="leaderboard", after="daily")


def content_type_to_leaderboard(apps, schema_editor) -> None:
    content_type_move(apps, schema_editor, before="daily", after="leaderboard")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("leaderboard", "0006_dailydeal_moved_to_daily"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DailyDeal",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("date", models.DateField()),
                        ("rules", models.CharField(max_length=7)),
                        ("code", models.CharField(db_index=True, max_length=64)),
                        ("picked_at", models.DateTimeField(auto_now_add=True)),
                        ("attempt", models.PositiveSmallIntegerField(default=0)),
                    ],
                    options={
                        "db_table": "leaderboard_dailydeal",
                        "ordering": ["-date", "rules"],
                        "constraints": [
                            models.UniqueConstraint(fields=("date", "rules"), name="one_daily_deal_per_rules")
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_to_daily, content_type_to_leaderboard),
    ]
