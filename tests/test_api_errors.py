"""Every /api/ answer is JSON: a database outage (503 + Retry-After), an unknown URL (404), a body
over the size limit (413), a crash (500), and bodies nested too deep (400) on every JSON write
endpoint. Pages outside /api/ keep Django's HTML answers."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def player() -> User:
    return User.objects.create_user("alice", "alice@example.com", "a-long-pass-phrase")


@pytest.fixture
def api(player) -> APIClient:
    # Unhandled exceptions answer as they would to a browser, instead of being re-raised in the test.
    client = APIClient(raise_request_exception=False)
    client.force_login(player)
    return client


def assert_json_refusal(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    body = response.json()
    assert body == {"detail": body["detail"], "code": code}
    assert body["detail"] and "Traceback" not in body["detail"]
    return body


# --- A database outage ---------------------------------------------------------------------------


def database_down(error_class=OperationalError):
    """The database refuses connections while this is active.

    Faithful to an outage: every query first calls `ensure_connection()`, which during an outage
    fails in `connect()` and comes out of Django's `wrap_database_errors` as exactly this
    django.db error. Raising it there, everything above (session load, authentication, views,
    middleware, handlers) runs unchanged. InterfaceError is what psycopg raises for a kept
    connection that the server closed ("connection already closed")."""
    return mock.patch.object(
        BaseDatabaseWrapper, "ensure_connection", side_effect=error_class("connection refused")
    )


@pytest.mark.parametrize("error_class", [OperationalError, InterfaceError])
def test_a_database_outage_in_the_middleware_is_a_json_503(api, error_class):
    # No language cookie: AccountLanguageMiddleware reads the player, so the session's query
    # fails before any API view runs (Django's handler500 path).
    with database_down(error_class):
        response = api.get("/api/me/")

    assert_json_refusal(response, 503, "database_unavailable")
    assert int(response["Retry-After"]) > 0


def test_a_database_outage_in_the_middleware_is_a_json_503_with_debug_on_too(api, settings):
    # `make run` and `make stack` run with DEBUG=1, where Django answers a crash with its debug
    # page instead of calling handler500 (a PostgreSQL stopped under make stack showed it).
    settings.DEBUG = True
    with database_down():
        response = api.get("/api/me/")

    assert_json_refusal(response, 503, "database_unavailable")


def test_with_debug_on_other_crashes_keep_the_debug_page(api, settings, monkeypatch):
    settings.DEBUG = True
    monkeypatch.setattr(
        "players.apis.player_summary", mock.Mock(side_effect=RuntimeError("a bug, not an outage"))
    )

    response = api.get("/api/me/")

    assert response.status_code == 500
    assert "a bug, not an outage" in response.content.decode()


@pytest.mark.parametrize(
    ("method", "url"), [("get", "/api/me/"), ("post", "/api/games/"), ("post", "/api/submissions/")]
)
def test_a_database_outage_in_an_api_view_is_a_json_503(api, method, url):
    # With the language cookie the middleware leaves the player alone: the first query is the
    # API view's authentication (DRF's exception handler path).
    api.cookies["django_language"] = "en"
    with database_down():
        response = getattr(api, method)(url, {}, format="json")

    assert_json_refusal(response, 503, "database_unavailable")
    assert int(response["Retry-After"]) > 0


def test_a_database_outage_leaves_pages_to_django(api):
    with database_down():
        response = api.get("/accounts/profile/")

    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


# --- Unknown URLs, crashes, bodies over the limit -----------------------------------------------


@pytest.mark.parametrize("url", ["/api/nothing-here/", "/api/games/12/nothing/", "/api/nothing"])
def test_an_unknown_api_url_is_a_json_404(url):
    response = APIClient().post(url, {"a": 1}, format="json")

    assert_json_refusal(response, 404, "not_found")


@pytest.mark.parametrize("url", ["/api/nothing-here/", "/api/nothing"])
def test_with_debug_on_an_unknown_api_url_is_still_a_json_404(url, settings):
    """`make run` runs with DEBUG on: before, an API client got Django's HTML debug page."""
    settings.DEBUG = True
    response = APIClient().get(url)

    assert_json_refusal(response, 404, "not_found")


