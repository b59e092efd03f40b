"""The leaderboard API: boards, around a player, deals, the daily deal, replays.

Boards (around a named player too), deals, replays and the daily deal are public; `around=me`
needs a session. A player's own figures (/api/me/): players/apis.py.
Examples of every answer: docs/leaderboards.md.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import re
from functools import cache
from urllib.parse import urlencode

from django.http.response import HttpResponseBase
from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.hidden.reveals import game_known_deal
from games.hidden.serializers import HeldHiddenGameOutputSerializer, VisibleDealSerializer
from games.selectors import submission_code_public
from leaderboard.api_shapes import (
    AROUND_ME_SIGNED_OUT,
    AROUND_PATTERN,
    AROUND_PLAYER_UNKNOWN,
    BOARD_ANSWER,
    BOARD_PARAMETERS,
    CODE_PARAMETER,
    MAX_PAGE_SIZE,
    BoardPlayerSerializer,
    ReplayHiddenSerializer,
)
from leaderboard.boards import (
    DAILY_PREFIX,
    DEALS,
    PERIODS,
    RULES,
    BoardKeyError,
    daily_board,
    deal_board,
    global_board,
    parse_code,
    parse_period_key,
)
from leaderboard.hot_pages import hot_page
from leaderboard.public_reads import PublicAnswer, PublicBoardApi, public_read, query_validated
from leaderboard.seasons import season_snapshot_take
from leaderboard.selectors import (
    BoardPage,
    Cursor,
    UnknownPlayer,
    hidden_replay_codes,
    leaderboard_around,
    leaderboard_around_player,
    leaderboard_page,
)
from leaderboard.services import daily_deal_pick, daily_game_issue
from leaderboard.summaries import ReplayHidden, deal_summary, replay_get
from yukon_site.api_schema import REFUSAL, iso_utc

AROUND_SPAN = 10


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)




def cursor_encode(direction: str, cursor: Cursor) -> str:
    raw = f"{direction}{cursor.sort_key}.{cursor.user_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def cursor_decode(text: str) -> tuple[str, Cursor]:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
        direction, rest = raw[0], raw[1:]
        sort_key, user_id = (int(part) for part in rest.split("."))
        if direction not in "ab" or sort_key < 0 or user_id < 0:
            raise ValueError
    except (ValueError, UnicodeDecodeError, binascii.Error, IndexError):
        raise serializers.ValidationError(
            {"cursor": ["Not a cursor of this board: use the next or previous links."]}
        ) from None
    return direction, Cursor(sort_key, user_id)


def _page_link(request, direction: str, cursor: Cursor) -> str:
    """This read's address at `cursor`, without `around`: its fields sorted, as DRF's
    replace_query_param writes them, from the query Django has parsed (not parsed again)."""
    query = {field: values for field, values in request.GET.lists() if field not in ("around", "cursor")}
    query["cursor"] = [cursor_encode(direction, cursor)]
    return f"{request.build_absolute_uri(request.path)}?{urlencode(sorted(query.items()), doseq=True)}"


def board_page_data(request, page: BoardPage) -> dict:
    hidden = hidden_replay_codes(today=_now().date())
    replays = request.build_absolute_uri("/api/replays/")
    results = [
        {
            "rank": entry.rank,
            "player": {"name": entry.name},
            "score": entry.score,
            "moves": entry.moves,
            "duration_ms": entry.duration_ms,
            "achieved_at": iso_utc(entry.achieved_at),
            "replay_url": None if entry.code in hidden else f"{replays}{entry.submission_id}/",
        }
        for entry in page.entries
    ]
    entries = page.entries
    next_link = previous_link = None
    if entries and page.has_next:
        next_link = _page_link(request, "a", entries[-1].cursor)
    if entries and page.has_previous:
        previous_link = _page_link(request, "b", entries[0].cursor)
    return {"count": page.count, "next": next_link, "previous": previous_link, "results": results}


class BoardQuerySerializer(serializers.Serializer):
    cursor = serializers.CharField(required=False, allow_blank=True, help_text="empty: the first page")
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=MAX_PAGE_SIZE)
    around = serializers.RegexField(
        AROUND_PATTERN,
        required=False,
        error_messages={"invalid": "Write me, or a player's name as the boards show it."},
    )


def board_answer(request, *, board: str, query: dict, page_size_default: int) -> HttpResponseBase:
    """A page of `board`, or the neighbourhood of a player (around=<name>, public; around=me,
    the signed-in caller's), as the API answers it."""
    around = query.get("around")
    if around == "me":
        if not request.user.is_authenticated:
            raise NotAuthenticated("around=me needs a signed-in player.")
        user_id = request.user.pk
        key = f"{user_id} {request.build_absolute_uri()}"
        return Response(hot_page(key, lambda: around_data(request, board, user_id)))
    answer = board_public_answer(request, board=board, query=query, page_size_default=page_size_default)
    if answer is None:
        refusal = {"detail": f"No player is named {around}.", "code": "player_not_found"}
        return Response(refusal, status=status.HTTP_404_NOT_FOUND)
    return answer.response(request)


def board_public_answer(request, *, board: str, query: dict, page_size_default: int) -> PublicAnswer | None:
    """A page of `board` or the neighbourhood of a named player, the same for everyone, rendered
    and kept (leaderboard.public_reads); None for an unknown name. Reads no session."""
    around = query.get("around")
    if around:

        def around_player():
            try:
                page = leaderboard_around_player(board=board, name=around, span=AROUND_SPAN)
            except UnknownPlayer:
                return None
            return {"ranked": False} if page is None else board_page_data(request, page)

        return public_read(request, around_player)
    after = before = None
    if query.get("cursor"):
        direction, cursor = cursor_decode(query["cursor"])
        after, before = (cursor, None) if direction == "a" else (None, cursor)
    page_size = query.get("page_size") or page_size_default

    def page():
        return board_page_data(
            request, leaderboard_page(board=board, after=after, before=before, page_size=page_size)
        )

    return public_read(request, page)


def public_board_answer(request) -> PublicAnswer | None:
    """The public answer of a GET of a board (a page, around a named player) for a plain Django
    request, or None when it is not one (around=me, a refusal, another address): the API view
    answers those. PublicBoardReadMiddleware calls it before the session and the rest."""
    board_path, deal_path = _board_paths()
    path = request.path  # as reverse() writes it, with the script's prefix
    try:
        if path == board_path:
            query = query_validated(LeaderboardApi.InputSerializer, request)
            board = LeaderboardApi.board_of(query)
        elif (match := deal_path.fullmatch(path)) is not None:
            query = query_validated(BoardQuerySerializer, request)
            board = deal_board(str(_code_or_400(match[1])))
        else:
            return None
        if query.get("around") == "me":
            return None
        return board_public_answer(request, board=board, query=query, page_size_default=_page_size())
    except serializers.ValidationError:
        return None


@cache
def _board_paths() -> tuple[str, re.Pattern]:
    deal = reverse("api-deal-leaderboard", kwargs={"code": "CODE"})
    return reverse("api-leaderboard"), re.compile(re.escape(deal).replace("CODE", "([^/]+)"))


def around_data(request, board: str, user_id: int) -> dict:
    """The player's entry with AROUND_SPAN entries either side, or `{"ranked": false}`."""
    page = leaderboard_around(board=board, user_id=user_id, span=AROUND_SPAN)
    return {"ranked": False} if page is None else board_page_data(request, page)


class LeaderboardApi(PublicBoardApi):
    """A board of one rule set over all time, an ISO week or a UTC day: the global board
    (hidden-card games), or with deals=open the open-deal board (deals whose cards were known)."""

    permission_classes = [AllowAny]

    class InputSerializer(BoardQuerySerializer):
        rules = serializers.ChoiceField(choices=RULES)
        period = serializers.ChoiceField(choices=PERIODS, default="all")
        key = serializers.CharField(
            required=False, allow_blank=True, help_text="2026-11 a season, 2026-W48 a week, 2026-11-29 a day"
        )
        deals = serializers.ChoiceField(choices=[*DEALS, DAILY_PREFIX], default="hidden")

        def validate(self, data):
            if data["deals"] == DAILY_PREFIX and data["period"] != "day":
                problem = "deals=daily has a board a day: use period=day"
                raise serializers.ValidationError({"period": [problem]})
            return data

    @extend_schema(
        operation_id="leaderboard_page",
        summary="A global or open-deal leaderboard page",
        parameters=[
            OpenApiParameter("rules", str, enum=list(RULES), required=True),
            OpenApiParameter(
                "period",
                str,
                enum=list(PERIODS),
                description="Default all. With deals=daily only day: a daily deal has a board a day "
                '(400 `{"period": [...]}` otherwise).',
            ),
            OpenApiParameter(
                "key", str, description="A past season (2026-11), week (2026-W48) or day (2026-11-29)."
            ),
            OpenApiParameter(
                "deals",
                str,
                enum=[*DEALS, DAILY_PREFIX],
                description="hidden (default): the global board, hidden-card games only, whose face-down "
                "cards no one knew before playing them. open: the open-deal board, wins of deals whose "
                "cards were all known (ranked games issued with their code, results submitted by code). "
                "daily, with period=day only: the board of that day's daily deal.",
            ),
            *BOARD_PARAMETERS,
        ],
        responses={
            200: BOARD_ANSWER,
            400: OpenApiResponse(
                description="Field errors: `period` for deals=daily without period=day; `key` not of "
                "its period; `cursor` not of this board; any parameter outside its schema."
            ),
            403: AROUND_ME_SIGNED_OUT,
            404: AROUND_PLAYER_UNKNOWN,
        },
    )
    def get(self, request):
        data = query_validated(self.InputSerializer, request)
        return board_answer(request, board=self.board_of(data), query=data, page_size_default=_page_size())

    @staticmethod
    def board_of(data: dict) -> str:
        """The board a validated query names (400 for a key that is not of its period)."""
        try:
            key = parse_period_key(data["period"], data.get("key") or None, now=_now())
        except BoardKeyError as error:
            raise serializers.ValidationError({"key": [str(error)]}) from None
        if data["deals"] == DAILY_PREFIX:
            return daily_board(data["rules"], key)
        board = global_board(data["rules"], data["period"], key, deals=data["deals"])
        if data["period"] == "season":
            season_snapshot_take(board=board, now=_now())  # a closed season read: its final standing kept
        return board


def _page_size() -> int:
    from django.conf import settings

    return settings.LEADERBOARD_PAGE_SIZE


def _code_or_400(code: str):
    try:
        return parse_code(code)
    except BoardKeyError as error:
        raise serializers.ValidationError({"code": [str(error)]}) from None


class DealLeaderboardApi(PublicBoardApi):
    """The board of one deal: every verified, non-assisted win on it, each player's best."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="deal_leaderboard_page",
        summary="A deal's leaderboard page",
        parameters=[CODE_PARAMETER, *BOARD_PARAMETERS],
        responses={200: BOARD_ANSWER, 403: AROUND_ME_SIGNED_OUT, 404: AROUND_PLAYER_UNKNOWN},
    )
    def get(self, request, code: str):
        query = query_validated(BoardQuerySerializer, request)
        board = deal_board(str(_code_or_400(code)))
        return board_answer(request, board=board, query=query, page_size_default=_page_size())


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
        game_code = _code_or_400(code)
        code, rules = str(game_code), game_code.rules.value
        summary = deal_summary(code=code, rules=rules, now=_now())
        data = {
            "code": summary.code,
            "rules": summary.rules,
            "plays": summary.plays,
            "wins": summary.wins,
            "players": summary.players,
            "best_score": summary.best_score,
            "par": summary.par,
            "daily": [day.isoformat() for day in summary.daily_dates],
            "leaderboard_url": request.build_absolute_uri(f"/api/deals/{summary.code}/leaderboard/"),
        }
        return Response(data)


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

        date = serializers.DateField()
        ends_at = serializers.DateTimeField()
        deals = DealSerializer(many=True)

    @extend_schema(
        operation_id="daily_deal", summary="Today's daily deals", responses={200: OutputSerializer}
    )
    def get(self, request):
        today = _now().date()
        for rules in RULES:
            daily_deal_pick(date=today, rules=rules)  # picked now if no one has yet
        ends_at = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(tzinfo=dt.UTC))
        data = {
            "date": today.isoformat(),
            "ends_at": iso_utc(ends_at),
            "deals": [
                {
                    "rules": rules,
                    "code": None,
                    "board": daily_board(rules, today),
                    "leaderboard_url": _daily_board_url(request, rules, today),
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


class ReplayDetailApi(APIView):
    """A verified win, move by move with its timings, to watch it."""

    permission_classes = [AllowAny]

    @extend_schema_serializer(component_name="Replay")
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        code = serializers.CharField(
            allow_null=True, help_text="The deal's code; null for a daily-deal win until its day is over."
        )
        deal = VisibleDealSerializer(
            allow_null=True,
            help_text="While `code` is null (its player watching it): the deal as its player was shown it.",
        )
        rules = serializers.CharField()
        player = BoardPlayerSerializer()
        log = serializers.ListField(child=serializers.CharField(), help_text="Tokens, as played (U = undo).")
        move_times_ms = serializers.ListField(child=serializers.IntegerField())
        score = serializers.IntegerField()
        moves = serializers.IntegerField()
        duration_ms = serializers.IntegerField()
        ranked = serializers.BooleanField()
        won = serializers.BooleanField(help_text="false only for a race's game that was not won")
        achieved_at = serializers.DateTimeField()

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
            submission = replay_get(submission_id=submission_id, viewer_id=viewer, now=_now())
        except ReplayHidden as hidden:
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
        if submission is None:
            refusal = {"detail": "No such win to watch.", "code": "replay_not_found"}
            return Response(refusal, status=status.HTTP_404_NOT_FOUND)
        user = submission.user
        code_public = submission_code_public(submission, now=_now())
        data = {
            "id": submission.pk,
            # The owner of a daily-deal win watches it during the day: the cards they were shown,
            # never the code, which would deal the whole deal to anyone still playing it.
            "code": submission.code if code_public else None,
            "deal": None if code_public else game_known_deal(submission.game),
            "rules": submission.rules,
            "player": {"name": user.public_name},
            "log": submission.log.split(),
            "move_times_ms": submission.move_times_ms,
            "score": submission.score,
            "moves": submission.moves,
            "duration_ms": submission.duration_ms,
            "ranked": submission.ranked,
            "won": bool(submission.won),
            "achieved_at": iso_utc(submission.received_at.replace(microsecond=0)),
        }
        return Response(data)
