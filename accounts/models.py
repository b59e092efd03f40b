"""The player: Django's user plus a public display name, a language and a suspension flag."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

# Display names and usernames follow one rule, so a username is always a valid default name.
NAME_PATTERN = r"^[A-Za-z0-9_-]{3,20}\Z"
NAME_RULE = "3–20 characters: letters A–Z, digits, _ or -"
name_validator = RegexValidator(NAME_PATTERN, f"Use {NAME_RULE}.", code="invalid_name")


class PlayerManager(UserManager):
    """Users made outside sign-up (createsuperuser, tests) get their username as display name."""

    def _create_user(self, username, email, password, **extra_fields):
        extra_fields.setdefault("display_name", username)
        return super()._create_user(username, email, password, **extra_fields)


class User(AbstractUser):
    """The player. Our own model from the start, so fields can be added without a painful swap."""

    display_name = models.CharField(
        max_length=20,
        blank=True,
        validators=[name_validator],
        help_text=f"Shown on leaderboards: {NAME_RULE}; unique ignoring case.",
    )
    is_suspended = models.BooleanField(
        default=False, help_text="Suspended players leave every board and their new results are refused."
    )
    suspension_reason = models.CharField(max_length=200, blank=True)
    suspended_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text="The language the player chose (a code of settings.LANGUAGES); blank: no choice yet.",
    )

    objects = PlayerManager()

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~Q(display_name=""),
                name="display_name_unique_ignoring_case",
                violation_error_message="That display name is taken.",
            ),
        ]

    @property
    def public_name(self) -> str:
        return public_name_of(display_name=self.display_name, username=self.username)


def public_name_of(*, display_name: str, username: str) -> str:
    """The name a player is shown by: the display name, else the username (also for rows read
    without a User, e.g. a board's names in raw SQL)."""
    return display_name or username


# ACCOUNT_USERNAME_VALIDATORS: usernames follow the display-name rule (allauth also checks uniqueness).
username_validators = [name_validator]


class DeviceSighting(models.Model):
    """An account seen on a browser (accounts.devices): the HMAC of the browser's device cookie,
    never the cookie itself, and the first and last day it was seen there. Two accounts with a
    sighting of one hash were used from one browser (docs/security.md, "Same person, two accounts")."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_sightings"
    )
    device_hash = models.CharField(max_length=64)
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "device_hash"], name="one_sighting_per_player_and_device")
        ]
        indexes = [
            models.Index(fields=["device_hash"], name="device_sighting_hash"),
            models.Index(fields=["last_seen"], name="device_sighting_last_seen"),
        ]

    def __str__(self) -> str:
        return f"user {self.user_id} on device {self.device_hash[:12]}…"
