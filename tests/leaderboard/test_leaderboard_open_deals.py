"""Global boards rank hidden-card games only; wins of deals whose code the player knew go on the
open-deal boards; `rebuild_board_entries` moves the entries an earlier release put elsewhere."""

import datetime as dt
import io
from html import escape

import pytest
from django.core.management import call_command
from factories import WINNING_CODES, best_score, player_make, win
from leaderboard_factories import before_open_deals

from games.models import Submission
from leaderboard.models import BoardEntry
from leaderboard.selectors import leaderboard_page

pytestmark = pytest.mark.django_db

CODE, OTHER_CODE = WINNING_CODES["classic"][:2]
BEST, OTHER_BEST = best_score(CODE), best_score(OTHER_CODE)
NOON = dt.datetime(2026, 11, 29, 12, 0, 0, tzinfo=dt.UTC)
GLOBAL = ["classic:all", "classic:season:2026-11", "classic:week:2026-W48", "classic:day:2026-11-29"]
OPEN = [f"open:{board}" for board in GLOBAL]


def rows(board: str) -> list[tuple[str, int]]:
    return [(entry.name, entry.score) for entry in leaderboard_page(board=board, page_size=100).entries]


def boards_of(user) -> set[str]:
    return set(BoardEntry.objects.filter(user=user).values_list("board", flat=True))


def names(client, query: str) -> list[str]:
    response = client.get(f"/api/leaderboards/?rules=classic&{query}")
    assert response.status_code == 200, response.json()
    return [row["player"]["name"] for row in response.json()["results"]]


def test_a_hidden_card_games_win_enters_the_global_boards_and_not_the_open_ones(client, frozen_now):
    ann = player_make("ann")
    result = win(ann, at=NOON)

    assert result.game.hidden and result.game.reveals.count() == 21
    assert boards_of(ann) == {*GLOBAL, f"deal:{CODE}"}
    assert set(result.ranks) == {*GLOBAL, f"deal:{CODE}"}
    assert names(client, "period=all") == names(client, "period=day&deals=hidden") == ["ann"]
    assert names(client, "deals=open") == names(client, "period=week&deals=open") == []


def test_wins_of_deals_whose_code_was_known_enter_the_open_boards_and_not_the_global_ones(client, frozen_now):
    ann, bob = player_make("ann"), player_make("bob")
    issued_with_code = win(ann, at=NOON, hidden=False, extra_moves=1)
    by_code = win(bob, at=NOON, ranked=False)

    assert not issued_with_code.game.hidden and by_code.game is None
    for result in (issued_with_code, by_code):
        assert boards_of(result.user) == set(result.ranks) == {*OPEN, f"deal:{CODE}"}
    assert rows("open:classic:all") == [("bob", BEST), ("ann", BEST - 1)]
    assert by_code.ranks == {board: 1 for board in [*OPEN, f"deal:{CODE}"]}
    assert names(client, "deals=open") == names(client, "period=day&deals=open") == ["bob", "ann"]
    assert names(client, "period=week&key=2026-W48&deals=open") == ["bob", "ann"]
    assert names(client, "period=all") == names(client, "period=week") == names(client, "period=day") == []


def test_around_me_and_cursors_work_on_an_open_board(client, frozen_now):
    players = [player_make(f"p{index}") for index in range(4)]
    for index, user in enumerate(players):
        win(user, at=NOON, ranked=False, extra_moves=index)
    client.force_login(players[2])

    around = client.get("/api/leaderboards/?rules=classic&deals=open&around=me").json()
    first = client.get("/api/leaderboards/?rules=classic&deals=open&page_size=2").json()
    second = client.get(first["next"]).json()

    assert [row["rank"] for row in around["results"]] == [1, 2, 3, 4]
    assert "deals=open" in first["next"]
    assert [row["player"]["name"] for row in first["results"] + second["results"]] == ["p0", "p1", "p2", "p3"]
    assert client.get("/api/leaderboards/?rules=classic&around=me").json() == {"ranked": False}


def test_deals_is_hidden_or_open(client, frozen_now):
    response = client.get("/api/leaderboards/?rules=classic&deals=known")

    assert response.status_code == 400
    assert list(response.json()) == ["deals"]


def test_me_gives_the_places_on_the_global_and_the_open_boards(client, frozen_now):
    ann, bob = player_make("ann"), player_make("bob")
    win(bob, at=NOON, extra_moves=1)  # a hidden-card game
    win(ann, at=NOON, extra_moves=2)  # a hidden-card game
    win(ann, at=NOON, hidden=False)  # issued with its code: her best, on the open boards
    win(bob, at=NOON, ranked=False, code=OTHER_CODE, extra_moves=6)  # typed in: the open boards
    client.force_login(ann)

    classic = client.get("/api/me/").json()["rules"]["classic"]

    assert classic["ranks"] == {
        "all": {"board": "classic:all", "rank": 2, "of": 2},
        "season": {"board": "classic:season:2026-11", "rank": 2, "of": 2},
        "week": {"board": "classic:week:2026-W48", "rank": 2, "of": 2},
        "day": {"board": "classic:day:2026-11-29", "rank": 2, "of": 2},
    }
    assert classic["open_ranks"] == {
        "all": {"board": "open:classic:all", "rank": 1, "of": 2},
        "season": {"board": "open:classic:season:2026-11", "rank": 1, "of": 2},
        "week": {"board": "open:classic:week:2026-W48", "rank": 1, "of": 2},
        "day": {"board": "open:classic:day:2026-11-29", "rank": 1, "of": 2},
    }
    # Ranked figures count every game the server issued, hidden-card or with its code.
    assert (classic["ranked_wins"], classic["best_score"], classic["unranked_wins"]) == (2, BEST, 0)


