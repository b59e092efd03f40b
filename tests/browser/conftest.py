"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Use the `page` fixture (pytest-playwright's, made stricter here) with `live_server`. A test
fails when a page it opened reports a Content-Security-Policy violation, throws an uncaught
error, or asks for anything outside this machine (the game must work offline). A test that
expects such a problem reads and clears `page_problems`.
"""

import os
from pathlib import Path

import pytest
from watch import let_pages_report, watch_for_problems

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
SKIP_REASON = "install Debian's chromium (apt-get install chromium) to run browser tests"
ARTIFACTS_DIR = Path(__file__).resolve().parents[2] / "test-artifacts"

# Playwright's sync API keeps an event loop running in this thread, and Django refuses ORM
# calls from a thread with a running loop. Set here only, never in the settings.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session", autouse=True)
def _require_chromium() -> None:
    # Session-scoped and autouse: runs before Playwright starts a browser.
    if not CHROMIUM.exists():
        pytest.skip(SKIP_REASON)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if getattr(report, "longrepr", None) and SKIP_REASON in str(report.longrepr)
    ]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} browser tests skipped: {SKIP_REASON}", yellow=True)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    # Debian's Chromium, never a downloaded build; no calls home, nothing that needs a GPU.
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-sandbox",
            "--disable-gpu",
        ],
    }


@pytest.fixture
def page_problems() -> list[str]:
    """What the pages of this test reported: CSP violations, uncaught errors, outside requests."""
    return []


@pytest.fixture
def context(context, page_problems: list[str]):
    watch_for_problems(context, page_problems)
    return context


@pytest.fixture
def short_race_countdown(settings) -> None:
    """A race's countdown of 4 s, not the shipped 5 s: the pages' tests start many races."""
    settings.RACE_COUNTDOWN_SECONDS = 4


@pytest.fixture
def artifacts_dir() -> Path:
    """Where browser tests save screenshots (test-artifacts/, not tracked)."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    return ARTIFACTS_DIR


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    result = yield
    problems = item.funcargs.get("page_problems")
    if problems is not None and "context" in item.funcargs:
        let_pages_report(item.funcargs["context"])
    if problems:
        pytest.fail("the browser reported problems:\n  " + "\n  ".join(problems), pytrace=False)
    return result
