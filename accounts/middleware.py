"""The account's language on server pages, beside Django's LocaleMiddleware (docs/help.md).

The page's language is the `django_language` cookie (LocaleMiddleware). This middleware keeps
that cookie and the account in step where the server sees them:

- at sign-in (the `user_logged_in` signal marks the request), the account's language is
  activated and its cookie set, so that a new browser follows the account;
- a signed-in player whose browser has no cookie gets the account's language, and its cookie;
- a signed-in player's choice with the language form without scripts (`set_language`) is
  remembered on the account too. With scripts, `account.js` sends the choice (PATCH /api/account/).

Place it after AuthenticationMiddleware.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation

from accounts.services import user_language_set

APPLIED = "account_language"  # the request attribute: the language to write into the cookie


def account_language_apply(request: HttpRequest, language: str) -> None:
    """Show the rest of this request in `language`, and set its cookie on the response."""
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()
    setattr(request, APPLIED, language)


def language_cookie_set(response: HttpResponse, language: str) -> None:
    """The cookie exactly as Django's set_language view writes it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class AccountLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Only a request without the cookie reads the player (most pages have the cookie).
        if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
            user = request.user
            if user.is_authenticated and user.language:
                account_language_apply(request, user.language)
        response = self.get_response(request)
        language = getattr(request, APPLIED, None)
        if language and settings.LANGUAGE_COOKIE_NAME not in response.cookies:
            language_cookie_set(response, language)
        self._remember_form_choice(request, response)
        return response

    @staticmethod
    def _remember_form_choice(request: HttpRequest, response: HttpResponse) -> None:
        if request.method != "POST" or request.path != reverse("set_language"):
            return
        chosen = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
        user = getattr(request, "user", None)
        if chosen is None or user is None or not user.is_authenticated:
            return
        if user.language != chosen.value:
            user_language_set(user=user, language=chosen.value)
