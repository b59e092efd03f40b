"""The review queue's cases: a player, a level (report, mark), a state (open, cleared,
confirmed), more reasons; a result's `withheld`. Flags of identical logs made before are their
result's player's, and stay open unless they were reviewed (then cleared)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def flags_fill(apps, schema_editor) -> None:
    ReplayFlag = apps.get_model("games", "ReplayFlag")
    Submission = apps.get_model("games", "Submission")
    player = Submission.objects.filter(pk=models.OuterRef("submission_id")).values("user_id")[:1]
    ReplayFlag.objects.filter(user__isnull=True).update(user_id=models.Subquery(player))
    ReplayFlag.objects.filter(reviewed_at__isnull=False).update(state="cleared")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_replayflag_moved_from_leaderboard"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="replayflag",
            options={
                "ordering": ["-created_at"],
                "permissions": [("decide_replayflag", "Can clear, confirm or reopen a review case")],
                "verbose_name": "review case",
            },
        ),
        migrations.AddField(
            model_name="replayflag",
            name="level",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "None"),
                    ("report", "Report: reviewed, results stay on the boards"),
                    ("mark", "Mark: results withheld until decided"),
                ],
                default="",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="replayflag",
            name="state",
            field=models.CharField(
                choices=[("open", "Open"), ("cleared", "Cleared"), ("confirmed", "Confirmed")],
                db_index=True,
                default="open",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="replayflag",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="review_cases",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="submission",
            name="withheld",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="replayflag",
            name="matches",
            field=models.ForeignKey(
                blank=True,
                help_text="The earlier identical result.",
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="games.submission",
            ),
        ),
        migrations.AlterField(
            model_name="replayflag",
            name="reason",
            field=models.CharField(
                choices=[
                    ("identical_log", "Identical to another player's log on the same deal"),
                    ("analysis", "The fair-play analysis of the player's games"),
                    ("report", "Reported by a player"),
                    ("collusion", "Accounts playing together"),
                ],
                default="identical_log",
                max_length=20,
            ),
        ),
        migrations.RunPython(flags_fill, migrations.RunPython.noop),
    ]
