"""/api/me/: the signed-in player's own figures (examples: docs/leaderboards.md)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.reviews import player_review
from games.selectors import submission_code_public, submission_deal_seeded
from leaderboard.selectors import player_best_results
from players.summaries import player_summary
from yukon_site import clock
from yukon_site.api_schema import iso_utc


def result_data(request, submission) -> dict:
    countable = submission.status == "verified" and submission.won and not submission.voided
    return {
        "id": submission.pk,
        "code": submission.code if submission_code_public(submission) else None,
        "rules": submission.rules,
        "ranked": submission.ranked,
        "status": submission.status,
        "won": submission.won,
        "score": submission.score,
        "moves": submission.moves,
        "duration_ms": submission.duration_ms,
        "received_at": iso_utc(submission.received_at),
        "voided": submission.voided,
        "seeded_deal": submission_deal_seeded(submission),
        "replay_url": request.build_absolute_uri(f"/api/replays/{submission.pk}/") if countable else None,
    }


def best_result_data(request, submission) -> dict | None:
    """A best result: one game's figures, its time (to the second, as on the boards) and replay."""
    if submission is None:
        return None
    return {
        "id": submission.pk,
        "code": submission.code if submission_code_public(submission) else None,
        "score": submission.score,
        "moves": submission.moves,
        "duration_ms": submission.duration_ms,
        "achieved_at": iso_utc(submission.received_at.replace(microsecond=0)),
        "replay_url": request.build_absolute_uri(f"/api/replays/{submission.pk}/"),
    }


class PlayerSummaryApi(APIView):
    """The signed-in player's figures per rule set (with the best game itself), ranks now on the
    global and the open-deal boards, unranked wins, last 20 results."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="player_summary",
        summary="My figures and ranks",
        description="Per rule set (`rules.classic`, `rules.relaxed`): figures, the best game, ranks now "
        "(`ranks`, `open_ranks`: all, season, week, day) and `best_season`, the best final place in a "
        'kept season, `{"rules": "classic", "season": "2026-11", "place": 37, "of": 12408, "score": 7109}` '
        "or null; unranked wins and recent results; `review`: null, or why a fair-play case keeps your "
        'ranked results off the boards, `{"state": "under_review" | "confirmed", "reason": "analysis", '
        '"since": "…"}`, or, for 30 days after a moderator cleared a mark, `"state": "cleared"` (its '
        "`since`: when). Examples: docs/leaderboards.md.",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request):
        summary = player_summary(user=request.user, now=clock.now())
        user = request.user
        for rules, best in player_best_results(user=user).items():
            summary["rules"][rules]["best"] = best_result_data(request, best)
        data = {
            "player": {"name": user.public_name},
            "rules": summary["rules"],
            "unranked_wins": [result_data(request, result) for result in summary["unranked_wins"]],
            "recent": [result_data(request, result) for result in summary["recent"]],
            "review": review_data(user),
        }
        return Response(data)


def review_data(user) -> dict | None:
    """Whether a fair-play case keeps the player's ranked results off the boards, and why, as codes
    the page words (docs/fairplay.md, "What the player sees"); null: none does."""
    review = player_review(user_id=user.pk)
    return review and {**review, "since": iso_utc(review["since"])}
