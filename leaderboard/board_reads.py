"""A board's answers, as the API and the public reads' middleware give them: a page, the
neighbourhood of a named player or of the signed-in one, their cursors and links.

The API views (leaderboard/apis.py) add the schema; PublicBoardReadMiddleware
(leaderboard/middleware.py) answers public reads from here before the framework's work.
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import cache
from urllib.parse import urlencode

from django.conf import settings
from django.http.response import HttpResponseBase
from django.urls import reverse
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response

from games.daily_calendar import hidden_replay_codes
from leaderboard.api_shapes import AROUND_PATTERN, MAX_PAGE_SIZE, code_or_400
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
from leaderboard.hot_pages import hot_page
from leaderboard.public_reads import PublicAnswer, public_read, query_validated
from leaderboard.seasons import season_snapshot_take
from leaderboard.selectors import (
    BoardPage,
    Cursor,
    UnknownPlayer,
    leaderboard_around,
    leaderboard_around_player,
    leaderboard_page,
)
from yukon_site import clock
from yukon_site.api_schema import iso_utc

AROUND_SPAN = 10


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
    hidden = hidden_replay_codes(today=clock.now().date())
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


class BoardInputSerializer(BoardQuerySerializer):
    """A global, open-deal or daily board's query (LeaderboardApi)."""

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


def board_named(query: dict) -> str:
    """The board a validated query names (400 for a key that is not of its period)."""
    try:
        key = parse_period_key(query["period"], query.get("key") or None, now=clock.now())
    except BoardKeyError as error:
        raise serializers.ValidationError({"key": [str(error)]}) from None
    if query["deals"] == DAILY_PREFIX:
        return daily_board(query["rules"], key)
    board = global_board(query["rules"], query["period"], key, deals=query["deals"])
    if query["period"] == "season":
        # A GET that writes, idempotently (the first snapshot stands): a closed season's final
        # standing is kept by its first read, should beat's task be behind or absent (make run).
        season_snapshot_take(board=board, now=clock.now())
    return board


def page_size() -> int:
    """A page's size when the query names none."""
    return settings.LEADERBOARD_PAGE_SIZE


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
            query = query_validated(BoardInputSerializer, request)
            board = board_named(query)
        elif (match := deal_path.fullmatch(path)) is not None:
            query = query_validated(BoardQuerySerializer, request)
            board = deal_board(str(code_or_400(match[1])))
        else:
            return None
        if query.get("around") == "me":
            return None
        return board_public_answer(request, board=board, query=query, page_size_default=page_size())
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
