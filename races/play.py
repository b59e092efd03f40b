"""A seat's play in a running race: its log replayed on the server (never the page's word),
its live figures kept for the room, and its player seen at the race."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.utils import timezone

from games.hidden.progress import Progress, game_progress_record
from races.errors import NotSeated, RaceNotFound, RaceNotRunning
from races.models import Race, RaceSeat


@dataclass(frozen=True)
class SeatFigures:
    """What the room is told of a seat's progress: figures only, never a card."""

    player: str
    status: str
    moves: int
    foundation_cards: int
    time_ms: int

    def to_dict(self) -> dict:
        return {
            "player": self.player,
            "status": self.status,
            "moves": self.moves,
            "foundation_cards": self.foundation_cards,
            "time_ms": self.time_ms,
        }


@dataclass(frozen=True)
class PlayingSeat:
    """A seat whose race runs: what its progress needs, read once (a socket keeps it)."""

    seat_id: int
    game_id: int
    player: str
    public_id: str
    told: bool = True  # its figures told to the room live (a race), or kept until the end (a challenge)


def playing_seat(*, user, public_id: str, now: datetime | None = None) -> PlayingSeat:
    """The player's seat in a running race. Refusals: RaceNotFound, NotSeated, RaceNotRunning."""
    now = now or timezone.now()
    seat = RaceSeat.objects.select_related("race").filter(race__public_id=public_id, user=user).first()
    if seat is None:
        if not Race.objects.filter(public_id=public_id).exists():
            raise RaceNotFound(f"there is no race {public_id}")
        raise NotSeated("you hold no seat in this race")
    race = seat.race
    if race.state != Race.State.RUNNING or seat.game_id is None or now < race.starts_at:
        raise RaceNotRunning("the race is not running")
    if seat.status != RaceSeat.Status.PLAYING:
        raise RaceNotRunning(f"your seat is {seat.status}")
    return PlayingSeat(seat.pk, seat.game_id, user.public_name, public_id, told=race.kind == Race.Kind.RACE)


def seat_progress_record(
    *, seat: PlayingSeat, user, log: str, move_times_ms: list[int], now: datetime | None = None
) -> SeatFigures:
    """Replay the player's log of their seat's game (games.hidden.progress.game_progress_record) and
    answer its figures, kept as the seat's live figures (`seat_figures_keep`). The game's row
    is the authority: a seat out, a race over, has its game finished, and the game refuses
    (GameAlreadyUsed), so a socket may keep its `seat`. Refusals: the game's
    (SubmissionInvalid, PrefixConflict, GameAlreadyUsed, GameNotStarted)."""
    progress: Progress = game_progress_record(
        user=user, game_id=seat.game_id, log=log, move_times_ms=move_times_ms, now=now
    )
    figures = SeatFigures(
        player=seat.player,
        status=RaceSeat.Status.PLAYING,
        moves=progress.moves,
        foundation_cards=progress.foundation_cards,
        time_ms=progress.time_ms,
    )
    seat_figures_keep(seat.seat_id, figures)
    return figures


# A seat's live figures are in the cache (Redis on the full stack), not written to its row at
# every move; the row takes them when the seat stops playing (`seat_figures_settle`).
FIGURES_KEY = "race-seat-figures:{}"
FIGURES_KEPT_SECONDS = 6 * 3600


def seat_figures_keep(seat_id: int, figures: SeatFigures) -> None:
    cache.set(
        FIGURES_KEY.format(seat_id),
        {"moves": figures.moves, "foundation_cards": figures.foundation_cards, "time_ms": figures.time_ms},
        FIGURES_KEPT_SECONDS,
    )


def seats_live_figures(seat_ids: list[int]) -> dict[int, dict]:
    """{seat id: {moves, foundation_cards, time_ms}} of the seats whose live figures are kept."""
    kept = cache.get_many([FIGURES_KEY.format(seat_id) for seat_id in seat_ids])
    return {seat_id: kept[key] for seat_id in seat_ids if (key := FIGURES_KEY.format(seat_id)) in kept}


def seat_figures_settle(seat: RaceSeat) -> None:
    """The seat's row takes its last live figures (it plays no more)."""
    live = seats_live_figures([seat.pk]).get(seat.pk)
    if live:
        seat.moves, seat.foundation_cards, seat.time_ms = (
            live["moves"],
            live["foundation_cards"],
            live["time_ms"],
        )


SEEN_EVERY = timedelta(seconds=5)


def seat_seen(*, user, public_id: str, now: datetime | None = None) -> bool:
    """The player is at the race (a ping, a connection). One UPDATE at most every 5 s a seat.
    True when the race is due a tick (running)."""
    now = now or timezone.now()
    RaceSeat.objects.filter(race__public_id=public_id, user=user, last_seen_at__lt=now - SEEN_EVERY).update(
        last_seen_at=now
    )
    return Race.objects.filter(public_id=public_id, state=Race.State.RUNNING).exists()
