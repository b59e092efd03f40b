"""The review queue's ReplayFlag, moved from leaderboard/ with its table (leaderboard_replayflag)
and rows: taken into games' state only, after leaderboard's 0007 let it go. The content type (and
so the admin's permissions and history of it) follows the model."""

import django.db.models.deletion
from django.db import migrations, models


def content_type_move(apps, schema_editor, *, before: str, after: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.using(schema_editor.connection.alias).filter(
        app_label=before, model="replayflag"
    ).update(app_label=after)


def content_type_to_games(apps, schema_editor) -> None:
    content_type_move(apps, schema_editor, before="leaderboard", after="games")


def content_type_to_leaderboard(apps, schema_editor) -> None:
    content_type_move(apps, schema_editor, before="games", after="leaderboard")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0013_census_verdicts"),
        ("leaderboard", "0007_replayflag_moved_to_games"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ReplayFlag",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "reason",
                            models.CharField(
                                choices=[
                                    ("identical_log", "Identical to another player's log on the same deal")
                                ],
                                default="identical_log",
                                max_length=20,
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("reviewed_at", models.DateTimeField(blank=True, null=True)),
                        ("note", models.CharField(blank=True, max_length=300)),
                        (
                            "matches",
                            models.ForeignKey(
                                help_text="The earlier identical result.",
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="games.submission",
                            ),
                        ),
                        (
                            "submission",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="replay_flags",
                                to="games.submission",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "leaderboard_replayflag",
                        "ordering": ["-created_at"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("submission", "matches"), name="one_flag_per_pair"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_to_games, content_type_to_leaderboard),
    ]
