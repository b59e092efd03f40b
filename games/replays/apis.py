"""The replay API: a verified win, move by move with its timings, to watch it (public; a daily
deal's win hidden until its day is over, a race's games until the race is over). Examples:
docs/leaderboards.md."""

from __future__ import annotations

import datetime as dt

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api_fields import BoardPlayerSerializer
from games.hidden.reveals import game_known_deal
from games.hidden.serializers import VisibleDealSerializer
from games.models import Submission
from games.replays.selectors import ReplayHidden, replay_get
from games.selectors import deal_par, submission_code_public
from yukon_site import clock
from yukon_site.api_schema import REFUSAL, iso_utc


class ReplayHiddenSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()
    available_at = serializers.DateTimeField(allow_null=True, help_text="null: when the race is over")


def replay_hidden_response(hidden: ReplayHidden) -> Response:
    """403 for a replay not to be watched yet (ReplayHiddenSerializer): when it will be, if known."""
    return Response(
        {
            "detail": "This daily-deal win can be watched when the day is over."
            if hidden.until
            else "This race's games can be watched when the race is over.",
            "code": "replay_not_yet",
            "available_at": iso_utc(hidden.until),
        },
        status=status.HTTP_403_FORBIDDEN,
    )


# A replay's fields computed from the result (and from `code_public` in the context: may the answer
# name its deal?). Not read-only, so that the schema shows each as the type it documents.


@extend_schema_field(OpenApiTypes.STR)
class ReplayCodeField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(source="*", allow_null=True, **kwargs)

    def to_representation(self, submission: Submission) -> str | None:
        return submission.code if self.context["code_public"] else None


@extend_schema_field(OpenApiTypes.INT)
class ReplayParField(serializers.Field):
    # The deal's par (the shortest win the solver found) once the deal may be named: before, it
    # would tell something of a deal still played with hidden cards.
    def __init__(self, **kwargs):
        super().__init__(source="*", allow_null=True, **kwargs)

    def to_representation(self, submission: Submission) -> int | None:
        return deal_par(code=submission.code) if self.context["code_public"] else None


@extend_schema_field(VisibleDealSerializer)
class ReplayDealField(serializers.Field):
    # The owner of a daily-deal win watches it during the day: the cards they were shown, never
    # the code, which would deal the whole deal to anyone still playing it.
    def __init__(self, **kwargs):
        super().__init__(source="*", allow_null=True, **kwargs)

    def to_representation(self, submission: Submission) -> dict | None:
        return None if self.context["code_public"] else game_known_deal(submission.game)


@extend_schema_field(BoardPlayerSerializer)
class ReplayPlayerField(serializers.Field):
    def __init__(self, **kwargs):
        super().__init__(source="user", **kwargs)

    def to_representation(self, user) -> dict:
        return {"name": user.public_name}


class LogTokensField(serializers.ListField):
    def __init__(self, **kwargs):
        super().__init__(child=serializers.CharField(), **kwargs)

    def to_representation(self, log: str) -> list[str]:
        return log.split()


class WonField(serializers.BooleanField):
    def __init__(self, **kwargs):
        super().__init__(source="*", **kwargs)

    def to_representation(self, submission: Submission) -> bool:
        return bool(submission.won)


@extend_schema_field(OpenApiTypes.DATETIME)
class AchievedAtField(serializers.Field):
    """When the result was received, to the second (as the boards write it)."""

    def __init__(self, **kwargs):
        super().__init__(source="received_at", **kwargs)

    def to_representation(self, received_at: dt.datetime) -> str | None:
        return iso_utc(received_at)


class ReplayDetailApi(APIView):
    """A verified win, move by move with its timings, to watch it."""

    permission_classes = [AllowAny]

    @extend_schema_serializer(component_name="Replay")
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        code = ReplayCodeField(help_text="The deal's code; null for a daily-deal win until its day is over.")
        deal = ReplayDealField(
            help_text="While `code` is null (its player watching it): the deal as its player was shown it."
        )
        rules = serializers.CharField()
        player = ReplayPlayerField()
        log = LogTokensField(help_text="Tokens, as played (U = undo).")
        move_times_ms = serializers.ListField(child=serializers.IntegerField())
        score = serializers.IntegerField()
        moves = serializers.IntegerField()
        par = ReplayParField(
            help_text="The deal's par, the moves of the shortest win the solver has found, to compare "
            "with `moves`; null while the deal may not be named or before the solver has found one."
        )
        duration_ms = serializers.IntegerField()
        ranked = serializers.BooleanField()
        won = WonField(help_text="false only for a race's game that was not won")
        achieved_at = AchievedAtField()

    @extend_schema(
        operation_id="replay_detail",
        summary="Watch a verified win (or a race's game once the race is over)",
        responses={
            200: OutputSerializer,
            403: OpenApiResponse(
                ReplayHiddenSerializer,
                description="Not yet: a daily deal's win until the day is over (`available_at`), a "
                "race's game until the race is over (`replay_not_yet`).",
            ),
            404: OpenApiResponse(REFUSAL, description="No such win to watch (`replay_not_found`)."),
        },
    )
    def get(self, request, submission_id: int):
        viewer = request.user.pk if request.user.is_authenticated else None
        try:
            submission = replay_get(submission_id=submission_id, viewer_id=viewer, now=clock.now())
        except ReplayHidden as hidden:
            return replay_hidden_response(hidden)
        if submission is None:
            refusal = {"detail": "No such win to watch.", "code": "replay_not_found"}
            return Response(refusal, status=status.HTTP_404_NOT_FOUND)
        context = {"code_public": submission_code_public(submission, now=clock.now())}
        return Response(self.OutputSerializer(submission, context=context).data)
