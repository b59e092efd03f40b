"""A device that lost its pool of ranked games takes the player's held games back.

Ranked games are hidden-card games: the page gets their face-up cards and a commitment, never
their code, and the server turns each face-down card up as the log exposes it. The server lists
the player's hidden-card games that still accept a result (GET /api/games/?state=issued), each
with `started` once a reveal has recorded moves of it. A new device (or one whose storage was
cleared) takes the unstarted ones back, oldest first, and so does a device the server refuses
more games (20 unplayed: `too_many_unplayed`); games played on another device leave the pool,
and once a visit the pool is squared with that list before the page deals from it: a game
played elsewhere is not dealt after a reload.

The deals' codes come from the database (the tests' oracle); the page never has them.
"""

import itertools
import json
import uuid
from dataclasses import replace
from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone
from helpers import (
    BAR,
    READY,
    expected_columns,
    game_after,
    make_player,
    shown_columns,
    sign_in,
    wait_until_hidden_ranked,
)
from playwright.sync_api import Page, expect

import games.issuing.dealing
from games.engine import Game, Rules
from games.hidden.reveals import game_reveal
from games.hidden.serializers import HiddenGameOutputSerializer
from games.issuing.services import game_issue
from games.log_input import SubmissionInput
from games.models import IssuedGame
from games.submissions.intake import submission_create

pytestmark = pytest.mark.browser

POOL_KEY = "yukon.pool.v2"
GAME_KEY = "yukon.game.v1"
MOVE_MS = 500  # the other device's pace


# --- what another device does, through the real services ------------------------------------------


def turning_log(code: str, depth: int = 3) -> list[str] | None:
    """The first log of at most `depth` moves found whose last move turns a face-down card up."""
    game = Game(code)

    def search(log: list[str]) -> list[str] | None:
        for move in list(game.legal_moves):
            face_down = game.face_down
            game.push(move)
            if game.face_down != face_down:
                return [*log, str(move)]
            found = search([*log, str(move)]) if len(log) + 1 < depth else None
            game.undo()
            if found:
                return found
        return None

    return search([])


@pytest.fixture
def turnable_deals(monkeypatch):
    """The server deals only games in which another device can turn a card up in a few moves
    (nearly every deal can: this keeps the tests' other device from ever being stuck): whole
    shuffles drawn as the server draws them, kept when they can, dealt in turn."""
    drawn = (games.issuing.dealing.hidden_deal_draw(rules=Rules.CLASSIC) for _ in itertools.count())
    turnable = (code for code in drawn if all(turning_log(str(replace(code, rules=ru))) for ru in Rules))
    monkeypatch.setattr(games.issuing.dealing, "known_codes", list(itertools.islice(turnable, 80)))


def started_elsewhere(player, game: IssuedGame) -> list[str]:
    """Another device plays `game` until the server turns a card up: moves of it are recorded
    (the list says `started`) and it still accepts a result. Returns the recorded log."""
    log = turning_log(game.code)
    times = [MOVE_MS * (index + 1) for index in range(len(log))]
    game_reveal(user=player, game_id=game.pk, log=" ".join(log), move_times_ms=times)
    game.refresh_from_db()
    assert game.recorded_log == " ".join(log) and game.state == "issued"
    return log


def played_elsewhere(player, game: IssuedGame) -> None:
    """Another device plays `game` (a card turned up by the server) and submits the game as it
    stands, as a player leaving it does: intake marks the game finished."""
    log = started_elsewhere(player, game)
    times = [MOVE_MS * (index + 1) for index in range(len(log))]
    data = SubmissionInput(
        client_id=uuid.uuid4(), game_id=game.pk, log=" ".join(log), move_times_ms=times,
        duration_ms=times[-1] + 100, finished_at=timezone.now(),
    )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission_create(user=player, data=data)
    game.refresh_from_db()
    assert game.state == "finished"


def hold_games(player, *, classic: int, relaxed: int) -> dict[str, list[IssuedGame]]:
    """Issue hidden-card games to `player` an hour or more ago, one a minute, oldest first per
    rule set."""
    start = timezone.now() - timedelta(hours=3)
    held = {"classic": [], "relaxed": []}
    minutes = itertools.count()
    for rules, count in (("classic", classic), ("relaxed", relaxed)):
        for _ in range(count):
            issued_at = start + timedelta(minutes=next(minutes))
            (game,) = game_issue(user=player, rules=rules, hidden=True, now=issued_at)
            held[rules].append(game)
    return held


