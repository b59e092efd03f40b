"""The solver's settings under controlled environments, each in a fresh Python process."""

import json
import os
import secrets
import subprocess
import sys

from games_helpers import PROJECT_DIR

SHOW = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "winnable_only": settings.DAILY_DEAL_WINNABLE_ONLY,
    "daily_limit": settings.SOLVER_DAILY_TIME_LIMIT,
    "pool_request_seconds": settings.SOLVER_POOL_REQUEST_SECONDS,
    "refill": settings.SOLVER_POOL_REFILL,
    "par": settings.SOLVER_PAR_AFTER_WIN,
    "schedule": settings.CELERY_BEAT_SCHEDULE["games-deal-pool-refill"],
    "routes": settings.CELERY_TASK_ROUTES,
}))
"""
KEY = secrets.token_urlsafe(50)


def run(**variables: str) -> subprocess.CompletedProcess:
    env = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        "SECRET_KEY": KEY,
        **variables,
    }
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=120
    )


def shown(**variables: str) -> dict:
    result = run(**variables)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_with_a_broker_the_solver_works_in_the_background_and_filters_the_daily_deal():
    settings = shown(REDIS_URL="redis://127.0.0.1:6379/5")

    assert settings["winnable_only"] is True and settings["daily_limit"] == 5.0
    assert settings["refill"] is True and settings["par"] is True
    assert settings["pool_request_seconds"] == 0  # beat refills the pool: requests never search
    assert settings["schedule"] == {"task": "games.deal_pool_refill", "schedule": 300}
    assert settings["routes"] == {
        "games.deal_pool_refill": {"queue": "solver"},
        "games.deal_par_solve": {"queue": "solver"},
        "games.hint_search": {"queue": "hints"},
        "games.census_deal_settle": {"queue": "census"},  # workers started for a census alone
        "fairplay.game_analyse": {"queue": "fairplay"},  # fair play's worker, as low as the solver's
    }


def test_in_eager_mode_requests_search_only_the_daily_deal_and_a_few_winnable_deals():
    settings = shown()

    # The first request of a day picks the daily deal: only a won deal, each search bounded.
    assert settings["winnable_only"] is True and settings["daily_limit"] == 2.0
    assert settings["refill"] is False and settings["par"] is False
    # No beat refills the pool: a request for winnable deals searches a few new ones, about 1 s.
    assert settings["pool_request_seconds"] == 1.0


def test_each_can_be_set_from_the_environment():
    settings = shown(
        REDIS_URL="redis://127.0.0.1:6379/5",
        DAILY_DEAL_WINNABLE_ONLY="0",
        SOLVER_POOL_REFILL="0",
        SOLVER_PAR_AFTER_WIN="0",
    )

    assert (settings["winnable_only"], settings["refill"], settings["par"]) == (False, False, False)


def test_a_task_limit_shorter_than_a_search_is_refused():
    result = run(SOLVER_TASK_SOFT_TIME_LIMIT="60")

    assert result.returncode != 0
    assert "SOLVER_TASK_SOFT_TIME_LIMIT (60s) must exceed the longest solver run" in result.stderr
