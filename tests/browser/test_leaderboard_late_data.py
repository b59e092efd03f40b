"""The leaderboard page does not move while its data come, however late they come.

The answers of the daily deals, the boards (ranked, open deals, race ratings) and a deal's facts
are held back until the page has been measured waiting for them, then let through: every panel
shown meanwhile stays where it was (a panel under a board not answered yet appears once it is),
at 360 and 1366 px. (test_accessibility measures the layout shifts of a normal load; on a loaded
machine the race ratings' board once came late enough to shift the page.)
"""

import pytest
from helpers import sign_in
from playwright.sync_api import Page
from test_accessibility import (
    _MEASURE_LAYOUT_SHIFTS,
    CLS_LIMIT,
    DESKTOP,
    OPEN_CODE,
    PAGE_READY,
    PHONE,
    context,  # noqa: F401 (its context fixture: a console error fails the test)
    layout_shift,
    layout_shifts,
    seed_boards,
)

pytestmark = pytest.mark.browser

# Each answer of these APIs waits for window.__letAnswersThrough(); window.__held counts them.
_HOLD_ANSWERS = r"""
(() => {
  const fetch = window.fetch;
  const held = /\/api\/(daily|leaderboards|races\/ratings|deals)\//;
  let letThrough;
  const gate = new Promise((resolve) => { letThrough = resolve; });
  window.__held = 0;
  window.__letAnswersThrough = () => letThrough();
  window.fetch = (input, init) => {
    const answer = fetch(input, init);
    if (!held.test(typeof input === "string" ? input : input.url)) return answer;
    return answer.then((response) => { window.__held += 1; return gate.then(() => response); });
  };
})();
"""

# Where each panel shown is: its top; a panel not laid out (display: none) is not listed.
_PANELS = """() => Object.fromEntries([...document.querySelectorAll("main > section.panel")]
  .filter((panel) => panel.getClientRects().length)
  .map((panel) => [panel.getAttribute("aria-labelledby"), Math.round(panel.getBoundingClientRect().top)]))"""


ADDRESSES = [
    ("/leaderboard", 2),  # the daily deals and the ranked board
    ("/leaderboard?deals=open", 2),
    ("/leaderboard?deals=races", 2),  # Annie's and Bob's race ratings
    ("/leaderboard?deals=races&rules=relaxed", 2),  # no race rating yet: the empty board
    (f"/leaderboard?deal={OPEN_CODE}", 4),  # and a deal's facts and board, shown first
]
CASES = [(address, answers, size) for address, answers in ADDRESSES for size in (DESKTOP, PHONE)]


def drawn(page: Page) -> None:
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


@pytest.mark.parametrize(
    ("address", "answers", "viewport"),
    CASES,
    ids=[f"{address}-{size['width']}" for address, _, size in CASES],
)
def test_no_panel_moves_however_late_the_data_come(
    live_server, page: Page, address: str, answers: int, viewport: dict
):
    annie, _ = seed_boards()
    sign_in(page.context, live_server.url, annie)
    page.set_viewport_size(viewport)
    page.add_init_script(_MEASURE_LAYOUT_SHIFTS)
    page.add_init_script(_HOLD_ANSWERS)
    page.goto(f"{live_server.url}{address}")
    page.wait_for_function(f"() => window.__held >= {answers}")
    drawn(page)
    waiting = page.evaluate(_PANELS)

    page.evaluate("() => window.__letAnswersThrough()")
    page.wait_for_selector(PAGE_READY)
    drawn(page)
    shown = page.evaluate(_PANELS)
    assert set(shown) == {"daily-title", "global-title", "deal-title"}
    moved = {panel: (top, shown[panel]) for panel, top in waiting.items() if shown[panel] != top}
    assert not moved, f"{address}: panels moved when the data came (top before, after): {moved}"
    cls = layout_shift(page)
    assert cls < CLS_LIMIT, f"{address} shifts while it loads: CLS {cls:.4f}:\n{layout_shifts(page)}"
