"""`manage.py moderator <username>`: the player account becomes a moderator (staff, in the
`moderators` group: docs/fairplay.md, "The review queue"); `--remove` takes that back. The
account signs in to /admin/ with its own password; nothing else about it changes."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

GROUP = "moderators"


class Command(BaseCommand):
    help = "Make an account a moderator of the review queue (or, with --remove, no longer one)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true", help="no longer a moderator")

    def handle(self, *args, username: str, remove: bool, **options) -> None:
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            raise CommandError(f"no account is named {username!r}")
        group = Group.objects.filter(name=GROUP).first()
        if group is None:  # made by fairplay's migration 0005, with its permissions
            raise CommandError(f"there is no {GROUP!r} group: run `manage.py migrate fairplay` first")
        with transaction.atomic():
            if remove:
                user.groups.remove(group)
                user.is_staff = user.is_superuser  # a superuser keeps the admin
            else:
                user.groups.add(group)
                user.is_staff = True
            user.save(update_fields=["is_staff"])
        self.stdout.write(f"{user.username} is {'no longer ' if remove else ''}a moderator")
