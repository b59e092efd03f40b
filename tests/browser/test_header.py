"""The site header on the account pages (sign in, sign up), which load no script: the language
picker keeps its Change button. In every language at 360, 768 and 1366 px, each of the header's
links and controls lies inside the window, overlaps no other, and is the one a tap at its centre
reaches (an invisible list laid over the button once took its taps); and a choice made with the
list and Change takes effect.
"""

import pytest
from layout import LANGUAGES, SIZES, choose_language, layout_problems, settled
from playwright.sync_api import Page, expect
from test_accessibility import AXE, assert_no_axe_violation

pytestmark = pytest.mark.browser

HEADER_PARTS = ".site-header a, .site-header select, .site-header button"
ACCOUNT_PAGES = {"login": "/accounts/login/", "signup": "/accounts/signup/"}


@pytest.fixture(scope="module")
def axe() -> str:
    return AXE.read_text()  # node_modules/axe-core: `npm ci` (test_accessibility.py says so when missing)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("which", list(ACCOUNT_PAGES))
def test_the_account_pages_header_fits_and_every_control_takes_its_taps(
    live_server, page: Page, context, language, which, axe, artifacts_dir
):
    choose_language(context, live_server.url, language)
    page.goto(f"{live_server.url}{ACCOUNT_PAGES[which]}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    header = page.locator(".site-header")
    change = header.locator('[data-language-picker] [type="submit"]')
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        settled(page)
        expect(change).to_be_visible()  # no script on these pages: the choice takes a tap on Change
        expect(header.locator("[data-account-link='signup']")).to_be_visible()
        header.screenshot(path=artifacts_dir / f"header-{which}-{size}-{language}.png")
        assert layout_problems(page, HEADER_PARTS) == [], f"{which} at {size} ({width} px)"
        if size == "phone":
            assert_no_axe_violation(page, axe, f"{which} in {language} at {width} px")

    # On a phone, the list and Change work as they read: Tagalog (or English) chosen, then Change.
    page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
    other = "en" if language == "tl" else "tl"
    header.locator("select").select_option(other)
    with page.expect_navigation():
        change.click()
    expect(page.locator("html")).to_have_attribute("lang", other)
