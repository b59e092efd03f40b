"""`/healthz`: is every part the site needs answering? 200 when all are, 503 naming those that are not."""

import logging
import uuid
from collections.abc import Callable

import redis
from django.core.cache import cache, caches
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from yukon_site.celery import app as celery_app

logger = logging.getLogger(__name__)

PROBE_TIMEOUT_SECONDS = 1.0


def check_database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"status": "ok", "vendor": connection.vendor}


def check_cache() -> dict:
    ping = getattr(cache, "ping", None)  # the fail-soft Redis cache: requests go on from memory
    if ping is not None and not ping():
        raise RuntimeError("Redis is not answering: each web process caches in memory meanwhile")
    key = f"healthz:{uuid.uuid4().hex}"
    cache.set(key, "ok", timeout=10)
    value = cache.get(key)
    cache.delete(key)
    if value != "ok":
        raise RuntimeError("the cache did not return what was stored")
    return {"status": "ok", "backend": type(caches["default"]).__name__}


def check_celery() -> dict:
    if celery_app.conf.task_always_eager:
        return {"status": "ok", "mode": "eager: tasks run in the web process"}
    broker_url = celery_app.conf.broker_url
    if broker_url.startswith(("redis://", "rediss://")):
        # Fails fast when Redis is down, where Celery itself would keep retrying.
        redis.Redis.from_url(
            broker_url, socket_connect_timeout=PROBE_TIMEOUT_SECONDS, socket_timeout=PROBE_TIMEOUT_SECONDS
        ).ping()
    replies = celery_app.control.ping(timeout=PROBE_TIMEOUT_SECONDS, limit=1)
    if not replies:
        raise RuntimeError("no Celery worker answered a ping")
    return {"status": "ok", "workers": sorted(name for reply in replies for name in reply)}


CHECKS: dict[str, Callable[[], dict]] = {
    "database": check_database,
    "cache": check_cache,
    "celery": check_celery,
}


def run_checks() -> dict[str, dict]:
    results = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as error:  # any failure is a finding to report, not a crash
            logger.warning("health check failed", extra={"check": name, "error": repr(error)})
            results[name] = {"status": "error", "error": f"{type(error).__name__}: {error}"[:300]}
    return results


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    checks = run_checks()
    failing = [name for name, result in checks.items() if result["status"] != "ok"]
    body = {"status": "error" if failing else "ok", "failing": failing, "checks": checks}
    return JsonResponse(body, status=503 if failing else 200)
