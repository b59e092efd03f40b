"""The game page and its service worker.

The page is an app shell: the same HTML for `/` and `/play/<code>` (the script reads the
code from the address), so the service worker can keep one copy and serve it offline. The
worker is served from the root URL, so that it may control the whole site, and carries the
build: a hash of the front end's files, so that any change installs a new worker.
"""

import hashlib
import json
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.http import require_safe

APP_DIR = Path(__file__).resolve().parent
STATIC_DIR = APP_DIR / "static"
# The files whose content makes a build: the shell's static files and its templates.
BUILD_DIRS = (STATIC_DIR / "frontend", APP_DIR / "templates" / "frontend")
SERVICE_WORKER = STATIC_DIR / "frontend" / "js" / "sw.js"
ENTRY_MODULE = "frontend/js/app.js"
# Static files of the app that the game page never loads.
NOT_IN_SHELL = {"frontend/js/sw.js", "frontend/css/swagger.css"}
BUILD_HEADER = "X-Yukon-Build"


def _files(directory: Path) -> list[Path]:
    return sorted(path for path in directory.rglob("*") if path.is_file() and not path.name.startswith("."))


def compute_build() -> str:
    """A short hash of every front-end file's name and content."""
    digest = hashlib.sha256()
    for directory in BUILD_DIRS:
        for path in _files(directory):
            digest.update(path.relative_to(APP_DIR).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


_build_once = cache(compute_build)


def build() -> str:
    """The current build; while developing (DEBUG) it follows every saved file."""
    return compute_build() if settings.DEBUG else _build_once()


def shell_paths() -> list[str]:
    """The static files the game page loads, as paths for `static()`."""
    paths = (path.relative_to(STATIC_DIR).as_posix() for path in _files(STATIC_DIR / "frontend"))
    return [path for path in paths if path not in NOT_IN_SHELL]


def _imports_are_hashed() -> bool:
    # ManifestStaticFilesStorage rewrites `import … from "./x.js"` only when asked to.
    return bool(getattr(staticfiles_storage, "support_js_module_import_aggregation", False))


def module_url(path: str) -> str:
    """The URL the browser uses for a module: the one `import "./x.js"` resolves to."""
    if path == ENTRY_MODULE or _imports_are_hashed():
        return static(path)
    return settings.STATIC_URL + path  # a relative import reaches the unhashed copy


def shell_urls() -> list[str]:
    """The page and every file it loads, at the very URLs the browser asks for."""
    return ["/"] + [module_url(path) if path.endswith(".js") else static(path) for path in shell_paths()]


def _module_preloads() -> list[str]:
    return [module_url(path) for path in shell_paths() if path.endswith(".js") and path != ENTRY_MODULE]


@require_safe
def play(request: HttpRequest, code: str | None = None) -> HttpResponse:
    """The game page: `/` resumes the game in progress, `/play/<code>` opens that deal."""
    current = build()
    response = render(request, "frontend/play.html", {"build": current, "module_urls": _module_preloads()})
    response[BUILD_HEADER] = current  # the service worker serves this page only to its own build
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: the worker's source with this build and its list of files filled in."""
    source = SERVICE_WORKER.read_text(encoding="utf-8")
    filled = (
        source.replace('"__BUILD__"', json.dumps(build()))
        .replace('["__SHELL__"]', json.dumps(shell_urls()))
        .replace('"__STATIC_URL__"', json.dumps(urlsplit(settings.STATIC_URL).path))
    )
    response = HttpResponse(filled, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # the browser asks for news on every check
    return response
