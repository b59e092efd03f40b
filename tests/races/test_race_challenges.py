"""Head-to-head challenges (docs/races.md): one player plays a hidden-card deal, a friend with the
link plays the same deal later, before the deadline; neither sees the other's figures until both
are done; then both results side by side, places and ratings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from race_play import CLASSIC_WIN, play, server_time, submit

from games.models import IssuedGame, Submission
from games.selectors import game_code_public
from races import errors, services
from races.models import Race, RaceSeat, Rating
from races.selectors import race_get, race_view

WIN = CLASSIC_WIN["log"]
pytestmark = pytest.mark.django_db


def challenge(make_player, *, ago=timedelta(hours=2)):
    host = make_player()
    return services.challenge_create(user=host, rules="classic", now=timezone.now() - ago), host


def seat_of(race: Race, user) -> RaceSeat:
    return race.seat_rows.select_related("game", "user", "race").get(user=user)


def test_the_challenger_plays_at_once_and_the_friend_later_on_the_same_deal(make_player, known_deal):
    race, host = challenge(make_player)
    assert (race.kind, race.state, race.seats) == (Race.Kind.CHALLENGE, Race.State.RUNNING, 2)
    assert race.deadline == race.created_at + timedelta(hours=48)
    host_view = race_view(race_get(race.public_id), viewer=host)
    assert host_view["your_game_id"] == seat_of(race, host).game_id and host_view["state"] == "running"
    friend = make_player()
    assert race_view(race_get(race.public_id), viewer=friend)["your_game_id"] is None
    later = timezone.now() - timedelta(hours=1)
    services.race_join(user=friend, public_id=race.public_id, now=later)
    host_game, friend_game = seat_of(race, host).game, seat_of(race, friend).game
    assert (friend_game.code, friend_game.secret, friend_game.commitment) == (
        host_game.code,
        host_game.secret,
        host_game.commitment,
    )
    assert friend_game.issued_at == later and friend_game.pk != host_game.pk
    with pytest.raises(errors.RaceFull):
        services.race_join(user=make_player(), public_id=race.public_id)
    with pytest.raises(errors.RaceStarted):
        services.race_start(user=host, public_id=race.public_id)


def test_neither_sees_the_others_figures_until_both_are_done(
    make_player, known_deal, django_capture_on_commit_callbacks
):
    # (That a challenge's progress goes to its sender's socket alone: test_race_socket.py.)
    race, host = challenge(make_player)
    with django_capture_on_commit_callbacks(execute=True):
        times = play(seat_of(race, host), WIN)
        submit(seat_of(race, host), WIN, times)
    friend = make_player()
    seen_by_friend = race_view(race_get(race.public_id), viewer=friend)["players"][0]
    assert (seen_by_friend["moves"], seen_by_friend["won"], seen_by_friend["score"]) == (None, None, None)
    assert race_get(race.public_id).state == Race.State.RUNNING  # waiting for the friend
    assert not game_code_public(IssuedGame.objects.get(pk=seat_of(race, host).game_id))
    services.race_join(user=friend, public_id=race.public_id, now=timezone.now() - timedelta(minutes=30))
    with django_capture_on_commit_callbacks(execute=True):
        play(seat_of(race, friend), WIN, upto=12)
        services.race_leave(
            user=friend, public_id=race.public_id, now=server_time(seat_of(race, friend), 60_000)
        )
    race.refresh_from_db()
    assert race.state == Race.State.FINISHED and race.places_final
    side_by_side = race_view(race_get(race.public_id), viewer=friend)
    assert [(p["place"], p["won"], p["moves"]) for p in side_by_side["players"]] == [
        (1, True, len(WIN.split())),
        (2, False, 12),
    ]
    assert side_by_side["code"] == known_deal["code"]
    assert Rating.objects.filter(rules="classic").count() == 2


def test_a_challenge_nobody_takes_up_ends_at_its_deadline(
    make_player, known_deal, django_capture_on_commit_callbacks
):
    race, host = challenge(make_player, ago=timedelta(hours=47))
    with django_capture_on_commit_callbacks(execute=True):
        submit(seat_of(race, host), WIN, play(seat_of(race, host), WIN))
    assert race_get(race.public_id).state == Race.State.RUNNING
    services.race_tick(public_id=race.public_id, now=race.deadline + timedelta(seconds=1))
    race.refresh_from_db()
    assert race.state == Race.State.FINISHED and race.places_final
    assert seat_of(race, host).place == 1
    assert not Rating.objects.exists()  # no one to be rated against
    with pytest.raises(errors.RaceStarted):
        services.race_join(user=make_player(), public_id=race.public_id)


def test_a_friend_still_playing_at_the_deadline_is_settled_from_the_record(
    make_player, known_deal, django_capture_on_commit_callbacks
):
    race, host = challenge(make_player, ago=timedelta(hours=47, minutes=30))
    friend = make_player()
    services.race_join(user=friend, public_id=race.public_id, now=timezone.now() - timedelta(minutes=20))
    with django_capture_on_commit_callbacks(execute=True):
        play(seat_of(race, friend), WIN, upto=8)
        services.race_tick(public_id=race.public_id, now=race.deadline + timedelta(seconds=1))
    friend_seat, host_seat = seat_of(race, friend), seat_of(race, host)
    assert (friend_seat.status, friend_seat.out_reason) == (RaceSeat.Status.OUT, "time")
    assert Submission.objects.get(game_id=friend_seat.game_id).log.split() == WIN.split()[:8]
    assert host_seat.out_reason == "time"  # the challenger never finished either
    race.refresh_from_db()
    assert race.state == Race.State.FINISHED
