"""What the games APIs share: the strict millisecond lists of a log's times, the code field's
length, a player as answers name them, and the schema's refusal examples. Refusals themselves are
rendered by DRF's exception handler (yukon_site/api_errors.py)."""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
)
from rest_framework import serializers

from games.models import CODE_LENGTH
from yukon_site.api_input import (
    StrictIntegerField,
)
from yukon_site.api_schema import REFUSAL

# A code field's longest input: the longest code (a YU2 code's 52 characters) and white space around it.
CODE_INPUT_LENGTH = CODE_LENGTH

# --- Strict JSON types (yukon_site/api_input.py) ------------------------------------------------


class MillisecondsListField(serializers.ListField):
    """A list of non-negative integers (milliseconds), checked in one pass: logs have thousands."""

    child = StrictIntegerField(min_value=0, max_value=10**10)

    def to_internal_value(self, data):
        if not isinstance(data, list):
            self.fail("not_a_list", input_type=type(data).__name__)
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        if not all(type(value) is int and 0 <= value <= 10**10 for value in data):
            raise serializers.ValidationError("Each time must be an integer of milliseconds, 0 or more.")
        return data


# --- Documentation helpers --------------------------------------------------------------------------


def refusal(description: str, code: str, detail: str) -> OpenApiResponse:
    example = OpenApiExample(code, value={"detail": detail, "code": code})
    return OpenApiResponse(REFUSAL, description=description, examples=[example])


# A player as boards and replays name them (public: the display name alone).
class BoardPlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
