"""The review queue (docs/fairplay.md, "The review queue"): its cases are ReplayFlag rows, opened
by identical logs (leaderboard) and by fair play, decided by people. A case that holds a player
(a mark still open, or a confirmed case) keeps their ranked results off the boards (`withheld`);
when no case holds them any more, the results come back. Nothing here decides a case by itself."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import results
from games.models import ReplayFlag, Submission

State, Level = ReplayFlag.State, ReplayFlag.Level
# A mark holds the results while it is open; any confirmed case holds them until reopened.
HOLDING = Q(level=Level.MARK, state=State.OPEN) | Q(state=State.CONFIRMED)
CLEARED_TOLD_DAYS = 30  # how long /me says a cleared mark's results are back on the boards


def case_open(*, submission: Submission, reason: str, level: str = Level.NONE) -> ReplayFlag:
    """The player's open case of this reason (one at a time), else a new one on `submission`;
    its level raised to `level` if lower. The hold follows the level."""
    with transaction.atomic():
        case = (
            ReplayFlag.objects.select_for_update()
            .filter(user_id=submission.user_id, reason=reason, state=State.OPEN, matches__isnull=True)
            .order_by("pk")
            .first()
        )
        if case is None:
            case = ReplayFlag.objects.create(
                submission=submission, user_id=submission.user_id, reason=reason, level=level
            )
        elif level == Level.MARK and case.level != Level.MARK:
            case.level = level
            case.save(update_fields=["level"])
        player_results_hold(user_id=case.user_id)
    return case


def case_state_set(
    *, case: ReplayFlag, state: str, note: str = "", now: dt.datetime | None = None
) -> ReplayFlag:
    """Clear, confirm or reopen a case; the player's results follow (withheld or back on the boards)."""
    with transaction.atomic():
        case.state = state
        case.reviewed_at = None if state == State.OPEN else (now or timezone.now())
        if note:
            case.note = note[:300]
        case.save(update_fields=["state", "reviewed_at", "note"])
        player_results_hold(user_id=case.user_id)
    return case


def player_held(*, user_id: int | None) -> bool:
    return user_id is not None and ReplayFlag.objects.filter(HOLDING, user_id=user_id).exists()


def player_results_hold(*, user_id: int | None) -> int:
    """Make the player's ranked results withheld exactly while a case holds them, and rebuild
    their entries when that changed; how many results changed. Safe to call at any time."""
    if user_id is None:
        return 0
    held = player_held(user_id=user_id)
    with transaction.atomic():
        changed = Submission.objects.filter(
            user_id=user_id, ranked=True, status=Submission.Status.VERIFIED, withheld=not held
        ).update(withheld=held)
        if changed:
            results.player_results_changed(user_id=user_id)
    return changed


def player_review(*, user_id: int, now: dt.datetime | None = None) -> dict | None:
    """What the player is told (/api/me/ `review`): their results are under review (a mark still
    open) or were confirmed as unfair play, and why, as codes the page words; or, for
    CLEARED_TOLD_DAYS after a moderator cleared a mark (which the player was told of), that they
    are back on the boards. None: nothing to tell."""
    case = ReplayFlag.objects.filter(HOLDING, user_id=user_id).order_by("-created_at").first()
    if case is not None:
        return {
            "state": "under_review" if case.state == State.OPEN else "confirmed",
            "reason": case.reason,
            "since": case.created_at,
        }
    since = (now or timezone.now()) - dt.timedelta(days=CLEARED_TOLD_DAYS)
    marks_cleared = ReplayFlag.objects.filter(user_id=user_id, level=Level.MARK, state=State.CLEARED)
    cleared = marks_cleared.filter(reviewed_at__gte=since).order_by("-reviewed_at").first()
    if cleared is None:
        return None  # a report the player never saw is not news to them once cleared
    return {"state": "cleared", "reason": cleared.reason, "since": cleared.reviewed_at}
