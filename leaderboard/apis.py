"""The leaderboard API: the boards (global, open-deal, daily, a deal's), around a player too.

Boards (around a named player too) are public; `around=me` needs a session. A deal's figures and
replays: leaderboard/deal_apis.py; the daily deal: daily/apis.py; a player's own figures
(/api/me/): players/apis.py.
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
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from leaderboard.api_shapes import (
    AROUND_ME_SIGNED_OUT,
    AROUND_PATTERN,
    AROUND_PLAYER_UNKNOWN,
    BOARD_ANSWER,
    BOARD_PARAMETERS,
    CODE_PARAMETER,
    MAX_PAGE_SIZE,
    code_or_400,
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
    parse_period_key,
)
from leaderboard.daily_calendar import hidden_replay_codes
from leaderboard.hot_pages import hot_page
from leaderboard.public_reads import PublicAnswer, PublicBoardApi, public_read, query_validated
from leaderboard.seasons import season_snapshot_take
from leaderboard.selectors import (
    BoardPage,
    Cursor,
    UnknownPlayer,
    leaderboard_around,
    leaderboard_around_player,
    leaderboard_page,
)
from yukon_site.api_schema import iso_utc

AROUND_SPAN = 10


def _now() -> dt.datetime:  # the API's clock (tests freeze it)
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
            board = deal_board(str(code_or_400(match[1])))
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
        board = deal_board(str(code_or_400(code)))
        return board_answer(request, board=board, query=query, page_size_default=_page_size())
