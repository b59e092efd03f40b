"""What the browser holds of a player's unfinished hidden-card games names none of their codes,
secrets or face-down cards not yet turned up: the page's HTML, its storage and the service
worker's cache, after a game has been played part way (a card turned up) with more games held in
the pool. (tests/games/test_games_hidden_leaks.py walks every URL of the server the same way.)"""

import pytest
from helpers import (
    READY,
    TABLE,
    dealt_as_hidden,
    issue_only,
    make_player,
    play_all,
    sign_in,
    wait_for_the_worker,
    wait_until_hidden_ranked,
    winning_game,
)
from playwright.sync_api import Page, expect

from games.engine import CARD_NAMES, FACE_DOWN_PLACES, Game, GameCode, Move, dealt_card
from games.models import IssuedGame

pytestmark = pytest.mark.browser

# Everything the page keeps: its markup, both storages, and every response in Cache Storage.
BROWSER_TEXT = """async () => {
  const parts = [document.documentElement.outerHTML];
  for (const storage of [localStorage, sessionStorage]) {
    for (let i = 0; i < storage.length; i++) parts.push(storage.key(i), storage.getItem(storage.key(i)));
  }
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      parts.push(request.url, await (await cache.match(request)).text());
    }
  }
  return parts.join("\\n");
}"""

# The deals the page keeps (the saved game's and the pool's), as the page keeps them.
KEPT_DEALS = """() => {
  const game = JSON.parse(localStorage.getItem("yukon.game.v1"));
  const pool = JSON.parse(localStorage.getItem("yukon.pool.v2"));
  const pooled = Object.values(pool.games).flat();
  return {table: {id: game.issued.id, deal: game.issued.deal, revealed: game.revealed},
          pool: pooled.map((held) => ({id: held.id, deal: held.deal}))};
}"""


def turned_up(code: str, tokens: list[str]) -> set[tuple[int, int]]:
    """The face-down places the log has turned up."""
    game, places = Game(code), set()
    for token in tokens:
        before = list(game.face_down)
        game.push(Move.parse(token))
        places |= {
            (column, game.face_down[column])
            for column in range(7)
            if game.face_down[column] != before[column]
        }
    return places


def test_the_browser_holds_nothing_of_an_unfinished_hidden_games_deal(
    live_server, page: Page, context, monkeypatch
):
    code, tokens = winning_game()
    issue_only(monkeypatch, code)
    player = make_player("lena")
    sign_in(context, live_server.url, player)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(READY)
    wait_for_the_worker(page)
    game_id, dealt = wait_until_hidden_ranked(page)
    assert dealt == dealt_as_hidden(code)
    page.wait_for_function(
        """() => { const pool = JSON.parse(localStorage.getItem("yukon.pool.v2") || "null");
                   return pool?.games?.classic?.length === 3 && pool?.games?.relaxed?.length === 3; }"""
    )
    # Part way into the game, cards turned up; then a reload, so that the cached page is the
    # signed-in one of a player in the middle of a ranked game.
    played = tokens[: len(tokens) // 3]
    game = Game(code)
    play_all(page, game, played)
    expect(page.locator(TABLE)).to_have_attribute("data-turning", "false")
    page.reload()
    page.wait_for_selector(READY)
    expect(page.locator("[data-bar]")).to_have_attribute("data-moves", str(len(played)))

    held = list(IssuedGame.objects.filter(user=player, hidden=True, state="issued"))
    assert len(held) == 1 + 3 + 3, [game.pk for game in held]
    text = page.evaluate(BROWSER_TEXT)
    assert "/static/" in text  # the cache was read: the shell and its files are there
    for issued in held:
        assert issued.code not in text, f"the code of game {issued.pk}"
        assert issued.secret not in text, f"the secret of game {issued.pk}"
        number = GameCode.parse(issued.code).number  # a whole shuffle's index (YU2)
        if number >= 10**6:  # a shorter number could be anything on the page
            assert str(number) not in text, f"the deal number of game {issued.pk}"

    # Every deal kept shows null where a card is face down and not yet turned up by the log.
    kept = page.evaluate(KEPT_DEALS)
    shown = turned_up(code, played)
    assert kept["table"]["id"] == int(game_id)
    assert {(card["column"], card["depth"]) for card in kept["table"]["revealed"]} == shown
    by_id = {issued.pk: issued for issued in held}
    for entry, revealed in [(kept["table"], shown), *((entry, set()) for entry in kept["pool"])]:
        issued = by_id[entry["id"]]
        columns = entry["deal"]["columns"]
        for column, depth in FACE_DOWN_PLACES:
            assert columns[column][depth] is None, f"game {issued.pk}: a face-down card at {column, depth}"
        hidden_cards = {CARD_NAMES[dealt_card(issued.code, place)] for place in FACE_DOWN_PLACES} - {
            CARD_NAMES[dealt_card(issued.code, place)] for place in revealed
        }
        face_up = {card for cards in columns for card in cards if card is not None}
        assert not hidden_cards & face_up
