"""The sign-in lockout in Chromium: five wrong passwords typed into the real form lock the account's
sign-in, and then the right password is refused with the time left to wait, in the page's
language (English, and Malay chosen with the header's picker).
"""

import math
import re
import time

import pytest
from helpers import PASSWORD, make_player
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

WRONG_PASSWORD = "not-the-pass-phrase"
FAILURES_ALLOWED = 5  # allauth's failed sign-ins per login in its window (its default: 5 in 5 minutes)
WINDOW_SECONDS = 300
ERRORS = "main form .errorlist"
# {minutes} is filled with what the clocks around the attempts allow (see lockout_minutes).
WORDS = {
    "en": {
        "mismatch": "The username and/or password you specified are not correct.",
        "lockout": "Too many failed sign-ins. Try again in {minutes} minutes.",
    },
    "ms": {
        "mismatch": "Nama pengguna dan/atau kata laluan yang anda berikan tidak betul.",
        "lockout": "Terlalu banyak log masuk yang gagal. Cuba lagi dalam {minutes} minit.",
    },
}


def submit_sign_in(page: Page, login: str, password: str) -> None:
    """Type into the sign-in form and press Enter, as a player does."""
    page.fill("#id_login", login)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.press("#id_password", "Enter")


def lockout_minutes(first_failure: tuple[float, float], refusal: tuple[float, float]) -> set[int]:
    """The whole minutes the refusal may say: the window from the first failure (sent, answered)
    less the time at the refusal (sent, answered), rounded up."""
    longest = first_failure[1] + WINDOW_SECONDS - refusal[0]
    shortest = first_failure[0] + WINDOW_SECONDS - refusal[1]
    return set(range(math.ceil(shortest / 60), math.ceil(longest / 60) + 1))


def timed_sign_in(page: Page, login: str, password: str) -> tuple[float, float]:
    sent = time.time()
    submit_sign_in(page, login, password)
    return sent, time.time()


@pytest.mark.parametrize("language", ["en", "ms"])
def test_the_right_password_after_five_wrong_ones_is_refused_with_the_time_to_wait(
    live_server, page: Page, language, artifacts_dir
):
    make_player("lena")
    page.goto(f"{live_server.url}/accounts/login/")
    if language != "en":  # the header's picker: no script on the account pages, so Change
        page.locator("#language-picker").select_option(language)
        with page.expect_navigation():
            page.locator('[data-language-picker] [type="submit"]').click()
    expect(page.locator("html")).to_have_attribute("lang", language)
    words = WORDS[language]

    first_failure = timed_sign_in(page, "lena", WRONG_PASSWORD)
    expect(page.locator(ERRORS)).to_have_text(words["mismatch"])
    for _ in range(FAILURES_ALLOWED - 1):
        submit_sign_in(page, "lena", WRONG_PASSWORD)
        expect(page.locator(ERRORS)).to_have_text(words["mismatch"])
    refusal = timed_sign_in(page, "lena", PASSWORD)

    expect(page).to_have_url(re.compile(r"/accounts/login/$"))  # not signed in
    said = page.locator(ERRORS).inner_text().strip()
    allowed = [
        words["lockout"].format(minutes=minutes) for minutes in lockout_minutes(first_failure, refusal)
    ]
    assert said in allowed
    page.locator("main").screenshot(path=artifacts_dir / f"login-lockout-{language}.png")
