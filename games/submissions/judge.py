"""The judge: the verdict on one submission, from its log replayed on the server (pure: it reads
the row, its game and its player, and writes nothing; `games.submissions.settle` stores it)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from dataclasses import field as dataclass_field

from django.conf import settings

from accounts.models import User
from games.engine import InvalidCodeError, verify
from games.engine.errors import REFUSAL_CODES
from games.engine.move import MOVES_BY_TEXT, UNDO
from games.engine.verify import replay
from games.hidden.checks import hidden_game_problem, unrevealed_card_problem
from games.models import Submission

Status = Submission.Status


@dataclass(frozen=True)
class Judgement:
    status: str
    won: bool | None = None
    moves: int | None = None
    foundation_cards: int | None = None
    score: int | None = None
    points: int | None = None
    reason_code: str = ""
    reason: str = ""
    reason_params: dict = dataclass_field(default_factory=dict)

    @property
    def counts(self) -> bool:
        """Whether the result may enter boards (the leaderboard decides which)."""
        return self.status == Status.VERIFIED and bool(self.won)

    def fields(self) -> dict:
        return asdict(self)


# Every code of a rejected result (`Submission.reason_code`): the engine's refusal of a move
# (its figures those of refusals.js, with `move` and `token`), then the server's own checks.
# The page words each from the code and `reason_params` (docs/api.md, "Rejected").
SERVER_REJECTION_PARAMS = {
    "suspended": ("note",),
    "game_not_issued": (),
    "game_used": (),
    "bad_code": ("code",),
    "timing_duration": ("duration_ms", "available_ms"),
    "timing_move": ("move", "token", "gap_ms", "minimum_ms"),
    "timing_average": ("moves", "span_ms", "average_ms", "minimum_ms"),
    "prefix_conflict": ("variant", "move", "token", "recorded", "time_ms", "recorded_ms", "tokens", "sent"),
    "unrevealed_card": ("move", "token", "column"),
    "timing_reveals": ("played_ms", "passed_ms", "tolerance_ms", "since_move", "until_move"),
}
REJECTION_CODES = (*REFUSAL_CODES, *SERVER_REJECTION_PARAMS)

Problem = tuple[str, str, dict]  # (code, the English reason, its figures)


def _rejected(code: str, reason: str, params: dict | None = None, **figures) -> Judgement:
    return Judgement(
        status=Status.REJECTED,
        won=False,
        reason_code=code,
        reason=reason[:300],
        reason_params=params or {},
        **figures,
    )


def _refused_move_params(code: str, tokens: list[str], error) -> dict:
    """The figures of the log's refused move: its number and token, and the refusal's own."""
    position, _ = replay(code, tokens[: error.index])
    move = MOVES_BY_TEXT.get(error.token)
    params = position.refusal_params(error.code, move) if move is not None else {}
    return {"move": error.index + 1, "token": error.token, **params}


def timing_problem(*, submission: Submission, tokens: list[str], moves: int) -> Problem | None:
    """(code, reason, figures) when the times are beyond a human, else None. Thresholds are settings.

    The times are the page's clock at each token: it starts with the first move, so the first
    time is 0 (pages that counted from the deal being shown send more; both are judged alike).
    Only what lies between tokens is measured: the gap from one token to the next (move 1 has
    no predecessor; an undo may come at once), and the average gap between the first move and
    the last. The active time may not exceed what passed between the game's issue and receipt.
    """
    times = submission.move_times_ms
    game = submission.game
    if game is not None:
        available_ms = (submission.received_at - game.issued_at).total_seconds() * 1000
        if submission.duration_ms > available_ms:
            figures = {"duration_ms": submission.duration_ms, "available_ms": int(available_ms)}
            return (
                "timing_duration",
                (
                    f"the game lasted {submission.duration_ms} ms, but only {int(available_ms)} ms passed "
                    "between its issue and this result"
                ),
                figures,
            )
    minimum = settings.SUBMISSION_MIN_MOVE_MS
    for index in range(1, len(tokens)):
        token, gap = tokens[index], times[index] - times[index - 1]
        if token != UNDO and gap < minimum:
            figures = {"move": index + 1, "token": token, "gap_ms": gap, "minimum_ms": minimum}
            return (
                "timing_move",
                (
                    f"move {index + 1} `{token}` came {gap} ms after the previous one; "
                    f"no one plays faster than {minimum} ms"
                ),
                figures,
            )
    average_minimum = settings.SUBMISSION_MIN_AVERAGE_MOVE_MS
    gaps = moves - 1  # the first move is not timed
    if gaps > 0 and times:
        span = times[-1] - times[0]
        if span / gaps < average_minimum:
            figures = {
                "moves": moves,
                "span_ms": span,
                "average_ms": span // gaps,
                "minimum_ms": average_minimum,
            }
            return (
                "timing_average",
                (
                    f"{moves} moves in {span} ms from the first to the last: {span // gaps} ms a move "
                    f"on average, under the human minimum of {average_minimum} ms"
                ),
                figures,
            )
    return None


def submission_judge(
    *,
    submission: Submission,
    player_suspended: bool,
    suspension_reason: str = "",
    game_used: bool | None = None,
) -> Judgement:
    """The verdict on one submission; reads nothing but the row, its game (a hidden-card game's
    reveals too) and the given flags.

    `game_used`: whether another submission holds the row's game (looked up when not given)."""
    if player_suspended:
        note = suspension_reason
        return _rejected("suspended", f"the player is suspended: {note or 'by the staff'}", {"note": note})
    game = submission.game
    if submission.ranked:
        if game is None or game.user_id != submission.user_id:
            return _rejected("game_not_issued", "this game was not issued to this player")
        if game_used is None:
            game_used = Submission.objects.filter(game_id=game.pk).exclude(pk=submission.pk).exists()
        if game_used:
            return _rejected("game_used", "this game already has a result")
    tokens = submission.log.split()
    if game is not None and game.hidden and (unrevealed := unrevealed_card_problem(game=game, tokens=tokens)):
        code, reason, params, figures = unrevealed  # docs/security.md, "No refusal confirms a guess"
        return _rejected(code, reason, params, **figures)
    try:
        verdict = verify(submission.code, tokens)
    except InvalidCodeError as error:
        return _rejected("bad_code", str(error), {"code": submission.code})
    figures = {
        "moves": verdict.moves,
        "foundation_cards": verdict.foundation_cards,
        "score": verdict.score,
        "points": verdict.points,
    }
    if verdict.error is not None:
        params = _refused_move_params(submission.code, tokens, verdict.error)
        return _rejected(verdict.error.code, str(verdict.error), params, **figures)
    if problem := timing_problem(submission=submission, tokens=tokens, moves=verdict.moves):
        return _rejected(*problem, **figures)
    if game is not None and game.hidden and (problem := hidden_game_problem(submission=submission)):
        return _rejected(*problem, **figures)  # docs/security.md, "Hidden-card games"
    return Judgement(status=Status.VERIFIED, won=verdict.won, **figures)


def judge_locked(submission: Submission) -> Judgement:
    """Judge inside a transaction, with the player's row locked against a concurrent suspension."""
    player = None
    if submission.user_id is not None:
        player = User.objects.select_for_update().filter(pk=submission.user_id).first()
    return submission_judge(
        submission=submission,
        player_suspended=bool(player and player.is_suspended),
        suspension_reason=player.suspension_reason if player else "",
    )
