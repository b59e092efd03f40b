"""Writes of races (docs/races.md): create, join, leave, start, rematch, and the tick that moves a
race on (seats out, the race over, places and ratings). A seat's play: races/play.py.

Every write locks the race's row first, so a race moves on one step at a time whichever
process (web, ASGI, Celery) asks. The room is told after the commit (`races.room`).
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.hidden.progress import game_result_from_record
from games.issuing.services import contest_games_issue, contest_games_unseal
from games.models import IssuedGame, Submission
from races import room
from races.errors import (
    AlreadySeated,
    NotHost,
    NotSeated,
    RaceFull,
    RaceNotFound,
    RaceNotOver,
    RaceStarted,
    TooFewPlayers,
)
from races.models import Race, RaceSeat
from races.play import seat_figures_settle
from races.settling import race_places_settle

logger = logging.getLogger(__name__)

CONTEST = "race"
MIN_SEATS, MAX_SEATS = 2, 6


def _locked(public_id: str) -> Race:
    race = Race.objects.select_for_update().filter(public_id=public_id).first()
    if race is None:
        raise RaceNotFound(f"there is no race {public_id}")
    return race


def ends_at(race: Race) -> datetime | None:
    """When the race's time limit runs out, or None (no limit, or not started)."""
    if race.starts_at is None or not race.time_limit_minutes:
        return None
    return race.starts_at + timedelta(minutes=race.time_limit_minutes)


# --- The lobby -------------------------------------------------------------------------------------


def race_create(
    *, user, rules: str, seats: int, time_limit_minutes: int | None, now: datetime | None = None
) -> Race:
    """A new race in its lobby, `user` its host in the first seat."""
    now = now or timezone.now()
    with transaction.atomic():
        race = Race.objects.create(
            public_id=secrets.token_urlsafe(8)[:10],
            host=user,
            rules=rules,
            seats=seats,
            time_limit_minutes=time_limit_minutes or None,
            created_at=now,
        )
        RaceSeat.objects.create(race=race, user=user, joined_at=now, last_seen_at=now)
    return race


def challenge_create(*, user, rules: str, now: datetime | None = None) -> Race:
    """A head-to-head challenge (docs/races.md): `user` plays a hidden-card deal now; a friend
    with the link plays the same deal, when they like, before the deadline (RACE_CHALLENGE_HOURS)."""
    now = now or timezone.now()
    with transaction.atomic():
        race = Race.objects.create(
            public_id=secrets.token_urlsafe(8)[:10],
            kind=Race.Kind.CHALLENGE,
            host=user,
            rules=rules,
            seats=2,
            state=Race.State.RUNNING,
            created_at=now,
            starts_at=now,
            deadline=now + timedelta(hours=settings.RACE_CHALLENGE_HOURS),
        )
        (game,) = contest_games_issue(users=[user], rules=rules, contest=CONTEST, issued_at=now)
        RaceSeat.objects.create(race=race, user=user, joined_at=now, last_seen_at=now, game=game)
        race.code, race.secret, race.commitment = game.code, game.secret, game.commitment
        race.save(update_fields=["code", "secret", "commitment"])
    return race


def race_join(*, user, public_id: str, now: datetime | None = None) -> Race:
    """Seat `user` in the race's lobby; the race starts itself when this fills it. A challenge's
    second player takes the seat before its deadline and starts at once, on the same deal."""
    now = now or timezone.now()
    with transaction.atomic():
        race = _locked(public_id)
        seated = list(race.seat_rows.select_related("game"))
        if any(seat.user_id == user.pk for seat in seated):
            raise AlreadySeated("you already hold a seat in this race: one account, one seat")
        if race.kind == Race.Kind.CHALLENGE:
            _challenge_join_locked(race, user=user, seated=seated, now=now)
        else:
            if race.state != Race.State.LOBBY:
                raise RaceStarted(f"race {public_id} has started: it takes no more players")
            if len(seated) >= race.seats:
                raise RaceFull(f"race {public_id} is full ({race.seats} seats)")
            RaceSeat.objects.create(race=race, user=user, joined_at=now, last_seen_at=now)
            if len(seated) + 1 == race.seats:
                _start_locked(race, now=now)
    room.race_changed(race.public_id)
    return race


def _challenge_join_locked(race: Race, *, user, seated: list[RaceSeat], now: datetime) -> None:
    if race.state != Race.State.RUNNING or now >= race.deadline:
        raise RaceStarted(f"challenge {race.public_id} is over: it takes no more players")
    if len(seated) >= race.seats:
        raise RaceFull(f"challenge {race.public_id} has its two players")
    (game,) = contest_games_issue(
        users=[user], rules=race.rules, contest=CONTEST, issued_at=now, like=seated[0].game
    )
    RaceSeat.objects.create(race=race, user=user, joined_at=now, last_seen_at=now, game=game)


