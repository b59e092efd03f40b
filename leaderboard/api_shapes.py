"""The shapes the leaderboard API answers and the parameters it reads, for its schema
(/api/schema/; the answers themselves are built in leaderboard/board_reads.py and deal_apis.py), and
the check of a deal's code in a path."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer
from rest_framework import serializers

from games.api_fields import BoardPlayerSerializer
from leaderboard.boards import BoardKeyError, parse_code
from yukon_site.api_schema import REFUSAL

MAX_PAGE_SIZE = 100


class BoardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = BoardPlayerSerializer()
    score = serializers.IntegerField()
    moves = serializers.IntegerField()
    duration_ms = serializers.IntegerField()
    achieved_at = serializers.DateTimeField()
    replay_url = serializers.URLField(allow_null=True, help_text="null while the daily deal's day lasts")


class BoardPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = BoardEntrySerializer(many=True)


class NotRankedSerializer(serializers.Serializer):
    ranked = serializers.BooleanField(help_text="false: the player has no entry on this board")


# A page; with around=me, `{"ranked": false}` when the player has no entry on the board.
BOARD_ANSWER = PolymorphicProxySerializer(
    component_name="BoardAnswer",
    serializers=[BoardPageSerializer, NotRankedSerializer],
    resource_type_field_name=None,
)
AROUND_ME_SIGNED_OUT = OpenApiResponse(REFUSAL, description="around=me signed out (`not_authenticated`).")
AROUND_PLAYER_UNKNOWN = OpenApiResponse(
    REFUSAL, description="around=<name>: no player is named so (`player_not_found`)."
)
# `me`, or a player's name (3–20 characters: accounts.models.NAME_PATTERN; so no one is named "me").
AROUND_PATTERN = r"^(me|[A-Za-z0-9_-]{3,20})\Z"
CODE_PARAMETER = OpenApiParameter(
    "code",
    str,
    OpenApiParameter.PATH,
    # YU1: 7 letters; YU2: 46 characters of Crockford's base 32 (no I L O U), the first 0 or 1 (< 52!).
    pattern=r"^[Yy][Uu](1-[CcRr]-[A-Za-z]{7}|2-[CcRr]-[01][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{45})$",
    description="A game code, like YU1-C-AAAAAAB or a whole deal's YU2-C-… (52 characters; any case).",
)


BOARD_PARAMETERS = [
    OpenApiParameter("cursor", str, description="From a `next` or `previous` link."),
    OpenApiParameter(
        "page_size",
        {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
        description=f"1 … {MAX_PAGE_SIZE}; default 50.",
    ),
    OpenApiParameter(
        "around",
        {"type": "string", "pattern": r"^(me|[A-Za-z0-9_-]{3,20})$"},
        description="A player's entry with 10 above and 10 below: `me` (signed in), or a player's name "
        "as the boards show it (public; a display name in any case).",
    ),
]


def code_or_400(code: str):
    """The deal a path's code names, or a 400 `{"code": [...]}`."""
    try:
        return parse_code(code)
    except BoardKeyError as error:
        raise serializers.ValidationError({"code": [str(error)]}) from None
