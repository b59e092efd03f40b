"""The race pages as tests drive them (docs/races.md): the lobby's, table's and results' hooks."""

from __future__ import annotations

from helpers import sign_in
from playwright.sync_api import Page, expect
from watch import watch_for_problems

ROOM = "[data-race]"


def view_is(page: Page, view: str, timeout: float = 15_000) -> None:
    expect(page.locator(ROOM)).to_have_attribute("data-race-view", view, timeout=timeout)


def second_player(browser, base_url: str, user, page_problems: list[str]):
    """Another browser (a context of its own: its own cookies and storage), signed in as `user`."""
    context = browser.new_context()
    watch_for_problems(context, page_problems, label=user.username)
    sign_in(context, base_url, user)
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    return context, page


def create_race(
    page: Page, base_url: str, *, rules: str = "classic", seats: int = 2, minutes: str = ""
) -> str:
    """Create a race through the form at /race; the race's id, once its lobby shows."""
    page.goto(f"{base_url}/race")
    form = page.locator("[data-race-form]")
    form.locator(f'input[name="rules"][value="{rules}"]').check()
    form.locator(f'input[name="seats"][value="{seats}"]').check()
    form.locator(f'input[name="time_limit_minutes"][value="{minutes}"]').check()
    form.locator("[data-race-create]").click()
    page.wait_for_url(f"{base_url}/race/*")
    view_is(page, "lobby")
    return page.locator(ROOM).get_attribute("data-race-id")


def player_item(page: Page, name: str):
    return page.locator(f'[data-race-players] [data-player="{name}"]')


def opponent(page: Page, name: str):
    return page.locator(f'[data-race-opponents] [data-opponent="{name}"]')


def rated(user, rules: str, shown: float, races: int):
    """A race rating of `user` under `rules` that shows `shown` (races.rating: 1500 + 24 (μ − 3σ)),
    after `races` races: the row the ratings' board and /api/me/ read."""
    from django.utils import timezone

    from races.models import Rating

    sigma = 3.0
    mu = (shown - 1500) / 24 + 3 * sigma
    return Rating.objects.create(
        user=user, rules=rules, mu=mu, sigma=sigma, ordinal=shown, races=races, updated_at=timezone.now()
    )
