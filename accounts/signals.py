"""Signal receivers of the accounts app; connected in AccountsConfig.ready()."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from accounts.middleware import account_language_apply


@receiver(user_logged_in, dispatch_uid="accounts.language_after_sign_in")
def language_after_sign_in(sender, request, user, **kwargs) -> None:
    """Signing in brings the account's language to this browser (the middleware sets the cookie)."""
    if request is not None and getattr(user, "language", ""):
        account_language_apply(request, user.language)
