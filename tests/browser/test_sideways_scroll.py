"""Every page of the site on a 360×740 phone in each language: nothing scrolls sideways, no table
scrolls inside its box, and no player's name or field's hint is cut short (frontend/urls.py, the
account pages of accounts/ and allauth, yukon_site/urls.py's 404).

One browser context a language visits every page: first signed out (sign-in, sign-up and the
password pages), then signed in. The races, the replay and the boards are the real services' rows:
a finished race whose ratings moved, a lobby of another player, a verified ranked win.
Screenshots: test-artifacts/sideways-<language>-<page>.png of any page that does not fit, and
race-results-<language>-phone.png.
"""

import re

import pytest
from helpers import (
    asgi_server_fixture,  # noqa: F401 (the asgi_server fixture)
    make_player,
    recorded_win,
    sign_in,
    winning_game,
)
from layout import LANGUAGES, SIZES, choose_language, settled
from playwright.sync_api import Page
from race_pages import finished_race

from races import services

pytestmark = pytest.mark.browser

CODE, TOKENS = winning_game()
# Long names, as players choose them: a name must stay readable, whole, on a phone.
HOST, GUEST = "Annabelle_Phone_42", "Bartholomew_phone"
RATING_MOVED = re.compile(r"^[\d,]+ \([+-]?[\d,]+\)$")

# What does not fit, on the page as it is: the page wider than the window, a table wider than its
# box (it would scroll inside it), a name cut short by its box.
_MISFITS = """() => {
  const problems = [];
  const root = document.documentElement;
  const over = root.scrollWidth - innerWidth;
  if (over > 0) problems.push(`the page is ${over} px too wide`);
  const shown = (element) => element.getClientRects().length > 0;
  for (const wrap of document.querySelectorAll(".table-wrap")) {
    if (shown(wrap) && wrap.scrollWidth > wrap.clientWidth + 1) {
      problems.push(`a table scrolls sideways by ${wrap.scrollWidth - wrap.clientWidth} px`);
    }
  }
  for (const name of document.querySelectorAll(".name, .race-name")) {
    const cut = shown(name) && name.scrollWidth > name.clientWidth + 1;
    if (cut) problems.push(`"${name.textContent}" is cut short`);
  }
  const pen = document.createElement("canvas").getContext("2d");
  for (const input of document.querySelectorAll("input[placeholder]")) {
    if (!shown(input) || !input.placeholder) continue;
    const style = getComputedStyle(input);
    pen.font = style.font;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const cut = pen.measureText(input.placeholder).width > room + 1;
    if (cut) problems.push(`the hint "${input.placeholder}" is cut short`);
  }
  return problems;
}"""


def site_pages(base: str, *, lobby: str, results: str, replay: int) -> dict[str, tuple[str, str | None]]:
    """Every page signed in: its name → (its address, the element that shows it is drawn)."""
    return {
        "play": ("/", "[data-column]"),
        "play-code": (f"/play/{CODE}", "[data-column]"),
        "leaderboard": ("/leaderboard", '[data-board="global"] [data-entry]'),
        "leaderboard-races": ("/leaderboard?deals=races", '[data-board="global"] [data-entry]'),
        "leaderboard-open": ("/leaderboard?deals=open", '[data-page-status="ready"]'),
        "leaderboard-deal": (f"/leaderboard?deal={CODE}", '[data-page-status="ready"]'),
        "me": ("/me", '[data-page-status="ready"]'),
        "help": ("/help", None),
        "race-new": ("/race", "[data-race-form]"),
        "race-lobby": (f"/race/{lobby}", '[data-race-view="lobby"]'),
        "race-results": (f"/race/{results}", '[data-race-places-note]:text-matches(".")'),
        "race-missing": ("/race/nothing", '[data-race-view="missing"]'),
        "replay": (f"/replay/{replay}", "[data-replay][data-replay-status]"),
        "replay-missing": ("/replay/999999", "[data-replay][data-replay-status]"),
        "profile": ("/accounts/profile/", None),
        "delete": ("/accounts/delete/", None),
        "email": ("/accounts/email/", None),
        "password-change": ("/accounts/password/change/", None),
        "not-found": ("/no-such-page", None),
    }


SIGNED_OUT_PAGES = {
    "sign-in": "/accounts/login/",
    "sign-up": "/accounts/signup/",
    "password-reset": "/accounts/password/reset/",
    "password-reset-done": "/accounts/password/reset/done/",
    "race-signed-out": "/race",
}


def misfits(page: Page, artifacts_dir, language: str, name: str) -> list[str]:
    settled(page)
    found = page.evaluate(_MISFITS)
    if found:
        page.screenshot(path=artifacts_dir / f"sideways-{language}-{name}.png", full_page=True)
    return [f"{name}: {problem}" for problem in found]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_scrolls_sideways_on_a_phone(asgi_server, page: Page, context, language: str, artifacts_dir):
    base = asgi_server.url
    host, guest = make_player(HOST), make_player(GUEST)
    race = finished_race([host, guest], CODE, TOKENS)
    lobby = services.race_create(user=guest, rules="classic", seats=3, time_limit_minutes=5)
    win = recorded_win(host, CODE, TOKENS, hidden=True)

    choose_language(context, base, language)
    page.set_viewport_size(dict(zip(("width", "height"), SIZES["phone"], strict=True)))
    page.emulate_media(reduced_motion="reduce")
    problems = []
    for name, path in SIGNED_OUT_PAGES.items():
        page.goto(f"{base}{path}")
        problems += misfits(page, artifacts_dir, language, name)

    sign_in(context, base, host)
    pages = site_pages(base, lobby=lobby.public_id, results=race.public_id, replay=win.pk)
    for name, (path, drawn) in pages.items():
        page.goto(f"{base}{path}")
        if drawn:
            page.wait_for_selector(drawn, state="attached")
        problems += misfits(page, artifacts_dir, language, name)
        if name == "race-results":
            problems += unrated(page)
            page.screenshot(path=artifacts_dir / f"race-results-{language}-phone.png", full_page=True)
    assert not problems, "\n".join(problems)


def unrated(page: Page) -> list[str]:
    """The results' players whose new rating does not show beside its change: "1,583 (+83)"."""
    problems = []
    for player in (HOST, GUEST):
        rating = page.locator(f'[data-result-player="{player}"] .rating')
        text, visible = rating.text_content(), rating.is_visible()
        if not (visible and RATING_MOVED.match(text)):
            problems.append(f"race-results: {player}'s rating: {text!r}, visible: {visible}")
    return problems
