"""The longest URL the API reads: a longer one is refused in JSON, 414 `uri_too_long`.

gunicorn refuses a request line over its `limit_request_line` itself, in HTML, before Django sees
the request (yukon_site/gunicorn_conf.py sets it to its most, 8190 bytes). The API's own limit is
well below it, so that every URL an API client may send is either read or refused in JSON; pages
keep the browser's answers (docs/api.md "Conventions", docs/operations.md "Limits").
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from yukon_site.api_errors import api_refusal, is_api

# Bytes of the path and query string, percent-encoded as sent. No API URL needs a tenth of it.
API_MAX_URL_BYTES = 2048


def uri_too_long() -> HttpResponse:
    return api_refusal(
        f"The URL is over {API_MAX_URL_BYTES} bytes (its path and query).", "uri_too_long", 414
    )


class ApiUrlLengthMiddleware:
    """Refuses an API URL over API_MAX_URL_BYTES before anything reads it (placed early)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api(request) and len(request.get_full_path()) > API_MAX_URL_BYTES:
            return uri_too_long()
        return self.get_response(request)
