"""Reporting a result (docs/fairplay.md, "Reports"): the replay page's "Report this result"
dialog, and the way to it from a board's row and a race's results, in Chromium.

Signed in, a player reports someone else's result once, in words they can read; never their
own, never signed out. The wins are made through the real services (`recorded_win`); the
server's own API stores the report and asks for the analysis.
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
from playwright.sync_api import Page, expect
from race_pages import finished_race, view_is
from test_accessibility import (
    AXE,
    assert_no_axe_violation,
    context,  # noqa: F401 (its context fixture: a console error fails the test)
)

pytestmark = pytest.mark.browser

CODE, TOKENS = winning_game()
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
DIALOG = '[data-dialog="report"]'
OFFER = "[data-report-offer]"
STATUS = "[data-report-status]"
THANKS = "Thank you. The result will be analysed; people decide, never a report alone."


@pytest.fixture(autouse=True)
def _only_reports_ask_for_analyses(settings):
    # A result is analysed when it reaches a board's top places or is drawn at random: here only
    # the report may ask, so that the test sees the report's own request.
    settings.FAIRPLAY_TOP_RANK = 0
    settings.FAIRPLAY_SAMPLE_ONE_IN = 10**9


def open_replay(page: Page, base_url: str, submission_id: int, fragment: str = "") -> None:
    page.goto(f"{base_url}/replay/{submission_id}{fragment}")
    expect(page.locator("[data-replay]")).to_have_attribute("data-replay-status", "paused")


def send_report(page: Page, reason: str, note: str = "") -> None:
    dialog = page.locator(DIALOG)
    expect(dialog).to_be_visible()
    dialog.get_by_label(reason).check()
    if note:
        dialog.get_by_label(re.compile("Anything else")).fill(note)
    dialog.get_by_role("button", name="Send").click()


def drop_refusal_logged(page_problems: list[str], status: int) -> None:
    """Chromium logs an API refusal the page expects as a console error: that one is no fault."""
    expected = [problem for problem in page_problems if f"status of {status}" in problem]
    assert expected, page_problems
    for problem in expected:
        page_problems.remove(problem)


def test_a_player_reports_another_players_result_once(live_server, page: Page, page_problems, artifacts_dir):
    from fairplay.models import GameAnalysis, ResultReport

    annie, bob = make_player("annie"), make_player("bob")
    win = recorded_win(annie, CODE, TOKENS, hidden=True)
    assert not GameAnalysis.objects.filter(submission=win).exists()
    sign_in(page.context, live_server.url, bob)
    page.set_viewport_size(DESKTOP)
    open_replay(page, live_server.url, win.pk)

    page.locator(OFFER).get_by_role("button", name="Report this result").click()
    send_report(page, "A program played it, not a person", note="Every move at once, no pause.")
    expect(page.locator(DIALOG)).to_be_hidden()
    expect(page.locator(STATUS)).to_have_text(THANKS)
    expect(page.locator(OFFER).get_by_role("button")).to_have_count(0)
    page.screenshot(path=str(artifacts_dir / "report-thanks-desktop.png"))

    report = ResultReport.objects.get(submission=win, reporter=bob)
    assert (report.reason, report.note) == ("program", "Every move at once, no pause.")
    assert GameAnalysis.objects.get(submission=win).reason == "reported"

    # Once only: the next report of the same result says it is there already.
    open_replay(page, live_server.url, win.pk)
    page.locator(OFFER).get_by_role("button", name="Report this result").click()
    send_report(page, "Something else")
    expect(page.locator(STATUS)).to_have_text(re.compile("You have reported this result already"))
    assert ResultReport.objects.filter(submission=win).count() == 1
    drop_refusal_logged(page_problems, 409)


def test_no_report_of_ones_own_result_nor_signed_out(live_server, page: Page):
    annie = make_player("annie")
    win = recorded_win(annie, CODE, TOKENS, hidden=True)

    # Signed out: nothing offered; a link to the report asks to sign in first, and comes back.
    open_replay(page, live_server.url, win.pk, "#report")
    sign_in_link = page.locator(STATUS).get_by_role("link", name="Sign in to report a result")
    expect(sign_in_link).to_have_attribute("href", f"/accounts/login/?next=%2Freplay%2F{win.pk}%23report")
    expect(page.locator(OFFER).get_by_role("button")).to_have_count(0)
    expect(page.locator(DIALOG)).to_be_hidden()

    # One's own result: no Report control, and a link to its report says why not.
    sign_in(page.context, live_server.url, annie)
    page.reload()  # the same address: goto would only move to the fragment
    expect(page.locator("[data-replay]")).to_have_attribute("data-replay-status", "paused")
    expect(page.locator(STATUS)).to_have_text(re.compile("your own result"))
    expect(page.locator(OFFER).get_by_role("button")).to_have_count(0)
    expect(page.locator(DIALOG)).to_be_hidden()


def test_the_report_dialog_passes_axe_core_on_a_phone_and_a_desktop(live_server, page: Page, artifacts_dir):
    annie, bob = make_player("annie"), make_player("bob")
    win = recorded_win(annie, CODE, TOKENS, hidden=True)
    sign_in(page.context, live_server.url, bob)
    axe_source = AXE.read_text()
    for name, size in [("phone", PHONE), ("desktop", DESKTOP)]:
        page.set_viewport_size(size)
        open_replay(page, live_server.url, win.pk)
        page.locator(OFFER).get_by_role("button", name="Report this result").click()
        dialog = page.locator(DIALOG)
        expect(dialog).to_be_visible()
        expect(dialog.get_by_role("radio")).to_have_count(3)
        expect(dialog.get_by_role("textbox")).to_have_attribute("maxlength", "500")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), name
        assert_no_axe_violation(page, axe_source, f"the report dialog at {size['width']} px")
        page.screenshot(path=str(artifacts_dir / f"report-dialog-{name}.png"))
        dialog.get_by_role("button", name="Cancel").click()
        expect(dialog).to_be_hidden()


def test_a_board_row_leads_to_the_report_and_ones_own_row_does_not(live_server, page: Page, artifacts_dir):
    from factories import WINNING_CODES, winning_log
    from helpers import dealt_as_hidden

    annie, bob = make_player("annie"), make_player("bob")
    win = recorded_win(annie, CODE, TOKENS, hidden=True)
    other = next(code for code in WINNING_CODES["classic"] if code != dealt_as_hidden(CODE))
    recorded_win(bob, other, winning_log(other).split(), hidden=True)
    sign_in(page.context, live_server.url, bob)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/leaderboard")
    board = page.locator('[data-board="global"]')
    expect(board).to_have_attribute("data-state", "ready")
    expect(board.locator("[data-entry][data-me] [data-report-link]")).to_have_count(0)
    link = board.locator('[data-entry][data-player="annie"]').get_by_role(
        "link", name="Report annie's result"
    )
    expect(link).to_have_attribute("href", f"/replay/{win.pk}#report")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    board.screenshot(path=str(artifacts_dir / "report-board-row-phone.png"))

    link.click()
    expect(page.locator(DIALOG)).to_be_visible()
    send_report(page, "One person plays with two accounts")
    expect(page.locator(STATUS)).to_have_text(THANKS)


def test_race_results_lead_to_the_report(asgi_server, page: Page):
    from fairplay.models import ResultReport

    annie, bob = make_player("annie"), make_player("bob")
    race = finished_race([annie, bob], CODE, TOKENS)
    base = asgi_server.url
    sign_in(page.context, base, bob)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base}/race/{race.public_id}")
    view_is(page, "results")
    places = page.locator("[data-race-places]")
    expect(places.locator('[data-result-player="bob"] [data-report-link]')).to_have_count(0)
    link = places.locator('[data-result-player="annie"]').get_by_role("link", name="Report annie's result")
    expect(link).to_be_visible()

    link.click()
    expect(page.locator(DIALOG)).to_be_visible()
    send_report(page, "A program played it, not a person")
    expect(page.locator(STATUS)).to_have_text(THANKS)
    assert ResultReport.objects.filter(reporter=bob, submission__user=annie).count() == 1
