"""Results: submit a finished game, read its verdict, list one's own (`/api/submissions/`).

Each method validates its input, calls one service and answers; refusals are raised and rendered
by DRF's exception handler: `{"detail": "...", "code": "..."}` with 403/404/409; field errors are
400 `{field: [...]}`."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api_fields import CODE_INPUT_LENGTH, MillisecondsListField, refusal
from games.log_input import SubmissionInput
from games.selectors import (
    submission_code_public,
    submission_get_for_owner,
    submission_list_for_owner,
)
from games.submissions.intake import submission_create
from games.submissions.queue import submissions_sweep_when_due
from games.throttles import SubmissionCreateThrottle
from yukon_site.api_input import (
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictUUIDField,
    query_data,
)
from yukon_site.api_schema import NOT_SIGNED_IN, REFUSAL, THROTTLED, paginated


class SubmissionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    client_id = serializers.UUIDField()
    status = serializers.CharField()
    game = serializers.IntegerField(source="game_id", allow_null=True)
    code = serializers.SerializerMethodField(
        help_text="The deal's code; null for a daily-deal game until its day is over."
    )
    rules = serializers.CharField()
    ranked = serializers.BooleanField()
    assisted = serializers.BooleanField()
    received_at = serializers.DateTimeField()
    settled_at = serializers.DateTimeField(allow_null=True)
    duration_ms = serializers.IntegerField()
    won = serializers.BooleanField(allow_null=True)
    moves = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    reason = serializers.SerializerMethodField()
    ranks = serializers.DictField(child=serializers.IntegerField())
    ranks_of = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Entries on each board of `ranks` when the result was placed (rank ÷ entries: percentile).",
    )
    voided = serializers.BooleanField()
    engine_version = serializers.CharField()
    commitment = serializers.SerializerMethodField(help_text="A hidden-card game's commitment, else null.")
    secret = serializers.SerializerMethodField(help_text="A hidden-card game's secret, else null.")

    @extend_schema_field(
        inline_serializer(
            "RejectionReason",
            {
                "code": serializers.CharField(
                    help_text="Stable: an engine refusal or a server check (docs/api.md)."
                ),
                "message": serializers.CharField(help_text="The reason in English, for API clients."),
                "params": serializers.DictField(
                    help_text="The reason's figures, for a page to word it in its language."
                ),
            },
            allow_null=True,
        )  # fmt: skip
    )
    def get_reason(self, submission) -> dict | None:
        if submission.status != "rejected":
            return None
        return {
            "code": submission.reason_code,
            "message": submission.reason,
            "params": submission.reason_params,
        }

    def get_commitment(self, submission) -> str | None:
        """Published with the code once the game is finished (it is, once it has a submission)."""
        game = submission.game
        return game.commitment if game is not None and game.hidden else None

    def get_code(self, submission) -> str | None:
        return submission.code if submission_code_public(submission) else None

    def get_secret(self, submission) -> str | None:
        game = submission.game
        if game is None or not game.hidden or not submission_code_public(submission):
            return None
        return game.secret


class SubmissionAcceptedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()


class SubmissionPagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class SubmissionsApi(APIView):
    """POST submits a finished game; GET lists the player's own submissions, newest first."""

    class SubmissionCreateInputSerializer(serializers.Serializer):
        client_id = StrictUUIDField(help_text="Made by the page; the idempotency key.")
        game = StrictIntegerField(required=False, min_value=1, help_text="An issued game's id (ranked).")
        code = StrictCharField(
            required=False, max_length=CODE_INPUT_LENGTH, help_text="A typed-in or shared code (unranked)."
        )
        log = StrictCharField(help_text="Engine notation, tokens separated by spaces; U is an undo.")
        move_times_ms = MillisecondsListField(
            max_length=2 * settings.SUBMISSION_MAX_TOKENS,  # the log's own limit is checked with it
            help_text="Milliseconds of active play at each token.",
        )
        duration_ms = StrictIntegerField(min_value=0, max_value=10**10)
        finished_at = serializers.DateTimeField(help_text="The page's clock; informational.")
        client_version = StrictCharField(required=False, allow_blank=True, max_length=64, default="")
        assisted = StrictBooleanField(required=False, default=False, help_text="A hint was used.")

    class SubmissionListInputSerializer(serializers.Serializer):
        page = serializers.IntegerField(min_value=1, required=False, help_text="1, 2, …")
        page_size = serializers.IntegerField(
            min_value=1, max_value=SubmissionPagination.max_page_size, required=False, help_text="default 20"
        )

    def get_throttles(self):
        return [SubmissionCreateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="submissions_create",
        summary="Submit a finished game (won or not)",
        request=SubmissionCreateInputSerializer,
        responses={
            202: SubmissionAcceptedSerializer,
            200: OpenApiResponse(
                SubmissionAcceptedSerializer, description="The same client_id and body again."
            ),
            400: OpenApiResponse(
                description="Field errors: `{field: [message]}`; an unreadable token is "
                '`{"log": [{index, token, code, message}]}`.'
            ),  # fmt: skip
            403: OpenApiResponse(
                REFUSAL,
                description="Not signed in, CSRF missing, or the game was issued "
                "to another player (`game_not_yours`).",
            ),  # fmt: skip
            404: refusal("No such issued game.", "game_not_found", "no game 999 was issued"),
            409: refusal(
                "The game already has a result, or the client_id was used for another body.",
                "game_used",
                "game 12 is finished: it accepts no result",
            ),  # fmt: skip
            429: THROTTLED,
        },
    )
    def post(self, request):
        serializer = self.SubmissionCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        values = serializer.validated_data
        data = SubmissionInput(
            client_id=values["client_id"],
            game_id=values.get("game"),
            code=values.get("code"),
            log=values["log"],
            move_times_ms=values["move_times_ms"],
            duration_ms=values["duration_ms"],
            finished_at=values["finished_at"],
            client_version=values["client_version"],
            assisted=values["assisted"],
        )
        submission, created = submission_create(user=request.user, data=data)
        return Response(
            SubmissionAcceptedSerializer(submission).data,
            status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK,
        )

    @extend_schema(
        operation_id="submissions_list",
        summary="The player's own submissions, newest first",
        parameters=[SubmissionListInputSerializer],
        responses={
            200: paginated("PaginatedSubmissionList", SubmissionOutputSerializer(many=True)),
            403: NOT_SIGNED_IN,
            404: OpenApiResponse(REFUSAL, description="A page past the last (`not_found`)."),
        },
    )
    def get(self, request):
        # Checked here: DRF's paginator would take a bad page_size for the default silently.
        self.SubmissionListInputSerializer(data=query_data(request)).is_valid(raise_exception=True)
        submissions_sweep_when_due()  # eager mode: no beat
        paginator = SubmissionPagination()
        page = paginator.paginate_queryset(submission_list_for_owner(user=request.user), request, view=self)
        return paginator.get_paginated_response(SubmissionOutputSerializer(page, many=True).data)


class SubmissionDetailApi(APIView):
    @extend_schema(
        operation_id="submissions_detail",
        summary="One submission and its verdict (owner only)",
        responses={
            200: SubmissionOutputSerializer,
            403: NOT_SIGNED_IN,
            404: OpenApiResponse(REFUSAL, description="No such submission of this player (`not_found`)."),
        },
    )
    def get(self, request, submission_id: int):
        submissions_sweep_when_due()  # eager mode: no beat; the page asks until its verdict comes
        submission = submission_get_for_owner(user=request.user, submission_id=submission_id)
        if submission is None:
            return Response({"detail": "Not found.", "code": "not_found"}, status=status.HTTP_404_NOT_FOUND)
        return Response(SubmissionOutputSerializer(submission).data)
