"""What the Results list says of results the server counts differently from the usual: a ranked
win whose game (issued with its code) was played on another device (409 `game_used`), which the
outbox sends again as an unranked result of its code, an open deal, so that it counts on the
open-deal boards and the deal's own board; a win played with a hint (assisted), which goes on no
board; and a win the earlier timing rule refused, judged again since.
"""

import io
import json
import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import TestCase
from django.utils import timezone
from helpers import READY, make_player, recorded_win, sign_in, winning_game
from playwright.sync_api import Page, expect

from games.issuing.dealing import known_deals
from games.issuing.services import game_issue
from games.log_input import SubmissionInput
from games.models import Submission
from games.submissions.intake import submission_create
from leaderboard.boards import current_boards, deal_board
from leaderboard.services import player_entries_rebuild

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


def played_elsewhere(player, game) -> None:
    """Another device submits a result for `game`, a game issued with its code (any log: intake
    marks the game finished)."""
    data = SubmissionInput(
        client_id=uuid.uuid4(), game_id=game.pk, log="U", move_times_ms=[500], duration_ms=600,
        finished_at=timezone.now(),
    )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission_create(user=player, data=data)
    game.refresh_from_db()
    assert game.state == "finished"


def settled(page: Page, count: int) -> None:
    page.wait_for_function(
        f"""() => {{ const entries = JSON.parse(localStorage.getItem('{OUTBOX_KEY}') ?? '[]');
                    return entries.length === {count} && entries.every((e) => e.state === 'verified'); }}""",
        timeout=15_000,
    )


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_a_ranked_win_played_elsewhere_counts_as_an_open_deal_and_an_assisted_win_says_so(
    live_server, page: Page, context, artifacts_dir
):
    code, tokens = winning_game()
    player = make_player("mei")
    # A ranked game issued with its code (a hidden-card game has no code to fall back on).
    with known_deals([code]):
        (game,) = game_issue(user=player, now=timezone.now() - timedelta(hours=1))
    assert not game.hidden
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
    expect(elsewhere.locator("[data-kind]")).to_have_text("Open deal")
    expect(elsewhere.locator("[data-fallback]")).to_have_text(
        "Played elsewhere: this ranked deal already had a result (or had expired), so this game was sent "
        "as an open deal; a win counts on this deal's board and the open-deal board."
    )
    # Its code was known: on the open-deal boards and its deal's board, on no hidden-card board.
    opened = current_boards(rules="classic", now=unranked.received_at, deals="open")
    assert unranked.ranks == {**dict.fromkeys(opened.values(), 1), deal_board(code): 1}
    ranks = elsewhere.locator(".ranks li")
    expect(ranks).to_have_count(5)
    assert ranks.evaluate_all("(items) => items.map((li) => [li.dataset.board, li.dataset.rank])") == [
        [opened["all"], "1"], [opened["season"], "1"], [opened["week"], "1"], [opened["day"], "1"],
        [deal_board(code), "1"],
    ]  # fmt: skip
    expect(ranks.first).to_have_text("#1 Classic, all time (open deals)")
    expect(ranks.first.locator("a")).to_have_attribute(
        "href", "/leaderboard?deals=open&rules=classic&period=all"
    )
    expect(ranks.nth(1)).to_have_text("#1 Classic, this month (open deals)")
    expect(ranks.nth(2)).to_have_text("#1 Classic, this week (open deals)")
    expect(ranks.nth(3)).to_have_text("#1 Classic, today (open deals)")
    expect(ranks.nth(4).locator("a")).to_have_attribute("href", f"/leaderboard?deal={code}")
    expect(elsewhere).not_to_have_attribute("data-assisted", "")

    expect(assisted).to_have_attribute("data-assisted", "")
    expect(assisted.locator(".result-state")).to_have_text(
        "Verified: played with a hint (assisted), so it goes on no board."
    )
    expect(assisted.locator(".ranks li")).to_have_count(0)
    expect(assisted.locator("[data-fallback]")).to_have_count(0)
    page.screenshot(path=artifacts_dir / "results-played-elsewhere.png")


LEGACY_REFUSAL = "move 1 `{}` came 0 ms after the previous one; no one plays faster than 40 ms"


