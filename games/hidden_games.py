"""Hidden-card ranked games (docs/security.md, "Hidden-card games"): the server keeps the deal and
tells each face-down card when the player's log turns it up.

Writes: `game_reveal`, and for contest games `game_progress_record` (a log replayed without a
reveal, for the figures a race shows) and `game_result_from_record` (a seat settled from its
recorded prefix). Reads: `game_get_for_owner`, `game_known_deal`. Checks of a finished
game's result, called by the verification's judge: `unrevealed_card_problem`, `hidden_game_problem`.
A game is issued by `games.services.game_issue(hidden=True)`.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import CARD_NAMES, Game, HiddenCardGame, Place, Refusal, dealt_card, visible_deal
from games.errors import (
    GameAlreadyUsed,
    GameNotFound,
    GameNotStarted,
    NothingExposed,
    PrefixConflict,
    SubmissionInvalid,
)
from games.hidden_record import prefix_conflict, prefix_mismatch
from games.models import IssuedGame, Reveal, Submission
from games.selectors import game_expiry_cutoff
from games.services import log_and_times_errors


@dataclass(frozen=True)
class RevealedCard:
    """A face-down card told to the player: its place, its name (like TD), and the length of the
    log that turned it up. What a reveal answers; a game's row keeps a copy of each
    (`IssuedGame.revealed`, as `to_dict()`) beside its Reveal row."""

    column: int
    depth: int
    card: str
    prefix_length: int

    @property
    def place(self) -> Place:
        return Place(self.column, self.depth)

    def to_dict(self) -> dict:
        """The Reveal row's fields of the same names: {"column", "depth", "card", "prefix_length"}."""
        return {
            "column": self.column,
            "depth": self.depth,
            "card": self.card,
            "prefix_length": self.prefix_length,
        }


# --- Replaying a log without the face-down cards it has not turned up ---------------------------


def hidden_game_position(game: IssuedGame, reveals: Iterable[Reveal | RevealedCard]) -> HiddenCardGame:
    """The game at its deal as its player knows it: the face-up cards and the cards revealed."""
    revealed = {(reveal.column, reveal.depth): reveal.card for reveal in reveals}
    return HiddenCardGame.from_visible(visible_deal(game.code), revealed)


def _play(position: HiddenCardGame, tokens: list[str], *, first_index: int = 0) -> dict | None:
    """Play `tokens`; the first refused as {index, token, code, message} (a field error of `log`)."""
    for index, token in enumerate(tokens, start=first_index):
        try:
            position.play(token)
        except Refusal as error:
            message = f"move {index + 1} `{token}`: {error.message}"
            return {"index": index, "token": token, "code": error.code, "message": message}
    return None


def _exposed_place(position: HiddenCardGame, tokens: list[str]) -> Place:
    """Replay the log; the face-down place its last token turns up. Raises SubmissionInvalid
    (a refused token: `unknown_card` for a move after a card turned up and not revealed) or
    NothingExposed."""
    *before, last = tokens
    error = _play(position, before)
    face_down = position.face_down
    if error is None:
        error = _play(position, [last], first_index=len(before))
    if error is not None:
        raise SubmissionInvalid({"log": [error]})
    for column, (hidden_before, hidden_now) in enumerate(zip(face_down, position.face_down, strict=True)):
        if hidden_now < hidden_before:
            return Place(column, hidden_now)
    raise NothingExposed(f"move {len(tokens)} `{last}`, the last of the log, turns up no face-down card")


# --- Reveals ------------------------------------------------------------------------------------


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


def _log_tokens(log: str, times: list[int], *, empty: bool = False) -> list[str]:
    """The log's tokens, checked with their times (SubmissionInvalid); `empty`: "" is a log too."""
    if empty and not log.strip():
        return []
    tokens, errors = log_and_times_errors(log=log, times=times)
    if errors:
        raise SubmissionInvalid(errors)
    return tokens


