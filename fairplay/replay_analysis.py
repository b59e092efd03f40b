"""The analysis shown to every player on a replay (docs/fairplay.md, "On the replay"): for a
race's game that was not won, whether its deal could be won, the first move after which it could
no longer be, and a move there that would have kept it. Read from the game's fair-play analysis,
which anyone watching may ask for (rate-limited; the same analysis, run once, on its own worker);
nothing of the fair-play scores is told.

A replay is watchable only once its deal may be named (games/replays/selectors.py), so what this
tells of the deal is public already: anyone may replay the code with the solver."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction

from fairplay.models import GameAnalysis
from fairplay.services import analysis_ask, verdict_budget
from games.models import Submission
from games.replays.selectors import replay_get
from games.solver import UNKNOWN, UNWINNABLE, WON
from yukon_site.api_errors import ApplicationError

DONE, QUEUED, NONE, UNAVAILABLE = "done", "queued", "none", "unavailable"


class ReplayNotFound(ApplicationError):
    status, code = 404, "replay_not_found"


@dataclass(frozen=True)
class ReplayAnalysis:
    state: str  # done; queued (asked, not done yet); none (not asked yet); unavailable (cannot be)
    deal: str | None = None  # won/unwinnable/unknown from the deal, every card known
    ended_winnable: bool | None = None  # could it still be won when the game ended? None: not known
    first_lost_move: int | None = None  # index in the log of the move after which it could not be
    keeping_move: str | None = None  # a move there that kept it winnable (a log token)


def replay_analysis_get(*, submission_id: int, viewer_id: int | None, now: dt.datetime) -> ReplayAnalysis:
    """The analysis of the replay at `submission_id`, for whoever may watch it. Raises what the
    replay raises (ReplayHidden, or ReplayNotFound for no replay)."""
    return _analysis_of(_watchable(submission_id=submission_id, viewer_id=viewer_id, now=now))


def replay_analysis_ask(*, submission_id: int, viewer_id: int | None, now: dt.datetime) -> ReplayAnalysis:
    """Ask for the analysis of a replayed game that was not won (once: asked again, it is the
    same); the answer is the analysis as it now stands."""
    submission = _watchable(submission_id=submission_id, viewer_id=viewer_id, now=now)
    if not submission.won and verdict_budget(GameAnalysis.Reason.ASKED) is not None:
        with transaction.atomic():
            analysis_ask(submission, reason=GameAnalysis.Reason.ASKED)
    return _analysis_of(submission)


def _watchable(*, submission_id: int, viewer_id: int | None, now: dt.datetime) -> Submission:
    submission = replay_get(submission_id=submission_id, viewer_id=viewer_id, now=now)
    if submission is None:
        raise ReplayNotFound("No such game to watch.")
    return submission


def _analysis_of(submission: Submission) -> ReplayAnalysis:
    if submission.won:  # no move of a win lost it
        return ReplayAnalysis(DONE, deal=WON, ended_winnable=True)
    return _from_analysis(submission)


def _from_analysis(submission: Submission) -> ReplayAnalysis:
    analysis = GameAnalysis.objects.filter(submission=submission).only("state", "features").first()
    if analysis is None:
        hidden = submission.game_id is not None and submission.game.hidden
        askable = hidden and verdict_budget(GameAnalysis.Reason.ASKED) is not None
        return ReplayAnalysis(NONE if askable else UNAVAILABLE)
    if analysis.state == GameAnalysis.State.QUEUED:
        return ReplayAnalysis(QUEUED)
    features = analysis.features if analysis.state == GameAnalysis.State.DONE else {}
    deal = features.get("deal_winnable")
    if deal not in (WON, UNWINNABLE, UNKNOWN):  # failed, or analysed without the solver
        return ReplayAnalysis(UNAVAILABLE)
    lost_at = features.get("first_lost_move")
    if deal != WON:
        ended = False if deal == UNWINNABLE else None
    elif lost_at is not None:
        ended = False
    else:  # blunders 0: given up (or out of time) in a winnable position; None: the solver could not tell
        ended = True if features.get("blunders") == 0 else None
    return ReplayAnalysis(
        DONE,
        deal=deal,
        ended_winnable=ended,
        first_lost_move=lost_at,
        keeping_move=features.get("keeping_move"),
    )
