"""The daily deal's API: today's deals (public) and a player's game of one (signed in).
Examples of every answer: docs/leaderboards.md."""

from __future__ import annotations

import datetime as dt

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from daily.selectors import daily_games_played
from daily.services import daily_deal_pick, daily_game_issue
from games.hidden.serializers import HeldHiddenGameOutputSerializer
from leaderboard.boards import DAILY_PREFIX, RULES, daily_board
from yukon_site import clock
from yukon_site.api_schema import REFUSAL, iso_utc


def _daily_board_url(request, rules: str, day: dt.date) -> str:
    query = f"rules={rules}&period=day&key={day.isoformat()}&deals={DAILY_PREFIX}"
    return request.build_absolute_uri(f"/api/leaderboards/?{query}")


class DailyDealApi(APIView):
    """Today's deals (UTC), one per rule set, the same for everyone: each played as a hidden-card
    game (POST /api/daily/games/), so its code is named only once the day is over."""

    permission_classes = [AllowAny]

    @extend_schema_serializer(component_name="DailyDeals")
    class OutputSerializer(serializers.Serializer):
        @extend_schema_serializer(component_name="DailyDealItem")
        class DealSerializer(serializers.Serializer):
            rules = serializers.CharField()
            code = serializers.CharField(allow_null=True, help_text="null while the day lasts")
            board = serializers.CharField(help_text="The day's board of this daily deal.")
            leaderboard_url = serializers.URLField()
            played = serializers.BooleanField(
                help_text="The signed-in player's game of it is over (one a day); false signed out."
            )
            your_replay_url = serializers.CharField(
                allow_null=True,
                help_text="The page of the signed-in player's own verified win of it, else null.",
            )

        date = serializers.DateField()
        ends_at = serializers.DateTimeField()
        deals = DealSerializer(many=True)

    @extend_schema(
        operation_id="daily_deal", summary="Today's daily deals", responses={200: OutputSerializer}
    )
    def get(self, request):
        today, ends_at = clock.utc_day(clock.now())
        for rules in RULES:
            # A GET that writes, idempotently (the first pick stands): the day's deal is picked by
            # its first read when beat has not picked it ahead (make run has no beat).
            daily_deal_pick(date=today, rules=rules)
        played = daily_games_played(user=request.user, date=today)
        data = {
            "date": today.isoformat(),
            "ends_at": iso_utc(ends_at),
            "deals": [
                {
                    "rules": rules,
                    "code": None,
                    "board": daily_board(rules, today),
                    "leaderboard_url": _daily_board_url(request, rules, today),
                    "played": rules in played,
                    "your_replay_url": played.get(rules),
                }
                for rules in RULES
            ],
        }
        return Response(data)


class DailyGameApi(APIView):
    """The player's game of today's daily deal: a hidden-card game, one a rule set and day."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        rules = serializers.ChoiceField(choices=RULES)

    @extend_schema(
        operation_id="daily_game",
        summary="Play today's daily deal",
        description="Issues the player's hidden-card game of today's daily deal (201), or gives the "
        "one issued earlier today while it is unfinished (200; `started` says whether moves of it "
        "are recorded: GET /api/games/<id>/ gives them). 409 `daily_played` once it is finished "
        "or expired: one game a player, rule set and day.",
        request=InputSerializer,
        responses={
            200: HeldHiddenGameOutputSerializer,
            201: HeldHiddenGameOutputSerializer,
            409: OpenApiResponse(REFUSAL, description="Played today already (`daily_played`)."),
        },
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game, issued = daily_game_issue(user=request.user, rules=serializer.validated_data["rules"])
        data = HeldHiddenGameOutputSerializer(game).data
        return Response(data, status=status.HTTP_201_CREATED if issued else status.HTTP_200_OK)