def legacy_entry(submission, *, state: str, reason: str, reason_code: str) -> dict:
    """An outbox entry as the earlier build left it, for a stored submission."""
    return {
        "client_id": str(submission.client_id), "game": submission.game_id, "code": submission.code,
        "log": submission.log, "move_times_ms": submission.move_times_ms,
        "duration_ms": submission.duration_ms, "finished_at": submission.received_at.isoformat(),
        "client_version": "earlier", "owner": submission.user_id, "rules": submission.rules,
        "won": True, "moves": submission.moves, "score": submission.score, "assisted": False,
        "state": state, "submission": submission.pk, "uploaded_by": submission.user_id, "seen": True,
        "reason": reason, "reason_code": reason_code,
    }  # fmt: skip


def kept_best(entry: dict) -> dict:
    """The best the earlier build kept at once, when the win was made."""
    return {
        "score": entry["score"], "moves": entry["moves"], "points": 625, "durationMs": entry["duration_ms"],
        "code": entry["code"], "finishedAt": entry["finished_at"],
    }  # fmt: skip


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_a_win_refused_for_move_one_is_asked_for_again_and_counts_once_judged_again(
    live_server, page: Page, context, artifacts_dir
):
    """A page of the earlier build: its Classic win was refused because move 1 was timed from 0,
    and it kept that win as its best at once; so it did with a Relaxed win refused for a reason
    that stands. The server judges the first again (the one-off reverify); when the player comes
    back, the page asks for that verdict once more and shows the win verified and ranked, and
    /me shows it as the device's best, never the Relaxed win still refused."""
    code, tokens = winning_game()
    player = make_player("noor")
    classic = recorded_win(player, code, tokens)
    relaxed = recorded_win(player, *winning_game("relaxed"))
    refusal = LEGACY_REFUSAL.format(tokens[0])
    Submission.objects.filter(pk=classic.pk).update(  # as the earlier rule left it
        status="rejected", won=False, ranks={}, reason_code="timing_move", reason=refusal
    )
    Submission.objects.filter(pk=relaxed.pk).update(
        status="rejected", won=False, ranks={}, reason_code="suspended"
    )
    player_entries_rebuild(user_id=player.pk)
    outbox = [
        legacy_entry(
            classic, state="rejected", reason=LEGACY_REFUSAL.format(tokens[0]), reason_code="timing_move"
        ),
        legacy_entry(
            relaxed, state="rejected", reason="the player is suspended: test", reason_code="suspended"
        ),
    ]
    bests = {"classic": kept_best(outbox[0]), "relaxed": kept_best(outbox[1])}
    context.add_init_script(
        f"""if (!localStorage.getItem("yukon.outbox.v1")) {{
            localStorage.setItem("yukon.outbox.v1", JSON.stringify({json.dumps(outbox)}));
            localStorage.setItem("yukon.bests.v1", JSON.stringify({json.dumps(bests)}));
        }}"""
    )

    out = io.StringIO()
    call_command("reverify", "--status", "rejected", "--reason", "timing_move", "--no-progress", stdout=out)
    assert out.getvalue().splitlines()[-1] == "re-verified 1 submission(s); 1 verdict(s) changed"

    sign_in(context, live_server.url, player)
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('yukon.outbox.v1'))[0].state === 'verified'", timeout=15_000
    )
    page.locator("[data-results-chip]").click()
    judged_again = page.locator(f'{RESULT}[data-result="{outbox[0]["client_id"]}"]')
    still_refused = page.locator(f'{RESULT}[data-result="{outbox[1]["client_id"]}"]')
    expect(judged_again).to_have_attribute("data-state", "verified")
    expect(judged_again.locator(f'.ranks [data-board="deal:{code}"]')).to_have_attribute("data-rank", "1")
    expect(judged_again.locator(".ranks li")).to_have_count(5)  # the 4 open-deal boards, the deal
    expect(still_refused).to_have_attribute("data-state", "rejected")
    page.screenshot(path=artifacts_dir / "results-judged-again.png")

    page.goto(f"{live_server.url}/me")
    classic_card = page.locator('[data-rules-figures="classic"]')
    expect(classic_card.locator('[data-figure="best_score"]')).to_have_text(f"{classic.score:,}")
    expect(classic_card.locator("[data-device-best]")).to_have_attribute("data-device-best", "verified")
    relaxed_card = page.locator('[data-rules-figures="relaxed"]')
    expect(relaxed_card.locator("[data-device-best]")).to_have_attribute("data-device-best", "none")
    expect(relaxed_card.locator("[data-device-best]")).to_have_text("No win on this device yet.")
