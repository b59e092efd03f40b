"""A place as a rank and a percentile: the Results list (as the win banner, the same words) and
/me say "#3 · top 12%" of a board of 25 entries, in the page's language.

The boards are filled by the real services: 24 other players' verified wins of the same deal by
its code (the open-deal boards and the deal's own), two of them better, 22 worse (each with a
move played and taken back: one point less a pair); then the player's own win, sent by the page.
"""

import uuid

import pytest
from helpers import READY, make_player, recorded_win, sign_in, winning_game
from playwright.sync_api import Page, expect
from test_result_labels import OUTBOX_KEY, RESULT, queue_win, settled

from games.models import Submission

pytestmark = pytest.mark.browser

OTHERS_AHEAD, OTHERS_BEHIND = 2, 22  # 25 entries with the player, third: top 12% (3 / 25)


def with_undos(tokens: list[str], pairs: int) -> list[str]:
    """The same win with `pairs` moves played and taken back early on (a point less each)."""
    return [*tokens[:4], *[tokens[4], "U"] * pairs, *tokens[4:]]


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_a_place_is_a_rank_and_a_percentile_on_results_and_me(
    live_server, page: Page, context, artifacts_dir
):
    code, tokens = winning_game()
    for n in range(OTHERS_AHEAD):
        recorded_win(make_player(f"ahead{n}"), code, tokens, ranked=False)
    for n in range(OTHERS_BEHIND):
        recorded_win(make_player(f"behind{n}"), code, with_undos(tokens, 1 + n % 3), ranked=False)
    player = make_player("lena")
    sign_in(context, live_server.url, player)
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)

    queue_win(page, code=code, tokens=tokens, client_id=str(uuid.uuid4()))
    settled(page, 1)
    mine = Submission.objects.get(user=player)
    assert set(mine.ranks.values()) == {3} and set(mine.ranks_of.values()) == {25}
    stored = page.evaluate(f"() => JSON.parse(localStorage.getItem('{OUTBOX_KEY}'))[0].ranksOf")
    assert stored == mine.ranks_of

    page.locator("[data-results-chip]").click()
    places = page.locator(RESULT).first.locator(".ranks li")
    expect(places).to_have_count(5)  # the four open-deal boards of Classic and the deal's own
    expect(places.first).to_have_text("#3 Classic, all time (open deals) · top 12%")
    page.screenshot(path=artifacts_dir / "percentile-results.png")

    page.goto(f"{live_server.url}/me")
    chip = page.locator('[data-rules-figures="classic"] ul.rank-chips[data-deals="open"] [data-period="all"]')
    expect(chip.locator("strong")).to_have_text("#3")
    expect(chip.locator(".top-percent")).to_have_text("top 12%")
    context.add_cookies([{"name": "django_language", "value": "ms", "url": live_server.url}])
    page.reload()
    expect(chip.locator(".top-percent")).to_have_text("12% teratas")
    chip.scroll_into_view_if_needed()
    page.screenshot(path=artifacts_dir / "percentile-me-ms.png")
