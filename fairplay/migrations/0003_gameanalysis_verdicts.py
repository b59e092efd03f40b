from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("fairplay", "0002_result_reports"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameanalysis",
            name="verdicts",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
