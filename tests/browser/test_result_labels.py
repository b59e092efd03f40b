"""What the Results list says of two results the server counts differently from the usual:
a ranked win whose game was played on another device (409 `game_used`), which the outbox sends
again as an unranked result of its code so that it counts on the deal's own board; and a win
played with a hint (assisted), which goes on no board.
"""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from helpers import READY, allow_fast_play, make_player, sign_in, winning_game
from playwright.sync_api import Page, expect
from test_pool_recovery import played_elsewhere

from games.engine import GameCode
from games.models import Submission
from games.services import game_issue

pytestmark = pytest.mark.browser

OUTBOX_KEY = "yukon.outbox.v1"
RESULT = '[data-dialog="results"] [data-result]'


def queue_win(page: Page, *, code: str, tokens: list[str], client_id: str, **result) -> None:
    """Put a win in the page's outbox as the game would (sync.js `enqueueResult`), and send it."""
    page.evaluate(
        """([code, log, clientId, result]) => import("/static/frontend/js/sync.js").then((sync) => {
            const times = log.split(" ").map((_, i) => 200 * (i + 1));
            sync.enqueueResult({client_id: clientId, code, log, move_times_ms: times,
                duration_ms: times.at(-1) + 300, finished_at: new Date().toISOString(),
                client_version: "test", rules: "classic", won: true, moves: times.length, ...result});
            dispatchEvent(new Event("online"));  // the page sends waiting results at once
        })""",
        [code, " ".join(tokens), client_id, result],
    )


def settled(page: Page, count: int) -> None:
    page.wait_for_function(
        f"""() => {{ const entries = JSON.parse(localStorage.getItem('{OUTBOX_KEY}') ?? '[]');
                    return entries.length === {count} && entries.every((e) => e.state === 'verified'); }}""",
        timeout=15_000,
    )


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_a_ranked_win_played_elsewhere_counts_unranked_and_an_assisted_win_says_so(
    live_server, page: Page, context, settings, artifacts_dir
):
    allow_fast_play(settings)
    code, tokens = winning_game()
    player = make_player("mei")
    number = GameCode.parse(code).number
    (game,) = game_issue(user=player, deal_numbers=[number], now=timezone.now() - timedelta(hours=1))
    played_elsewhere(player, game)  # another device submitted a result for it first
    sign_in(context, live_server.url, player)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)

    # This device's win of the same game: refused as ranked, sent again as an unranked result.
    ranked_id = str(uuid.uuid4())
    queue_win(page, code=code, tokens=tokens, client_id=ranked_id, game=game.pk, owner=player.pk)
    settled(page, 1)
    unranked = Submission.objects.get(user=player, ranked=False)
    assert (unranked.status, unranked.won, unranked.game_id, unranked.code) == ("verified", True, None, code)
    assert str(unranked.client_id) != ranked_id
    assert unranked.log == " ".join(tokens)
    assert not Submission.objects.filter(client_id=ranked_id).exists()  # the refused one was never stored

    # A win with a hint on the same deal.
    queue_win(page, code=code, tokens=tokens, client_id=str(uuid.uuid4()), assisted=True)
    settled(page, 2)
    assert Submission.objects.get(user=player, assisted=True).status == "verified"

    page.locator("[data-results-chip]").click()
    assisted, elsewhere = page.locator(RESULT).all()  # newest first
    expect(elsewhere).to_have_attribute("data-state", "verified")
    expect(elsewhere.locator("[data-kind]")).to_have_text("Unranked")
    expect(elsewhere.locator("[data-fallback]")).to_have_text(
        "Played elsewhere: this ranked deal already had a result (or had expired), so this game was sent "
        "as an unranked game; a win counts on this deal's own board only."
    )
    expect(elsewhere.locator(f'.ranks [data-board="deal:{code}"]')).to_have_attribute("data-rank", "1")
    expect(elsewhere.locator(".ranks li")).to_have_count(1)  # on no ranked board
    expect(elsewhere).not_to_have_attribute("data-assisted", "")

    expect(assisted).to_have_attribute("data-assisted", "")
    expect(assisted.locator(".result-state")).to_have_text(
        "Verified: played with a hint (assisted), so it goes on no board."
    )
    expect(assisted.locator(".ranks li")).to_have_count(0)
    expect(assisted.locator("[data-fallback]")).to_have_count(0)
    page.screenshot(path=artifacts_dir / "results-played-elsewhere.png")
