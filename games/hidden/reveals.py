"""Reveals (docs/security.md, "Hidden-card games"): the server keeps the deal and tells each
face-down card when the player's log turns it up (`game_reveal`); the reads of a player's game
(`game_get_for_owner`, `game_reveals`, `game_known_deal`). A game is issued by
`games.issuing.services.game_issue(hidden=True)`."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine import CARD_NAMES, Game, dealt_card
from games.errors import (
    GameAlreadyUsed,
    GameNotFound,
    GameNotStarted,
    PrefixConflict,
    SubmissionInvalid,
)
from games.hidden.positions import RevealedCard, exposed_place, hidden_game_position
from games.hidden.record import prefix_conflict
from games.log_input import log_and_times_errors
from games.models import IssuedGame, Reveal
from games.selectors import game_expiry_cutoff


def _game_open_locked(*, user, game_id: int, now: datetime | None) -> tuple[IssuedGame, datetime]:
    """The player's hidden-card game that still accepts play, its row locked until the commit;
    and the time of the receipt, read once the lock is held (so reveals are recorded in order)."""
    try:
        game = IssuedGame.objects.select_for_update().get(pk=game_id, user=user, hidden=True)
    except IssuedGame.DoesNotExist:
        raise GameNotFound(f"you hold no hidden-card game {game_id}") from None
    now = now or timezone.now()
    if now < game.issued_at:
        raise _not_started(game)
    if game.state != IssuedGame.State.ISSUED:
        raise GameAlreadyUsed(f"game {game_id} is {game.state}: it reveals no more cards")
    if game.issued_at < game_expiry_cutoff(now=now):
        raise GameAlreadyUsed(f"game {game_id} is {IssuedGame.State.EXPIRED}: it reveals no more cards")
    return game, now


def log_tokens(log: str, times: list[int], *, empty: bool = False) -> list[str]:
    """The log's tokens, checked with their times (SubmissionInvalid); `empty`: "" is a log too."""
    if empty and not log.strip():
        return []
    tokens, errors = log_and_times_errors(log=log, times=times)
    if errors:
        raise SubmissionInvalid(errors)
    return tokens


def game_extended_locked(
    *, user, game_id: int, tokens: list[str], times: list[int], now: datetime | None
) -> tuple[IssuedGame, datetime]:
    """`_game_open_locked`, for a log that agrees with the game's recorded prefix (PrefixConflict)."""
    game, now = _game_open_locked(user=user, game_id=game_id, now=now)
    if problem := prefix_conflict(game, tokens=tokens, times=times, must_extend=False):
        raise PrefixConflict(problem)
    return game, now


def game_reveal(
    *, user, game_id: int, log: str, move_times_ms: list[int], now: datetime | None = None
) -> RevealedCard:
    """The card that the last move of `log` turns up in the player's hidden-card game.

    The log is replayed from the visible deal and the cards revealed so far, so every card it
    turned up before its last move must have been revealed. A new reveal is recorded with the
    log as the game's recorded prefix, which the log must extend (PrefixConflict). A place
    already revealed is answered again and nothing changes; the log may then also be a start
    of the recorded prefix. Refusals: SubmissionInvalid (field errors, an illegal token),
    GameNotFound, GameAlreadyUsed (finished, expired), PrefixConflict, NothingExposed.

    Three statements in the transaction: the locked read of the game's row (which holds the
    cards revealed so far), the Reveal row, the game's row written back.
    """
    tokens = log_tokens(log, move_times_ms)
    with transaction.atomic():
        game, now = game_extended_locked(
            user=user, game_id=game_id, tokens=tokens, times=move_times_ms, now=now
        )
        revealed = [RevealedCard(**entry) for entry in game.revealed]
        place = exposed_place(hidden_game_position(game, revealed), tokens)
        known = next((card for card in revealed if card.place == place), None)
        if known is not None:
            return known
        recorded = len(game.recorded_log.split())
        if len(tokens) <= recorded:
            raise PrefixConflict(
                f"the log has {len(tokens)} tokens, no more than the {recorded} the server has recorded "
                "for this game: a new card is revealed only to a log that extends them"
            )
        new = RevealedCard(*place, card=CARD_NAMES[dealt_card(game.code, place)], prefix_length=len(tokens))
        Reveal.objects.create(game=game, **new.to_dict(), page_time_ms=move_times_ms[-1], received_at=now)
        game.recorded_log = " ".join(tokens)
        game.recorded_times_ms = move_times_ms
        game.revealed = [*game.revealed, new.to_dict()]
        game.save(update_fields=["recorded_log", "recorded_times_ms", "revealed"])
    return new


# --- Progress of contest games -------------------------------------------------------------------


# --- Reads --------------------------------------------------------------------------------------


def game_get_for_owner(*, user, game_id: int, now: datetime | None = None) -> IssuedGame | None:
    """The player's issued game (hidden-card or not) with its reveals, or None. Raises
    GameNotStarted for a game whose start is still ahead (a race's seat during the countdown):
    its deal is not told before the start, to anyone."""
    game = IssuedGame.objects.filter(pk=game_id, user=user).prefetch_related("reveals").first()
    if game is not None and (now or timezone.now()) < game.issued_at:
        raise _not_started(game)
    return game


def _not_started(game: IssuedGame) -> GameNotStarted:
    return GameNotStarted(f"game {game.pk} starts at {game.issued_at.isoformat()}: wait for the start")


def game_reveals(game: IssuedGame) -> list[Reveal]:
    """The game's reveals in the order of its log."""
    return sorted(game.reveals.all(), key=lambda reveal: reveal.prefix_length)


def game_known_deal(game: IssuedGame) -> dict:
    """The deal as its player knows it (`VisibleDeal.to_dict()`): a hidden-card game's face-up
    and revealed cards, every other face-down card null; the whole deal of a game issued with
    its code."""
    if not game.hidden:
        return Game(game.code).known_deal().to_dict()
    return hidden_game_position(game, game_reveals(game)).known_deal().to_dict()


# --- Checks of a finished game's result (the verification's judge) -------------------------------