def race_leave(*, user, public_id: str, now: datetime | None = None) -> Race:
    """In the lobby, free the player's seat (the host's role passes on; an empty lobby is
    cancelled); once started, the seat is out and settled from its record."""
    now = now or timezone.now()
    with transaction.atomic():
        race = _locked(public_id)
        seat = race.seat_rows.filter(user=user).first()
        if seat is None:
            raise NotSeated("you hold no seat in this race")
        if race.state == Race.State.LOBBY:
            seat.delete()
            remaining = list(race.seat_rows.all())
            if not remaining:
                race.state = Race.State.CANCELLED
                race.finished_at = now
            elif race.host_id == user.pk:
                race.host_id = remaining[0].user_id
            race.save(update_fields=["state", "finished_at", "host"])
        elif race.state == Race.State.RUNNING and seat.status == RaceSeat.Status.PLAYING:
            _seat_out(seat, reason="left", now=now)
            _move_on(race, now=now)
    room.race_changed(race.public_id)
    return race


def race_start(*, user, public_id: str, now: datetime | None = None) -> Race:
    """The host starts the race: the countdown begins."""
    now = now or timezone.now()
    with transaction.atomic():
        race = _locked(public_id)
        if race.kind == Race.Kind.CHALLENGE:
            raise RaceStarted("a challenge starts when each player takes it up")
        if race.host_id != user.pk:
            raise NotHost("only the race's host starts it")
        if race.state != Race.State.LOBBY:
            raise RaceStarted(f"race {public_id} has started already")
        if race.seat_rows.count() < MIN_SEATS:
            raise TooFewPlayers(f"a race needs at least {MIN_SEATS} players")
        _start_locked(race, now=now)
    room.race_changed(race.public_id)
    return race


def _start_locked(race: Race, *, now: datetime) -> None:
    """Deal: one hidden-card game of one new deal for every seat, issued when the countdown ends."""
    starts_at = now + timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    seats = list(race.seat_rows.select_related("user"))
    games = contest_games_issue(
        users=[seat.user for seat in seats], rules=race.rules, contest=CONTEST, issued_at=starts_at
    )
    for seat, game in zip(seats, games, strict=True):
        seat.game = game
        seat.last_seen_at = max(seat.last_seen_at, starts_at)  # the grace period counts from the start
    RaceSeat.objects.bulk_update(seats, ["game", "last_seen_at"])
    race.state, race.starts_at = Race.State.RUNNING, starts_at
    race.code, race.secret, race.commitment = games[0].code, games[0].secret, games[0].commitment
    race.save(update_fields=["state", "starts_at", "code", "secret", "commitment"])
    logger.info("race started", extra={"race": race.public_id, "seats": len(seats)})
    # A rematch that starts is offered no more: the finished race's results say so.
    rematch_of = Race.objects.filter(rematch=race).values_list("public_id", flat=True).first()
    if rematch_of is not None:
        room.race_changed(rematch_of)


def race_rematch(*, user, public_id: str, now: datetime | None = None) -> Race:
    """The room's next race (a new deal, the same rules, seats and limit). The first player of the
    finished race who asks creates it, alone in it as its host: it is offered to the others, and
    each who asks after (accepts) takes a seat through the join, which starts it once full. A
    player is never seated without asking: a lobby full of players who did not ask would wait for
    its host's Start."""
    now = now or timezone.now()
    with transaction.atomic():
        race = _locked(public_id)
        seat = _finished_seat(race, user=user)
        if seat.rematch_declined:  # asked after all
            seat.rematch_declined = False
            seat.save(update_fields=["rematch_declined"])
        rematch = race.rematch
        # A rematch everyone left before it started is no rematch: the next to ask makes another.
        created = rematch is None or rematch.state == Race.State.CANCELLED
        if created:
            if race.kind == Race.Kind.CHALLENGE:  # a new challenge: the other takes it up from the link
                rematch = challenge_create(user=user, rules=race.rules, now=now)
            else:
                rematch = race_create(
                    user=user,
                    rules=race.rules,
                    seats=race.seats,
                    time_limit_minutes=race.time_limit_minutes,
                    now=now,
                )
            race.rematch = rematch
            race.save(update_fields=["rematch"])
    room.race_changed(race.public_id)
    if created or rematch.seat_rows.filter(user=user).exists():
        return rematch
    return race_join(user=user, public_id=rematch.public_id, now=now)


def race_rematch_decline(*, user, public_id: str, now: datetime | None = None) -> Race:
    """A player of the finished race turns its rematch down (before or after it is asked for): it
    is no longer offered to them, and a seat they took in its lobby is freed. The finished race."""
    now = now or timezone.now()
    with transaction.atomic():
        race = _locked(public_id)
        seat = _finished_seat(race, user=user)
        seat.rematch_declined = True
        seat.save(update_fields=["rematch_declined"])
        rematch = race.rematch
    room.race_changed(race.public_id)
    if rematch is not None and rematch.kind == Race.Kind.RACE:
        with transaction.atomic():  # only a lobby's seat is freed: a started race's would be out
            rematch = _locked(rematch.public_id)
            if rematch.state == Race.State.LOBBY and rematch.seat_rows.filter(user=user).exists():
                race_leave(user=user, public_id=rematch.public_id, now=now)
    return race