# --- what the page shows and keeps ----------------------------------------------------------------


def ranked_game_id(page: Page, *, not_game: int | None = None) -> int:
    """The hidden-card ranked game on the table (another than `not_game`)."""
    game_id, _ = wait_until_hidden_ranked(page, not_game=None if not_game is None else str(not_game))
    return int(game_id)


def pool(page: Page) -> dict:
    return page.evaluate(f"() => JSON.parse(localStorage.getItem('{POOL_KEY}'))")


def pool_ids(page: Page) -> dict[str, list[int]]:
    return {rules: [game["id"] for game in games] for rules, games in pool(page)["games"].items()}


def wait_for_pool(page: Page, rules: str, size: int = 3) -> None:
    """Until the pool keeps `size` games of `rules`."""
    pool_size = f"JSON.parse(localStorage.getItem('{POOL_KEY}'))?.games.{rules}.length"
    page.wait_for_function(f"() => {pool_size} === {size}")


def new_deal(page: Page, before: int) -> int:
    page.locator('[data-action="new-deal"]').click()
    return ranked_game_id(page, not_game=before)


def shows_the_deal_of(page: Page, game: IssuedGame) -> None:
    """The table shows `game`'s deal as dealt (its face-up cards; every face-down card blank),
    and neither the page nor its storage holds the game's code."""
    game.refresh_from_db()
    assert shown_columns(page) == expected_columns(Game(game.code))
    expect(page.locator(BAR)).to_have_attribute("data-code", "")
    assert game.code not in page.content()
    assert game.code not in page.evaluate("() => JSON.stringify({...localStorage})")


def no_refusal_shown(page: Page) -> None:
    """No note that the server refused a ranked game (too many unplayed: an open deal instead)."""
    text = page.locator("body").inner_text()
    assert "unplayed" not in text and "No ranked game could be issued" not in text


def reload_and_wait(page: Page) -> None:
    page.reload()
    page.wait_for_selector(READY)


def pool_entry(game: IssuedGame) -> dict:
    """`game` as the page keeps it in its pool (pool.js): as issued, without a code."""
    issued = HiddenGameOutputSerializer(game).data
    entry = {key: issued[key] for key in ("id", "hidden", "rules", "commitment", "deal", "issued_at")}
    return {**entry, "added_at": int(game.issued_at.timestamp() * 1000)}


