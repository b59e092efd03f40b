"""Public board answers: rendered once, kept a moment, served before the framework's work.

A board page, or the neighbourhood of a named player, is the same for everyone: its JSON is
rendered once and kept per address for LEADERBOARD_HOT_PAGE_SECONDS (leaderboard.hot_pages),
with an ETag (a hash of the body) and `Cache-Control: public, max-age=…`, so that browsers and
caches in between may keep it as long and ask again with If-None-Match (304). Public reads are
answered by PublicBoardReadMiddleware (leaderboard/middleware.py), before the session, locale,
CSRF and authentication middleware, the URL resolver and DRF's request handling; the query is
validated by the API view's own serializer. No public read looks at the session. The rest
(around=me, refusals) is the API view's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from leaderboard.hot_pages import hot_page

_renderer = JSONRenderer()
MAX_QUERIES = 4096
_queries: dict[tuple[type, str], dict] = {}


@dataclass(frozen=True)
class PublicAnswer:
    body: bytes
    etag: str

    @classmethod
    def of(cls, data: dict) -> PublicAnswer:
        body = _renderer.render(data)
        return cls(body, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"')

    def response(self, request: HttpRequest) -> HttpResponse:
        if self.etag in _etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
            response = HttpResponseNotModified()
        else:
            response = HttpResponse(self.body, content_type="application/json")
            response.headers["Content-Length"] = str(len(self.body))
        response.headers["ETag"] = self.etag
        response.headers["Cache-Control"] = f"public, max-age={max_age()}"
        return response


def max_age() -> int:
    """Seconds a public answer may be kept by a browser or a cache: as long as a web process keeps it."""
    return max(0, int(settings.LEADERBOARD_HOT_PAGE_SECONDS))


def _etags(header: str) -> set[str]:
    # GZipMiddleware weakens the ETag of the answers it compresses (W/"…"): compare weakly.
    return {tag.strip().removeprefix("W/") for tag in header.split(",")} if header else set()


def public_read_key(request: HttpRequest) -> str:
    """The kept answer's key: its address (worked out once a request)."""
    key = getattr(request, "_public_read_key", None)
    if key is None:
        key = request._public_read_key = f"public {request.build_absolute_uri()}"
    return key


def public_read(request: HttpRequest, compute: Callable[[], dict | None]) -> PublicAnswer | None:
    """The kept answer of this address, else `compute()`'s data rendered (and kept); None when
    `compute()` finds nothing to answer (kept too: the same address asks the same question)."""

    def answer():
        data = compute()
        return None if data is None else PublicAnswer.of(data)

    return hot_page(public_read_key(request), answer)


def query_validated(serializer_class: type[serializers.Serializer], request) -> dict:
    """The query string validated by `serializer_class` (400 if it does not fit), remembered by
    query string: the fields' validation is pure, and a DRF serializer costs ~0.3 ms to build."""
    key = (serializer_class, request.META.get("QUERY_STRING", ""))
    kept = _queries.get(key)
    if kept is None:
        serializer = serializer_class(data=request.GET.dict())  # as yukon_site.api_input.query_data
        serializer.is_valid(raise_exception=True)
        if len(_queries) >= MAX_QUERIES:
            _queries.clear()
        kept = _queries[key] = dict(serializer.validated_data)
    return kept


class PublicBoardApi(APIView):
    """A board read's API view (the schema, around=me, refusals): the session is read only when
    the view asks for the player (around=me), never to authenticate a public read."""

    def perform_authentication(self, request) -> None:
        pass  # lazy: DRF authenticates when request.user is first read
