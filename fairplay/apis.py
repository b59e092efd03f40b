"""The fair-play API: GET /api/replays/<id>/analysis/ tells where a replayed game was lost (public);
signed in, POST /api/replays/<id>/reports/ reports a result, POST /api/fairplay/appeals/ appeals a
decision. Examples: docs/api.md, docs/fairplay.md."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from fairplay.cases import case_appeal
from fairplay.models import ResultReport
from fairplay.replay_analysis import (
    DONE,
    NONE,
    QUEUED,
    UNAVAILABLE,
    ReplayAnalysis,
    replay_analysis_ask,
    replay_analysis_get,
)
from fairplay.reports import result_report
from games.replays.apis import ReplayHiddenSerializer, replay_hidden_response
from games.replays.selectors import ReplayHidden
from games.solver import UNKNOWN, UNWINNABLE, WON
from games.throttles import GamesRateThrottle
from yukon_site import clock
from yukon_site.api_schema import REFUSAL, iso_utc


class ReplayAnalysisThrottle(GamesRateThrottle):
    scope = "replay_analysis"

    def get_rate(self) -> str:
        return settings.FAIRPLAY_REPLAY_ANALYSIS_RATE


class ReplayAnalysisApi(APIView):
    """Where a replayed game was lost: the same solver verdicts as the fair-play analysis, shown to
    every player (docs/fairplay.md, "On the replay"). GET reads it, POST asks for it."""

    permission_classes = [AllowAny]

    def get_throttles(self):
        return [ReplayAnalysisThrottle()] if self.request.method == "POST" else []

    @extend_schema_serializer(component_name="ReplayAnalysis")
    class OutputSerializer(serializers.Serializer):
        state = serializers.ChoiceField(
            choices=[DONE, QUEUED, NONE, UNAVAILABLE],
            help_text="done; queued: asked for, not done yet (read again in a while); none: not asked "
            "for yet (POST asks); unavailable: this game cannot be analysed.",
        )
        deal = serializers.ChoiceField(
            choices=[WON, UNWINNABLE, UNKNOWN],
            allow_null=True,
            help_text="Could the deal be won from its start, every card known (unknown: the solver's "
            "limits came first)?",
        )
        ended_winnable = serializers.BooleanField(
            allow_null=True, help_text="Could the game still be won where it ended? null: not known."
        )
        first_lost_move = serializers.IntegerField(
            allow_null=True,
            help_text="The index in the replay's `log` of the move after which the deal could no "
            "longer be won.",
        )
        keeping_move = serializers.CharField(
            allow_null=True, help_text="A move there (a log token) that would have kept it winnable."
        )

    @extend_schema(
        operation_id="replay_analysis",
        summary="Where a replayed game was lost (a race's game that was not won)",
        responses={
            200: OutputSerializer,
            403: OpenApiResponse(
                ReplayHiddenSerializer, description="Not yet: as the replay (`replay_not_yet`)."
            ),
            404: OpenApiResponse(REFUSAL, description="No such game to watch (`replay_not_found`)."),
        },
    )
    def get(self, request, submission_id: int):
        return self._answer(request, replay_analysis_get, submission_id)

    @extend_schema(
        operation_id="replay_analysis_ask",
        summary="Ask for the analysis of a replayed game that was not won (rate-limited)",
        request=None,
        responses={
            200: OutputSerializer,
            202: OpenApiResponse(OutputSerializer, description="Asked for: `state` queued."),
            403: OpenApiResponse(
                ReplayHiddenSerializer, description="Not yet: as the replay (`replay_not_yet`)."
            ),
            404: OpenApiResponse(REFUSAL, description="No such game to watch (`replay_not_found`)."),
            429: OpenApiResponse(REFUSAL, description="Too many asked for (`throttled`)."),
        },
    )
    def post(self, request, submission_id: int):
        return self._answer(request, replay_analysis_ask, submission_id)

    def _answer(self, request, read, submission_id: int) -> Response:
        viewer = request.user.pk if request.user.is_authenticated else None
        try:
            analysis: ReplayAnalysis = read(submission_id=submission_id, viewer_id=viewer, now=clock.now())
        except ReplayHidden as hidden:
            return replay_hidden_response(hidden)
        queued = request.method == "POST" and analysis.state == QUEUED
        return Response(self.OutputSerializer(analysis).data, status=202 if queued else 200)


class ResultReportThrottle(GamesRateThrottle):
    scope = "result_report"

    def get_rate(self) -> str:
        return settings.FAIRPLAY_REPORT_RATE


class ResultReportApi(APIView):
    """Report someone else's result that you can watch: its analysis is asked for, and people
    decide (docs/fairplay.md)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [ResultReportThrottle]

    @extend_schema_serializer(component_name="ResultReportInput")
    class InputSerializer(serializers.Serializer):
        reason = serializers.ChoiceField(choices=ResultReport.Reason.choices)
        note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")

    @extend_schema_serializer(component_name="ResultReport")
    class OutputSerializer(serializers.Serializer):
        result = serializers.IntegerField(help_text="The reported result's id (its replay's).")
        reason = serializers.ChoiceField(choices=ResultReport.Reason.choices)
        reported_at = serializers.DateTimeField()

    @extend_schema(
        operation_id="result_report",
        summary="Report a result (signed in; not your own; once)",
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            403: OpenApiResponse(
                REFUSAL, description="Signed out (`not_authenticated`), or your own result (`own_result`)."
            ),
            404: OpenApiResponse(
                REFUSAL, description="No result you can watch has this id (`result_not_found`)."
            ),
            409: OpenApiResponse(REFUSAL, description="You have reported it already (`already_reported`)."),
        },
    )
    def post(self, request, submission_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = result_report(user=request.user, submission_id=submission_id, **data.validated_data)
        answer = {
            "result": report.submission_id,
            "reason": report.reason,
            "reported_at": iso_utc(report.created_at),
        }
        return Response(answer, status=status.HTTP_201_CREATED)


class ReviewAppealThrottle(GamesRateThrottle):
    scope = "review_appeal"

    def get_rate(self) -> str:
        return settings.FAIRPLAY_APPEAL_RATE


class ReviewAppealApi(APIView):
    """Appeal the decision that took your ranked results off the boards: the case opens again for
    a moderator (docs/fairplay.md, "Appeals")."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [ReviewAppealThrottle]

    @extend_schema_serializer(component_name="ReviewAppealInput")
    class InputSerializer(serializers.Serializer):
        why = serializers.CharField(max_length=500, help_text="Why the decision is wrong, in your words.")

    @extend_schema_serializer(component_name="ReviewAppeal")
    class OutputSerializer(serializers.Serializer):
        case = serializers.IntegerField(help_text="The reopened case.")
        state = serializers.ChoiceField(choices=["open"])
        appealed_at = serializers.DateTimeField()

    @extend_schema(
        operation_id="review_appeal",
        summary="Appeal a fair-play decision (signed in; a confirmed case of yours)",
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            403: OpenApiResponse(REFUSAL, description="Signed out (`not_authenticated`)."),
            404: OpenApiResponse(
                REFUSAL, description="No confirmed case of yours to appeal (`nothing_to_appeal`)."
            ),
            409: OpenApiResponse(
                REFUSAL, description="Your appeal is waiting for a moderator (`appeal_open`)."
            ),
        },
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        decision = case_appeal(user=request.user, why=data.validated_data["why"])
        answer = {"case": decision.case_id, "state": "open", "appealed_at": iso_utc(decision.decided_at)}
        return Response(answer, status=status.HTTP_201_CREATED)
