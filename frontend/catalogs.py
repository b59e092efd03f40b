"""The table's words on the server: the game page's markup is rendered from the same catalogs
the browser reads (static/frontend/js/i18n/<language>.json), so the page arrives in the
player's language and i18n.js has nothing to change unless the page came from the offline
cache in another one. English fills any gap, as `t()` does in the browser.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

CATALOG_DIR = Path(__file__).resolve().parent / "static" / "frontend" / "js" / "i18n"
DEFAULT_LANGUAGE = "en"


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merged[key] = _merged(base[key], value)
        elif value not in ("", None):
            merged[key] = value
    return merged


def _read(language: str) -> dict[str, Any]:
    path = CATALOG_DIR / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _load(language: str) -> dict[str, Any]:
    english = _read(DEFAULT_LANGUAGE)
    return english if language == DEFAULT_LANGUAGE else _merged(english, _read(language))


_load_once = cache(_load)


def table_text(language: str | None) -> dict[str, Any]:
    """The catalog of `language` (a code of settings.LANGUAGES) over English, for templates."""
    supported = {code for code, _ in settings.LANGUAGES}
    language = language if language in supported else DEFAULT_LANGUAGE
    return _load(language) if settings.DEBUG else _load_once(language)
