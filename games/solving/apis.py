"""The solver's API, included under /api/: winnable deals for unranked play, and hints.

Examples of every answer: docs/api.md ("Winnable deals and hints").
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from games.api_fields import CODE_INPUT_LENGTH, refusal
from games.errors import HintOnRankedGame, HintTicketUnknown
from games.models import RulesChoice
from games.solving.hints import Hint, hint_ask, hint_read
from games.solving.pool import deal_pool_grow_in_request, winnable_codes_sample
from games.throttles import HintReadThrottle, HintThrottle, WinnableDealsThrottle
from yukon_site.api_input import StrictCharField, query_data
from yukon_site.api_schema import NOT_SIGNED_IN, THROTTLED

WINNABLE_MAX_COUNT = 50


class WinnableDealsApi(APIView):
    """Codes the solver has won, at random: "Winnable deals only" in unranked play."""

    permission_classes = [AllowAny]
    throttle_classes = [WinnableDealsThrottle]

    class WinnableDealsInputSerializer(serializers.Serializer):
        rules = serializers.ChoiceField(choices=RulesChoice.choices, default=RulesChoice.CLASSIC)
        count = serializers.IntegerField(min_value=1, max_value=WINNABLE_MAX_COUNT, default=10)

    class WinnableDealsOutputSerializer(serializers.Serializer):
        rules = serializers.CharField()
        codes = serializers.ListField(child=serializers.CharField())

    @extend_schema(
        operation_id="deals_winnable",
        summary="Random winnable deals (unranked play)",
        description="Up to `count` different codes that the solver has won, drawn at random from the "
        "pool of solved deals; fewer (even none) while the pool is smaller. Ranked games never come "
        "from this pool. Without a broker (eager mode) the request first searches a few new deals, "
        "within SOLVER_POOL_REQUEST_SECONDS.",
        parameters=[WinnableDealsInputSerializer],
        responses={200: WinnableDealsOutputSerializer, 429: THROTTLED},
    )
    def get(self, request):
        query = self.WinnableDealsInputSerializer(data=query_data(request))
        query.is_valid(raise_exception=True)
        rules, count = query.validated_data["rules"], query.validated_data["count"]
        deal_pool_grow_in_request(rules=rules, count=count)
        return Response({"rules": rules, "codes": winnable_codes_sample(rules=rules, count=count)})


HINT_POLL_SECONDS = 1  # Retry-After of a hint still searched


class HintOutputSerializer(serializers.Serializer):
    move = serializers.CharField(allow_null=True, help_text="The move to play, in engine notation.")
    code = serializers.CharField(
        required=False, help_text="Without a move: game_won, no_win, no_win_found, solver_busy."
    )
    reason = serializers.CharField(required=False)


class HintSearchingSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=["searching"])
    ticket = serializers.CharField(help_text="Read the answer at `url` (GET), after `Retry-After` seconds.")
    url = serializers.CharField()


def hint_response(request, hint: Hint) -> Response:
    if hint.searching:
        url = reverse("api-hint-ticket", kwargs={"ticket": hint.ticket})
        body = {"state": "searching", "ticket": hint.ticket, "url": url}
        headers = {"Retry-After": str(HINT_POLL_SECONDS), "Location": url}
        return Response(body, status=status.HTTP_202_ACCEPTED, headers=headers)
    if hint.move is not None:
        return Response({"move": hint.move})
    return Response({"move": None, "code": hint.code, "reason": hint.reason})


class HintApi(APIView):
    """The next move of a win, for unranked play; the game becomes assisted."""

    throttle_classes = [HintThrottle]

    class HintInputSerializer(serializers.Serializer):
        code = StrictCharField(max_length=CODE_INPUT_LENGTH, help_text="The game's code.")
        log = StrictCharField(
            allow_blank=True,
            max_length=settings.SUBMISSION_MAX_LOG_BYTES,
            help_text="The moves so far; U is an undo.",
        )

    @extend_schema(
        operation_id="hint",
        summary="A hint: the next move of a win from here",
        description="Answered at once (`200`) when the position's answer is known; otherwise the "
        f"search (up to {settings.SOLVER_HINT_TIME_LIMIT} s) is queued and the answer is `202` with "
        "a ticket: read it with `GET /api/hint/{ticket}/`. Every result of the player on this code "
        "received after the hint is given is assisted and enters no board.",
        request=HintInputSerializer,
        responses={
            200: HintOutputSerializer,
            202: HintSearchingSerializer,
            400: OpenApiResponse(
                description="`{field: [message]}`; an illegal move: `{log: [{index, token, code, message}]}`."
            ),
            403: refusal(
                "Not signed in (`not_authenticated`), or the code is a ranked game in play.",
                HintOnRankedGame.code,
                "no hints on a ranked game: game 12 is not finished",
            ),  # fmt: skip
            429: THROTTLED,
        },
        examples=[
            # Two legal moves of that deal (tests/test_api_schema.py sends it: it must be answered).
            OpenApiExample("hint", value={"code": "YU1-C-AAAAAAC", "log": "AS>F 2H>4"}, request_only=True)
        ],
    )
    def post(self, request):
        serializer = self.HintInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        hint = hint_ask(user=request.user, **serializer.validated_data)
        return hint_response(request, hint)


class HintTicketApi(APIView):
    """The answer of a hint being searched."""

    throttle_classes = [HintReadThrottle]

    @extend_schema(
        operation_id="hint_read",
        summary="The answer of a hint being searched",
        description="`202` while the search runs (ask again after `Retry-After`); then `200` as "
        "`POST /api/hint/` answers, once (the ticket is then used up). `solver_busy`: the search "
        f"was not started within {settings.SOLVER_HINT_QUEUE_SECONDS} s; ask again later.",
        responses={
            200: HintOutputSerializer,
            202: HintSearchingSerializer,
            403: NOT_SIGNED_IN,
            404: refusal(
                "Not a ticket of this player, used, or over 5 minutes old.",
                HintTicketUnknown.code,
                "no such hint: not asked by this player, or over 5 minutes old",
            ),  # fmt: skip
            429: THROTTLED,
        },
    )
    def get(self, request, ticket: str):
        hint = hint_read(user=request.user, ticket=ticket)
        return hint_response(request, hint)
