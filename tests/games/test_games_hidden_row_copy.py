"""The copy of a hidden-card game's reveals on its own row (IssuedGame.revealed): it matches the
Reveal rows after every answer and refusal, a reveal reads nothing else, and the migration that
added it copied the reveals recorded before."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from games_helpers import CLASSIC_WIN, paced
from hidden_helpers import exposing_prefixes, issue_hidden, reveal_along

from games.errors import GameServiceError
from games.hidden.reveals import game_reveal
from games.models import IssuedGame, Reveal

WIN_LOG = CLASSIC_WIN["log"]
TOKENS = WIN_LOG.split()
EXPOSING = exposing_prefixes(CLASSIC_WIN["code"], WIN_LOG)


def copy_of_reveal_rows(game: IssuedGame) -> list[dict]:
    return list(
        Reveal.objects.filter(game=game)
        .order_by("prefix_length")
        .values("column", "depth", "card", "prefix_length")
    )


def ask(game: IssuedGame, length: int, *, later_ms: int = 0):
    log = " ".join(TOKENS[:length])
    times = [time + later_ms for time in paced(log)]
    try:
        return game_reveal(user=game.user, game_id=game.pk, log=log, move_times_ms=times)
    except GameServiceError as error:
        return error


def statements(queries) -> list[str]:
    """The first word of each statement, savepoints left out (a test runs in a transaction)."""
    words = (query["sql"].split()[0] for query in queries)
    return [word for word in words if word not in {"SAVEPOINT", "RELEASE"}]


@pytest.mark.django_db
def test_the_row_holds_a_copy_of_every_reveal_in_the_order_of_the_log(player):
    game = issue_hidden(player, CLASSIC_WIN["code"])

    reveals = reveal_along(game, WIN_LOG)

    game.refresh_from_db()
    assert len(game.revealed) == len(reveals) == 21
    assert game.revealed == copy_of_reveal_rows(game)
    assert [entry["prefix_length"] for entry in game.revealed] == EXPOSING


@pytest.mark.django_db
def test_answers_again_and_refusals_leave_the_copy_as_it_was(player):
    game = issue_hidden(player, CLASSIC_WIN["code"])
    reveal_along(game, WIN_LOG, upto=EXPOSING[2])
    game.refresh_from_db()
    before = game.revealed

    asked = [
        ask(game, EXPOSING[0]),  # a card already revealed
        ask(game, EXPOSING[0] - 1),
        ask(game, EXPOSING[3], later_ms=50),  # the recorded moves at other times
        ask(game, EXPOSING[3] + 1),  # on past the fourth card, never asked for
    ]

    assert [type(answer).__name__ for answer in asked] == [
        "RevealedCard", "NothingExposed", "PrefixConflict", "SubmissionInvalid"
    ]  # fmt: skip
    game.refresh_from_db()
    assert game.revealed == before == copy_of_reveal_rows(game)
    assert len(before) == 3


@pytest.mark.django_db
def test_a_reveal_reads_the_games_row_alone(player):
    game = issue_hidden(player, CLASSIC_WIN["code"])
    reveal_along(game, WIN_LOG, upto=EXPOSING[1])

    with CaptureQueriesContext(connection) as new:
        ask(game, EXPOSING[2])
    with CaptureQueriesContext(connection) as again:
        ask(game, EXPOSING[1])

    # The locked row (with the cards revealed so far), the Reveal row, the row written back.
    assert statements(new) == ["SELECT", "INSERT", "UPDATE"]
    assert statements(again) == ["SELECT"]
    if connection.features.has_select_for_update:
        reads = [query["sql"] for query in [*new, *again] if query["sql"].startswith("SELECT")]
        assert len(reads) == 2 and all(read.endswith("FOR UPDATE") for read in reads)


# --- The migration ------------------------------------------------------------------------------

BEFORE = [("games", "0006_daily_games")]
AFTER = [("games", "0007_issuedgame_revealed")]


@pytest.fixture
def migrated_back():
    """The database at the migration before the copy; migrated to the latest again afterwards."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    yield executor.loader.project_state(BEFORE).apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_copies_the_reveals_recorded_before_it(migrated_back, make_player):
    OldGame = migrated_back.get_model("games", "IssuedGame")
    OldReveal = migrated_back.get_model("games", "Reveal")
    player = make_player()
    now = timezone.now()

    def game(number: int, *, hidden: bool = True):
        return OldGame.objects.create(
            user_id=player.pk, code=f"YU1-C-AAAAAA{'ABC'[number]}", rules="classic", deal_number=number,
            issued_at=now, hidden=hidden,
        )  # fmt: skip

    with_reveals, untouched, open_deal = game(0), game(1), game(2, hidden=False)
    places = [(3, 2, "AS", 11), (1, 0, "7H", 4), (6, 5, "2D", 30)]  # stored out of the log's order
    for column, depth, card, length in places:
        OldReveal.objects.create(
            game=with_reveals, column=column, depth=depth, card=card, prefix_length=length,
            page_time_ms=100 * length, received_at=now,
        )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)

    # Only the copied column: later migrations add columns this state does not have yet.
    copied = IssuedGame.objects.only("id", "revealed").in_bulk([with_reveals.pk, untouched.pk, open_deal.pk])
    assert copied[with_reveals.pk].revealed == [
        {"column": 1, "depth": 0, "card": "7H", "prefix_length": 4},
        {"column": 3, "depth": 2, "card": "AS", "prefix_length": 11},
        {"column": 6, "depth": 5, "card": "2D", "prefix_length": 30},
    ]
    assert copied[untouched.pk].revealed == copied[open_deal.pk].revealed == []
