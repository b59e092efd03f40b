"""A player whose ranked results a fair-play case keeps off the boards reads why on /me, in
words, and appeals a decision there (docs/fairplay.md, "What the player sees")."""

import pytest
from helpers import make_player, recorded_win, sign_in, winning_game
from playwright.sync_api import Page, expect

from fairplay.cases import case_decide
from fairplay.models import CaseDecision
from games.models import ReplayFlag

pytestmark = pytest.mark.browser


@pytest.mark.browser_context_args(viewport={"width": 360, "height": 740})
def test_a_confirmed_case_is_said_on_me_with_its_reason_and_the_player_appeals_it(
    live_server, page: Page, context, artifacts_dir
):
    player, moderator = make_player("ivy"), make_player("mod")
    code, tokens = winning_game()
    result = recorded_win(player, code, tokens)
    case = ReplayFlag.objects.create(
        submission=result, user=player, reason=ReplayFlag.Reason.ANALYSIS, level=ReplayFlag.Level.MARK
    )
    case_decide(case=case, action="confirm", by=moderator, why="The hidden edge in five games.")
    sign_in(context, live_server.url, player)
    page.goto(f"{live_server.url}/me")
    note = page.locator("[data-review]")
    expect(note).to_be_visible()
    expect(note.locator("[data-review-text]")).to_have_text(
        "A moderator decided your ranked results were not played fairly, because how several of "
        "your games were played stood out in the fair-play analysis. They are off the public "
        "boards. You may appeal."
    )
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=artifacts_dir / "me-review-360.png")

    note.get_by_label("Why should a moderator look again?").fill("I play slowly and think ahead.")
    note.get_by_role("button", name="Appeal").click()
    said = note.locator("[data-appeal-said]")
    expect(said).to_have_text("Your appeal is sent: a moderator will look again.")
    expect(note.locator("[data-appeal]")).to_be_hidden()
    appeal = CaseDecision.objects.get(case=case, action="appeal")
    assert appeal.why == "I play slowly and think ahead." and appeal.by_id == player.pk
    # The case is open again: the page says the results are under review.
    page.reload()
    expect(note.locator("[data-review-text]")).to_contain_text("Your ranked results are under review")
    expect(note.locator("[data-appeal]")).to_be_hidden()