def old_release_wins() -> dict[str, Submission]:
    """Wins entered on the boards as the release before open-deal boards entered them."""
    ann, bob, cid = player_make("ann"), player_make("bob"), player_make("cid")
    with before_open_deals():
        wins = {
            "ann_code": win(ann, at=NOON, hidden=False),  # her best: on the global boards then
            "ann_hidden": win(ann, at=NOON + dt.timedelta(minutes=1), extra_moves=2),
            "bob_hidden": win(bob, at=NOON, extra_moves=1),
            "cid_typed": win(cid, at=NOON, ranked=False, code=OTHER_CODE, extra_moves=6),  # its deal only
        }
    for result in wins.values():
        result.refresh_from_db()
    return wins


def test_rebuild_board_entries_moves_the_entries_of_known_deals_to_the_open_boards(client, frozen_now):
    wins = old_release_wins()
    assert rows("classic:all") == [("ann", BEST), ("bob", BEST - 1)]  # as the upgrade finds them
    assert not BoardEntry.objects.filter(board__startswith="open:").exists()
    assert set(wins["ann_code"].ranks) == {*GLOBAL, f"deal:{CODE}"}
    deal_boards = sorted(BoardEntry.objects.filter(board__startswith="deal:").values_list())
    places = {name: result.ranks for name, result in wins.items()}
    out = io.StringIO()

    call_command("rebuild_board_entries", stdout=out)

    for period in range(len(GLOBAL)):
        assert rows(GLOBAL[period]) == [("bob", BEST - 1), ("ann", BEST - 2)]  # hidden-card games only
        assert rows(OPEN[period]) == [("ann", BEST), ("cid", OTHER_BEST - 6)]
    assert names(client, "deals=open") == ["ann", "cid"]
    assert sorted(BoardEntry.objects.filter(board__startswith="deal:").values_list()) == deal_boards
    (entry,) = BoardEntry.objects.filter(board="classic:all", user__username="ann")
    assert entry.submission_id == wins["ann_hidden"].pk
    # The places stored on the moved result follow it, with the rank it reached when settled.
    wins["ann_code"].refresh_from_db()
    assert wins["ann_code"].ranks == {
        "open:classic:all": 1, "open:classic:season:2026-11": 1, "open:classic:week:2026-W48": 1,
        "open:classic:day:2026-11-29": 1, f"deal:{CODE}": 1,
    }  # fmt: skip
    for name in ("ann_hidden", "bob_hidden", "cid_typed"):
        wins[name].refresh_from_db()
        assert wins[name].ranks == places[name]
    assert out.getvalue().splitlines() == [
        "3 player(s): 12 entries written or removed, the places of 1 result(s) moved to the open-deal boards"
    ]

    again = io.StringIO()
    call_command("rebuild_board_entries", stdout=again)

    assert again.getvalue().splitlines() == [
        "3 player(s): 0 entries written or removed, the places of 0 result(s) moved to the open-deal boards"
    ]


def test_rebuild_board_entries_can_take_one_player(frozen_now):
    wins = old_release_wins()

    call_command("rebuild_board_entries", "--user", str(wins["cid_typed"].user_id), stdout=io.StringIO())

    assert rows("open:classic:all") == [("cid", OTHER_BEST - 6)]
    assert rows("classic:all") == [("ann", BEST), ("bob", BEST - 1)]  # the others wait for their turn


@pytest.mark.parametrize("language", ["en", "ms", "hi", "tl"])
def test_the_leaderboard_page_offers_the_open_deal_boards_in_the_players_language(client, language):
    from frontend.catalogs import table_text

    words = table_text(language)["leaderboard"]

    page = client.get("/leaderboard", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    for choice, key, pressed in [("hidden", "dealsHidden", "true"), ("open", "dealsOpen", "false")]:
        button = f'data-deals-choice="{choice}" aria-pressed="{pressed}" data-i18n="leaderboard.{key}">'
        assert f"{button}{escape(words[key])}</button>" in page
    assert f'data-i18n="leaderboard.aboutHidden">{escape(words["aboutHidden"])}</p>' in page
    if language != "en":  # said in the player's words, not in English
        english = table_text("en")["leaderboard"]
        assert all(
            words[key] != english[key] for key in ("dealsHidden", "dealsOpen", "aboutOpen", "noEntryOpen")
        )
