"""A signed-out visitor is not an error: every page a signed-out visitor opens logs no console
error and gets no failed answer (a browser logs every 4xx and 5xx as an error). Who is signed in
is asked of GET /api/session/ (200 signed out too); no page asks a signed-in-only endpoint
(/api/me/, /api/games/ …) of a visitor the server has said is signed out.
"""

from __future__ import annotations

import pytest
from helpers import READY, pause
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

PAGE_READY = '[data-page-status="ready"]'
# Each page a signed-out visitor reaches from the header or a shared link, what says it is ready,
# and whether its script asks who is signed in (/help is the server's page alone).
SIGNED_OUT_PAGES = [
    ("/", READY, True),
    ("/play/YU1-C-AAAAAAC", READY, True),
    ("/leaderboard", PAGE_READY, True),
    ("/leaderboard?deals=open", PAGE_READY, True),
    ("/leaderboard?deals=races", PAGE_READY, True),
    ("/help", "main h1", False),
    ("/me", PAGE_READY, True),
    ("/race", '[data-account-nav][data-signed-in="false"]', True),
]


@pytest.fixture
def failures(context) -> list[str]:
    """Console errors and failed requests of every page of the context, as they come."""
    seen: list[str] = []
    context.on(
        "console", lambda message: message.type == "error" and seen.append(f"console error: {message.text}")
    )
    context.on(
        "response",
        lambda response: response.status >= 400 and seen.append(f"{response.status} {response.url}"),
    )
    context.on("requestfailed", lambda request: seen.append(f"failed: {request.url} ({request.failure})"))
    return seen


@pytest.mark.parametrize(
    ("path", "ready", "asks_session"), SIGNED_OUT_PAGES, ids=[path for path, *_ in SIGNED_OUT_PAGES]
)
def test_a_signed_out_page_logs_no_error_and_no_failed_request(
    live_server, page: Page, failures: list[str], path: str, ready: str, asks_session: bool
):
    answers: list[str] = []
    page.on("response", lambda response: answers.append(response.url))

    page.goto(f"{live_server.url}{path}")
    page.wait_for_selector(ready, state="attached")
    page.wait_for_load_state("networkidle")
    pause(page, 0.5)  # a late request (a board's second call, the worker's) would come by now

    assert any(url.endswith("/api/session/") for url in answers) == asks_session
    assert failures == []
