"""The fair-play API (signed in): POST /api/replays/<id>/reports/ reports a result, POST
/api/fairplay/appeals/ appeals a decision. Examples: docs/api.md, docs/fairplay.md."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from fairplay.cases import case_appeal
from fairplay.models import ResultReport
from fairplay.reports import result_report
from games.throttles import GamesRateThrottle
from yukon_site.api_schema import REFUSAL, iso_utc


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
