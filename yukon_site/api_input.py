"""What the API reads: JSON bodies of bounded depth, and fields as strict as docs/api.md says.

`BoundedJSONParser` is the project's default parser (settings REST_FRAMEWORK): DRF's own lets the
RecursionError of a body nested ~1000 levels deep escape as a 500. The strict fields refuse
what DRF would convert: 12 for a text ("12"), "12" for a number, 5 for a UUID (UUID(int=5)),
1 or "yes" for a boolean.
"""

from __future__ import annotations

from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError

# The API's bodies nest 2 levels (an object and its lists): 32 is room enough for any change.
MAX_JSON_DEPTH = 32


def json_deeper_than(value: object, limit: int) -> bool:
    """Whether lists and objects in `value` nest more than `limit` levels (iterative: no recursion)."""
    pending = [(value, 1)] if isinstance(value, (dict, list)) else []
    while pending:
        item, depth = pending.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        pending.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class BoundedJSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing bodies nested deeper than MAX_JSON_DEPTH with 400 (ParseError)."""

    def parse(self, stream, media_type=None, parser_context=None):
        too_deep = ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels")
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # deeper than the interpreter's recursion limit
            raise too_deep from None
        # Shallower bodies parse, but code reading them may recurse (str() of a nested list).
        if json_deeper_than(data, MAX_JSON_DEPTH):
            raise too_deep
        return data


def query_data(request) -> dict[str, str]:
    """The query string as a plain dict (the last value of each name). DRF reads a QueryDict like
    a form, where an empty value (`?rules=`) of an optional field counts as absent; here it is a
    value like any other, refused by a field it does not fit, as the schema says."""
    return request.query_params.dict()


# --- Strict JSON types: "12" is not a number and 12 is not a text ---------------------------------


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StringOnly:
    """A field of a text type (a text, a UUID) that takes only a JSON string, never a number."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(StringOnly, serializers.CharField):
    pass


class StrictUUIDField(StringOnly, serializers.UUIDField):
    """A UUID in any of Python's spellings of one, as a string."""


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data
