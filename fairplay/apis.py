"""The reports API: POST /api/replays/<id>/reports/ (signed in). Examples: docs/fairplay.md."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

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
