"""Races through their services: the lobby, the start, progress replayed by the server, seats out,
the race over, places, ratings, rematch; and what a race never tells (docs/races.md)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from race_play import CLASSIC_WIN, paced, play, progress, seats_of, server_time, started_race, submit

from games.engine import CARD_NAMES
from games.errors import PrefixConflict, SubmissionInvalid
from games.hidden.reveals import game_reveal
from games.issuing.commitments import deal_commitment
from games.models import IssuedGame, Submission
from games.selectors import game_code_public, issued_games_unplayed
from games.submissions.queue import VERIFY_QUEUED_KEY, submissions_verify_soon
from leaderboard.models import BoardEntry
from races import errors, room, services
from races.models import Race, RaceSeat, Rating
from races.play import seat_seen
from races.selectors import race_get, race_view
from races.settling import place_key, places_of

WIN = CLASSIC_WIN["log"]


@pytest.mark.django_db
class TestLobby:
    def test_a_full_lobby_starts_itself_and_deals_one_hidden_deal_to_every_seat(self, make_player, settings):
        race = started_race(make_player, seats=3, players=3, ago=timedelta(0))
        assert race.state == Race.State.RUNNING
        assert race.starts_at > timezone.now() + timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS - 2)
        games = [seat.game for seat in seats_of(race)]
        assert len({game.pk for game in games}) == 3
        assert {(g.code, g.secret, g.commitment, g.issued_at) for g in games} == {
            (race.code, race.secret, race.commitment, race.starts_at)
        }
        assert all(g.hidden and g.contest == "race" and g.code_sealed for g in games)
        assert race.commitment == deal_commitment(code=race.code, secret=race.secret)

    def test_race_games_stay_out_of_the_players_own_unplayed_games(self, make_player):
        race = started_race(make_player)
        seat = seats_of(race)[0]
        assert not issued_games_unplayed(user=seat.user).exists()

    def test_refusals(self, make_player):
        host, guest, third = make_player(), make_player(), make_player()
        race = services.race_create(user=host, rules="classic", seats=2, time_limit_minutes=None)
        with pytest.raises(errors.AlreadySeated):
            services.race_join(user=host, public_id=race.public_id)
        with pytest.raises(errors.TooFewPlayers):
            services.race_start(user=host, public_id=race.public_id)
        with pytest.raises(errors.NotHost):
            services.race_start(user=guest, public_id=race.public_id)
        services.race_join(user=guest, public_id=race.public_id)  # full: it starts
        with pytest.raises(errors.RaceStarted):
            services.race_join(user=third, public_id=race.public_id)
        with pytest.raises(errors.RaceNotFound):
            services.race_join(user=third, public_id="nosuchrace")

    def test_a_full_room_refuses_another_player(self, make_player):
        host = make_player()
        race = services.race_create(user=host, rules="relaxed", seats=3, time_limit_minutes=5)
        services.race_join(user=make_player(), public_id=race.public_id)
        race.seats = 2  # as if a third seat were taken while the lobby still waits
        race.save(update_fields=["seats"])
        with pytest.raises(errors.RaceFull):
            services.race_join(user=make_player(), public_id=race.public_id)

    def test_leaving_the_lobby_frees_the_seat_and_passes_on_the_host(self, make_player):
        host, guest = make_player(), make_player()
        race = services.race_create(user=host, rules="classic", seats=4, time_limit_minutes=None)
        services.race_join(user=guest, public_id=race.public_id)
        services.race_leave(user=host, public_id=race.public_id)
        race.refresh_from_db()
        assert race.host_id == guest.pk and race.seat_rows.count() == 1
        services.race_leave(user=guest, public_id=race.public_id)
        race.refresh_from_db()
        assert race.state == Race.State.CANCELLED


@pytest.mark.django_db
class TestProgress:
    def test_the_figures_are_the_servers_replay_of_the_log(self, make_player, known_deal):
        race = started_race(make_player)
        seat = seats_of(race)[0]
        play(seat, WIN, upto=30)
        game = IssuedGame.objects.get(pk=seat.game_id)
        shown = race_view(race_get(race.public_id))["players"][0]
        assert (shown["moves"], shown["time_ms"]) == (30, paced(30)[-1])
        assert shown["foundation_cards"] == sum(1 for token in WIN.split()[:30] if token.endswith(">F"))
        assert game.recorded_log.split() == WIN.split()[:30]  # the 30th move turns up no card here

    def test_a_last_move_that_turns_up_a_card_is_recorded_with_its_reveal(self, make_player, known_deal):
        race = started_race(make_player)
        seat = seats_of(race)[0]
        tokens, times = WIN.split(), paced(len(WIN.split()))
        from games.engine import Game

        game = Game(race.code)
        for length, token in enumerate(tokens, start=1):
            before = game.face_down
            game.play(token)
            if game.face_down != before:
                break
            if length > 1:
                progress(
                    user=seat.user,
                    public_id=race.public_id,
                    log=" ".join(tokens[:length]),
                    move_times_ms=times[:length],
                    now=server_time(seat, times[length - 1]),
                )
        exposing = length
        figures = progress(
            user=seat.user,
            public_id=race.public_id,
            log=" ".join(tokens[:exposing]),
            move_times_ms=times[:exposing],
            now=server_time(seat, times[exposing - 1]),
        )
        assert figures.moves == exposing
        recorded = IssuedGame.objects.get(pk=seat.game_id).recorded_log.split()
        assert recorded == tokens[: exposing - 1]
        card = game_reveal(
            user=seat.user,
            game_id=seat.game_id,
            log=" ".join(tokens[:exposing]),
            move_times_ms=times[:exposing],
            now=server_time(seat, times[exposing - 1]),
        )
        assert card.prefix_length == exposing

    def test_an_illegal_move_is_refused_with_its_index(self, make_player, known_deal):
        race = started_race(make_player)
        seat = seats_of(race)[0]
        with pytest.raises(SubmissionInvalid) as refused:
            progress(
                user=seat.user,
                public_id=race.public_id,
                log="KS>F",
                move_times_ms=[1000],
                now=server_time(seat, 1000),
            )
        assert refused.value.errors["log"][0]["index"] == 0

    def test_a_log_that_plays_on_past_an_unrevealed_card_is_refused(self, make_player, known_deal):
        race = started_race(make_player)
        seat = seats_of(race)[0]
        tokens = WIN.split()
        times = paced(len(tokens))
        with pytest.raises(SubmissionInvalid) as refused:
            progress(
                user=seat.user,
                public_id=race.public_id,
                log=" ".join(tokens[:60]),
                move_times_ms=times[:60],
                now=server_time(seat, times[59]),
            )
        assert refused.value.errors["log"][0]["code"] == "unknown_card"

    def test_a_log_that_rewrites_the_record_is_refused(self, make_player, known_deal):
        race = started_race(make_player)
        seat = seats_of(race)[0]
        times = play(seat, WIN, upto=12)
        with pytest.raises(PrefixConflict):
            progress(
                user=seat.user,
                public_id=race.public_id,
                log="U " * 3,
                move_times_ms=times[:3],
                now=server_time(seat, times[-1]),
            )

    def test_progress_before_the_start_or_from_a_spectator_is_refused(self, make_player, known_deal):
        race = started_race(make_player, ago=timedelta(0))
        seat = seats_of(race)[0]
        with pytest.raises(errors.RaceNotRunning):
            progress(user=seat.user, public_id=race.public_id, log="", move_times_ms=[])
        with pytest.raises(errors.NotSeated):
            progress(user=make_player(), public_id=race.public_id, log="", move_times_ms=[])


@pytest.mark.django_db
class TestTheEnd:
    def test_a_race_won_and_left_settles_places_ratings_and_publishes_the_deal(
        self, make_player, known_deal, django_capture_on_commit_callbacks, settings
    ):
        settings.RACE_GRACE_SECONDS = 24 * 3600  # the race was played an hour ago: nobody is away
        race = started_race(make_player)
        winner, loser = seats_of(race)
        with django_capture_on_commit_callbacks(execute=True):
            play(loser, WIN, upto=10)
            times = play(winner, WIN)
        view = race_view(race_get(race.public_id), viewer=loser.user)
        assert view["code"] is None and view["secret"] is None
        with django_capture_on_commit_callbacks(execute=True):
            result = submit(winner, WIN, times)
        result.refresh_from_db()
        assert result.status == Submission.Status.VERIFIED and result.won
        # The winner has finished, the loser still plays: the deal stays sealed for everyone.
        assert not game_code_public(IssuedGame.objects.get(pk=winner.game_id))
        assert race_view(race_get(race.public_id), viewer=winner.user)["code"] is None
        with django_capture_on_commit_callbacks(execute=True):
            services.race_leave(user=loser.user, public_id=race.public_id, now=server_time(loser, 60_000))
        race.refresh_from_db()
        assert race.state == Race.State.FINISHED and race.places_final
        settled = Submission.objects.get(game_id=loser.game_id)
        assert settled.status == Submission.Status.VERIFIED and settled.won is False and settled.moves == 10
        assert settled.log.split() == WIN.split()[:10]
        winner.refresh_from_db(), loser.refresh_from_db()
        assert (winner.place, loser.place) == (1, 2)
        assert loser.status == RaceSeat.Status.OUT and loser.out_reason == "left"
        assert winner.rating_after > winner.rating_before and loser.rating_after < loser.rating_before
        assert Rating.objects.get(user=winner.user, rules="classic").races == 1
        view = race_view(race_get(race.public_id), viewer=None)
        assert view["code"] == race.code and view["secret"] == race.secret
        assert game_code_public(IssuedGame.objects.get(pk=loser.game_id))
        assert [p["place"] for p in view["players"]] == [1, 2]
        assert all(p["replay_url"] for p in view["players"])
        # Race results count on the race's rating only, never on a leaderboard board.
        assert not BoardEntry.objects.exists()

    def test_a_result_verified_while_others_play_is_told_to_the_room(
        self, make_player, known_deal, django_capture_on_commit_callbacks, monkeypatch, settings
    ):
        """The winner's page sends its result before the socket has told the last move: the seat
        finishes on the figures it had (one card short), and the room must hear the verified
        result's figures even though the race runs on (the other seat plays)."""
        settings.RACE_GRACE_SECONDS = 24 * 3600
        race = started_race(make_player)
        winner, loser = seats_of(race)
        told: list[dict] = []  # the race as each message to the room left it
        monkeypatch.setattr(
            room, "_tell_from_sync", lambda public_id, message: told.append(race_view(race_get(public_id)))
        )

        def winner_last_told() -> dict:
            return next(p for p in told[-1]["players"] if p["name"] == winner.user.public_name)

        tokens = WIN.split()
        with django_capture_on_commit_callbacks(execute=True):
            play(loser, WIN, upto=10)
            play(winner, WIN, upto=len(tokens) - 1)
        # The verification runs later, as a worker's would: the seat finishes first, unverified.
        cache.add(VERIFY_QUEUED_KEY, 1)
        with django_capture_on_commit_callbacks(execute=True):
            submit(winner, WIN, paced(len(tokens)))
        assert winner_last_told()["result"] == Submission.Status.PENDING
        cache.delete(VERIFY_QUEUED_KEY)
        with django_capture_on_commit_callbacks(execute=True):
            submissions_verify_soon()
        assert Submission.objects.get(game_id=winner.game_id).status == Submission.Status.VERIFIED
        shown = winner_last_told()
        assert told[-1]["state"] == Race.State.RUNNING
        assert (shown["status"], shown["result"]) == (RaceSeat.Status.FINISHED, Submission.Status.VERIFIED)
        assert (shown["foundation_cards"], shown["moves"]) == (52, len(tokens))

    def test_a_seat_away_past_the_grace_period_is_out(self, make_player, known_deal, settings):
        race = started_race(make_player)
        first, second = seats_of(race)
        play(first, WIN, upto=5)
        later = race.starts_at + timedelta(seconds=settings.RACE_GRACE_SECONDS + 1)
        seat_seen(user=first.user, public_id=race.public_id, now=later)
        services.race_tick(public_id=race.public_id, now=later)
        first.refresh_from_db(), second.refresh_from_db()
        assert first.status == RaceSeat.Status.PLAYING
        assert second.status == RaceSeat.Status.OUT and second.out_reason == "away"
        assert Submission.objects.get(game_id=second.game_id).log == ""

    def test_the_time_limit_puts_every_seat_still_playing_out(self, make_player, known_deal):
        race = started_race(make_player, players=3, seats=3, limit=5)
        for seat in seats_of(race):
            play(seat, WIN, upto=4)
        services.race_tick(public_id=race.public_id, now=race.starts_at + timedelta(minutes=5, seconds=1))
        race.refresh_from_db()
        assert race.state == Race.State.FINISHED
        assert {seat.out_reason for seat in seats_of(race)} == {"time"}

    def test_places_winners_by_moves_then_time_then_the_rest_by_score(self):
        verified = Submission.Status.VERIFIED
        results = [
            Submission(status=verified, won=False, score=900, moves=100, duration_ms=5),
            Submission(status=verified, won=True, score=7100, moves=100, duration_ms=9),
            Submission(status=Submission.Status.REJECTED, won=False, score=None, moves=3, duration_ms=1),
            Submission(status=verified, won=True, score=7110, moves=90, duration_ms=20),
            Submission(status=verified, won=False, score=1200, moves=80, duration_ms=50),
            Submission(status=verified, won=True, score=7100, moves=100, duration_ms=9),
        ]
        assert places_of([place_key(r) for r in results]) == [5, 2, 6, 1, 4, 2]


