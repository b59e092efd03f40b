"""Progress of contest games: a log replayed without a reveal, for the figures a race shows
(`game_progress_record`), and a seat settled from its recorded prefix (`game_result_from_record`)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.errors import (
    SubmissionInvalid,
)
from games.hidden.positions import RevealedCard, hidden_game_position, log_play
from games.hidden.reveals import game_extended_locked, log_tokens
from games.models import IssuedGame, Submission
from games.submissions.queue import submissions_verify_soon


@dataclass(frozen=True)
class Progress:
    """A hidden-card game's figures at the end of a replayed log: what a race tells the room."""

    moves: int
    foundation_cards: int
    time_ms: int
    won: bool


def game_progress_record(
    *, user, game_id: int, log: str, move_times_ms: list[int], now: datetime | None = None
) -> Progress:
    """Replay the player's log of a hidden-card game from the visible deal and the cards revealed
    to it, record it as the game's prefix, and answer its figures (never the page's word).

    The log must extend the recorded prefix (PrefixConflict); a log shorter than it is a message
    overtaken by a later one and changes nothing. A last move that turns up a card not yet
    revealed counts in the figures, but is recorded only with its reveal (`game_reveal` then
    extends the record). Refusals: SubmissionInvalid (field errors, an illegal token, a move on
    after an unrevealed card), GameNotFound, GameAlreadyUsed, PrefixConflict.
    """
    tokens = log_tokens(log, move_times_ms, empty=True)
    with transaction.atomic():
        game, now = game_extended_locked(
            user=user, game_id=game_id, tokens=tokens, times=move_times_ms, now=now
        )
        recorded = len(game.recorded_log.split())
        if len(tokens) < recorded:
            tokens, move_times_ms = game.recorded_log.split(), list(game.recorded_times_ms)
        position = hidden_game_position(game, [RevealedCard(**entry) for entry in game.revealed])
        if error := log_play(position, tokens):
            raise SubmissionInvalid({"log": [error]})
        keep = len(tokens) - 1 if position.awaiting_reveal is not None else len(tokens)
        if keep > recorded:
            game.recorded_log = " ".join(tokens[:keep])
            game.recorded_times_ms = move_times_ms[:keep]
            game.save(update_fields=["recorded_log", "recorded_times_ms"])
    return Progress(
        moves=position.moves_made,
        foundation_cards=position.foundation_cards,
        time_ms=move_times_ms[-1] if move_times_ms else 0,
        won=position.is_won(),
    )


def game_result_from_record(*, game_id: int, now: datetime | None = None) -> Submission | None:
    """Settle a player's unfinished hidden-card game from the prefix the server recorded: the
    game finished and that log stored as its result, a normal pending submission that the same
    replay verifies (a race's seat that left, dropped out or ran out of time). None when the
    game has a result already."""
    now = now or timezone.now()
    with transaction.atomic():
        open_games = IssuedGame.objects.select_for_update().filter(state=IssuedGame.State.ISSUED)
        game = open_games.filter(pk=game_id).first()
        if game is None:
            return None
        times = list(game.recorded_times_ms)
        submission = Submission.objects.create(
            client_id=uuid.uuid4(),
            user_id=game.user_id,
            game=game,
            code=game.code,
            rules=game.rules,
            ranked=True,
            log=game.recorded_log,
            move_times_ms=times,
            duration_ms=times[-1] if times else 0,
            client_finished_at=now,
            client_version="server: recorded prefix",
            body_hash="",
            received_at=now,
        )
        game.state, game.finished_at = IssuedGame.State.FINISHED, now
        game.save(update_fields=["state", "finished_at"])
        transaction.on_commit(submissions_verify_soon, robust=True)
    return submission
