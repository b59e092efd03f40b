"""The settings module under controlled environments, each in a fresh Python process."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parent.parent
STRONG_KEY = secrets.token_urlsafe(50)

# Prints what the tests look at, after the settings module has been imported.
SHOW_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
from yukon_site.celery import app
print(json.dumps({
    "debug": settings.DEBUG,
    "database": settings.DATABASES["default"]["ENGINE"],
    "database_name": str(settings.DATABASES["default"]["NAME"]),
    "cache": settings.CACHES["default"]["BACKEND"],
    "eager": app.conf.task_always_eager,
    "broker": app.conf.broker_url,
    "result_backend": app.conf.result_backend,
    "acks_late": app.conf.task_acks_late,
    "reject_on_worker_lost": app.conf.task_reject_on_worker_lost,
    "prefetch": app.conf.worker_prefetch_multiplier,
    "visibility_timeout": app.conf.broker_transport_options["visibility_timeout"],
    "email": settings.EMAIL_BACKEND,
    "secret_key": settings.SECRET_KEY,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
}))
"""


def run_python(args: list[str], **variables: str) -> subprocess.CompletedProcess:
    """Run Python in the project folder with only the given variables (plus PATH) set."""
    env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "yukon_site.settings", **variables}
    return subprocess.run(
        [sys.executable, *args], cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=120
    )


def show_settings(**variables: str) -> dict:
    result = run_python(["-c", SHOW_SETTINGS], **variables)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def production(**variables: str) -> dict[str, str]:
    return {"DEBUG": "0", "SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "yukon.example", **variables}


def test_the_embedded_default_needs_no_service(tmp_path):
    key_file = tmp_path / "secret"

    shown = show_settings(SECRET_KEY_FILE=str(key_file))

    assert shown["debug"] is True
    assert shown["database"] == "django.db.backends.sqlite3"
    assert shown["database_name"] == str(PROJECT_DIR / "db.sqlite3")
    assert shown["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert shown["eager"] is True
    assert shown["broker"] == "memory://"
    assert shown["result_backend"] is None
    assert shown["email"] == "django.core.mail.backends.console.EmailBackend"
    assert shown["ssl_redirect"] is False


def test_development_generates_the_secret_key_once_into_a_private_file(tmp_path):
    key_file = tmp_path / "secret"

    first = show_settings(SECRET_KEY_FILE=str(key_file))["secret_key"]
    second = show_settings(SECRET_KEY_FILE=str(key_file))["secret_key"]

    assert first == second == key_file.read_text().strip()
    assert len(first) >= 50
    assert key_file.stat().st_mode & 0o777 == 0o600


def test_redis_url_switches_broker_cache_and_results_to_redis():
    url = "redis://127.0.0.1:6379/5"

    shown = show_settings(REDIS_URL=url, SECRET_KEY=STRONG_KEY)

    assert shown["cache"] == "yukon_site.cache.FailSoftRedisCache"
    assert shown["broker"] == shown["result_backend"] == url
    assert shown["eager"] is False


def test_celery_is_configured_to_survive_a_lost_worker():
    shown = show_settings(REDIS_URL="redis://127.0.0.1:6379/5", SECRET_KEY=STRONG_KEY)

    assert shown["acks_late"] is True
    assert shown["reject_on_worker_lost"] is True
    assert shown["prefetch"] == 1
    assert shown["visibility_timeout"] == 3600


def test_eager_mode_can_be_forced_from_the_environment():
    shown = show_settings(
        REDIS_URL="redis://127.0.0.1:6379/5", CELERY_TASK_ALWAYS_EAGER="1", SECRET_KEY=STRONG_KEY
    )

    assert shown["eager"] is True


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"CELERY_TASK_ALWAYS_EAGER": "0"}, "needs a broker"),
        ({"REDIS_URL": "redis://127.0.0.1:6379/5", "CELERY_VISIBILITY_TIMEOUT": "60"}, "VISIBILITY_TIMEOUT"),
    ],
)
def test_contradictory_celery_settings_are_refused(variables, message):
    result = run_python(["-c", SHOW_SETTINGS], SECRET_KEY=STRONG_KEY, **variables)

    assert result.returncode != 0
    assert message in result.stderr


def test_database_url_selects_postgresql():
    shown = show_settings(DATABASE_URL="postgres://yukon:pw@db.internal:5432/yukon", SECRET_KEY=STRONG_KEY)

    assert shown["database"] == "django.db.backends.postgresql"
    assert shown["database_name"] == "yukon"


@pytest.mark.parametrize(
    "unsafe_key",
    ["", "changeme", "django-insecure-" + "x1y2z3" * 10, "ab" * 40],
    ids=["unset", "short", "django-insecure", "few-characters"],
)
def test_production_refuses_an_unsafe_secret_key(unsafe_key):
    result = run_python(["manage.py", "check"], **production(SECRET_KEY=unsafe_key))

    assert result.returncode != 0
    assert "needs a real SECRET_KEY" in result.stderr


def test_production_with_tls_passes_check_deploy_without_warnings():
    result = run_python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **production())

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_without_tls_is_flagged_by_check_deploy():
    result = run_python(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **production(HTTPS="0")
    )

    assert result.returncode != 0
    assert "security.W008" in result.stderr  # no HTTPS redirect


def test_production_static_files_collect(tmp_path):
    result = run_python(
        ["manage.py", "collectstatic", "--noinput", "-v", "0"], **production(STATIC_ROOT=str(tmp_path))
    )

    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())
    assert "frontend/js/app.js" in manifest["paths"]
