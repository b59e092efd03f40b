from django.db import migrations, models


def codes_from_submissions(apps, schema_editor):
    BoardEntry = apps.get_model("leaderboard", "BoardEntry")
    for entry in BoardEntry.objects.filter(code="").select_related("submission").iterator():
        BoardEntry.objects.filter(pk=entry.pk).update(code=entry.submission.code)


class Migration(migrations.Migration):
    dependencies = [("leaderboard", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="boardentry",
            name="code",
            field=models.CharField(default="", max_length=13),
            preserve_default=False,
        ),
        migrations.RunPython(codes_from_submissions, migrations.RunPython.noop),
    ]