def test_with_debug_on_an_unknown_page_is_djangos_debug_page(client, settings):
    settings.DEBUG = True
    response = client.get("/nonexistent")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_an_unknown_page_is_still_djangos_html_404(client):
    response = client.get("/nonexistent")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_crash_under_api_is_a_json_500_without_its_traceback(api):
    with mock.patch("games.issuing.apis.game_issue", side_effect=RuntimeError("secret internals")):
        response = api.post("/api/games/", {}, format="json")

    body = assert_json_refusal(response, 500, "server_error")
    assert "secret internals" not in json.dumps(body)


def test_a_crash_on_a_page_is_still_djangos_html_500(api):
    with mock.patch("accounts.views.render", side_effect=RuntimeError("secret internals")):
        response = api.get("/accounts/profile/")

    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(("method", "url"), [("post", "/api/submissions/"), ("patch", "/api/account/")])
def test_a_body_over_the_size_limit_is_a_json_413(api, settings, method, url):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = getattr(api, method)(url, {"log": "x" * 2000}, format="json")

    assert_json_refusal(response, 413, "request_too_large")


def test_a_request_django_refuses_to_read_is_a_json_400(api):
    # Over DATA_UPLOAD_MAX_NUMBER_FIELDS (1000): Django's TooManyFieldsSent, outside DRF's refusals
    # (short fields: the URL stays under the API's 2,048 bytes, yukon_site/url_limits.py).
    fields = "&".join("f" for _ in range(1001))

    response = api.get(f"/api/games/?state=issued&{fields}")

    assert_json_refusal(response, 400, "bad_request")


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"]
)
def test_a_body_that_is_not_json_is_a_json_415_and_changes_nothing(api, player, content_type):
    response = api.post("/api/games/", "rules=classic&count=1", content_type=content_type)

    body = assert_json_refusal(response, 415, "unsupported_media_type")
    assert content_type.split(";")[0] in body["detail"]
    assert not player.issued_games.exists()


def test_the_frameworks_refusals_carry_a_code_too(player):
    signed_out = APIClient().get("/api/me/")
    no_csrf = APIClient(enforce_csrf_checks=True)
    no_csrf.force_login(player)
    unreadable = APIClient()
    unreadable.force_login(player)

    assert_json_refusal(signed_out, 403, "not_authenticated")
    assert_json_refusal(no_csrf.post("/api/games/", {"rules": "classic"}), 403, "permission_denied")
    assert_json_refusal(
        unreadable.post("/api/games/", "{", content_type="application/json"), 400, "parse_error"
    )


# --- Bodies nested too deep ------------------------------------------------------------------------


def json_write_operations() -> list[tuple[str, str]]:
    """(method, path) of every operation of the schema that takes a JSON body, path ids 1; and
    DELETE /api/account/, whose JSON body (the password) the schema does not show."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [("delete", "/api/account/")]
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if "application/json" in operation.get("requestBody", {}).get("content", {}):
                operations.append((method, path.replace("{game_id}", "1").replace("{submission_id}", "1")))
    return sorted(operations)


NESTED_BODIES = {
    "arrays": "[" * 1000 + "]" * 1000,
    "objects": '{"a":' * 1000 + "1" + "}" * 1000,
    "in_a_field": '{"log": ' + "[" * 1000 + "]" * 1000 + "}",
    "parsable_but_deep": '{"rules": ' + "[" * 200 + "]" * 200 + "}",
}


def test_the_nested_body_sweep_covers_the_write_endpoints():
    operations = json_write_operations()
    for operation in [("post", "/api/submissions/"), ("post", "/api/games/"), ("post", "/api/hint/")]:
        assert operation in operations


@pytest.mark.parametrize("body", NESTED_BODIES.values(), ids=NESTED_BODIES.keys())
@pytest.mark.parametrize(("method", "url"), json_write_operations())
def test_a_deeply_nested_body_is_refused_on_every_json_write_endpoint(api, method, url, body):
    response = getattr(api, method)(url, body, content_type="application/json")

    assert response.status_code == 400, response.content[:300]
    assert response.json() == {"detail": response.json()["detail"], "code": "parse_error"}
    assert "nested" in response.json()["detail"]


def test_a_body_nested_within_the_limit_is_read(api):
    response = api.post("/api/games/", {"rules": [[["classic"]]]}, format="json")

    assert response.status_code == 400
    assert "rules" in response.json()
