"""The moderators' group: who reads the review queue's evidence and decides its cases in the
admin (docs/fairplay.md, "The review queue"). Its members need is_staff too; nothing else."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderators"
PERMISSIONS = [
    ("games", "view_replayflag"),
    ("games", "change_replayflag"),
    ("games", "decide_replayflag"),
    ("games", "view_submission"),
    ("fairplay", "view_gameanalysis"),
    ("fairplay", "view_resultreport"),
    ("fairplay", "view_casedecision"),
    ("fairplay", "view_playerscore"),
]


def moderators_create(apps, schema_editor) -> None:
    # Permissions are made after every migration ran; a fresh database needs them now.
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))


def moderators_delete(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("fairplay", "0004_scores_and_decisions"),
        ("games", "0015_review_cases"),
    ]

    operations = [migrations.RunPython(moderators_create, moderators_delete)]
