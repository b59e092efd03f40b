"""Ratings move only between real games (docs/races.md, "Rating"): a seat that threw its game
(rejected, empty, or fewer than MIN_REAL_MOVES legal moves) loses as last and gives no one a
gain; the same two accounts move each other's ratings at most PAIR_RATED_PER_DAY times a day."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from race_play import CLASSIC_WIN, play, race_of, seats_of, server_time, started_race, submit

from games.models import Submission
from games.submissions.settle import submission_verify
from races import services
from races.models import Race, RaceSeat, Rating
from races.rating import new_skill, skills_rate
from races.settling import MIN_REAL_MOVES, PAIR_RATED_PER_DAY

WIN = CLASSIC_WIN["log"]
NEW = new_skill()
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _nobody_away(settings):
    settings.RACE_GRACE_SECONDS = 24 * 3600  # the races were played hours ago: nobody is away


def shown(user) -> float:
    rating = Rating.objects.filter(user=user, rules="classic").first()
    return rating.ordinal if rating is not None else NEW.shown


def test_a_challenge_thrown_by_an_illegal_log_five_times_gives_the_challenger_nothing(
    make_player, known_deal, django_capture_on_commit_callbacks
):
    host, friend = make_player(), make_player()
    for round_ in range(5):
        start = timezone.now() - timedelta(hours=6 - round_)
        race = services.challenge_create(user=host, rules="classic", now=start)
        services.race_join(user=friend, public_id=race.public_id, now=start + timedelta(minutes=1))
        hosts, friends = seats_of(race)  # in the order they took their seats
        with django_capture_on_commit_callbacks(execute=True):
            submit(hosts, WIN, play(hosts, WIN))
            thrown = submit(friends, "KS>F", [1000])  # not a legal first move of this deal
        thrown.refresh_from_db()
        assert thrown.status == Submission.Status.REJECTED
        hosts.refresh_from_db(), friends.refresh_from_db()
        assert (hosts.place, friends.place) == (1, 2)
        assert hosts.rating_after is None, f"round {round_ + 1}: the challenger gained from a thrown game"
        assert friends.rating_after < friends.rating_before
    assert shown(host) == NEW.shown
    assert shown(friend) < NEW.shown and Rating.objects.get(user=friend).races == 5


def test_a_seat_of_too_few_moves_is_last_and_the_others_are_rated_as_if_it_had_not_raced(
    make_player, known_deal, django_capture_on_commit_callbacks
):
    race = started_race(make_player, seats=3, players=3)
    winner, short, real = seats_of(race)
    with django_capture_on_commit_callbacks(execute=True):
        play(short, WIN, upto=MIN_REAL_MOVES - 1)
        play(real, WIN, upto=MIN_REAL_MOVES + 2)
        submit(winner, WIN, play(winner, WIN))
        for seat in (short, real):
            services.race_leave(user=seat.user, public_id=race.public_id, now=server_time(seat, 60_000))
    for seat in (winner, short, real):
        seat.refresh_from_db()
    assert (winner.place, real.place, short.place) == (1, 2, 3)
    as_if_two = skills_rate([NEW, NEW], [1, 2])
    assert (winner.rating_after, real.rating_after) == pytest.approx((as_if_two[0].shown, as_if_two[1].shown))
    beaten_by_both = skills_rate([NEW, NEW, NEW], [1, 1, 2])[2]
    assert short.rating_after == pytest.approx(beaten_by_both.shown) and short.rating_after < NEW.shown


def test_a_seat_that_never_moved_moves_no_rating_but_its_own(
    make_player, known_deal, django_capture_on_commit_callbacks
):
    race = started_race(make_player)
    winner, empty = seats_of(race)
    with django_capture_on_commit_callbacks(execute=True):
        submit(winner, WIN, play(winner, WIN))
        services.race_leave(user=empty.user, public_id=race.public_id, now=server_time(empty, 60_000))
    winner.refresh_from_db(), empty.refresh_from_db()
    assert Submission.objects.get(game_id=empty.game_id).log == ""
    assert (winner.place, empty.place) == (1, 2)
    assert winner.rating_after is None and not Rating.objects.filter(user=winner.user).exists()
    assert empty.rating_after < empty.rating_before


def raced(first, second, *, at: datetime) -> list[RaceSeat]:
    """A two-seat race of real games started at `at`: `first` plays 20 moves and `second` 12,
    both leave a minute in; their results verified and the race settled then."""
    race = race_of([first, second], at=at)
    seats = seats_of(race)
    for seat, moves in zip(seats, (20, 12), strict=True):
        play(seat, WIN, upto=moves)
    end = server_time(seats[0], 60_000)
    for seat in seats:
        services.race_leave(user=seat.user, public_id=race.public_id, now=end)
        submission_verify(submission_id=Submission.objects.get(game_id=seat.game_id).pk, now=end)
    services.race_tick(public_id=race.public_id, now=end)
    race.refresh_from_db()
    assert race.state == Race.State.FINISHED and race.places_final
    return seats_of(race)


def moved(seats: list[RaceSeat]) -> list[bool]:
    return [seat.rating_after is not None for seat in seats]


def test_the_same_two_accounts_move_each_others_ratings_a_few_times_a_day(make_player, known_deal):
    ann, bob, cat = make_player(), make_player(), make_player()
    now = timezone.now()
    for hours_ago in range(PAIR_RATED_PER_DAY + 1, 1, -1):
        assert moved(raced(ann, bob, at=now - timedelta(hours=hours_ago))) == [True, True]
    ratings = (shown(ann), shown(bob))
    again = raced(bob, ann, at=now - timedelta(minutes=60))
    assert [seat.place for seat in again] == [1, 2]  # places stand
    assert moved(again) == [False, False] and (shown(ann), shown(bob)) == ratings
    assert [Rating.objects.get(user=u).races for u in (ann, bob)] == [PAIR_RATED_PER_DAY] * 2
    # A third account meeting one of them is rated as ever.
    assert moved(raced(cat, ann, at=now - timedelta(minutes=30))) == [True, True]


def test_the_pair_limit_is_a_rolling_day(make_player, known_deal):
    ann, bob = make_player(), make_player()
    now = timezone.now()
    for minutes in range(PAIR_RATED_PER_DAY):
        raced(ann, bob, at=now - timedelta(hours=26, minutes=minutes))
    assert moved(raced(ann, bob, at=now - timedelta(hours=1))) == [True, True]
