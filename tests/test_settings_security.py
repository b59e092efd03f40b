"""Security headers on every kind of response, and pages that need nothing from outside."""

import re

import pytest


def assert_security_headers(response) -> None:
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert directives["frame-ancestors"] == "'none'"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/", "/healthz", "/accounts/login/", "/api/docs/", "/static/frontend/css/site.css", "/nowhere"]
)
def test_every_response_carries_the_security_headers(client, url):
    response = client.get(url)

    assert_security_headers(response)


@pytest.mark.django_db
def test_the_play_page_loads_its_script_as_a_file_and_has_no_inline_script(client):
    response = client.get("/")
    html = response.content.decode()

    assert response.status_code == 200
    assert '<script type="module" src="/static/frontend/js/app.js"></script>' in html
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script> found"
    assert not re.search(r"\sstyle=", html)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/api/docs/", "/accounts/login/"])
def test_pages_reference_no_outside_asset(client, url):
    html = client.get(url).content.decode()

    assert not re.search(r"""(src|href)=["'](https?:)?//""", html)


@pytest.mark.django_db
def test_api_schema_is_served(client):
    response = client.get("/api/schema/")

    assert response.status_code == 200
    assert b"Yukon Online API" in response.content
