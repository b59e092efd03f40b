"""Hints: the next move of a win, searched off the web request (docs/operations.md, "Hints").

A hint is asked with `hint_ask` (POST /api/hint/). The web process only checks the request and
reads what is already known, a few milliseconds of work:

- the answer kept for that position (`hints:position:<key>`): every search keeps its answer for
  the position it started from and, when it found a win, for every position along the winning
  line, so the next hints of a player who follows it are read, not searched;
- the deal's stored winning line (`SolvedDeal.solution`), when the game has followed it so far.

Otherwise the search is sent to the `hints` queue (`games.hint_search`), consumed by a worker of
its own at the lowest CPU priority, one search at a time: the total CPU of hints is one such
process whatever the number of players. The answer is then `202` with a ticket, which the page
reads with `hint_read` (GET /api/hint/<ticket>/) until the answer is there. A search not started
within SOLVER_HINT_QUEUE_SECONDS is dropped by the worker (Celery `expires`), so a flood of
hints never builds a backlog: its tickets answer `solver_busy`.

Without a broker (eager mode, `make run`) the task runs in the web process during the request,
one search at a time per process (a lock), each within SOLVER_HINT_TIME_LIMIT.

A hint is recorded (`HintUse`) when its answer is given to the player, before the response is
sent: every result of that player on that code received afterwards is assisted.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from games.engine import Game, GameCode, InvalidCodeError, verify
from games.errors import HintOnRankedGame, HintTicketUnknown, SubmissionInvalid
from games.models import HintUse, IssuedGame, SolvedDeal
from games.selectors import deal_under_wraps
from games.solver import Position, solve
from games.task_queue import BROKER_ERRORS, HINT_SEARCH
from yukon_site.celery import task_named

logger = logging.getLogger(__name__)

POSITION_KEY = "hints:position:{key}"  # the answer for a position: a move token, or a code below
SEARCHING_KEY = "hints:searching:{key}"  # a search of that position is queued or running
TICKET_KEY = "hints:ticket:{ticket}"  # a player's wait for a search: {"user": id, "code", "key"}
POSITION_SECONDS = 24 * 3600
TICKET_SECONDS = 300

NO_WIN = "no_win"
NO_WIN_FOUND = "no_win_found"
GAME_WON = "game_won"
SOLVER_BUSY = "solver_busy"
REASONS = {
    NO_WIN: "there is no win from here",
    NO_WIN_FOUND: "no win found from here",
    GAME_WON: "the game is already won",
    SOLVER_BUSY: "the solver is busy: ask again in a moment",
}


def searching_seconds() -> int:
    """How long a position counts as being searched: queued at most SOLVER_HINT_QUEUE_SECONDS,
    then searched for SOLVER_HINT_TIME_LIMIT (a worker lost meanwhile: it stops counting then)."""
    return int(settings.SOLVER_HINT_QUEUE_SECONDS + settings.SOLVER_HINT_TIME_LIMIT) + 5


# Eager mode: one search at a time in a process, whatever its threads.
_eager_search = threading.Lock()


@dataclass(frozen=True)
class Hint:
    """A move, or why there is none (`code`); or, while the search runs, the `ticket` to read it with."""

    move: str | None = None
    code: str = ""  # no_win, no_win_found, game_won, solver_busy
    ticket: str = ""

    @property
    def searching(self) -> bool:
        return bool(self.ticket)

    @property
    def reason(self) -> str:
        return REASONS.get(self.code, "")


def position_key(position: Position | Game) -> str:
    """The same key for the same cards in the same places, however the game reached them."""
    text = "|".join(
        [
            position.rules.value,
            ";".join(",".join(str(card) for card in column) for column in position.columns),
            ",".join(map(str, position.face_down)),
            ",".join(map(str, position.foundations)),
        ]
    )
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def hint_ask(*, user, code: str, log: str, now: datetime | None = None) -> Hint:
    """A hint for the game `log` has reached on `code`: the move (or why none) when it is known or
    found at once, else a ticket for `hint_read`.

    Refuses the code of the player's own unfinished ranked game issued with its code
    (HintOnRankedGame). A game already won gets no hint and records nothing.
    """
    game_code, tokens = _checked(code=code, log=log)
    _refuse_ranked(user=user, code=str(game_code))
    verdict = verify(game_code, tokens)
    if verdict.error is not None:
        error = verdict.error
        raise SubmissionInvalid(
            {"log": [{"index": error.index, "token": error.token, "code": error.code, "message": str(error)}]}
        )
    if verdict.won:
        return Hint(code=GAME_WON)
    position = Position.from_log(game_code, log)
    key = position_key(position)
    known = cache.get(POSITION_KEY.format(key=key))
    if known is None:
        # The stored line is read for every deal alike; a deal under wraps is then searched as a
        # deal nobody has solved would be: neither the answer nor its time confirms a guessed code.
        stored = _on_stored_line(position)
        known = None if deal_under_wraps(code=str(game_code), now=now) else stored
    if known is None:
        if cache.add(SEARCHING_KEY.format(key=key), 1, searching_seconds()):
            if not _search_send(code=str(game_code), log=log, key=key):
                return Hint(code=SOLVER_BUSY)  # the broker does not answer: no search to wait for
        known = cache.get(POSITION_KEY.format(key=key))  # eager mode: searched meanwhile
    if known is None:
        ticket = secrets.token_urlsafe(16)
        wait = {"user": user.pk, "code": str(game_code), "key": key}
        cache.set(TICKET_KEY.format(ticket=ticket), wait, TICKET_SECONDS)
        return Hint(ticket=ticket)
    return _given(user=user, code=str(game_code), answer=known, now=now)


def hint_read(*, user, ticket: str, now: datetime | None = None) -> Hint:
    """The answer of a search `hint_ask` sent: still a ticket while it runs; `solver_busy` when the
    search was dropped (not started in time, or its worker lost). Only its own player reads it."""
    wait = cache.get(TICKET_KEY.format(ticket=ticket))
    if not isinstance(wait, dict) or wait.get("user") != user.pk:
        raise HintTicketUnknown("no such hint: not asked by this player, or over 5 minutes old")
    key = wait["key"]
    known = cache.get(POSITION_KEY.format(key=key))
    if known is None:
        if cache.get(SEARCHING_KEY.format(key=key)) is not None:
            return Hint(ticket=ticket)
        cache.delete(TICKET_KEY.format(ticket=ticket))
        return Hint(code=SOLVER_BUSY)
    cache.delete(TICKET_KEY.format(ticket=ticket))
    return _given(user=user, code=wait["code"], answer=known, now=now)


def hint_search(*, code: str, log: str) -> str | None:
    """Search the position `log` reaches on `code` (the task `games.hint_search`) and keep the
    answer for it and for every position of the winning line found; the answer, or None when
    another search held the process (eager mode)."""
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    if eager and not _eager_search.acquire(timeout=settings.SOLVER_HINT_TIME_LIMIT):
        return None
    try:
        position = Position.from_log(code, log)
        solution = solve(
            position, time_limit=settings.SOLVER_HINT_TIME_LIMIT, max_nodes=settings.SOLVER_HINT_MAX_NODES
        )
    finally:
        if eager:
            _eager_search.release()
    if solution.won:
        answers = _line_answers(position, [str(move) for move in solution.moves])
        answer = answers[POSITION_KEY.format(key=position_key(position))]
    else:
        answer = NO_WIN if solution.result == SolvedDeal.Result.UNWINNABLE else NO_WIN_FOUND
        answers = {POSITION_KEY.format(key=position_key(position)): answer}
    cache.set_many(answers, POSITION_SECONDS)
    logger.info("hint searched", extra={"code": code, "result": solution.result, "seconds": solution.seconds})
    return answer


def hint_search_done(*, code: str, log: str) -> None:
    """After the task, searched or dropped: the position is no longer being searched."""
    try:
        key = position_key(Position.from_log(code, log))
    except (InvalidCodeError, ValueError):
        return
    cache.delete(SEARCHING_KEY.format(key=key))


# --- Helpers ---------------------------------------------------------------------------------------


def _checked(*, code: str, log: str) -> tuple[GameCode, list[str]]:
    try:
        game_code = GameCode.parse(code)
    except InvalidCodeError as error:
        raise SubmissionInvalid({"code": [str(error)]}) from None
    tokens = log.split()
    if len(tokens) > settings.SUBMISSION_MAX_TOKENS:
        raise SubmissionInvalid(
            {"log": [f"the log has {len(tokens)} tokens; at most {settings.SUBMISSION_MAX_TOKENS}"]}
        )
    return game_code, tokens


def _refuse_ranked(*, user, code: str) -> None:
    """A hint on the code of the player's own ranked game issued with its code, not finished.

    Nothing else is refused: a hidden-card game's code is named by no answer while it is in
    play, so a hint asked for a code answers alike whether or not anyone plays that deal (a
    refusal would confirm a guess; docs/security.md, "No answer confirms a guess"). A hint on
    a guessed code is still recorded: the player's result on that code is assisted."""
    in_play = (
        IssuedGame.objects.filter(user=user, code=code, hidden=False)
        .exclude(state=IssuedGame.State.FINISHED)
        .values_list("pk", flat=True)
        .first()
    )
    if in_play is not None:
        raise HintOnRankedGame(f"no hints on a ranked game: game {in_play} is not finished")


