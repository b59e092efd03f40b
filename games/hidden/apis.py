"""The API of hidden-card games, included under /api/: one game to resume it, and its reveals.

Issuing and listing them is `POST`/`GET /api/games/` (games.issuing.apis, with `hidden`). Examples of
every answer and refusal: docs/api.md ("Hidden-card ranked games").
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api_fields import MillisecondsListField
from games.errors import GameNotFound
from games.hidden.reveals import game_get_for_owner, game_reveal
from games.hidden.serializers import GameDetailOutputSerializer, RevealOutputSerializer
from games.throttles import GameRevealThrottle
from yukon_site.api_input import StrictCharField
from yukon_site.api_schema import NOT_SIGNED_IN, REFUSAL, THROTTLED


class GameDetailApi(APIView):
    """One of the player's issued games, as far as the player may know it: to resume it anywhere."""

    @extend_schema(
        operation_id="games_detail",
        summary="One issued game, to resume it (owner only)",
        description="The deal as its player knows it (a hidden-card game: the face-up and revealed "
        "cards, null for the others), the prefix of the log the server has recorded and its times. "
        "A hidden-card game's `code` and `secret` are null until it is finished.",
        responses={
            200: GameDetailOutputSerializer,
            403: NOT_SIGNED_IN,
            404: OpenApiResponse(REFUSAL, description="No such game of this player (`game_not_found`)."),
            409: OpenApiResponse(
                REFUSAL, description="A race's game before the race starts (`game_not_started`)."
            ),
        },
    )
    def get(self, request, game_id: int):
        game = game_get_for_owner(user=request.user, game_id=game_id)
        if game is None:
            raise GameNotFound(f"you hold no game {game_id}")
        return Response(GameDetailOutputSerializer(game).data)


class GameRevealApi(APIView):
    """The face-down card that the last move of the log turns up, in a hidden-card game."""

    throttle_classes = [GameRevealThrottle]

    class GameRevealInputSerializer(serializers.Serializer):
        log = StrictCharField(
            max_length=settings.SUBMISSION_MAX_LOG_BYTES,
            help_text="The log so far, ending with the move that turned the card up; U is an undo.",
        )
        move_times_ms = MillisecondsListField(
            max_length=2 * settings.SUBMISSION_MAX_TOKENS,
            help_text="The page's clock at each token, as in a submission.",
        )

    @extend_schema(
        operation_id="games_reveal",
        summary="Reveal the card a move turned up (hidden-card games)",
        description="The server replays the log from the visible deal and the cards revealed so far. "
        "A new card is revealed to a log that extends the game's recorded prefix, which becomes the "
        "log; a card already revealed is answered again and nothing changes.",
        request=GameRevealInputSerializer,
        responses={
            200: RevealOutputSerializer,
            400: OpenApiResponse(
                description="Field errors `{field: [message]}`; an illegal move `{log: [{index, token, "
                "code, message}]}`; or `{detail, code}` with `nothing_exposed`."
            ),
            403: NOT_SIGNED_IN,
            404: OpenApiResponse(REFUSAL, description="No hidden-card game of this id is the player's."),
            409: OpenApiResponse(
                REFUSAL,
                description="`prefix_conflict`: the log does not extend the recorded prefix; `game_used`: "
                "the game is finished or expired; `game_not_started`: a race's game before its start.",
            ),
            429: THROTTLED,
        },
        examples=[
            OpenApiExample(
                "reveal",
                value={"log": "AS>F 2S>F TD>5", "move_times_ms": [0, 420, 1130]},
                request_only=True,
            )
        ],
    )
    def post(self, request, game_id: int):
        serializer = self.GameRevealInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        revealed = game_reveal(user=request.user, game_id=game_id, **serializer.validated_data)
        return Response(RevealOutputSerializer(revealed).data)
