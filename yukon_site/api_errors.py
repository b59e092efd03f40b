"""Every answer under /api/ is JSON, errors included (docs/api.md, "Conventions").

An error inside an API view reaches DRF's exception handler (`api_exception_handler`, settings
REST_FRAMEWORK). Everything else reaches Django's error handlers (`bad_request`, `not_found`,
`server_error`, wired in yukon_site/urls.py): an unknown URL, or a crash in a middleware such as
the session's query while the database is down. Under /api/ they answer
`{"detail": "sentence", "code": "stable_code"}`; elsewhere Django's own HTML pages.

With DEBUG=1 Django shows its debug page for a crash instead of calling the handler (a
development aid); an unknown URL under /api/, the database outage (503) and the size (413)
answers are JSON in both modes: `ApiJsonMiddleware` answers the JSON 404 for Django's debug page
of an unknown API URL, and the 503 for a database error outside the views (the session read by
a middleware), which is marked on the request when Django handles it.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
# OperationalError: no connection can be made; InterfaceError: a kept connection was closed.
DATABASE_ERRORS = (OperationalError, InterfaceError)
DATABASE_RETRY_AFTER_SECONDS = 5


def api_refusal(detail: str, code: str, status: int, headers: dict | None = None) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status, headers=headers)


def database_unavailable() -> JsonResponse:
    return api_refusal(
        "The database is not answering; try again shortly.",
        "database_unavailable",
        503,
        headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)},
    )


def request_too_large() -> JsonResponse:
    return api_refusal(
        f"The request body is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.", "request_too_large", 413
    )


class ApplicationError(Exception):
    """A refusal a service raises (HackSoft's pattern): an HTTP `status`, a stable `code`, and a
    sentence for the player. Each app keeps its own in its `errors.py`; `api_exception_handler`
    renders them, so API views never catch them."""

    status = 409
    code = "refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def response_data(self) -> dict:
        return {"detail": self.message, "code": self.code}


def api_exception_handler(exc: Exception, context: dict) -> HttpResponse | None:
    """DRF's handler, plus the services' refusals (`ApplicationError`), a database outage (503)
    and a body over the limit (413).

    Any other exception goes on to Django (None), which logs it and calls `server_error`."""
    if isinstance(exc, ApplicationError):
        set_rollback()
        return Response(exc.response_data(), status=exc.status)
    if isinstance(exc, DATABASE_ERRORS):
        logger.warning("database unavailable", extra={"error": repr(exc)[:300]})
        return database_unavailable()
    if isinstance(exc, RequestDataTooBig):
        return request_too_large()
    response = exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and set(response.data) == {"detail"}:
        # The framework's own refusals (not signed in, CSRF, throttled, unreadable JSON, …) get
        # the stable code every refusal of a whole request has: DRF's code of the error.
        response.data["code"] = getattr(response.data["detail"], "code", None) or "error"
    return response


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return request_too_large()
    return api_refusal("The request could not be read.", "bad_request", 400)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not is_api(request):
        return defaults.page_not_found(request, exception)
    return api_refusal("There is no API endpoint at this URL.", "not_found", 404)


def server_error(request: HttpRequest) -> HttpResponse:
    if not is_api(request):
        return defaults.server_error(request)
    # Django calls this handler while handling the exception (already logged with its traceback).
    if isinstance(sys.exception(), DATABASE_ERRORS):
        return database_unavailable()
    return api_refusal("The server failed to answer; the error is logged.", "server_error", 500)


DATABASE_OUTAGE_MARK = "_api_database_unavailable"


def database_outage_mark(sender, request: HttpRequest | None = None, **kwargs) -> None:
    """Django is handling an exception a middleware or view let through: when it is the database's
    and the request is the API's, say so on the request (sys.exception() is that exception)."""
    if request is not None and is_api(request) and isinstance(sys.exception(), DATABASE_ERRORS):
        setattr(request, DATABASE_OUTAGE_MARK, True)


got_request_exception.connect(database_outage_mark, dispatch_uid="yukon-api-database-outage")


class ApiJsonMiddleware:
    """What Django answers itself under /api/ is JSON in every mode: an API request that failed
    on the database outside its view answers the JSON 503, and an unknown API URL the JSON 404,
    whatever answer Django made of them (its debug pages with DEBUG=1, as under `make run`: an
    API client deserves JSON there too). Placed above the session's middleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, DATABASE_OUTAGE_MARK, False) and response.status_code >= 500:
            logger.warning("database unavailable", extra={"path": request.path_info})
            return database_unavailable()
        if response.status_code == 404 and is_api(request) and not _is_json(response):
            return not_found(request, None)  # the API's views answer JSON: this is Django's page
        return response


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").startswith("application/json")
