from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """The player. Our own model from the start, so fields can be added without a painful swap."""