def _game_extended_locked(
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
    tokens = _log_tokens(log, move_times_ms)
    with transaction.atomic():
        game, now = _game_extended_locked(
            user=user, game_id=game_id, tokens=tokens, times=move_times_ms, now=now
        )
        revealed = [RevealedCard(**entry) for entry in game.revealed]
        place = _exposed_place(hidden_game_position(game, revealed), tokens)
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
    tokens = _log_tokens(log, move_times_ms, empty=True)
    with transaction.atomic():
        game, now = _game_extended_locked(
            user=user, game_id=game_id, tokens=tokens, times=move_times_ms, now=now
        )
        recorded = len(game.recorded_log.split())
        if len(tokens) < recorded:
            tokens, move_times_ms = game.recorded_log.split(), list(game.recorded_times_ms)
        position = hidden_game_position(game, [RevealedCard(**entry) for entry in game.revealed])
        if error := _play(position, tokens):
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
        from games.verification import submissions_verify_soon

        transaction.on_commit(submissions_verify_soon, robust=True)
    return submission


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


def hidden_game_problem(*, submission: Submission) -> tuple[str, str, dict] | None:
    """(code, reason, figures) when a hidden-card game's legal result is not a game its player could have
    played as shown: `prefix_conflict` (`hidden_log_problem`), then `timing_reveals`
    (`reveals_timing_problem`). A log that plays on past a card never revealed is refused before
    the deal is replayed at all (`unrevealed_card_problem`)."""
    return hidden_log_problem(
        game=submission.game, tokens=submission.log.split(), times=submission.move_times_ms
    ) or reveals_timing_problem(submission=submission)


def unrevealed_card_problem(*, game: IssuedGame, tokens: list[str]) -> tuple[str, str, dict, dict] | None:
    """(`unrevealed_card`, reason, figures, the position's figures) when the log plays on after a
    card it turned up and the server never revealed to this game, else None.

    The log is replayed from what the player was shown (the face-up cards and the reveals), never
    from the deal, and stops at that move: the answer is the same whatever the log holds past it,
    so a refusal cannot tell whether a move there named the hidden card rightly."""
    position = hidden_game_position(game, list(game.reveals.all()))
    error = _play(position, tokens)
    waiting = position.awaiting_reveal  # the place whose card never came (the position stopped there)
    if error is None or waiting is None:
        return None  # legal as shown, or refused for a reason the whole deal's replay gives alike
    figures = {"move": error["index"] + 1, "token": error["token"], "column": waiting.column + 1}
    reason = f"{error['message']}; the server never revealed it to this game"
    position_figures = {
        "moves": position.moves_made,
        "foundation_cards": position.foundation_cards,
        "score": position.ranked_score(),
        "points": position.points,
    }
    return "unrevealed_card", reason, figures, position_figures


def hidden_log_problem(
    *, game: IssuedGame, tokens: list[str], times: list[int]
) -> tuple[str, str, dict] | None:
    """(`prefix_conflict`, reason, figures) when a hidden-card game's legal log does not extend
    the prefix the server recorded: it is not the game its player was shown."""
    if mismatch := prefix_mismatch(game, tokens=tokens, times=times, must_extend=True):
        return ("prefix_conflict", *mismatch)
    return None


def reveals_timing_problem(*, submission: Submission) -> tuple[str, str, dict] | None:
    """(`timing_reveals`, reason, figures) when the page counted more play between two of the server's
    marks than its clock saw pass between them, by more than REVEAL_CLOCK_TOLERANCE_MS. The marks:
    the game's issue (page time 0), each reveal (the page's time at the move that turned the card
    up, the server's receipt), the result (its duration, its receipt). One-sided: the page's clock
    stops while it is hidden. Every pair is checked, not only neighbours, so the tolerance is
    granted once: 21 reveals cannot bank 21 tolerances of invented play."""
    game = submission.game
    tolerance = settings.REVEAL_CLOCK_TOLERANCE_MS
    # (words, the reveal's move or None, page time, server time); figures: None = the issue or the result
    marks = [("the game's issue", None, 0, game.issued_at)]
    for reveal in game_reveals(game):
        words = f"the reveal at move {reveal.prefix_length}"
        marks.append((words, reveal.prefix_length, reveal.page_time_ms, reveal.received_at))
    marks.append(("this result", None, submission.duration_ms, submission.received_at))

    def server_ms(at: datetime) -> int:
        return int((at - game.issued_at).total_seconds() * 1000)

    behind = marks[0]  # the earlier mark where the page's clock was furthest behind the server's
    for mark in marks[1:]:
        (since, since_move, page_from, server_from), (until, until_move, page_to, server_to) = behind, mark
        played_ms, passed_ms = page_to - page_from, server_ms(server_to) - server_ms(server_from)
        if played_ms > passed_ms + tolerance:
            figures = {
                "played_ms": played_ms,
                "passed_ms": passed_ms,
                "tolerance_ms": tolerance,
                "since_move": since_move,
                "until_move": until_move,
            }
            return (
                "timing_reveals",
                (
                    f"the page counted {played_ms} ms of play between {since} and {until}, but only "
                    f"{passed_ms} ms passed on the server (tolerance {tolerance} ms)"
                ),
                figures,
            )
        if page_to - server_ms(server_to) < page_from - server_ms(server_from):
            behind = mark
    return None
