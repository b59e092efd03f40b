"""Issuing ranked deals: `POST`/`GET /api/games/` (a hidden-card game's own reads and reveals:
games.hidden.apis). Each method validates its input, calls one service and answers; refusals are
raised and rendered by DRF's exception handler."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api_fields import refusal
from games.hidden.serializers import (
    HeldGameOutputSerializer,
    HeldHiddenGameOutputSerializer,
    HiddenGameOutputSerializer,
    IssuedGameOutputSerializer,
    held_game_data,
)
from games.issuing.services import game_issue
from games.models import IssuedGame, RulesChoice
from games.selectors import (
    issued_games_unplayed,
)
from games.throttles import GameIssueThrottle
from yukon_site.api_input import (
    StrictBooleanField,
    StrictIntegerField,
    query_data,
)
from yukon_site.api_schema import NOT_SIGNED_IN, THROTTLED

# --- Issued games -------------------------------------------------------------------------------


HELD_GAMES = PolymorphicProxySerializer(
    component_name="HeldGameEntry",
    serializers=[HeldGameOutputSerializer, HeldHiddenGameOutputSerializer],
    resource_type_field_name=None,
    many=True,
)
ISSUED_GAMES = PolymorphicProxySerializer(
    component_name="IssuedGameEntry",
    serializers=[IssuedGameOutputSerializer, HiddenGameOutputSerializer],
    resource_type_field_name=None,
    many=True,
)


class GameIssueApi(APIView):
    """POST issues ranked deals; GET lists the player's issued games that still accept a result."""

    class GameIssueInputSerializer(serializers.Serializer):
        rules = serializers.ChoiceField(choices=RulesChoice.choices, default=RulesChoice.CLASSIC)
        count = StrictIntegerField(min_value=1, max_value=10, default=1)
        hidden = StrictBooleanField(
            default=False, help_text="Hidden-card games: issued without their code (docs/security.md)."
        )

    class GameListInputSerializer(serializers.Serializer):
        state = serializers.ChoiceField(
            choices=[IssuedGame.State.ISSUED],
            help_text="`issued`: unplayed and unexpired (finished games are in `GET /api/submissions/`).",
        )
        rules = serializers.ChoiceField(choices=RulesChoice.choices, required=False)

    def get_throttles(self):
        return [GameIssueThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="games_list",
        summary="The player's issued games that accept a result",
        description="Unplayed, unexpired ranked games, oldest first (the nearest to expiry first): a "
        f"device that lost its pool takes them back. At most {settings.GAMES_MAX_UNPLAYED} of each "
        "kind; hidden-card games are listed without their code. Only `state=issued` is listed.",
        parameters=[GameListInputSerializer],
        responses={
            200: HELD_GAMES,
            400: OpenApiResponse(
                description='A missing or unknown state, or bad rules: `{"state": [message]}`.',
                examples=[OpenApiExample("state", value={"state": ['"finished" is not a valid choice.']})],
            ),
            403: NOT_SIGNED_IN,
        },
    )
    def get(self, request):
        serializer = self.GameListInputSerializer(data=query_data(request))
        serializer.is_valid(raise_exception=True)
        games = issued_games_unplayed(user=request.user, rules=serializer.validated_data.get("rules"))
        return Response([held_game_data(game) for game in games])

    @extend_schema(
        operation_id="games_issue",
        summary="Issue ranked deals",
        description="Draws deal numbers uniformly at random on the server. Always answers a list; "
        f"fewer than `count` when the player would hold more than {settings.GAMES_MAX_UNPLAYED} "
        "unplayed games of the kind. With `hidden`, each game comes without its code: its face-up "
        "cards and a commitment to its deal.",
        request=GameIssueInputSerializer,
        responses={
            201: ISSUED_GAMES,
            400: OpenApiResponse(description="Bad rules or count: `{field: [message]}`."),
            403: NOT_SIGNED_IN,
            409: refusal(
                "The player already holds the most unplayed games.",
                "too_many_unplayed",
                "you hold 20 unplayed ranked games; finish one first (at most 20)",
            ),  # fmt: skip
            429: THROTTLED,
        },
    )
    def post(self, request):
        serializer = self.GameIssueInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        games = game_issue(user=request.user, **serializer.validated_data)
        hidden = serializer.validated_data["hidden"]
        output = (HiddenGameOutputSerializer if hidden else IssuedGameOutputSerializer)(games, many=True)
        return Response(output.data, status=status.HTTP_201_CREATED)


# --- Submissions --------------------------------------------------------------------------------