def _finished_seat(race: Race, *, user) -> RaceSeat:
    """The player's seat of a race that is over: only its players answer its rematch."""
    seat = race.seat_rows.filter(user=user).first()
    if seat is None:
        raise NotSeated("only the race's players ask for a rematch")
    if race.state != Race.State.FINISHED:
        raise RaceNotOver("a rematch follows a race that is over")
    return seat


# --- Moving on: seats out, the race over, places, ratings -------------------------------------------


def _seat_out(seat: RaceSeat, *, reason: str, now: datetime) -> None:
    """The seat plays no more: its game settled from the prefix the server recorded."""
    seat.status, seat.out_reason = RaceSeat.Status.OUT, reason
    seat_figures_settle(seat)
    seat.save(update_fields=["status", "out_reason", "moves", "foundation_cards", "time_ms"])
    if seat.game_id is not None:
        game_result_from_record(game_id=seat.game_id, now=now)


def race_tick(*, public_id: str, now: datetime | None = None) -> bool:
    """Move a race on as far as it can go now; True when anything changed (the room is told)."""
    now = now or timezone.now()
    with transaction.atomic():
        race = Race.objects.select_for_update().filter(public_id=public_id).first()
        if race is None or race.places_final or race.state not in (Race.State.RUNNING, Race.State.FINISHED):
            return False
        changed = _move_on(race, now=now)
    if changed:
        room.race_changed(public_id)
    return changed


def _move_on(race: Race, *, now: datetime) -> bool:
    """Under the race's lock: seats with a stored result finished; seats away past the grace
    period or out of time out; the race over when no seat plays; places and ratings once every
    result is settled."""
    changed = False
    seats = list(race.seat_rows.select_related("game", "game__submission", "user"))
    if race.state == Race.State.RUNNING and now >= race.starts_at:
        challenge = race.kind == Race.Kind.CHALLENGE
        limit = race.deadline if challenge else ends_at(race)
        # A challenge is played when each player likes: no one is away from it.
        away_since = None if challenge else now - timedelta(seconds=settings.RACE_GRACE_SECONDS)
        for seat in seats:
            if seat.status != RaceSeat.Status.PLAYING:
                continue
            if seat.game.state != IssuedGame.State.ISSUED:
                seat.status = RaceSeat.Status.FINISHED
                seat_figures_settle(seat)
                seat.save(update_fields=["status", "moves", "foundation_cards", "time_ms"])
            elif limit is not None and now >= limit:
                _seat_out(seat, reason="time", now=now)
            elif away_since is not None and seat.last_seen_at < away_since:
                _seat_out(seat, reason="away", now=now)
            else:
                continue
            changed = True
        # A challenge waits for its second player until the deadline.
        waiting = challenge and len(seats) < race.seats and now < race.deadline
        if not waiting and all(seat.status != RaceSeat.Status.PLAYING for seat in seats):
            race.state, race.finished_at = Race.State.FINISHED, now
            race.save(update_fields=["state", "finished_at"])
            contest_games_unseal(game_ids=[seat.game_id for seat in seats])
            changed = True
            logger.info("race over", extra={"race": race.public_id})
    if race.state == Race.State.FINISHED and not race.places_final:
        results = {seat.pk: _result_of(seat) for seat in seats}
        if all(
            result is not None and result.status != Submission.Status.PENDING for result in results.values()
        ):
            race_places_settle(race=race, seats=seats, results=results, now=now)
            changed = True
    return changed


def _result_of(seat: RaceSeat) -> Submission | None:
    if seat.game_id is None:
        return None
    return Submission.objects.filter(game_id=seat.game_id).first()


def contest_results_changed(*, game_ids: list[int]) -> None:
    """A contest listener of games (games/results.py): a seat's result was stored or settled."""
    races = (
        Race.objects.filter(seat_rows__game_id__in=game_ids).values_list("public_id", flat=True).distinct()
    )
    for public_id in races:
        # A result settled changes the seat's figures the room shows (a verified result's own),
        # even when the race does not move on: told whether or not the tick changed anything.
        if not race_tick(public_id=public_id):
            room.race_changed(public_id)


def races_tick_running(*, now: datetime | None = None) -> int:
    """Tick every race that is running or waits for its places (the beat's task); how many changed."""
    public_ids = Race.objects.filter(
        state__in=[Race.State.RUNNING, Race.State.FINISHED], places_final=False
    ).values_list("public_id", flat=True)
    return sum(race_tick(public_id=public_id, now=now) for public_id in list(public_ids))
