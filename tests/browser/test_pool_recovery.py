"""A device that lost its pool of ranked deals takes the player's issued games back.

The server lists the player's games that still accept a result (GET /api/games/?state=issued).
A new device (or one whose storage was cleared) takes them back, oldest first, and so does a
device the server refuses more games (20 unplayed: `too_many_unplayed`); games played on
another device leave the pool, and once a visit the pool is squared with that list before the
page deals from it: a game played elsewhere is not dealt after a reload.
"""

import json
import uuid
from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone
from helpers import BAR, READY, make_player, sign_in
from playwright.sync_api import Page, expect

from games.models import IssuedGame
from games.services import SubmissionInput, game_issue, submission_create

pytestmark = pytest.mark.browser

POOL_KEY = "yukon.pool.v1"


def hold_games(player, *, classic: int, relaxed: int) -> dict[str, list[IssuedGame]]:
    """Issue games to `player` an hour or more ago, one a minute, oldest first per rule set."""
    start = timezone.now() - timedelta(hours=3)
    held = {"classic": [], "relaxed": []}
    minute = 0
    for rules, count in (("classic", classic), ("relaxed", relaxed)):
        for _ in range(count):
            (game,) = game_issue(user=player, rules=rules, now=start + timedelta(minutes=minute))
            held[rules].append(game)
            minute += 1
    return held


def played_elsewhere(player, game: IssuedGame) -> None:
    """Another device submits a result for `game` (any log: intake marks the game finished)."""
    data = SubmissionInput(
        client_id=uuid.uuid4(), game_id=game.pk, log="U", move_times_ms=[500], duration_ms=600,
        finished_at=timezone.now(),
    )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission_create(user=player, data=data)
    game.refresh_from_db()
    assert game.state == "finished"


def ranked_game_id(page: Page) -> int:
    bar = page.locator(BAR)
    expect(bar).to_have_attribute("data-ranked", "true")
    return int(bar.get_attribute("data-game-id"))


def pool_ids(page: Page) -> dict[str, list[int]]:
    pool = page.evaluate(f"() => JSON.parse(localStorage.getItem('{POOL_KEY}'))")
    return {rules: [game["id"] for game in games] for rules, games in pool["games"].items()}


def new_deal(page: Page, before: int) -> int:
    page.locator('[data-action="new-deal"]').click()
    expect(page.locator(BAR)).not_to_have_attribute("data-game-id", str(before))
    return ranked_game_id(page)


def no_refusal_shown(page: Page) -> None:
    assert "unplayed ranked games" not in page.locator("body").inner_text()


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_a_new_device_plays_the_games_the_player_holds(live_server, page: Page, context):
    player = make_player("ada")
    held = hold_games(player, classic=12, relaxed=8)  # 20: the server issues no more
    ids = {game.pk for games in held.values() for game in games}
    sign_in(context, live_server.url, player)

    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")  # a fresh context: nothing in localStorage
    page.wait_for_selector(READY)

    # The untouched local deal becomes the oldest Classic game the player holds.
    expect(page.locator(BAR)).to_have_attribute("data-game-id", str(held["classic"][0].pk))
    assert ranked_game_id(page) == held["classic"][0].pk
    expect(page.locator(BAR)).to_have_attribute("data-code", held["classic"][0].code)

    second = new_deal(page, held["classic"][0].pk)
    assert second in ids
    page.wait_for_function(f"() => JSON.parse(localStorage.getItem('{POOL_KEY}')).games.relaxed.length === 3")
    pool = pool_ids(page)
    assert pool["relaxed"] == [game.pk for game in held["relaxed"][:3]]
    assert set(pool["classic"]) <= ids and second not in pool["classic"]
    no_refusal_shown(page)
    assert IssuedGame.objects.filter(user=player).count() == 20  # nothing new was issued


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_a_refused_refill_takes_back_held_games_and_drops_those_played_elsewhere(
    live_server, page: Page, context
):
    player = make_player("grace")
    held = hold_games(player, classic=10, relaxed=10)
    gone = held["relaxed"].pop(0)
    played_elsewhere(player, gone)
    (latest,) = game_issue(user=player, rules="relaxed")  # 20 unplayed again
    held["relaxed"].append(latest)
    # This device has a pool of this player: emptied, but for the game played elsewhere.
    kept = {"id": gone.pk, "code": gone.code, "rules": "relaxed", "issued_at": gone.issued_at.isoformat()}
    pool = {"owner": player.pk, "games": {"classic": [], "relaxed": [kept]}}
    page.add_init_script(f"localStorage.setItem('{POOL_KEY}', {json.dumps(json.dumps(pool))})")
    sign_in(context, live_server.url, player)

    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)

    # The server refuses a 21st game; the page takes back the oldest it holds instead.
    expect(page.locator(BAR)).to_have_attribute("data-game-id", str(held["classic"][0].pk))
    page.wait_for_function(f"() => JSON.parse(localStorage.getItem('{POOL_KEY}')).games.relaxed.length === 3")
    assert pool_ids(page)["relaxed"] == [game.pk for game in held["relaxed"][:3]]  # not the finished one
    next_id = new_deal(page, held["classic"][0].pk)
    assert next_id in {game.pk for game in held["classic"]}
    no_refusal_shown(page)
    assert IssuedGame.objects.filter(user=player, state="issued").count() == 20


def reload_and_wait(page: Page) -> None:
    page.reload()
    page.wait_for_selector(READY)


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_games_played_on_another_device_are_not_dealt_after_a_reload(live_server, page: Page, context):
    player = make_player("lin")
    sign_in(context, live_server.url, player)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    on_table = ranked_game_id(page)
    page.wait_for_function(f"() => JSON.parse(localStorage.getItem('{POOL_KEY}')).games.classic.length === 3")
    first, second, third = pool_ids(page)["classic"]

    # Another device plays the untouched game on this table and the pool's next one.
    played_elsewhere(player, IssuedGame.objects.get(pk=on_table))
    played_elsewhere(player, IssuedGame.objects.get(pk=first))
    reload_and_wait(page)
    expect(page.locator(BAR)).to_have_attribute("data-game-id", str(second))
    held = pool_ids(page)["classic"]
    assert on_table not in held and first not in held  # neither is given back to the pool

    # The game on the table is still held: it stays; New deal skips the pool's next, played elsewhere.
    page.wait_for_function(f"() => JSON.parse(localStorage.getItem('{POOL_KEY}')).games.classic.length === 3")
    assert pool_ids(page)["classic"][0] == third
    played_elsewhere(player, IssuedGame.objects.get(pk=third))
    reload_and_wait(page)
    assert ranked_game_id(page) == second
    dealt = new_deal(page, second)
    assert dealt != third
    assert IssuedGame.objects.get(pk=dealt).state == "issued"

    # No game saved (the game page first opened with a known player): the pool is squared first too.
    page.wait_for_function(f"() => JSON.parse(localStorage.getItem('{POOL_KEY}')).games.classic.length === 3")
    gone, *_ = pool_ids(page)["classic"]
    played_elsewhere(player, IssuedGame.objects.get(pk=gone))
    page.goto(f"{live_server.url}/me")  # the game page saves its game as it goes: forget it from here
    page.evaluate("() => localStorage.removeItem('yukon.game.v1')")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    dealt = ranked_game_id(page)
    assert dealt != gone and IssuedGame.objects.get(pk=dealt).state == "issued"
    assert gone not in pool_ids(page)["classic"]
    no_refusal_shown(page)
