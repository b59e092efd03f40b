"""From analysed games to the review queue (docs/fairplay.md, "The review queue"): a game's score,
the player's running score, the two thresholds, and moderators' decisions and players' appeals.

- **Report**: a game scoring FAIRPLAY_REPORT_SCORE or more is evidence in the player's open
  analysis case (opened if none): people look, the results stay on the boards.
- **Mark**: FAIRPLAY_MARK_GAMES games (never fewer than two) scoring FAIRPLAY_MARK_SCORE or more
  among the player's last FAIRPLAY_SCORE_WINDOW analysed games: the case becomes a mark and the
  player's ranked results are withheld until a moderator decides.
- **Luck over games**: the same two levels on the sum of the window's luck (odds no one who sees
  only the visible cards beats but by chance, FAIRPLAY_REPORT_LUCK and FAIRPLAY_MARK_LUCK); a mark
  from FAIRPLAY_MARK_GAMES lucky games at least, as above.
A cleared case's games count no more: that evidence never reopens anything.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from fairplay.models import CaseDecision, GameAnalysis, PlayerScore
from fairplay.scoring import game_score
from games.models import ReplayFlag
from games.reviews import case_open, case_state_set
from yukon_site.api_errors import ApplicationError

Level, State, Action = ReplayFlag.Level, ReplayFlag.State, CaseDecision.Action


class NothingToAppeal(ApplicationError):
    status, code = 404, "nothing_to_appeal"


class AppealOpen(ApplicationError):
    status, code = 409, "appeal_open"


def analysis_weigh(*, analysis: GameAnalysis, now: dt.datetime | None = None) -> ReplayFlag | None:
    """Score a done analysis, update its player's running score and open or raise their case when
    a threshold is passed; the case it is evidence in, if any."""
    submission = analysis.submission
    analysis.score = game_score(analysis.features).total
    analysis.save(update_fields=["score"])
    if submission.user_id is None:
        return None
    with transaction.atomic():
        window = player_score_update(user_id=submission.user_id, now=now)
        case = None
        if analysis.score >= settings.FAIRPLAY_REPORT_SCORE:
            case = case_open(submission=submission, reason=ReplayFlag.Reason.ANALYSIS, level=Level.REPORT)
            if analysis.case_id is None:  # a reported game stays evidence in its report's case
                analysis.case = case
                analysis.save(update_fields=["case"])
        # A mark rests on this game and others no one has decided on yet.
        strong = [a for a in window if a.score >= settings.FAIRPLAY_MARK_SCORE and _undecided(a)]
        if analysis.score >= settings.FAIRPLAY_MARK_SCORE and len(strong) >= mark_games():
            case = _raise(submission, Level.MARK, strong)
        # Luck adds up over games: odds one game cannot show, ten can (docs/fairplay.md, "Luck").
        undecided = [a for a in window if _undecided(a)]
        lucky = [a for a in undecided if _luck(a) > 0]
        if _luck(analysis) > 0:
            luck = sum(_luck(a) for a in undecided)
            if luck >= settings.FAIRPLAY_MARK_LUCK and len(lucky) >= mark_games():
                case = _raise(submission, Level.MARK, lucky)
            elif luck >= settings.FAIRPLAY_REPORT_LUCK:  # a case already marked stays marked
                case = _raise(submission, Level.REPORT, [analysis])
    return case


def _raise(submission, level: str, evidence: list[GameAnalysis]) -> ReplayFlag:
    case = case_open(submission=submission, reason=ReplayFlag.Reason.ANALYSIS, level=level)
    GameAnalysis.objects.filter(pk__in=[a.pk for a in evidence], case__isnull=True).update(case=case)
    return case


def _luck(analysis: GameAnalysis) -> float:
    return (analysis.features or {}).get("luck") or 0.0


def _undecided(analysis: GameAnalysis) -> bool:
    return analysis.case_id is None or analysis.case.state == State.OPEN


def mark_games() -> int:
    # One game is never enough to mark anyone, whatever the settings say.
    return max(2, settings.FAIRPLAY_MARK_GAMES)


def player_window(*, user_id: int) -> list[GameAnalysis]:
    """The player's last FAIRPLAY_SCORE_WINDOW scored games, less those of cleared cases."""
    scored = (
        GameAnalysis.objects.filter(submission__user_id=user_id, score__isnull=False)
        .select_related("case")
        .exclude(case__state=State.CLEARED)
        .order_by("-analysed_at", "-pk")
    )
    return list(scored[: settings.FAIRPLAY_SCORE_WINDOW])


