"""Static files, languages and logging. Read after base.py and product.py."""

from django.conf.locale import LANG_INFO

from yukon_site.settings.base import BASE_DIR, DEBUG, env

# --- Static files -------------------------------------------------------------------------------

STATIC_URL = "/static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Production serves hashed, compressed copies made by `collectstatic`.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG


# --- Internationalisation -----------------------------------------------------------------------

LANGUAGE_CODE = "en"
# Each language has a page catalog (locale/<code>/LC_MESSAGES/django.po, compiled to .mo) and
# a table catalog (frontend/static/frontend/js/i18n/<code>.json); docs/help.md.
LANGUAGES = [
    ("en", "English"),
    ("ms", "Bahasa Melayu"),
    ("hi", "हिन्दी"),
    ("tl", "Tagalog"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The choice made with the language picker, kept for a year (the page writes the same cookie).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Django has no entry for Tagalog; browsers set to Filipino ask for "fil".
LANG_INFO.update(
    {
        "tl": {"bidi": False, "code": "tl", "name": "Tagalog", "name_local": "Tagalog"},
        "fil": {"fallback": ["tl"]},
    }
)
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
CELERY_TIMEZONE = TIME_ZONE


# --- Logging: JSON lines on standard output ------------------------------------------------------

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "yukon_site.jsonlog.JsonLineFormatter"}},
    "handlers": {
        "stdout": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "json"}
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        # Replace Django's own handlers, so that its messages are JSON lines too.
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
    },
}
