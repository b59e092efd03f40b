"""The API's schema says every answer an operation can give (docs/api.md, "The schema").

Each view documents its own answers with `extend_schema`. The refusals that come from the
framework rather than from the view are added here to every operation they can reach, with their
bodies, unless the view documents that status itself (then its body is used, or these bodies when
it gives only a description):

- 400 — an operation with query parameters, a body or a path parameter of a pattern: field
  errors, or an unreadable body;
- 403 — an operation that needs a signed-in player, or any writing one (the CSRF check);
- 404 — an operation with a path parameter (an id that is not there, or not of its form);
- 413, 415 — an operation with a body: over the size limit, or not JSON;
- 429 — a throttled operation, with `Retry-After`.

A refusal of the request as a whole is always `{"detail": sentence, "code": stable_code}`
(yukon_site/api_errors.py adds the code to the framework's own refusals).
"""

from __future__ import annotations

import datetime as dt

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny

WRITING_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class RefusalSerializer(serializers.Serializer):
    """A refusal of the request as a whole."""

    detail = serializers.CharField(help_text="A sentence for a person.")
    code = serializers.CharField(help_text="A stable code for a program (not_authenticated, game_used, …).")


REFUSAL = RefusalSerializer
# A 400: field errors `{field: [message, …]}` (a message is a text, or an object for an illegal
# move of a log), or a refusal of the whole body (unreadable JSON, a move that turns up nothing).
BAD_REQUEST = {
    "anyOf": [
        {
            "type": "object",
            "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
            "required": ["detail", "code"],
        },
        {"type": "object", "additionalProperties": {"type": "array"}, "minProperties": 1},
    ]
}

NOT_SIGNED_IN = OpenApiResponse(
    REFUSAL,
    description="Not signed in (`not_authenticated`), or no CSRF token on a writing request "
    "(`permission_denied`).",
)
THROTTLED = OpenApiResponse(
    REFUSAL, description="Too many requests (`throttled`); `Retry-After` says how many seconds to wait."
)


def paginated(component_name: str, item: serializers.Serializer) -> serializers.Serializer:
    """A page of `item`s as DRF's PageNumberPagination answers it."""
    return inline_serializer(
        component_name,
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item,
        },
    )


STANDARD = {
    "400": (BAD_REQUEST, 'Field errors `{field: [message]}`, or an unreadable body `{"detail", "code"}`.'),
    "403": (REFUSAL, NOT_SIGNED_IN.description),
    "404": (REFUSAL, "Nothing of this id or form here (`not_found`, or the operation's own code)."),
    "413": (REFUSAL, "The body is over the size limit (`request_too_large`)."),
    "415": (REFUSAL, "The body is not JSON (`unsupported_media_type`)."),
    "429": (REFUSAL, THROTTLED.description),
}


def standard_refusal(code: str) -> OpenApiResponse:
    """One of the refusals above, for an operation that lists it itself."""
    serializer, description = STANDARD[code]
    return OpenApiResponse(serializer, description=description)


class AutoSchema(SpectacularAutoSchema):
    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation["responses"]
        for code in self._standard_codes(operation):
            standard = self._get_response_for_code(standard_refusal(code), code)
            if code not in responses:
                responses[code] = standard
            elif "content" not in responses[code]:  # documented in words only: the standard body
                responses[code]["content"] = standard["content"]
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _standard_codes(self, operation: dict) -> list[str]:
        codes = []
        has_body = "requestBody" in operation
        parameters = operation.get("parameters", [])
        # A path parameter with a pattern (a game code) is read by the view: 400 when it is not one.
        if has_body or any(p["in"] == "query" or "pattern" in p.get("schema", {}) for p in parameters):
            codes.append("400")
        open_to_all = all(isinstance(permission, AllowAny) for permission in self.view.get_permissions())
        if not open_to_all or self.method in WRITING_METHODS:
            codes.append("403")
        if "{" in self.path:
            codes.append("404")
        if has_body:
            codes += ["413", "415"]
        if self.view.get_throttles():
            codes.append("429")
        return codes

    def _get_response_headers_for_code(self, status_code, direction="response"):
        headers = super()._get_response_headers_for_code(status_code, direction)
        if str(status_code) == "429":
            headers = {
                **(headers or {}),
                "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."},
            }
        return headers


def iso_utc(moment: dt.datetime | None) -> str | None:
    """A moment as the answers write it: UTC to the second, `2026-11-30T08:15:02Z` (None stays None)."""
    if moment is None:
        return None
    return moment.astimezone(dt.UTC).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"
