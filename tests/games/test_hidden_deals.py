"""Hidden-card deals are whole shuffles from the operating system's generator (docs/security.md,
"The deal"), and no answer confirms a guess of one: the attacks an attacker with a loop would
write, run against the real services."""

from __future__ import annotations

import math
import random
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone
from games_helpers import CLASSIC_WIN
from hidden_helpers import issue_hidden

import games.engine.codes
from games.engine import WHOLE_DEAL_COUNT, GameCode, Rules, visible_deal
from games.engine.deal import COLUMN_SIZES, FACE_DOWN_AT_DEAL, deal_columns
from games.issuing.dealing import hidden_deal_draw, known_deals
from games.issuing.services import contest_games_issue, game_issue
from games.models import IssuedGame
from games.solving.solved import solved_deal_solve

pytestmark = pytest.mark.django_db

DRAWS = 2_600  # 50 a card at each place


def face_down_cards(code: GameCode) -> list[int]:
    columns = deal_columns(code)
    return [card for column, down in zip(columns, FACE_DOWN_AT_DEAL, strict=True) for card in column[:down]]


def test_a_hidden_deal_is_a_whole_shuffle_drawn_from_the_os_generator(api, monkeypatch):
    """Issued through the API, never through the YU1 dealer, each shuffle calling os.urandom."""
    urandom_calls = []
    real_urandom = random._urandom

    def counting_urandom(size):
        urandom_calls.append(size)
        return real_urandom(size)

    def yu1_dealer(number):
        raise AssertionError("a hidden-card deal was dealt from a YU1 deal number")

    monkeypatch.setattr(random, "_urandom", counting_urandom)  # SystemRandom's source
    monkeypatch.setattr(games.engine.codes, "shuffled_deck", yu1_dealer)

    response = api.post("/api/games/", {"rules": "classic", "count": 3, "hidden": True}, format="json")

    assert response.status_code == 201, response.json()
    assert len(urandom_calls) >= 3 * 51  # a draw for each step of each game's Fisher–Yates
    codes = {game.code for game in IssuedGame.objects.filter(hidden=True)}
    assert len(codes) == 3 and all(GameCode.parse(code).is_whole for code in codes)


def test_every_face_down_place_takes_every_card_alike():
    """A chi-square test over DRAWS shuffles, for each of the 21 face-down places (51 degrees of
    freedom: mean 51, standard deviation 10; 120 is beyond p = 10⁻⁸), and no two shuffles alike."""
    drawn = [hidden_deal_draw(rules=Rules.CLASSIC) for _ in range(DRAWS)]
    expected = DRAWS / 52
    places = list(zip(*(face_down_cards(code) for code in drawn), strict=True))

    assert len(places) == 21
    for place, cards in enumerate(places):
        counts = Counter(cards)
        chi_square = sum((counts.get(card, 0) - expected) ** 2 / expected for card in range(52))
        assert chi_square < 120, f"face-down place {place}: chi-square {chi_square:.0f}"
    assert len({code.number for code in drawn}) == DRAWS


# --- The attack that recovered a deal in two minutes ---------------------------------------------

WINDOW = 5_000  # deal numbers an attack walks here: the real one walked all 26^7 in ~91 CPU-seconds


def yu1_numbers_dealing(face_up: list[list[int | None]], numbers: range) -> list[int]:
    """The attack: walk YU1 deal numbers, keep those whose deal shows these face-up cards."""
    found = []
    for number in numbers:
        columns = deal_columns(GameCode(Rules.CLASSIC, number))
        if all(
            column[down:] == shown[down:]
            for column, shown, down in zip(columns, face_up, FACE_DOWN_AT_DEAL, strict=True)
        ):
            found.append(number)
    return found


def test_the_face_up_cards_named_an_old_deal_and_name_nothing_of_a_whole_shuffle(player):
    # A deal of the old way (a YU1 number; here one inside the window the test can walk): found.
    old_number = 4_321
    old = visible_deal(GameCode(Rules.CLASSIC, old_number)).columns
    assert yu1_numbers_dealing([list(column) for column in old], range(WINDOW)) == [old_number]

    # A hidden-card game now: its face-up cards, as the API gives them.
    game = game_issue(user=player, hidden=True)[0]
    shown = [list(column) for column in visible_deal(game.code).columns]
    assert yu1_numbers_dealing(shown, range(WINDOW)) == []
    # And every arrangement of the 21 face-down cards is a deal that shows the same: the face-up
    # cards leave 21! ≈ 2^65.5 deals, none more likely than another.
    deck = GameCode.parse(game.code).deck()
    down_places = [
        start + depth
        for start, down in zip(
            [sum(COLUMN_SIZES[:index]) for index in range(7)], FACE_DOWN_AT_DEAL, strict=True
        )
        for depth in range(down)
    ]
    rng = random.Random(7)
    for _ in range(20):
        other = list(deck)
        cards = [other[place] for place in down_places]
        rng.shuffle(cards)
        for place, card in zip(down_places, cards, strict=True):
            other[place] = card
        completion = GameCode.of_deck(Rules.CLASSIC, other)
        assert [list(column) for column in visible_deal(completion).columns] == shown
    assert math.log2(math.factorial(21)) > 65 and WHOLE_DEAL_COUNT == math.factorial(52)


# --- No answer confirms a guessed code ----------------------------------------------------------


def test_a_deal_in_play_answers_as_a_deal_nobody_has_played(api, client, player):
    """Before: a guessed code of a game in play answered its own figures (`par`, `daily`);
    now exactly what a code nobody ever played answers."""
    game = issue_hidden(player, CLASSIC_WIN["code"])
    # The solver has searched it (as the daily deal's filter searches the day's deal).
    solved_deal_solve(code=game.code, time_limit=2.0)
    with known_deals(["YU1-C-AAAAAAB"]):
        nobody = str(hidden_deal_draw(rules=Rules.CLASSIC))

    in_play = client.get(f"/api/deals/{game.code}/")
    unplayed = client.get(f"/api/deals/{nobody}/")

    assert in_play.status_code == unplayed.status_code == 200
    strip = lambda body: {key: value for key, value in body.items() if key not in ("code", "leaderboard_url")}  # noqa: E731
    assert strip(in_play.json()) == strip(unplayed.json()) == {
        "rules": "classic", "plays": 0, "wins": 0, "players": 0, "best_score": None, "par": None,
        "winnable": None, "daily": [],
    }  # fmt: skip


def test_no_game_is_readable_before_it_starts(api, player):
    """A race's seat during the countdown. Before: GET /api/games/<id>/ answered 200 with the
    deal's face-up cards while the race had not started."""
    starts = timezone.now() + timedelta(seconds=30)
    (game,) = contest_games_issue(users=[player], rules="classic", contest="race:TEST", issued_at=starts)

    early = api.get(f"/api/games/{game.pk}/")
    reveal = api.post(
        f"/api/games/{game.pk}/reveals/", {"log": "AC>F", "move_times_ms": [500]}, format="json"
    )

    assert early.status_code == 409
    assert early.json()["code"] == "game_not_started"
    assert "columns" not in early.content.decode()
    assert reveal.status_code == 409 and reveal.json()["code"] == "game_not_started"