# --- the tests ----------------------------------------------------------------------------------------


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_a_new_device_plays_the_hidden_card_games_the_player_holds(live_server, page: Page, context):
    player = make_player("ada")
    held = hold_games(player, classic=12, relaxed=8)  # 20: the server issues no more
    ids = {game.pk for games in held.values() for game in games}
    sign_in(context, live_server.url, player)

    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")  # a fresh context: nothing in localStorage
    page.wait_for_selector(READY)

    # The untouched local deal becomes the oldest Classic game the player holds, cards hidden.
    expect(page.locator(BAR)).to_have_attribute("data-game-id", str(held["classic"][0].pk))
    assert ranked_game_id(page) == held["classic"][0].pk
    shows_the_deal_of(page, held["classic"][0])

    second = new_deal(page, held["classic"][0].pk)
    assert second in ids
    shows_the_deal_of(page, IssuedGame.objects.get(pk=second))
    wait_for_pool(page, "relaxed")
    kept = pool_ids(page)
    assert kept["relaxed"] == [game.pk for game in held["relaxed"][:3]]
    assert set(kept["classic"]) <= ids and second not in kept["classic"]
    no_refusal_shown(page)
    assert IssuedGame.objects.filter(user=player).count() == 20  # nothing new was issued


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_a_refused_refill_takes_back_held_games_and_drops_those_played_elsewhere(
    live_server, page: Page, context, turnable_deals
):
    player = make_player("grace")
    held = hold_games(player, classic=10, relaxed=10)
    gone = held["relaxed"].pop(0)
    played_elsewhere(player, gone)
    (latest,) = game_issue(user=player, rules="relaxed", hidden=True)  # 20 unplayed again
    held["relaxed"].append(latest)
    # This device has a pool of this player: emptied, but for the game played elsewhere.
    kept = {"owner": player.pk, "games": {"classic": [], "relaxed": [pool_entry(gone)]}}
    page.add_init_script(f"localStorage.setItem('{POOL_KEY}', {json.dumps(json.dumps(kept))})")
    sign_in(context, live_server.url, player)

    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)

    # The server refuses a 21st game; the page takes back the oldest it holds instead.
    expect(page.locator(BAR)).to_have_attribute("data-game-id", str(held["classic"][0].pk))
    shows_the_deal_of(page, held["classic"][0])
    wait_for_pool(page, "relaxed")
    assert pool_ids(page)["relaxed"] == [game.pk for game in held["relaxed"][:3]]  # not the finished one
    next_id = new_deal(page, held["classic"][0].pk)
    assert next_id in {game.pk for game in held["classic"]}
    no_refusal_shown(page)
    assert IssuedGame.objects.filter(user=player, state="issued").count() == 20


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_games_played_on_another_device_are_not_dealt_after_a_reload(
    live_server, page: Page, context, turnable_deals
):
    player = make_player("lin")
    sign_in(context, live_server.url, player)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    on_table = ranked_game_id(page)
    wait_for_pool(page, "classic")
    first, second, third = pool_ids(page)["classic"]

    # Another device plays the untouched game on this table and the pool's next one (the server
    # turns their cards up there), and leaves them: their results are in.
    played_elsewhere(player, IssuedGame.objects.get(pk=on_table))
    played_elsewhere(player, IssuedGame.objects.get(pk=first))
    reload_and_wait(page)
    expect(page.locator(BAR)).to_have_attribute("data-game-id", str(second))
    shows_the_deal_of(page, IssuedGame.objects.get(pk=second))
    held = pool_ids(page)["classic"]
    assert on_table not in held and first not in held  # neither is given back to the pool

    # The game on the table is still held: it stays; New deal skips the pool's next, played elsewhere.
    wait_for_pool(page, "classic")
    assert pool_ids(page)["classic"][0] == third
    played_elsewhere(player, IssuedGame.objects.get(pk=third))
    reload_and_wait(page)
    assert ranked_game_id(page) == second
    dealt = new_deal(page, second)
    assert dealt != third
    assert IssuedGame.objects.get(pk=dealt).state == "issued"

    # No game saved (the game page first opened with a known player): the pool is squared first too.
    wait_for_pool(page, "classic")
    gone, *_ = pool_ids(page)["classic"]
    played_elsewhere(player, IssuedGame.objects.get(pk=gone))
    page.goto(f"{live_server.url}/me")  # the game page saves its game as it goes: forget it from here
    page.evaluate(f"() => localStorage.removeItem('{GAME_KEY}')")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    dealt = ranked_game_id(page)
    assert dealt != gone and IssuedGame.objects.get(pk=dealt).state == "issued"
    assert gone not in pool_ids(page)["classic"]
    no_refusal_shown(page)


@pytest.mark.browser_context_args(viewport={"width": 1366, "height": 768})
def test_games_started_on_another_device_are_resumed_never_dealt_afresh(
    live_server, page: Page, context, turnable_deals
):
    player = make_player("kai")
    sign_in(context, live_server.url, player)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    on_table = ranked_game_id(page)
    wait_for_pool(page, "classic")
    first, second, _ = pool_ids(page)["classic"]

    # Another device plays the untouched game on this table and the pool's next two until the
    # server turns a card up, and goes no further: they still accept a result.
    log = started_elsewhere(player, IssuedGame.objects.get(pk=on_table))
    started_elsewhere(player, IssuedGame.objects.get(pk=first))
    started_elsewhere(player, IssuedGame.objects.get(pk=second))
    reload_and_wait(page)

    # The untouched table goes on with its game where the other device left it ...
    expect(page.locator(BAR)).to_have_attribute("data-moves", str(len(log)))
    assert ranked_game_id(page) == on_table
    assert shown_columns(page) == expected_columns(game_after(IssuedGame.objects.get(pk=on_table).code, log))
    # ... and no game started elsewhere is kept to be dealt from its deal as a new game.
    wait_for_pool(page, "classic")
    assert not {on_table, first, second} & set(pool_ids(page)["classic"])
