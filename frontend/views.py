"""The game page, the pages around it (leaderboards, the player's figures, replays) and the
service worker.

Each page is an app shell: the same HTML whatever it shows (the game page serves `/` and
`/play/<code>`, the replay page every `/replay/<id>`; the scripts read the address and ask the
API), so the service worker can keep one copy of each and serve it offline. The worker is
served from the root URL, so that it may control the whole site, and carries the build: a
hash of the front end's files, so that any change installs a new worker.
"""

import hashlib
import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import get_language
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from frontend import help as help_content
from frontend.catalogs import table_text
from games.engine import GameCode, InvalidCodeError
from games.replays.selectors import replay_exists
from races.selectors import race_get
from yukon_site import clock

APP_DIR = Path(__file__).resolve().parent
PROJECT_DIR = APP_DIR.parent
STATIC_DIR = APP_DIR / "static"
# The files whose content makes a build: the shell's static files, its templates and the
# pages' translations (a new .mo must reach the pages the worker keeps).
BUILD_DIRS = (STATIC_DIR / "frontend", APP_DIR / "templates" / "frontend", PROJECT_DIR / "locale")
SERVICE_WORKER = STATIC_DIR / "frontend" / "js" / "sw.js"
ENTRY_MODULE = "frontend/js/app.js"
# The other pages' own modules: loaded by their pages with {% static %}, like the game's.
PAGE_MODULES = {
    "frontend/js/leaderboard.js",
    "frontend/js/me.js",
    "frontend/js/replay.js",
    "frontend/js/race.js",
}
# Modules of the race pages only (race.js imports them): the game page does not preload them.
RACE_MODULES_PREFIX = "frontend/js/race_"
ENTRY_MODULES = {ENTRY_MODULE} | PAGE_MODULES
# Classic scripts (not modules), loaded by every page's head before its modules.
CLASSIC_SCRIPTS = {"frontend/js/early_presses.js"}
# Static files of the app that no page loads.
NOT_IN_SHELL = {"frontend/js/sw.js", "frontend/css/swagger.css"}
# Data that modules fetch by a relative URL (the table's catalogs): never a hashed name.
FETCHED_BY_MODULES = "frontend/js/i18n/"
# The boards /leaderboard shows (`?deals=`), the first by default: as leaderboard.js's DEALS.
LEADERBOARD_DEALS = ("hidden", "open", "races")
# The pages the service worker keeps, by the URL it caches each under (see sw.js).
PAGE_SHELLS = ["/", "/leaderboard", "/me", "/replay/", "/help"]
BUILD_HEADER = "X-Yukon-Build"


def _files(directory: Path) -> list[Path]:
    return sorted(path for path in directory.rglob("*") if path.is_file() and not path.name.startswith("."))


def compute_build() -> str:
    """A short hash of every front-end file's name and content."""
    digest = hashlib.sha256()
    for directory in BUILD_DIRS:
        for path in _files(directory):
            digest.update(path.relative_to(PROJECT_DIR).as_posix().encode() + b"\0")
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
    if path in ENTRY_MODULES or _imports_are_hashed():
        return static(path)
    return settings.STATIC_URL + path  # a relative import reaches the unhashed copy


def _file_url(path: str) -> str:
    if path.endswith(".js"):
        return module_url(path)
    if path.startswith(FETCHED_BY_MODULES):
        return settings.STATIC_URL + path  # `fetch(new URL("./i18n/ms.json", import.meta.url))`
    return static(path)


def shell_urls() -> list[str]:
    """The pages and every file they load, at the very URLs the browser asks for."""
    return PAGE_SHELLS + [_file_url(path) for path in shell_paths()]


def _module_preloads() -> list[str]:
    return [
        module_url(path)
        for path in shell_paths()
        if path.endswith(".js")
        and path not in ENTRY_MODULES | CLASSIC_SCRIPTS
        and not path.startswith(RACE_MODULES_PREFIX)
    ]


def _shell(
    request: HttpRequest, template: str, context: dict | None = None, *, status: int = 200
) -> HttpResponse:
    current = build()
    # `text`: the table's words in the page's language (the table is on the game and replay pages).
    context = {"build": current, "text": table_text(get_language()), **(context or {})}
    response = render(request, template, context, status=status)
    response[BUILD_HEADER] = current  # the service worker serves a page only to its own build
    return response


# Every page sets the CSRF cookie: the scripts send it back as X-CSRFToken with each POST.


