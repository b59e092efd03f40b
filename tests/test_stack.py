"""The full stack: a real Celery worker process against Redis and the test database."""

import pytest
from django.conf import settings

from yukon_site.tasks import ping

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def test_a_task_round_trips_through_redis_and_a_worker(celery_worker_process):
    result = ping.delay().get(timeout=30)

    assert result == {"pong": True, "database": settings.DATABASES["default"]["NAME"]}


def test_healthz_sees_the_worker_then_its_loss(client, celery_worker_process):
    healthy = client.get("/healthz")

    assert healthy.status_code == 200, healthy.json()
    assert healthy.json()["checks"]["celery"]["workers"] == [celery_worker_process.name]
    assert healthy.json()["checks"]["cache"]["backend"] == "FailSoftRedisCache"

    celery_worker_process.kill()
    down = client.get("/healthz")

    assert down.status_code == 503
    assert down.json()["failing"] == ["celery"]


def test_a_killed_worker_can_be_restarted(celery_worker_process):
    first_pid = celery_worker_process.pid

    celery_worker_process.restart()

    assert celery_worker_process.pid != first_pid
    assert ping.delay().get(timeout=30)["pong"] is True
