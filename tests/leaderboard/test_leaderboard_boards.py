"""Board keys, periods and the sort key shared by SQL and Redis."""

import datetime as dt

import pytest

from leaderboard.boards import (
    BoardKeyError,
    board_period,
    boards_for_result,
    global_board,
    is_board_key,
    open_board_of,
    parse_period_key,
    sort_key,
    sort_key_parts,
    week_key,
)
from leaderboard.index.sorted_sets import member_for, user_for

UTC = dt.UTC


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_sort_key_orders_by_score_then_earlier_second_and_stays_exact_as_a_double():
    early, late = at("2026-11-29T10:00:00"), at("2026-11-29T10:00:01")

    assert sort_key(score=7105, achieved_at=late) > sort_key(score=7104, achieved_at=early)
    assert sort_key(score=7105, achieved_at=early) > sort_key(score=7105, achieved_at=late)
    highest = sort_key(score=99_999, achieved_at=at("1970-01-01T00:00:00"))
    assert highest < 2**53 and float(highest) == highest
    assert sort_key_parts(sort_key(score=7105, achieved_at=late)) == (7105, int(late.timestamp()))


def test_members_sort_descending_in_ascending_user_id_order():
    members = [member_for(user_id) for user_id in (1, 2, 10, 999_999_999)]

    assert sorted(members, reverse=True) == members  # ZREVRANGE order among equal scores
    assert [user_for(member) for member in members] == [1, 2, 10, 999_999_999]


def test_a_hidden_card_games_win_enters_four_global_boards_and_its_deal_board():
    boards = boards_for_result(
        rules="classic", code="YU1-C-AAAAAAA", hidden=True, received_at=at("2026-11-29T23:59:59")
    )

    assert boards == [
        "classic:all",
        "classic:season:2026-11",
        "classic:week:2026-W48",
        "classic:day:2026-11-29",
        "deal:YU1-C-AAAAAAA",
    ]


def test_a_win_on_a_known_deal_enters_four_open_deal_boards_and_its_deal_board():
    boards = boards_for_result(
        rules="relaxed", code="YU1-R-AAAAAAB", hidden=False, received_at=at("2026-11-30T00:00:00")
    )

    assert boards == [
        "open:relaxed:all",
        "open:relaxed:season:2026-11",
        "open:relaxed:week:2026-W49",
        "open:relaxed:day:2026-11-30",
        "deal:YU1-R-AAAAAAB",
    ]


def test_a_global_boards_open_deal_twin():
    assert global_board("classic", "week", "2026-W48", deals="open") == "open:classic:week:2026-W48"
    assert open_board_of("classic:day:2026-11-29") == "open:classic:day:2026-11-29"
    assert open_board_of("open:classic:all") == "open:classic:all"
    assert open_board_of("deal:YU1-C-AAAAAAB") == "deal:YU1-C-AAAAAAB"
    with pytest.raises(ValueError):
        global_board("classic", "all", deals="known")


def test_iso_weeks_roll_over_on_monday_utc_and_belong_to_their_iso_year():
    assert week_key(at("2026-11-29T23:59:59")) == "2026-W48"  # a Sunday
    assert week_key(at("2026-11-30T00:00:00")) == "2026-W49"
    assert week_key(at("2027-01-01T12:00:00")) == "2026-W53"


def test_period_keys_are_checked():
    now = at("2026-11-29T12:00:00")

    assert parse_period_key("week", None, now=now) == "2026-W48"
    assert parse_period_key("day", "", now=now) == "2026-11-29"
    assert parse_period_key("week", "2026-W47", now=now) == "2026-W47"
    for period, key in [
        ("week", "2026-W54"),
        ("week", "2026-48"),
        ("day", "2026-11-31"),
        ("day", "20261129"),
        ("all", "2026"),
        ("month", ""),
    ]:
        with pytest.raises(BoardKeyError):
            parse_period_key(period, key, now=now)


def test_board_keys_and_their_periods():
    assert is_board_key("classic:all") and is_board_key("relaxed:week:2026-W48")
    assert is_board_key("classic:day:2026-11-29") and is_board_key("deal:YU1-C-AAAAAAB")
    assert is_board_key("open:classic:all") and is_board_key("open:relaxed:week:2026-W48")
    assert is_board_key("open:classic:day:2026-11-29")
    not_keys = [
        "classic",
        "poker:all",
        "deal:nope",
        "classic:day:x",
        "open:deal:YU1-C-AAAAAAB",
        "open:open:classic:all",
    ]
    assert not any(is_board_key(key) for key in not_keys)
    assert board_period("classic:day:2026-11-29").ends_at == at("2026-11-30T00:00:00")
    assert board_period("open:classic:day:2026-11-29") == board_period("classic:day:2026-11-29")
    assert board_period("open:relaxed:all").kind == "all"
    assert board_period("classic:week:2026-W48").ends_at == at("2026-11-30T00:00:00")
    assert board_period("deal:YU1-C-AAAAAAB").kind == "deal"