@require_safe
@ensure_csrf_cookie
def play(request: HttpRequest, code: str | None = None) -> HttpResponse:
    """The game page: `/` resumes the game in progress, `/play/<code>` opens that deal."""
    return _shell(request, "frontend/play.html", {"module_urls": _module_preloads()})


@require_safe
@ensure_csrf_cookie
def leaderboard(request: HttpRequest) -> HttpResponse:
    """/leaderboard: global boards, around me, the daily deal, a deal's board (`?deal=<code>`).
    The boards asked for (`?deals=`) are named in the markup already: nothing shifts when the
    page's script would have renamed them."""
    deals = request.GET.get("deals")
    deals = deals if deals in LEADERBOARD_DEALS else LEADERBOARD_DEALS[0]
    text = table_text(get_language())
    words = text["leaderboard"]
    kind = deals.capitalize()
    asked = request.GET.get("deal", "")
    context = {
        "deals": deals,
        # A deal asked for in the address is shown first, its box open from the first paint (no
        # shift when leaderboard.js, which reads the code as codes.js does, would have opened it).
        "deal_asked": bool(asked),
        "deal": _deal_shown(asked, text["rules"]),
        "daily_when": _daily_when(words["dailyWhen"]),
        "deals_heading": (f"leaderboard.heading{kind}", words[f"heading{kind}"]),
        "deals_about": (f"leaderboard.about{kind}", words[f"about{kind}"]),
    }
    return _shell(request, "frontend/leaderboard.html", context)


def _deal_shown(asked: str, rule_names: dict[str, str]) -> dict[str, str] | None:
    """The code and rules of a deal asked for, as leaderboard.js shows them; None if not a code."""
    try:
        code = GameCode.parse(asked)
    except InvalidCodeError:
        return None
    return {"code": str(code), "rules": rule_names[code.rules.value]}


def _daily_when(sentence: str) -> str:
    """Today's daily deals and the time left, as leaderboard.js words them once the API answers:
    the same sentence from the start, so the page does not reflow when it comes."""
    now = clock.now()
    today, ends_at = clock.utc_day(now)
    minutes_left = int((ends_at - now).total_seconds() // 60)
    hours, minutes = divmod(minutes_left, 60)
    words = {"date": today.isoformat(), "hours": str(hours), "minutes": str(minutes)}
    return re.sub(r"\{(\w+)\}", lambda found: words.get(found[1], found[0]), sentence)


@require_safe
@ensure_csrf_cookie
def me(request: HttpRequest) -> HttpResponse:
    """/me: the signed-in player's bests, win rate, ranks and history (a sign-in prompt otherwise)."""
    return _shell(request, "frontend/me.html")


@require_safe
@ensure_csrf_cookie
def replay(request: HttpRequest, submission_id: int | None = None) -> HttpResponse:
    """/replay/<id>: a verified win, move by move, on the table. No such win to watch: the same
    page saying so, with status 404 (to a browser and a crawler alike); one that may not be
    watched yet is there (its page says when)."""
    viewer = request.user.pk if request.user.is_authenticated else None
    missing = submission_id is not None and not replay_exists(
        submission_id=submission_id, viewer_id=viewer, now=clock.now()
    )
    return _shell(request, "frontend/replay.html", {"not_found": missing}, status=404 if missing else 200)


@require_safe
@ensure_csrf_cookie
def help_page(request: HttpRequest) -> HttpResponse:
    """/help: rules, scores, games and questions in the page's language; /help#rule-<code> is the
    rule behind each refusal the table explains."""
    context = {
        "drawings": help_content.DRAWINGS,
        "rule_anchors": help_content.RULE_ANCHORS,
        "scores": help_content.score_examples(),
    }
    return _shell(request, "frontend/help.html", context)


@require_safe
@ensure_csrf_cookie
def race_new(request: HttpRequest) -> HttpResponse:
    """/race: the form that creates a race (a sign-in prompt when signed out)."""
    return _shell(request, "frontend/race_new.html")


@require_safe
@ensure_csrf_cookie
def race(request: HttpRequest, race_id: str) -> HttpResponse:
    """/race/<id>: one race, from its lobby to its results; the script reads the race from the API
    and follows it over the race's WebSocket (docs/races.md). The page needs the network: the
    service worker keeps no copy of it."""
    missing = race_get(race_id) is None  # the same page saying so, with status 404
    context = {"race_id": race_id, "websocket_origin": settings.WEBSOCKET_ORIGIN, "not_found": missing}
    return _shell(request, "frontend/race.html", context, status=404 if missing else 200)


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
