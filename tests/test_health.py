"""/healthz on the embedded default, and when a part is down."""

import pytest

from yukon_site import health
from yukon_site.celery import app as celery_app

UNREACHABLE_REDIS = "redis://127.0.0.1:1/5"  # port 1: nothing listens there


@pytest.mark.django_db
def test_healthz_reports_every_part_ok(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["failing"] == []
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["cache"]["status"] == "ok"
    assert body["checks"]["celery"] == {"status": "ok", "mode": "eager: tasks run in the web process"}
    assert response["Cache-Control"].startswith("max-age=0")


@pytest.mark.django_db
def test_healthz_answers_head(client):
    assert client.head("/healthz").status_code == 200


@pytest.mark.django_db
def test_healthz_names_an_unreachable_cache(client, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": UNREACHABLE_REDIS,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["failing"] == ["cache"]
    assert "ConnectionError" in body["checks"]["cache"]["error"]


@pytest.fixture
def unreachable_broker():
    saved = celery_app.conf.task_always_eager, celery_app.conf.broker_url
    celery_app.conf.task_always_eager = False
    celery_app.conf.broker_url = UNREACHABLE_REDIS
    yield
    celery_app.conf.task_always_eager, celery_app.conf.broker_url = saved


@pytest.mark.django_db
def test_healthz_names_an_unreachable_broker(client, unreachable_broker):
    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["failing"] == ["celery"]


@pytest.mark.django_db
def test_healthz_names_a_failing_database(client, monkeypatch):
    def broken_database():
        raise ConnectionError("database is down")

    monkeypatch.setitem(health.CHECKS, "database", broken_database)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["failing"] == ["database"]
    assert response.json()["checks"]["database"]["error"] == "ConnectionError: database is down"
