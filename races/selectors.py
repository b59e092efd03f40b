"""Reads of races: the race as a player (or spectator) may see it, and the rating board."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Submission
from races.models import Race, RaceSeat, Rating
from races.play import seats_live_figures
from races.rating import new_skill
from races.services import ends_at

CONNECTED_WITHIN = timedelta(seconds=35)  # two pings (every 15 s) and some
NEW_RATING = round(new_skill().shown)


def race_get(public_id: str) -> Race | None:
    return Race.objects.filter(public_id=public_id).select_related("host", "rematch").first()


def _state(race: Race, now: datetime) -> str:
    if race.state == Race.State.RUNNING and now < race.starts_at:
        return "countdown"
    return race.state


def _shown_ratings(race: Race, user_ids: list[int]) -> dict[int, int]:
    rows = Rating.objects.filter(rules=race.rules, user_id__in=user_ids).values_list("user_id", "ordinal")
    return {user_id: round(ordinal) for user_id, ordinal in rows}


def race_view(race: Race, *, viewer=None, now: datetime | None = None) -> dict:
    """The race as docs/races.md shows it, for `viewer` (their seat marked `you`, their game's
    id once running). Figures only: no card of any seat; the deal's code and secret once over."""
    now = now or timezone.now()
    seats = list(race.seat_rows.select_related("user", "game"))
    results = {
        result.game_id: result
        for result in Submission.objects.filter(game_id__in=[s.game_id for s in seats if s.game_id]).only(
            "id", "game_id", "status", "won", "score", "moves", "duration_ms", "foundation_cards"
        )
    }
    ratings = _shown_ratings(race, [seat.user_id for seat in seats])
    playing = [seat.pk for seat in seats if seat.status == RaceSeat.Status.PLAYING and seat.game_id]
    live = seats_live_figures(playing) if playing else {}
    over = race.state == Race.State.FINISHED
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    state = _state(race, now)
    players = []
    your_game_id = None
    # A challenge's players play the deal one after the other: neither sees the other's figures
    # (a target to beat) before both are done.
    kept_back = race.kind == Race.Kind.CHALLENGE and not over
    for seat in seats:
        result = results.get(seat.game_id)
        figures = live.get(seat.pk) or {
            "moves": seat.moves,
            "foundation_cards": seat.foundation_cards,
            "time_ms": seat.time_ms,
        }
        if kept_back and seat.user_id != viewer_id:
            figures, result = dict.fromkeys(figures), None
        if seat.user_id == viewer_id and state == Race.State.RUNNING:
            your_game_id = seat.game_id
        rating = ratings.get(seat.user_id, NEW_RATING)
        players.append(_player_view(race, seat, result, figures, rating=rating, viewer_id=viewer_id, now=now))
    # A rematch everyone left before it started is none: the next to ask makes another.
    rematch = race.rematch if race.rematch_id and race.rematch.state != Race.State.CANCELLED else None
    _rematch_answers(rematch, seats, players)
    limit = ends_at(race)
    return {
        "id": race.public_id,
        "kind": race.kind,
        "url": f"/race/{race.public_id}",
        "rules": race.rules,
        "seats": race.seats,
        "time_limit_minutes": race.time_limit_minutes,
        "state": state,
        "host": race.host.public_name,
        "now": now,
        "created_at": race.created_at,
        "starts_at": race.starts_at,
        "ends_at": limit,
        "deadline": race.deadline,
        "finished_at": race.finished_at,
        "grace_seconds": settings.RACE_GRACE_SECONDS,
        "commitment": race.commitment or None,
        "code": race.code if over else None,
        "secret": race.secret if over else None,
        "places_final": race.places_final,
        "rematch_id": rematch.public_id if rematch else None,
        "your_rematch": _your_rematch(rematch, players),
        "your_game_id": your_game_id,
        "players": players,
    }


def _player_view(
    race: Race, seat: RaceSeat, result: Submission | None, figures: dict, *, rating, viewer_id, now: datetime
) -> dict:
    """One seat as race_view shows it: a verified result's figures, else the seat's live ones."""
    over = race.state == Race.State.FINISHED
    settled = result is not None and result.status != Submission.Status.PENDING
    verified = settled and result.status == Submission.Status.VERIFIED
    return {
        "name": seat.user.public_name,
        "host": seat.user_id == race.host_id,
        "you": seat.user_id == viewer_id,
        "rating": rating,
        "connected": seat.last_seen_at >= now - CONNECTED_WITHIN,
        "status": "waiting" if race.state == Race.State.LOBBY else seat.status,
        "out_reason": seat.out_reason or None,
        "foundation_cards": result.foundation_cards if verified else figures["foundation_cards"],
        "moves": result.moves if verified else figures["moves"],
        "time_ms": result.duration_ms if verified else figures["time_ms"],
        "result": result.status if result is not None else None,
        "won": result.won if verified else None,
        "score": result.score if verified else None,
        "place": seat.place,
        "rating_change": (
            round(seat.rating_after) - round(seat.rating_before) if seat.rating_after is not None else None
        ),
        "rating_after": round(seat.rating_after) if seat.rating_after is not None else None,
        "replay_url": f"/replay/{result.pk}" if over and settled else None,
    }


def _rematch_answers(rematch: Race | None, seats: list[RaceSeat], players: list[dict]) -> None:
    """Each player's answer to the race's `rematch`: its `host`, `seated` in it (accepted),
    `declined`, or null (not asked for, or no answer yet)."""
    seated = set(rematch.seat_rows.values_list("user_id", flat=True)) if rematch else set()
    rematch_host = rematch.host_id if rematch else None
    for seat, player in zip(seats, players, strict=True):
        if seat.user_id == rematch_host:
            answer = "host"
        elif seat.user_id in seated:
            answer = "seated"
        else:
            answer = "declined" if seat.rematch_declined else None
        player["rematch"] = answer


def _your_rematch(rematch: Race | None, players: list[dict]) -> str | None:
    """The viewer's side of the `rematch`: `seated` in it (its host too), `declined`, `offered`
    while it still takes players, or null (no rematch, or not one of the race's players)."""
    you = next((player for player in players if player["you"]), None)
    if you is None or rematch is None:
        return None
    if you["rematch"] in ("host", "seated"):
        return "seated"
    if you["rematch"] == "declined":
        return "declined"
    open_lobby = rematch.kind == Race.Kind.RACE and rematch.state == Race.State.LOBBY
    open_challenge = rematch.kind == Race.Kind.CHALLENGE and rematch.state == Race.State.RUNNING
    return "offered" if open_lobby or open_challenge else None


def rating_board(*, rules: str, limit: int = 50) -> list[dict]:
    """The best race ratings of a rule set."""
    rows = (
        Rating.objects.filter(rules=rules, user__is_active=True)
        .select_related("user")
        .order_by("-ordinal", "user_id")
    )
    return [
        {"rank": index, "name": row.user.public_name, "rating": round(row.ordinal), "races": row.races}
        for index, row in enumerate(rows[:limit], start=1)
    ]


def player_ratings(*, user) -> list[dict]:
    """The player's race ratings, one per rule set raced."""
    return [
        {"rules": row.rules, "rating": round(row.ordinal), "races": row.races}
        for row in Rating.objects.filter(user=user).order_by("rules")
    ]


def seat_of(*, user, public_id: str) -> RaceSeat | None:
    return RaceSeat.objects.filter(race__public_id=public_id, user=user).first()
