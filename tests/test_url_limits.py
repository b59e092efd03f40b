"""Long URLs: under /api/ the site refuses them itself, in JSON, well below gunicorn's own limit,
which answers in HTML before Django sees the request (docs/api.md, docs/operations.md)."""

from __future__ import annotations

import pytest
from gunicorn.config import Config

from yukon_site import gunicorn_conf

pytestmark = pytest.mark.django_db

BOARD = "/api/leaderboards/?rules=classic&x="


def api_max_url_bytes() -> int:
    from yukon_site.url_limits import API_MAX_URL_BYTES

    return API_MAX_URL_BYTES


def test_an_api_url_over_the_limit_is_refused_in_json(client):
    response = client.get(BOARD + "x" * (3000 - len(BOARD)))

    assert response.status_code == 414, response.content[:200]
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "detail": f"The URL is over {api_max_url_bytes()} bytes (its path and query).",
        "code": "uri_too_long",
    }


def test_an_api_url_at_the_limit_is_answered(client):
    url = BOARD + "x" * (api_max_url_bytes() - len(BOARD))

    assert client.get(url).status_code == 200
    assert client.get(url + "x").status_code == 414
    assert client.get("/api/leaderboards/?rules=classic").status_code == 200


def test_the_limit_counts_the_url_as_sent_percent_encoded(client):
    # 700 characters é are 1400 bytes of UTF-8, 4200 characters percent-encoded.
    response = client.get("/api/leaderboards/", {"rules": "classic", "around": "é" * 700})

    assert response.status_code == 414


@pytest.mark.parametrize(
    "url", ["/?x=", "/", "/leaderboard?around=", "/play/", "/race/", "/accounts/login/?next="]
)
def test_a_long_page_url_is_no_server_error(client, url):
    # Up to gunicorn's request line (8190 bytes), a page's URL reaches Django.
    assert client.get(url + "x" * 8000).status_code < 500


def gunicorn_settings() -> Config:
    """gunicorn's configuration as `-c python:yukon_site.gunicorn_conf` makes it."""
    config = Config()
    for name, value in vars(gunicorn_conf).items():
        if name in config.settings:
            config.set(name, value)
    return config


def test_gunicorn_lets_through_the_urls_the_api_refuses_itself():
    limits = {"limit_request_line", "limit_request_fields", "limit_request_field_size"}
    assert limits <= set(vars(gunicorn_conf)), "gunicorn's own refusals are HTML: set its limits deliberately"
    request_line = gunicorn_settings().limit_request_line
    # "DELETE <url> HTTP/1.1": the method and version take up to 16 bytes of the request line.
    assert request_line - len("DELETE  HTTP/1.1") > api_max_url_bytes(), (
        f"gunicorn refuses request lines over {request_line} bytes in HTML before the API's "
        f"{api_max_url_bytes()}-byte JSON limit can answer"
    )
    assert request_line <= 8190, "gunicorn's most (0 would be unlimited)"
