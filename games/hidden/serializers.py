"""What the API answers about issued games: as issued, as held, in detail, and their reveals.

A hidden-card game's answers never carry its code, deal number or secret before it is finished,
nor a face-down card its log has not turned up (docs/security.md, "Hidden-card games").
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine import visible_deal
from games.hidden.reveals import game_known_deal, game_reveals
from games.models import IssuedGame
from games.selectors import game_code_public, game_expires_at


@extend_schema_field(OpenApiTypes.DATETIME)
class ExpiresAtField(serializers.Field):
    """When the game stops accepting a result (GAMES_EXPIRE_AFTER_DAYS after its issue)."""

    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, help_text="It accepts no result after this.", **kwargs)

    def to_representation(self, game: IssuedGame) -> str:
        return serializers.DateTimeField().to_representation(game_expires_at(game))


DAILY_DATE_HELP = "The UTC day of the daily deal it plays, else null."


class VisibleDealSerializer(serializers.Serializer):
    """`VisibleDeal.to_dict()` (docs/rules.md, "Positions with unknown face-down cards")."""

    rules = serializers.CharField()
    columns = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(allow_null=True)),
        help_text="Seven columns as dealt, bottom to top: card names, null for a face-down card not known.",
    )
    face_down = serializers.ListField(child=serializers.IntegerField(), help_text="Always [0, 1, …, 6].")


class IssuedGameOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    rules = serializers.CharField()
    issued_at = serializers.DateTimeField()


class HeldGameOutputSerializer(IssuedGameOutputSerializer):
    expires_at = ExpiresAtField()


class HiddenGameOutputSerializer(serializers.Serializer):
    """A hidden-card game as issued: no code; its face-up cards, every face-down card null."""

    id = serializers.IntegerField()
    rules = serializers.CharField()
    hidden = serializers.BooleanField()
    commitment = serializers.CharField(help_text='SHA-256 of "<code>:<secret>", hex.')
    issued_at = serializers.DateTimeField()
    expires_at = ExpiresAtField()
    daily_date = serializers.DateField(allow_null=True, help_text=DAILY_DATE_HELP)
    deal = serializers.SerializerMethodField()

    @extend_schema_field(VisibleDealSerializer)
    def get_deal(self, game: IssuedGame) -> dict:
        return visible_deal(game.code).to_dict()


class HeldHiddenGameOutputSerializer(HiddenGameOutputSerializer):
    """A hidden-card game the player holds: as issued, and whether a reveal has recorded moves
    (`GET /api/games/<id>/` gives those, to resume it)."""

    started = serializers.SerializerMethodField(help_text="Moves of it are recorded (a card was revealed).")

    def get_started(self, game: IssuedGame) -> bool:
        return bool(game.recorded_log)


def held_game_data(game: IssuedGame) -> dict:
    """A held game as listed: a hidden-card game without its code, any other as it was issued."""
    return (HeldHiddenGameOutputSerializer if game.hidden else HeldGameOutputSerializer)(game).data


class PlaceSerializer(serializers.Serializer):
    column = serializers.IntegerField(help_text="The column index, 0–6.")
    depth = serializers.IntegerField(help_text="From the bottom of the column, as dealt, 0 first.")


class RevealOutputSerializer(serializers.Serializer):
    place = PlaceSerializer(source="*")
    card = serializers.CharField(help_text="The card's name, like TD.")
    prefix_length = serializers.IntegerField(help_text="Tokens of the log that turned it up.")


class GameDetailOutputSerializer(serializers.Serializer):
    """One issued game, to resume it: the deal as its player knows it and the recorded prefix."""

    id = serializers.IntegerField()
    rules = serializers.CharField()
    hidden = serializers.BooleanField()
    state = serializers.CharField()
    issued_at = serializers.DateTimeField()
    expires_at = ExpiresAtField()
    daily_date = serializers.DateField(allow_null=True, help_text=DAILY_DATE_HELP)
    commitment = serializers.SerializerMethodField()
    deal = serializers.SerializerMethodField()
    reveals = serializers.SerializerMethodField()
    log = serializers.CharField(source="recorded_log", help_text="The recorded prefix: tokens, U = undo.")
    move_times_ms = serializers.ListField(
        source="recorded_times_ms", child=serializers.IntegerField(), help_text="The page's times at them."
    )
    code = serializers.SerializerMethodField()
    secret = serializers.SerializerMethodField()

    def get_commitment(self, game: IssuedGame) -> str | None:
        return game.commitment or None

    @extend_schema_field(VisibleDealSerializer)
    def get_deal(self, game: IssuedGame) -> dict:
        return game_known_deal(game)

    @extend_schema_field(RevealOutputSerializer(many=True))
    def get_reveals(self, game: IssuedGame) -> list:
        return RevealOutputSerializer(game_reveals(game), many=True).data

    def get_code(self, game: IssuedGame) -> str | None:
        """Issued with its code, or finished: a hidden-card game's code is published once it ends
        (a daily deal's once its day is over)."""
        return game.code if game_code_public(game) else None

    def get_secret(self, game: IssuedGame) -> str | None:
        return game.secret if game.hidden and game_code_public(game) else None
