"""The API of a deal's figures (leaderboard/summaries.py). Public. Examples: docs/leaderboards.md.
A verified result's replay: games/replays/apis.py."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from leaderboard.api_shapes import CODE_PARAMETER, code_or_400
from leaderboard.summaries import deal_summary
from yukon_site import clock


class DealDetailApi(APIView):
    """What is known of one deal: games finished on it, wins, the best score."""

    permission_classes = [AllowAny]

    @extend_schema_serializer(component_name="DealDetail")
    class OutputSerializer(serializers.Serializer):
        code = serializers.CharField()
        rules = serializers.CharField()
        plays = serializers.IntegerField(help_text="Verified finished games on this deal.")
        wins = serializers.IntegerField()
        players = serializers.IntegerField(help_text="Entries on the deal's board.")
        best_score = serializers.IntegerField(allow_null=True)
        par = serializers.IntegerField(
            allow_null=True, help_text="Moves of the shortest win the solver found; null until one is found."
        )
        winnable = serializers.BooleanField(
            allow_null=True,
            help_text="true: the solver won it; false: proven unwinnable under these rules "
            "(docs/winnability.md); null: not known (yet).",
        )
        daily = serializers.ListField(
            child=serializers.DateField(), help_text="Days it was the daily deal, once each day is over."
        )
        leaderboard_url = serializers.URLField()

    @extend_schema(
        operation_id="deal_detail",
        summary="A deal's figures",
        parameters=[CODE_PARAMETER],
        responses={200: OutputSerializer},
    )
    def get(self, request, code: str):
        game_code = code_or_400(code)
        code, rules = str(game_code), game_code.rules.value
        summary = deal_summary(code=code, rules=rules, now=clock.now())
        data = {
            "code": summary.code,
            "rules": summary.rules,
            "plays": summary.plays,
            "wins": summary.wins,
            "players": summary.players,
            "best_score": summary.best_score,
            "par": summary.par,
            "winnable": summary.winnable,
            "daily": [day.isoformat() for day in summary.daily_dates],
            "leaderboard_url": request.build_absolute_uri(f"/api/deals/{summary.code}/leaderboard/"),
        }
        return Response(data)
