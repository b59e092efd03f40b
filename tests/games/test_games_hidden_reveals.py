"""POST /api/games/<id>/reveals/: every refusal, old and diverging prefixes, undo, foreign and
finished games, and reveals asked for at the same time."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from games_helpers import CLASSIC_WIN, RELAXED_WIN, body, paced
from hidden_helpers import exposing_prefixes, issue_hidden, reveal_along
from rest_framework.test import APIClient

from games.engine import CARD_NAMES, Game, dealt_card, verify
from games.errors import GameServiceError, PrefixConflict
from games.hidden.positions import RevealedCard
from games.hidden.reveals import game_reveal
from games.issuing.services import game_issue
from games.models import IssuedGame, Reveal

pytestmark = pytest.mark.django_db

WIN_LOG = CLASSIC_WIN["log"]
TOKENS = WIN_LOG.split()
FIRST = exposing_prefixes(CLASSIC_WIN["code"], WIN_LOG)[0]  # 11
# Relaxed deal YU1-R-AAAAAAB: its first moves 2H>5 and TC>4 each turn up a card (columns 2 and 3).
TURNS_UP_COLUMN_2, TURNS_UP_COLUMN_3 = "2H>5", "TC>4"


def post(api, game_id: int, log: str, times: list[int] | None = None):
    data = {"log": log, "move_times_ms": paced(log) if times is None else times}
    return api.post(f"/api/games/{game_id}/reveals/", data, format="json")


def first_tokens(count: int) -> str:
    return " ".join(TOKENS[:count])


@pytest.fixture
def game(player) -> IssuedGame:
    return issue_hidden(player, CLASSIC_WIN["code"])


@pytest.fixture
def relaxed(player) -> IssuedGame:
    return issue_hidden(player, RELAXED_WIN["code"])


def nothing_revealed(game: IssuedGame) -> bool:
    game.refresh_from_db()
    return not Reveal.objects.filter(game=game).exists() and game.recorded_log == ""


# --- The log ------------------------------------------------------------------------------------


def test_a_log_that_turns_up_nothing_is_refused(api, game):
    response = post(api, game.pk, first_tokens(FIRST - 1))

    assert response.status_code == 400
    assert response.json() == {
        "detail": f"move {FIRST - 1} `{TOKENS[FIRST - 2]}`, the last of the log, turns up no face-down card",
        "code": "nothing_exposed",
    }
    assert nothing_revealed(game)


def test_a_log_ending_with_an_undo_turns_up_nothing(api, game):
    response = post(api, game.pk, first_tokens(FIRST) + " U")

    assert response.status_code == 400
    assert response.json()["code"] == "nothing_exposed"
    assert (
        response.json()["detail"] == f"move {FIRST + 1} `U`, the last of the log, turns up no face-down card"
    )


def test_an_illegal_move_is_refused_with_its_index_and_the_engines_reason(api, game):
    log = first_tokens(3) + " KH>F"
    error = verify(game.code, log).error

    response = post(api, game.pk, log)

    assert response.status_code == 400
    assert response.json() == {
        "log": [{"index": 3, "token": "KH>F", "code": error.code, "message": str(error)}]
    }
    assert str(error).startswith("move 4 `KH>F`: ")
    assert nothing_revealed(game)


def test_a_move_played_on_past_a_card_not_revealed_is_refused(api, game):
    response = post(api, game.pk, first_tokens(FIRST + 1))  # the card of move 11 was never asked for

    assert response.status_code == 400
    (error,) = response.json()["log"]
    assert (error["index"], error["token"], error["code"]) == (FIRST, TOKENS[FIRST], "unknown_card")
    assert error["message"].startswith(f"move {FIRST + 1} `{TOKENS[FIRST]}`: the card turned up in column ")
    assert nothing_revealed(game)


@pytest.mark.parametrize(
    ("data", "errors"),
    [
        (
            {"log": "9X>2", "move_times_ms": [0]},
            {"log": [{"index": 0, "token": "9X>2", "code": "bad_token"}]},
        ),
        ({"log": "", "move_times_ms": []}, {"log": ["This field may not be blank."]}),
        (
            {"log": "9D>3 QD>6", "move_times_ms": [0]},
            {"move_times_ms": ["expected 2 times, one per token; got 1"]},
        ),
        (
            {"log": "9D>3 QD>6", "move_times_ms": [300, 200]},
            {"move_times_ms": ["the times must not decrease"]},
        ),
        ({"log": 12, "move_times_ms": "0"}, {"log": ["Not a valid string."], "move_times_ms": None}),
        ({}, {"log": ["This field is required."], "move_times_ms": ["This field is required."]}),
    ],
    ids=["bad-token", "empty", "too-few-times", "times-back", "wrong-types", "missing"],
)
def test_bad_fields_are_refused(api, game, data, errors):
    response = api.post(f"/api/games/{game.pk}/reveals/", data, format="json")

    assert response.status_code == 400
    answer = response.json()
    assert set(answer) == set(errors)
    for field, expected in errors.items():
        if expected is None:
            continue
        if isinstance(expected[0], dict):  # an unreadable token: as in submissions, with its message
            assert {key: answer[field][0][key] for key in expected[0]} == expected[0]
            assert set(answer[field][0]) == {"index", "token", "code", "message"}
        else:
            assert answer[field] == expected
    assert nothing_revealed(game)


# --- The recorded prefix ----------------------------------------------------------------------------


def test_a_new_card_needs_a_log_that_extends_the_recorded_prefix(api, game):
    assert post(api, game.pk, first_tokens(FIRST)).status_code == 200
    diverging = " ".join([*TOKENS[: FIRST - 1], "U"])

    response = post(api, game.pk, diverging)

    assert response.status_code == 409
    assert response.json() == {
        "detail": f"move {FIRST} `U` differs from the server's record of this game (`{TOKENS[FIRST - 1]}`): "
        f"the log must extend the {FIRST} tokens recorded",
        "code": "prefix_conflict",
    }


def test_times_that_differ_from_the_recorded_ones_are_a_conflict(api, game):
    assert post(api, game.pk, first_tokens(FIRST)).status_code == 200
    log = first_tokens(14)
    times = paced(log)
    times[4:] = [time + 60 for time in times[4:]]

    response = post(api, game.pk, log, times)

    assert response.status_code == 409
    assert response.json() == {
        "detail": f"the time of move 5 ({times[4]} ms) differs from the server's record of this game "
        f"({times[4] - 60} ms)",
        "code": "prefix_conflict",
    }
    assert Reveal.objects.filter(game=game).count() == 1


def test_an_old_prefix_is_answered_for_a_card_already_revealed(api, game):
    first = post(api, game.pk, first_tokens(FIRST)).json()
    assert post(api, game.pk, first_tokens(14)).status_code == 200

    again = post(api, game.pk, first_tokens(FIRST))

    assert again.status_code == 200
    assert again.json() == first
    game.refresh_from_db()
    assert len(game.recorded_log.split()) == 14  # the record is not taken back


def test_an_old_prefix_gets_no_card_it_never_asked_for(api, relaxed):
    # Turn up column 2's card, take it back at once (allowed while it waits), turn up column 3's.
    later = f"{TURNS_UP_COLUMN_2} U {TURNS_UP_COLUMN_3}"
    assert post(api, relaxed.pk, later).status_code == 200

    response = post(api, relaxed.pk, TURNS_UP_COLUMN_2)

    assert response.status_code == 409
    assert response.json() == {
        "detail": "the log has 1 tokens, no more than the 3 the server has recorded for this game: "
        "a new card is revealed only to a log that extends them",
        "code": "prefix_conflict",
    }
    assert list(Reveal.objects.filter(game=relaxed).values_list("column", "depth")) == [(2, 1)]


def test_a_card_turned_up_again_after_an_undo_is_answered_and_records_nothing(api, relaxed):
    first = post(api, relaxed.pk, TURNS_UP_COLUMN_2)
    log = f"{TURNS_UP_COLUMN_2} U {TURNS_UP_COLUMN_2}"

    again = post(api, relaxed.pk, log)

    assert first.status_code == again.status_code == 200
    assert (
        again.json()
        == first.json()
        == {
            "place": {"column": 1, "depth": 0},
            "card": first.json()["card"],
            "prefix_length": 1,
        }
    )
    relaxed.refresh_from_db()
    assert relaxed.recorded_log == TURNS_UP_COLUMN_2
    # The next card comes to a log that extends the record, undo and all.
    third = post(api, relaxed.pk, f"{log} U {TURNS_UP_COLUMN_3}")
    assert third.status_code == 200
    assert third.json()["place"] == {"column": 2, "depth": 1}
    assert third.json()["prefix_length"] == 5


def test_every_prefix_of_a_win_in_turn_gets_a_card_only_where_its_last_move_turns_one_up(api, game):
    """Wrong places: of the 95 prefixes, asked in turn, only the 21 whose last move turns a card
    up get one, the card at that very place; the others are refused and change nothing."""
    replay, turned_up = Game(game.code), {}
    for length, token in enumerate(TOKENS, start=1):
        before = replay.face_down
        replay.play(token)
        for column, (was, now) in enumerate(zip(before, replay.face_down, strict=True)):
            if now < was:
                turned_up[length] = (column, now)

    for length in range(1, len(TOKENS) + 1):
        response = post(api, game.pk, first_tokens(length))
        if length in turned_up:
            column, depth = turned_up[length]
            assert response.status_code == 200, (length, response.json())
            assert response.json() == {
                "place": {"column": column, "depth": depth},
                "card": CARD_NAMES[dealt_card(game.code, (column, depth))],
                "prefix_length": length,
            }
        else:
            assert response.status_code == 400, (length, response.json())
            assert response.json()["code"] == "nothing_exposed"
    assert Reveal.objects.filter(game=game).count() == len(turned_up) == 21


# --- The game ----------------------------------------------------------------------------------------


def test_another_players_game_is_not_found(api, other_player):
    game = issue_hidden(other_player, CLASSIC_WIN["code"])

    response = post(api, game.pk, first_tokens(FIRST))

    assert response.status_code == 404
    assert response.json() == {"detail": f"you hold no hidden-card game {game.pk}", "code": "game_not_found"}
    assert nothing_revealed(game)


def test_a_game_issued_with_its_code_reveals_nothing(api, player, issue_game):
    game = issue_game(player)

    response = post(api, game.pk, first_tokens(FIRST))

    assert response.status_code == 404
    assert response.json() == {"detail": f"you hold no hidden-card game {game.pk}", "code": "game_not_found"}


def test_an_invented_game_is_not_found(api):
    response = post(api, 987_654, first_tokens(FIRST))

    assert response.status_code == 404
    assert response.json()["code"] == "game_not_found"


def test_a_finished_game_reveals_no_more_cards(api, game, submit):
    reveal_along(game, WIN_LOG, upto=FIRST)
    assert submit(body(log=first_tokens(12), game=game.pk)).status_code == 202

    response = post(api, game.pk, first_tokens(14))

    assert response.status_code == 409
    assert response.json() == {
        "detail": f"game {game.pk} is finished: it reveals no more cards",
        "code": "game_used",
    }


def test_an_expired_game_reveals_no_more_cards(api, player):
    game = issue_hidden(player, CLASSIC_WIN["code"], ago=timedelta(days=14, minutes=1))

    response = post(api, game.pk, first_tokens(FIRST))

    assert response.status_code == 409
    assert response.json() == {
        "detail": f"game {game.pk} is expired: it reveals no more cards",
        "code": "game_used",
    }


def test_signed_out_gets_no_card(game):
    response = post(APIClient(), game.pk, first_tokens(FIRST))

    assert response.status_code == 403
    assert nothing_revealed(game)


def test_reveals_are_throttled_per_player(api, game, settings):
    settings.GAMES_THROTTLE_RATES = {**settings.GAMES_THROTTLE_RATES, "game_reveal": "2/min"}
    for _ in range(2):
        assert post(api, game.pk, first_tokens(FIRST)).status_code == 200

    response = post(api, game.pk, first_tokens(FIRST))

    assert response.status_code == 429


# --- At the same time --------------------------------------------------------------------------------


def reveal_in_threads(game: IssuedGame, logs: list[str]) -> list:
    """Call the service for each log at once, one thread (and database connection) each."""
    barrier, answers = threading.Barrier(len(logs)), [None] * len(logs)

    def ask(index: int, log: str) -> None:
        try:
            barrier.wait()
            answers[index] = game_reveal(user=game.user, game_id=game.pk, log=log, move_times_ms=paced(log))
        except GameServiceError as error:
            answers[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(index, log)) for index, log in enumerate(logs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.django_db(transaction=True)
def test_the_same_reveal_asked_twice_at_once_is_recorded_once(make_player):
    game = issue_hidden(make_player(), CLASSIC_WIN["code"])

    answers = reveal_in_threads(game, [first_tokens(FIRST)] * 2)

    assert [(a.column, a.depth, a.card) for a in answers] == [
        (answers[0].column, answers[0].depth, answers[0].card)
    ] * 2
    assert Reveal.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_diverging_reveals_at_once_never_interleave(make_player):
    game = issue_hidden(make_player(), RELAXED_WIN["code"])

    answers = reveal_in_threads(game, [TURNS_UP_COLUMN_2, TURNS_UP_COLUMN_3])

    (won,) = [answer for answer in answers if isinstance(answer, RevealedCard)]
    (lost,) = [answer for answer in answers if isinstance(answer, GameServiceError)]
    assert isinstance(lost, PrefixConflict)
    game.refresh_from_db()
    assert game.recorded_log == (TURNS_UP_COLUMN_2 if won.column == 1 else TURNS_UP_COLUMN_3)
    assert list(Reveal.objects.filter(game=game).values_list("column", "depth")) == [won.place]
    assert game.revealed == [won.to_dict()]


def test_a_reveal_on_one_game_leaves_the_others_alone(api, player, game):
    (other,) = game_issue(user=player, hidden=True)

    assert post(api, game.pk, first_tokens(FIRST)).status_code == 200

    assert nothing_revealed(other)
