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


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/api/leaderboards/?rules=classic", "/static/frontend/css/site.css"])
def test_the_policy_is_the_one_django_csp_builds_from_the_settings(client, url):
    from dataclasses import asdict

    from csp.middleware import PolicyParts
    from csp.utils import build_policy

    assert client.get(url)["Content-Security-Policy"] == build_policy(**asdict(PolicyParts()))


def test_a_response_with_a_policy_of_its_own_or_a_nonce_gets_django_csps_answer(rf, settings):
    from csp.decorators import csp_update
    from csp.middleware import CSPMiddleware as LibraryCSPMiddleware
    from django.http import HttpResponse

    from yukon_site.csp import CSPMiddleware

    @csp_update({"img-src": ["https://img.example"]})
    def view(request):
        return HttpResponse("ok")

    def nonce_view(request):
        str(request.csp_nonce)
        return HttpResponse("ok")

    updated = CSPMiddleware(view)(rf.get("/"))
    assert "https://img.example" in updated["Content-Security-Policy"]
    header = "Content-Security-Policy"
    assert (
        CSPMiddleware(nonce_view)(rf.get("/"))[header]
        == LibraryCSPMiddleware(nonce_view)(rf.get("/"))[header]
    )


def test_a_changed_setting_changes_the_kept_policy(client, settings):
    settings.CONTENT_SECURITY_POLICY = {
        "DIRECTIVES": {"default-src": ["'self'"], "frame-ancestors": ["'none'"]}
    }
    policy = client.get("/static/frontend/css/site.css")["Content-Security-Policy"]
    assert sorted(policy.split("; ")) == ["default-src 'self'", "frame-ancestors 'none'"]