def finished_race(make_player, capture, *, seats: int) -> list[RaceSeat]:
    """A race of `seats` players that is over (each left it, the first last): its seats."""
    race = started_race(make_player, seats=seats, players=seats)
    seats_ = seats_of(race)
    with capture(execute=True):
        for seat in reversed(seats_):
            services.race_leave(user=seat.user, public_id=race.public_id, now=race.starts_at)
    race.refresh_from_db()
    assert race.state == Race.State.FINISHED
    return seats_


@pytest.mark.django_db
class TestRematch:
    @pytest.fixture(autouse=True)
    def _nobody_away(self, settings):
        settings.RACE_GRACE_SECONDS = 24 * 3600  # the race was played an hour ago

    def test_the_first_to_ask_is_alone_in_it_and_it_is_offered_to_the_others(
        self, make_player, django_capture_on_commit_callbacks
    ):
        first, second, third = finished_race(make_player, django_capture_on_commit_callbacks, seats=3)
        public_id = first.race.public_id
        with pytest.raises(errors.NotSeated):
            services.race_rematch(user=make_player(), public_id=public_id)
        rematch = services.race_rematch(user=second.user, public_id=public_id)
        assert rematch.host_id == second.user_id and rematch.state == Race.State.LOBBY
        assert (rematch.seats, rematch.rules) == (3, "classic")
        assert [seat.user_id for seat in rematch.seat_rows.all()] == [second.user_id]  # nobody seated unasked
        assert services.race_rematch(user=second.user, public_id=public_id) == rematch  # asked again
        race = race_get(public_id)
        assert race_view(race, viewer=first.user)["your_rematch"] == "offered"
        assert race_view(race, viewer=second.user)["your_rematch"] == "seated"
        assert race_view(race, viewer=None)["your_rematch"] is None
        answers = {p["name"]: p["rematch"] for p in race_view(race, viewer=None)["players"]}
        assert answers == {
            first.user.public_name: None,
            second.user.public_name: "host",
            third.user.public_name: None,
        }

    def test_each_who_accepts_is_seated_by_the_join_which_starts_it_when_full(
        self, make_player, django_capture_on_commit_callbacks, monkeypatch
    ):
        first, second, third = finished_race(make_player, django_capture_on_commit_callbacks, seats=3)
        public_id = first.race.public_id
        joins = []
        join = services.race_join
        monkeypatch.setattr(
            services, "race_join", lambda **kwargs: joins.append(kwargs["user"]) or join(**kwargs)
        )
        rematch = services.race_rematch(user=first.user, public_id=public_id)
        assert services.race_rematch(user=third.user, public_id=public_id) == rematch
        rematch.refresh_from_db()
        assert rematch.state == Race.State.LOBBY and rematch.seat_rows.count() == 2
        assert race_view(race_get(public_id), viewer=third.user)["your_rematch"] == "seated"
        services.race_rematch(user=second.user, public_id=public_id)  # the last seat: it starts
        rematch.refresh_from_db()
        assert rematch.state == Race.State.RUNNING and rematch.starts_at is not None
        assert all(seat.game_id for seat in rematch.seat_rows.all())
        assert joins == [third.user, second.user]
        assert race_view(race_get(public_id), viewer=second.user)["your_rematch"] == "seated"

    def test_a_rematch_that_started_takes_no_one_else(self, make_player, django_capture_on_commit_callbacks):
        first, second, third = finished_race(make_player, django_capture_on_commit_callbacks, seats=3)
        public_id = first.race.public_id
        rematch = services.race_rematch(user=first.user, public_id=public_id)
        services.race_rematch(user=second.user, public_id=public_id)
        services.race_start(user=first.user, public_id=rematch.public_id)
        assert race_view(race_get(public_id), viewer=third.user)["your_rematch"] is None  # no longer offered
        with pytest.raises(errors.RaceStarted):
            services.race_rematch(user=third.user, public_id=public_id)

    def test_a_player_declines_before_or_after_accepting(
        self, make_player, django_capture_on_commit_callbacks
    ):
        first, second, third = finished_race(make_player, django_capture_on_commit_callbacks, seats=3)
        public_id = first.race.public_id
        with pytest.raises(errors.NotSeated):
            services.race_rematch_decline(user=make_player(), public_id=public_id)
        rematch = services.race_rematch(user=first.user, public_id=public_id)
        services.race_rematch_decline(user=second.user, public_id=public_id)
        assert race_view(race_get(public_id), viewer=second.user)["your_rematch"] == "declined"
        services.race_rematch(user=third.user, public_id=public_id)
        services.race_rematch_decline(user=third.user, public_id=public_id)  # seated, then declines
        assert [seat.user_id for seat in rematch.seat_rows.all()] == [first.user_id]
        view = race_view(race_get(public_id), viewer=third.user)
        assert view["your_rematch"] == "declined"
        assert [p["rematch"] for p in view["players"]] == ["host", "declined", "declined"]
        # Asked after all: seated again, the offer no longer declined.
        services.race_rematch(user=second.user, public_id=public_id)
        assert race_view(race_get(public_id), viewer=second.user)["your_rematch"] == "seated"

    def test_a_rematch_left_by_everyone_gives_way_to_another(
        self, make_player, django_capture_on_commit_callbacks
    ):
        first, second = finished_race(make_player, django_capture_on_commit_callbacks, seats=2)
        public_id = first.race.public_id
        left = services.race_rematch(user=first.user, public_id=public_id)
        services.race_rematch_decline(user=first.user, public_id=public_id)  # its host, alone: cancelled
        left.refresh_from_db()
        assert left.state == Race.State.CANCELLED
        view = race_view(race_get(public_id), viewer=second.user)
        assert (view["rematch_id"], view["your_rematch"]) == (None, None)
        rematch = services.race_rematch(user=second.user, public_id=public_id)
        assert rematch != left and rematch.host_id == second.user_id

    def test_only_a_race_that_is_over_has_a_rematch(self, make_player):
        race = started_race(make_player)
        host = seats_of(race)[0].user
        with pytest.raises(errors.RaceNotOver):
            services.race_rematch(user=host, public_id=race.public_id)
        with pytest.raises(errors.RaceNotOver):
            services.race_rematch_decline(user=host, public_id=race.public_id)


@pytest.mark.django_db
def test_no_view_of_a_running_race_names_a_card_the_deal_or_its_secret(make_player, known_deal):
    race = started_race(make_player, seats=3, players=3)
    seats = seats_of(race)
    play(seats[0], WIN, upto=40)
    revealed = [entry["card"] for entry in IssuedGame.objects.get(pk=seats[0].game_id).revealed]
    assert revealed
    face_up = set()
    from games.engine import visible_deal

    for column in visible_deal(race.code).columns:
        face_up |= {CARD_NAMES[card] for card in column if card is not None}
    for viewer in [seat.user for seat in seats] + [make_player(), None]:
        text = json.dumps(race_view(race_get(race.public_id), viewer=viewer), default=str)
        assert race.code not in text and race.secret not in text
        for card in set(revealed) - face_up:
            assert f'"{card}"' not in text


@pytest.mark.django_db
def test_no_card_is_revealed_before_the_countdown_ends(make_player, known_deal):
    from games.errors import GameNotStarted

    race = started_race(make_player, ago=timedelta(0))
    seat = seats_of(race)[0]
    with pytest.raises(GameNotStarted):
        game_reveal(user=seat.user, game_id=seat.game_id, log=WIN.split()[0], move_times_ms=[0])
