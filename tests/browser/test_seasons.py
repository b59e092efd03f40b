"""Seasons in Chromium: /me says the player's best season, the board page offers this month's.

The season's final standing is kept by the real service (as the periodic task does once the
month is over); the wins are made through the real services. Screenshots go to test-artifacts/.
"""

import datetime as dt

import pytest
from helpers import make_player, recorded_win, sign_in, winning_game
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

CODE, TOKENS = winning_game()
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
PAGE_READY = '[data-page-status="ready"]'
BEST_SEASON = '[data-rules-figures="classic"] [data-best-season]'


def kept_season() -> str:
    """Annie second to bob this month, and the month's standing kept as when it is over."""
    from django.conf import settings
    from django.utils import timezone

    from leaderboard.boards import season_bounds, season_key
    from leaderboard.seasons import season_snapshot_take

    annie, bob = make_player("Annie-42"), make_player("bob")
    recorded_win(annie, CODE, [TOKENS[0], "U", *TOKENS], hidden=True)  # one move longer: a point less
    recorded_win(bob, CODE, TOKENS, hidden=True)
    season = season_key(timezone.now())
    closed = season_bounds(season)[1] + dt.timedelta(seconds=settings.LEADERBOARD_SEASON_SETTLE_SECONDS)
    assert season_snapshot_take(board=f"classic:season:{season}", now=closed) is not None
    return season


def test_me_shows_the_best_season_and_the_board_page_this_months_season(
    live_server, page: Page, context, artifacts_dir
):
    season = kept_season()
    from django.contrib.auth import get_user_model

    sign_in(context, live_server.url, get_user_model().objects.get(username="Annie-42"))
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/me")
    page.wait_for_selector(PAGE_READY)

    month = dt.date.fromisoformat(f"{season}-01").strftime("%B %Y")  # the C locale: English
    line = page.locator(BEST_SEASON)
    expect(line).to_have_text(f"Best season: #2 of 2, Classic, {month}")
    expect(line).to_have_attribute("data-best-season", season)
    expect(page.locator('[data-rules-figures="relaxed"] [data-best-season]')).to_have_attribute(
        "data-best-season", "none"
    )
    chip = page.locator('[data-rules-figures="classic"] ul[data-deals="hidden"] [data-period="season"]')
    expect(chip).to_have_attribute("data-rank", "2")
    expect(chip).to_contain_text("This month")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), "/me scrolls sideways"
    line.scroll_into_view_if_needed()
    page.screenshot(path=artifacts_dir / "season-me-phone.png")

    # The month named by the page's language (Intl): Malay.
    page.evaluate("() => localStorage.setItem('yukon.language.v1', 'ms')")
    page.reload()
    page.wait_for_selector(PAGE_READY)
    ms_month = page.evaluate(
        """(season) => new Intl.DateTimeFormat("ms", {month: "long", year: "numeric", timeZone: "UTC"})
            .format(new Date(season + "-01T00:00:00Z"))""",
        season,
    )
    assert ms_month != month
    expect(line).to_have_text(f"Musim terbaik: #2 daripada 2, Klasik, {ms_month}")

    # The board page, still in Malay: this month beside all time, this week and today.
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/leaderboard")
    page.wait_for_selector(PAGE_READY)
    choice = page.locator('[data-period-choice="season"]')
    expect(choice).to_have_text("Bulan ini")
    choice.click()
    board = page.locator('[data-board="global"]')
    expect(board).to_have_attribute("data-period", "season")
    expect(choice).to_have_attribute("aria-pressed", "true")
    expect(page).to_have_url(f"{live_server.url}/leaderboard?period=season")
    rows = board.locator("[data-entry]")
    expect(rows).to_have_count(2)
    assert rows.evaluate_all("(rows) => rows.map((row) => row.dataset.player)") == ["bob", "Annie-42"]
    page.screenshot(path=artifacts_dir / "season-leaderboard-desktop.png")