def player_score_update(*, user_id: int, now: dt.datetime | None = None) -> list[GameAnalysis]:
    window = player_window(user_id=user_id)
    scores = [a.score for a in window]
    PlayerScore.objects.update_or_create(
        user_id=user_id,
        defaults={
            "games": len(scores),
            "running": round(sum(scores) / len(scores), 1) if scores else 0.0,
            "strong": sum(score >= settings.FAIRPLAY_MARK_SCORE for score in scores),
            "luck": round(sum(_luck(a) for a in window), 3),
            "updated_at": now or timezone.now(),
        },
    )
    return window


def case_decide(
    *, case: ReplayFlag, action: str, by, why: str, now: dt.datetime | None = None
) -> CaseDecision:
    """A moderator clears or confirms a case, saying why; logged as a label. Clear: the results
    come back (unless another case holds them) and the case's games count no more. Confirm: the
    player's ranked results leave the boards, and the player is told (/api/me/ `review`)."""
    if action not in (Action.CLEAR, Action.CONFIRM):
        raise ValueError(f"a moderator clears or confirms, not {action!r}")
    why = why.strip()
    if not why:
        raise ValueError("a decision says why")
    now = now or timezone.now()
    with transaction.atomic():
        state = State.CLEARED if action == Action.CLEAR else State.CONFIRMED
        case_state_set(case=case, state=state, now=now)
        decision = CaseDecision.objects.create(
            case=case, action=action, by=by, why=why[:500], level=case.level, decided_at=now
        )
        if case.user_id is not None and case.reason == ReplayFlag.Reason.ANALYSIS:
            player_score_update(user_id=case.user_id, now=now)
    return decision


def case_appeal(*, user, why: str, now: dt.datetime | None = None) -> CaseDecision:
    """The player appeals their latest confirmed case: it opens again for a moderator, and holds
    their results as its level says meanwhile (a mark: withheld)."""
    now = now or timezone.now()
    with transaction.atomic():
        if ReplayFlag.objects.filter(user=user, state=State.OPEN, decisions__action=Action.APPEAL).exists():
            raise AppealOpen("Your appeal is waiting for a moderator.")
        case = ReplayFlag.objects.filter(user=user, state=State.CONFIRMED).order_by("-reviewed_at").first()
        if case is None:
            raise NothingToAppeal("No decision of yours to appeal.")
        case_state_set(case=case, state=State.OPEN)
        return CaseDecision.objects.create(
            case=case, action=Action.APPEAL, by=user, why=why.strip()[:500], level=case.level, decided_at=now
        )


def calibration() -> list[dict]:
    """Per threshold (and players' reports), how many of its cases moderators confirmed and
    cleared: each case counted once, by its last decision (an appealed case still open: open)."""
    last: dict[int, CaseDecision] = {}
    for decision in (
        CaseDecision.objects.exclude(action=Action.APPEAL).select_related("case").order_by("decided_at", "pk")
    ):
        last[decision.case_id] = decision
    rows = []
    for name, cases in (
        ("report", ReplayFlag.objects.filter(reason=ReplayFlag.Reason.ANALYSIS, level=Level.REPORT)),
        ("mark", ReplayFlag.objects.filter(reason=ReplayFlag.Reason.ANALYSIS, level=Level.MARK)),
        ("player reports", ReplayFlag.objects.filter(reason=ReplayFlag.Reason.REPORT)),
    ):
        ids = set(cases.values_list("pk", flat=True))
        decided = [last[pk] for pk in ids if pk in last and last[pk].case.state != State.OPEN]
        confirmed = sum(d.action == Action.CONFIRM for d in decided)
        cleared = sum(d.action == Action.CLEAR for d in decided)
        rows.append(
            {
                "threshold": name,
                "cases": len(ids),
                "confirmed": confirmed,
                "cleared": cleared,
                "open": len(ids) - confirmed - cleared,
            }
        )
    return rows
