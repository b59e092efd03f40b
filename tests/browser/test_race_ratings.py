"""The race rating where players look for it (docs/races.md, "Rating"): on /me per rule set (or a
way to a first race), and on the leaderboard's Races board, best first, the player's own row marked.
The ratings are rows of races.models.Rating, as the races' services leave them.
"""

import re

import pytest
from helpers import make_player, sign_in
from playwright.sync_api import Page, expect
from race_pages import rated
from test_pages import DESKTOP, ready, shoot  # the other pages' tests: the same sizes and shots

from races.models import Rating

pytestmark = pytest.mark.browser

BOARD = '[data-board="global"]'
ROWS = f"{BOARD} [data-entry]"


def rows_shown(page: Page) -> list[list[str]]:
    """Each row of the board as [rank, player, rating, races], as shown."""
    return page.locator(ROWS).evaluate_all(
        """(rows) => rows.map((row) => [".rank", ".name", ".rating", ".races"]
            .map((cell) => row.querySelector(cell).textContent))"""
    )


def test_me_shows_each_race_rating_or_the_way_to_a_first_race(
    live_server, page: Page, context, artifacts_dir
):
    annie = make_player("Annie-42")
    rated(annie, "classic", 1579.4, 3)
    sign_in(context, live_server.url, annie)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/me")
    ready(page)

    classic = page.locator('[data-rules-figures="classic"] .race-rating')
    expect(classic).to_have_attribute("data-race-rating", "1579")
    expect(classic.locator("strong")).to_have_text("Race rating 1,579 · 3 races")
    expect(classic.get_by_role("link", name="Race board")).to_have_attribute(
        "href", "/leaderboard?deals=races&rules=classic"
    )
    # No race under Relaxed rules yet: a line that leads to a first race.
    relaxed = page.locator('[data-rules-figures="relaxed"] .race-rating')
    expect(relaxed).to_have_attribute("data-race-rating", "none")
    expect(relaxed).to_contain_text("No race yet: your first one gives you a race rating.")
    expect(relaxed.get_by_role("link", name="Race your friends")).to_have_attribute("href", "/race")
    shoot(page, artifacts_dir, "me-race-rating")

    # One race: said in the singular, the figures as the server has them now.
    Rating.objects.filter(user=annie, rules="classic").delete()
    rated(annie, "relaxed", 1512.2, 1)
    page.reload()
    ready(page)
    expect(relaxed.locator("strong")).to_have_text("Race rating 1,512 · 1 race")
    expect(classic).to_have_attribute("data-race-rating", "none")


def test_the_races_board_lists_the_ratings_best_first_and_marks_the_player(
    live_server, page: Page, context, artifacts_dir
):
    annie, bob, carol, dave = (make_player(name) for name in ("Annie-42", "bob", "carol", "dave"))
    rated(annie, "classic", 1488.0, 2)
    rated(bob, "classic", 1579.4, 3)
    rated(carol, "classic", 1702.6, 11)
    rated(dave, "relaxed", 1530.0, 1)
    sign_in(context, live_server.url, bob)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/leaderboard")
    ready(page)
    board = page.locator(BOARD)
    periods = page.locator("[data-period-choices]")
    expect(periods).to_be_visible()

    page.get_by_role("button", name="Races").click()
    expect(board).to_have_attribute("data-deals", "races")
    expect(page.locator('[data-deals-choice="races"]')).to_have_attribute("aria-pressed", "true")
    expect(page).to_have_url(re.compile(r"/leaderboard\?deals=races$"))
    expect(page.locator("[data-deals-about]")).to_have_text(re.compile(r"^Races: each player's race rating"))
    expect(periods).to_be_hidden()  # a rating has no period, its board no around-me
    expect(page.locator("[data-around-choice]")).to_be_hidden()
    expect(page.locator(ROWS)).to_have_count(3)
    assert rows_shown(page) == [
        ["1", "carol", "1,703", "11"],
        ["2", "bob", "1,579", "3"],
        ["3", "Annie-42", "1,488", "2"],
    ]
    expect(page.locator(f"{ROWS}[data-me]")).to_have_attribute("data-player", "bob")
    expect(page.locator(f"{ROWS}.me")).to_have_count(1)
    expect(board.locator("th")).to_have_text(["#", "Player", "Rating", "Races"])
    shoot(page, artifacts_dir, "leaderboard-races")

    # Another rule set, its own ratings; a shared address keeps the choice.
    page.set_viewport_size(DESKTOP)
    page.get_by_role("button", name="Relaxed").click()
    expect(board).to_have_attribute("data-rules", "relaxed")
    expect(page).to_have_url(re.compile(r"\?deals=races&rules=relaxed$"))
    expect(page.locator(ROWS)).to_have_count(1)
    assert rows_shown(page) == [["1", "dave", "1,530", "1"]]
    expect(page.locator(f"{ROWS}[data-me]")).to_have_count(0)
    Rating.objects.filter(rules="relaxed").delete()
    page.reload()
    ready(page)
    expect(page.locator('[data-deals-choice="races"]')).to_have_attribute("aria-pressed", "true")
    expect(board.locator(".board-message")).to_have_text(
        "No Relaxed race finished yet: race your friends to be the first here."
    )

    # Back to the hidden-card boards: their periods and around-me again.
    page.locator('[data-deals-choice="hidden"]').click()
    expect(board).to_have_attribute("data-deals", "hidden")
    expect(periods).to_be_visible()
    expect(page.locator("[data-around-choice]")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/leaderboard\?rules=relaxed$"))
    expect(board.locator(".board-message")).to_have_text(
        "No ranked Relaxed win yet: the first one takes the top."
    )
