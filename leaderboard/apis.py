"""The leaderboard API: the boards (global, open-deal, daily, a deal's), around a player too.

Boards (around a named player too) are public; `around=me` needs a session. The answers
themselves: leaderboard/board_reads.py. A deal's figures and replays: leaderboard/deal_apis.py;
the daily deal: daily/apis.py; a player's own figures (/api/me/): players/apis.py.
Examples of every answer: docs/leaderboards.md.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny

from leaderboard.api_shapes import (
    AROUND_ME_SIGNED_OUT,
    AROUND_PLAYER_UNKNOWN,
    BOARD_ANSWER,
    BOARD_PARAMETERS,
    CODE_PARAMETER,
    code_or_400,
)
from leaderboard.board_reads import (
    BoardInputSerializer,
    BoardQuerySerializer,
    board_answer,
    board_named,
    page_size,
)
from leaderboard.boards import DAILY_PREFIX, DEALS, PERIODS, RULES, deal_board
from leaderboard.public_reads import PublicBoardApi, query_validated


class LeaderboardApi(PublicBoardApi):
    """A board of one rule set over all time, an ISO week or a UTC day: the global board
    (hidden-card games), or with deals=open the open-deal board (deals whose cards were known)."""

    permission_classes = [AllowAny]

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
        data = query_validated(BoardInputSerializer, request)
        return board_answer(request, board=board_named(data), query=data, page_size_default=page_size())


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
        return board_answer(request, board=board, query=query, page_size_default=page_size())