def _on_stored_line(position: Position) -> str | None:
    """The next move of the deal's stored win (pool, par, daily deal) when the game has played
    exactly its first moves so far."""
    if position.code is None:
        return None
    line = (
        SolvedDeal.objects.filter(code=str(position.code), result=SolvedDeal.Result.WON)
        .values_list("solution", flat=True)
        .first()
    )
    played = [str(move) for move in position.history]
    moves = (line or "").split()
    if len(moves) > len(played) and moves[: len(played)] == played:
        return moves[len(played)]
    return None


def _line_answers(position: Position, moves: list[str]) -> dict[str, str]:
    """Cache entries: each position of a winning line → its next move."""
    game = position.game()
    answers = {}
    for token in moves:
        answers.setdefault(POSITION_KEY.format(key=position_key(game)), token)
        game.play(token)
    return answers


def _search_send(*, code: str, log: str, key: str) -> bool:
    """Queue the search of a position; False when the broker (Redis) does not answer."""
    try:
        task_named(HINT_SEARCH).apply_async((code, log), expires=settings.SOLVER_HINT_QUEUE_SECONDS)
    except BROKER_ERRORS as error:
        cache.delete(SEARCHING_KEY.format(key=key))
        logger.warning("hint search not sent: no broker", extra={"error": repr(error)[:300]})
        return False
    return True


def _given(*, user, code: str, answer: str, now: datetime | None) -> Hint:
    HintUse.objects.create(user=user, code=code, created_at=now or timezone.now())
    logger.info("hint given", extra={"user_id": user.pk, "code": code, "answer": answer})
    if answer in REASONS:
        return Hint(code=answer)
    return Hint(move=answer)
