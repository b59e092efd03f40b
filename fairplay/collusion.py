"""Two accounts of one person (docs/fairplay.md, "Collusion"): three signals, each a case of level
report in the review queue (it withholds nothing), about two results side by side.

- **Same browser, same daily deal**: two accounts seen on one browser (accounts' device sightings:
  the device key's hash, never an address) both played one daily deal.
- **Rating fed**: two accounts of one browser met in FAIRPLAY_FEED_MEETINGS races or challenges
  or more, and the same one lost each time, fast (a rating handed from one to the other).
- **Lockstep**: two seats of one deal whose move times match move for move.

A contest's seats are found through games alone: every seat of a race or challenge is issued the
same deal, secret and commitment (games.issuing.services.contest_games_issue), and each draw's
secret is new, so (contest, commitment) names one race's deal. Runs from the settled listener.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, transaction

from accounts.devices import accounts_sharing_a_device
from accounts.models import DeviceSighting
from games.models import ReplayFlag, Submission

logger = logging.getLogger(__name__)

SAME_DAILY, RATING_FED, LOCKSTEP = "same browser, same daily deal", "rating fed", "lockstep"
Reason, Level = ReplayFlag.Reason, ReplayFlag.Level


# --- The pure part: what two results say -----------------------------------------------------------


@dataclass(frozen=True)
class Lockstep:
    compared: int  # moves at the same index in both logs
    matching: int  # of them, within the tolerance
    longest: int  # the longer log's moves

    @property
    def share(self) -> float:
        return self.matching / self.longest if self.longest else 0.0


def lockstep_measure(times_a: Sequence[int], times_b: Sequence[int], *, tolerance_ms: int) -> Lockstep:
    """Move by move, how many of two logs' page times lie within `tolerance_ms` of each other.
    Page clocks count from each seat's own start, so a challenge's later seat compares too."""
    compared = min(len(times_a), len(times_b))
    matching = sum(abs(a - b) <= tolerance_ms for a, b in zip(times_a, times_b, strict=False))
    return Lockstep(compared=compared, matching=matching, longest=max(len(times_a), len(times_b)))


def in_lockstep(times_a: Sequence[int], times_b: Sequence[int]) -> bool:
    """Two people's times drift apart within a few moves; one hand (or one program) on two seats
    keeps them together. Over the longer log, so a seat that stopped early is not in step."""
    measure = lockstep_measure(times_a, times_b, tolerance_ms=settings.FAIRPLAY_LOCKSTEP_TOLERANCE_MS)
    return (
        measure.compared >= settings.FAIRPLAY_LOCKSTEP_MIN_MOVES
        and measure.share >= settings.FAIRPLAY_LOCKSTEP_SHARE
    )


def lost_fast(loser: Submission, winner: Submission) -> bool:
    """`loser` did not win, `winner` did better (won, or a higher score), and the loss took under
    FAIRPLAY_FEED_LOSS_MS of play: a deal given up to hand the other a rating."""
    if loser.won:
        return False
    ahead = bool(winner.won) or (winner.score or 0) > (loser.score or 0)
    return ahead and loser.duration_ms <= settings.FAIRPLAY_FEED_LOSS_MS


# --- The service: from a settled result to the queue -----------------------------------------------


def collusion_check(*, submission_ids: list[int]) -> list[ReplayFlag]:
    """The settled listener: the collusion cases these results open (none twice for a pair). A
    database error is logged and costs the settling nothing."""
    try:
        with transaction.atomic():
            return _check(submission_ids)
    except DatabaseError:
        logger.warning("collusion not checked", extra={"submissions": submission_ids[:20]}, exc_info=True)
        return []


def _check(submission_ids: list[int]) -> list[ReplayFlag]:
    opened: list[ReplayFlag] = []
    results = _counted().filter(pk__in=submission_ids).select_related("game", "user").order_by("pk")
    for result in results:
        if result.game.daily_date is not None:
            opened += _same_daily(result)
        if result.game.contest and result.game.commitment:
            opened += _lockstep(result)
            opened += _rating_fed(result)
    return [case for case in opened if case is not None]


def _counted():
    return Submission.objects.filter(
        status=Submission.Status.VERIFIED, user__isnull=False, voided=False, assisted=False, game__hidden=True
    )


def _same_daily(result: Submission) -> list[ReplayFlag | None]:
    others = _counted().filter(
        user__in=accounts_sharing_a_device(user=result.user),
        code=result.code,
        game__daily_date=result.game.daily_date,
    )
    return [_pair_case(result, other, kind=SAME_DAILY) for other in others]


def _seats(result: Submission):
    """The other seats' results on this result's contest deal."""
    return (
        _counted()
        .filter(game__contest=result.game.contest, game__commitment=result.game.commitment)
        .exclude(pk=result.pk)
        .select_related("user", "game")
    )


def _lockstep(result: Submission) -> list[ReplayFlag | None]:
    return [
        _pair_case(result, other, kind=LOCKSTEP)
        for other in _seats(result)
        if other.user_id != result.user_id and in_lockstep(result.move_times_ms, other.move_times_ms)
    ]


def _rating_fed(result: Submission) -> list[ReplayFlag | None]:
    opened = []
    for other in accounts_sharing_a_device(user=result.user):
        meetings = _meetings(result.user_id, other.pk)
        if len(meetings) < settings.FAIRPLAY_FEED_MEETINGS:
            continue
        for feeder, winner in ((result.user_id, other.pk), (other.pk, result.user_id)):
            fed = [(mine, theirs) for mine, theirs in meetings if _feeder_of(mine, theirs) == feeder]
            if len(fed) == len(meetings) and not _pair_named(feeder, winner):
                loss, win = fed[-1] if fed[-1][0].user_id == feeder else fed[-1][::-1]
                words = f"{loss.user} lost fast to {win.user} in all {len(fed)} of their races and challenges"
                opened.append(_case(loss, win, kind=RATING_FED, words=words))
    return opened


def _meetings(user_id: int, other_id: int) -> list[tuple[Submission, Submission]]:
    """The contests both accounts played, as (first's result, second's result), oldest first."""
    mine = {
        (s.game.contest, s.game.commitment): s
        for s in _counted().filter(user_id=user_id).exclude(game__contest="").select_related("game", "user")
    }
    theirs = _counted().filter(user_id=other_id, game__commitment__in=[c for _, c in mine])
    pairs = [
        (mine[(s.game.contest, s.game.commitment)], s)
        for s in theirs.select_related("game", "user")
        if (s.game.contest, s.game.commitment) in mine
    ]
    return sorted(pairs, key=lambda pair: (pair[0].received_at, pair[0].pk))


def _feeder_of(first: Submission, second: Submission) -> int | None:
    if lost_fast(first, second):
        return first.user_id
    if lost_fast(second, first):
        return second.user_id
    return None


def _pair_named(feeder_id: int, winner_id: int) -> bool:
    # Once a pair: a moderator who cleared them decided on that pattern; a confirmed case holds.
    return ReplayFlag.objects.filter(
        reason=Reason.COLLUSION,
        user_id=feeder_id,
        matches__user_id=winner_id,
        note__startswith=RATING_FED,
    ).exists()


def _pair_case(result: Submission, other: Submission, *, kind: str) -> ReplayFlag | None:
    """A case on the later of two results, matching the earlier: one a pair of results."""
    later, earlier = sorted((result, other), key=lambda s: (s.received_at, s.pk), reverse=True)
    if ReplayFlag.objects.filter(submission=earlier, matches=later).exists():
        return None
    words = f"{later.user} and {earlier.user}, result {later.pk} and result {earlier.pk}"
    return _case(later, earlier, kind=kind, words=words)


def _case(submission: Submission, matches: Submission, *, kind: str, words: str) -> ReplayFlag | None:
    case, made = ReplayFlag.objects.get_or_create(
        submission=submission,
        matches=matches,
        defaults={
            "user_id": submission.user_id,
            "reason": Reason.COLLUSION,
            "level": Level.REPORT,
            "note": f"{kind}: {words}"[:300],
        },
    )
    if made:
        logger.info("collusion case opened", extra={"case": case.pk, "kind": kind})
    return case if made else None


def case_kind(case: ReplayFlag) -> str:
    """Which signal opened a collusion case (its note begins with it)."""
    return next((kind for kind in (SAME_DAILY, RATING_FED, LOCKSTEP) if case.note.startswith(kind)), "")


def browsers_shared(first_id: int | None, second_id: int | None) -> int:
    """How many browsers (device key hashes, within their retention) both accounts were seen on."""
    mine = DeviceSighting.objects.filter(user_id=first_id).values("device_hash")
    return DeviceSighting.objects.filter(user_id=second_id, device_hash__in=mine).count()
