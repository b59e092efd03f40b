"""The races API, included under /api/ (docs/races.md). Thin: races.services decides."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.devices import device_key, session_key_hash
from games.models import RulesChoice
from races import matching, selectors, services
from races.errors import RaceNotFound
from races.models import Race
from yukon_site.api_input import StrictBooleanField, StrictCharField, StrictIntegerField
from yukon_site.api_schema import NOT_SIGNED_IN, REFUSAL


class RaceSerializer(serializers.Serializer):
    """A race as GET /api/races/<id>/ answers it (races.selectors.race_view)."""

    id = serializers.CharField()
    kind = serializers.ChoiceField(["race", "challenge"])
    url = serializers.CharField()
    rules = serializers.CharField()
    seats = serializers.IntegerField()
    time_limit_minutes = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(["lobby", "countdown", "running", "finished", "cancelled"])
    host = serializers.CharField()
    now = serializers.DateTimeField()
    created_at = serializers.DateTimeField()
    starts_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True, help_text="a challenge's end")
    finished_at = serializers.DateTimeField(allow_null=True)
    grace_seconds = serializers.IntegerField()
    commitment = serializers.CharField(allow_null=True)
    code = serializers.CharField(allow_null=True, help_text="null until the race is over")
    secret = serializers.CharField(allow_null=True, help_text="null until the race is over")
    places_final = serializers.BooleanField()
    rematch_id = serializers.CharField(allow_null=True)
    your_rematch = serializers.ChoiceField(
        ["offered", "seated", "declined"],
        allow_null=True,
        help_text="the asking player's side of the rematch: null without one, or for a spectator",
    )
    your_game_id = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.DictField())


# The name the race's operations use.
RACE = RaceSerializer


def _race(request, race, *, code: int = status.HTTP_200_OK) -> Response:
    race = selectors.race_get(race.public_id)
    return Response(selectors.race_view(race, viewer=request.user), status=code)


class RacesApi(APIView):
    class RaceCreateInputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(
            Race.Kind.choices,
            default=Race.Kind.RACE,
            help_text="race: live; challenge: two players, each in turn",
        )
        rules = serializers.ChoiceField(RulesChoice.choices)
        seats = StrictIntegerField(
            min_value=services.MIN_SEATS,
            max_value=services.MAX_SEATS,
            required=False,
            help_text="a race's (2–6)",
        )
        time_limit_minutes = StrictIntegerField(
            min_value=1, max_value=settings.RACE_MAX_TIME_LIMIT_MINUTES, allow_null=True, required=False
        )

        def validate(self, data):
            if data["kind"] == Race.Kind.RACE and "seats" not in data:
                raise serializers.ValidationError({"seats": ["a race needs its number of seats (2–6)"]})
            return data

    # The body as the schema states it, one of two (the rule `validate` checks): a race, of the
    # default kind, says its seats; a challenge has two players and uses neither seats nor a limit.
    class LiveRaceCreateInputSerializer(RaceCreateInputSerializer):
        kind = serializers.ChoiceField([Race.Kind.RACE], default=Race.Kind.RACE, help_text="race: live")
        seats = StrictIntegerField(
            min_value=services.MIN_SEATS, max_value=services.MAX_SEATS, help_text="a race needs them (2–6)"
        )

    class ChallengeCreateInputSerializer(RaceCreateInputSerializer):
        kind = serializers.ChoiceField(
            [Race.Kind.CHALLENGE], help_text="challenge: two players, each in turn"
        )
        seats = StrictIntegerField(
            min_value=services.MIN_SEATS, max_value=services.MAX_SEATS, required=False, help_text="not used"
        )

    @extend_schema(
        operation_id="races_create",
        summary="Create a race (you are its host, in the first seat)",
        description='A race (`kind` race, the default) needs its `seats` (400 `{"seats": [...]}` '
        "without them); a challenge (`kind` challenge) has two players, and no seats or time limit.",
        request=PolymorphicProxySerializer(
            "RaceCreateInput",
            [LiveRaceCreateInputSerializer, ChallengeCreateInputSerializer],
            resource_type_field_name=None,
        ),
        responses={201: RACE, 400: OpenApiResponse(description="Field errors."), 403: NOT_SIGNED_IN},
    )
    def post(self, request):
        serializer = self.RaceCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data["kind"] == Race.Kind.CHALLENGE:
            race = services.challenge_create(user=request.user, rules=data["rules"])
        else:
            race = services.race_create(
                user=request.user,
                rules=data["rules"],
                seats=data["seats"],
                time_limit_minutes=data.get("time_limit_minutes"),
            )
        return _race(request, race, code=status.HTTP_201_CREATED)


class RaceDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="races_detail",
        summary="A race: its seats and their figures (never a card); the deal once over",
        responses={200: RACE, 404: OpenApiResponse(REFUSAL, description="`race_not_found`.")},
    )
    def get(self, request, race_id: str):
        race = selectors.race_get(race_id)
        if race is None:
            raise RaceNotFound(f"there is no race {race_id}")
        if services.race_tick(public_id=race_id):  # a race nobody watches moves on when read
            race = selectors.race_get(race_id)
        return Response(selectors.race_view(race, viewer=request.user))


def _action(operation_id: str, summary: str, refusals: str, service):
    class RaceActionApi(APIView):
        @extend_schema(
            operation_id=operation_id,
            summary=summary,
            request=None,
            responses={
                200: RACE,
                403: OpenApiResponse(REFUSAL, description="Not signed in; `not_host`, `not_seated`."),
                404: OpenApiResponse(REFUSAL, description="`race_not_found`."),
                409: OpenApiResponse(REFUSAL, description=refusals),
            },
        )
        def post(self, request, race_id: str):
            race = service(user=request.user, public_id=race_id)
            return _race(request, race)

    RaceActionApi.__name__ = RaceActionApi.__qualname__ = (
        "".join(p.title() for p in operation_id.split("_")) + "Api"
    )
    return RaceActionApi


RaceJoinApi = _action(
    "races_join",
    "Take a seat in the race's lobby",
    "`race_full`, `already_seated`, `race_started`.",
    services.race_join,
)
RaceLeaveApi = _action(
    "races_leave",
    "Leave: in the lobby the seat is freed; once started the seat is out, settled from its record",
    "Never.",
    services.race_leave,
)
RaceStartApi = _action(
    "races_start",
    "Start the race (its host): the countdown begins",
    "`too_few_players`, `race_started`.",
    services.race_start,
)
RaceRematchApi = _action(
    "races_rematch",
    "The room's next race (a new deal): the first player who asks creates it, alone in it; each "
    "who asks after takes a seat in it as a join does (it starts once full)",
    "`race_not_over`; a later asker's: `race_full`, `race_started`.",
    services.race_rematch,
)
RaceRematchDeclineApi = _action(
    "races_rematch_decline",
    "Turn the rematch down: no longer offered to the player; a seat taken in its lobby is freed",
    "`race_not_over`.",
    services.race_rematch_decline,
)


class RatingBoardApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="races_ratings",
        summary="The best race ratings of a rule set",
        parameters=[OpenApiParameter("rules", str, enum=RulesChoice.values, description="default classic")],
        responses={
            200: inline_serializer(
                "RatingBoard",
                {
                    "rules": serializers.CharField(),
                    "entries": serializers.ListField(child=serializers.DictField()),
                },
            )
        },
    )
    def get(self, request):
        rules = request.query_params.get("rules", RulesChoice.CLASSIC)
        if rules not in RulesChoice.values:
            return Response({"rules": [f"unknown rule set {rules!r}: classic or relaxed"]}, status=400)
        return Response({"rules": rules, "entries": selectors.rating_board(rules=rules)})


class QuickMatchApi(APIView):
    """The quick-match queue of a rule set: ask (again every few seconds while waiting), or leave."""

    class QuickMatchInputSerializer(serializers.Serializer):
        rules = serializers.ChoiceField(RulesChoice.choices)
        asynchronous = StrictBooleanField(
            default=False, help_text="stop waiting: start a challenge the queue gives to the next player"
        )
        wait = StrictCharField(
            max_length=64,
            required=False,
            allow_blank=True,
            default="",
            help_text="the page's name for this wait (one a press of Find), sent with every ask and "
            "with the leave: an ask of a wait already left queues nothing (state `left`); empty or "
            "absent: a wait without a name",
        )

    @extend_schema(
        operation_id="races_quick_match",
        summary="Quick match: paired with a player of close rating, or waiting",
        request=QuickMatchInputSerializer,
        responses={
            200: inline_serializer(
                "QuickMatch",
                {
                    "state": serializers.ChoiceField(["matched", "waiting", "left"]),
                    "race": RaceSerializer(allow_null=True, help_text="null while waiting or left"),
                    "now": serializers.DateTimeField(help_text="the server's clock, for waiting_since"),
                    "waiting_since": serializers.DateTimeField(allow_null=True),
                    "rating_window": serializers.FloatField(allow_null=True),
                    "asynchronous_after_seconds": serializers.IntegerField(),
                },
            ),
            403: NOT_SIGNED_IN,
        },
    )
    def post(self, request):
        serializer = self.QuickMatchInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        asker = matching.Asker(device_hash=device_key(request), session_hash=session_key_hash(request))
        match = matching.quick_match(user=request.user, asker=asker, **serializer.validated_data)
        race = selectors.race_get(match.race.public_id) if match.race is not None else None
        return Response(
            {
                "state": "matched" if race is not None else "left" if match.left else "waiting",
                "race": selectors.race_view(race, viewer=request.user) if race is not None else None,
                "now": timezone.now(),
                "waiting_since": match.waiting_since,
                "rating_window": match.window,
                "asynchronous_after_seconds": matching.ASYNCHRONOUS_AFTER_SECONDS,
            }
        )

    @extend_schema(
        operation_id="races_quick_match_leave",
        summary="Leave the quick-match queue of a rule set",
        parameters=[
            OpenApiParameter("rules", str, description="classic or relaxed"),
            OpenApiParameter("wait", str, description="the wait left (as the asks sent it)", required=False),
        ],
        responses={
            204: OpenApiResponse(description="Out of the queue."),
            200: OpenApiResponse(
                inline_serializer(
                    "QuickMatchStands", {"state": serializers.ChoiceField(["matched"]), "race": RACE}
                ),
                description="Someone was paired with the player meanwhile: the match stands.",
            ),
            403: NOT_SIGNED_IN,
        },
    )
    def delete(self, request):
        paired = matching.quick_match_leave(
            user=request.user,
            rules=request.query_params.get("rules", ""),
            wait=request.query_params.get("wait", "")[:64],
        )
        if paired is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        race = selectors.race_get(paired.public_id)
        return Response({"state": "matched", "race": selectors.race_view(race, viewer=request.user)})
