"""The shipped languages are complete: the table's catalogs (frontend/static/frontend/js/i18n/)
and the pages' catalogs (locale/), with every placeholder kept and every .mo compiled from its
.po. docs/help.md says how to add or change a string.
"""

import ast
import gettext
import importlib
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings

PROJECT_DIR = Path(__file__).resolve().parents[2]
CATALOG_DIR = PROJECT_DIR / "frontend" / "static" / "frontend" / "js" / "i18n"
REFUSALS_MODULE = PROJECT_DIR / "frontend" / "static" / "frontend" / "js" / "engine" / "refusals.js"
LOCALE_DIR = PROJECT_DIR / "locale"
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PO_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def catalog(language: str) -> dict:
    return json.loads((CATALOG_DIR / f"{language}.json").read_text(encoding="utf-8"))


def leaves(tree: dict, prefix: str = "") -> dict[str, object]:
    """{"bar.moves": "Moves", "say.won.one": "…"}: every string of a catalog by its dotted key."""
    flat = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(leaves(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def placeholders(text: str, pattern: re.Pattern = PLACEHOLDER) -> set[str]:
    return set(pattern.findall(text))


@pytest.fixture(scope="module")
def engine_messages() -> dict:
    """MESSAGES_EN and REFUSAL_CODES as the browser engine exports them."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is needed to read the engine's English refusal catalog")
    script = (
        f"import {{ MESSAGES_EN, REFUSAL_CODES }} from {json.dumps(REFUSALS_MODULE.as_uri())};"
        "console.log(JSON.stringify({ MESSAGES_EN, REFUSAL_CODES }));"
    )
    result = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(result.stdout)


# --- the table's catalogs ------------------------------------------------------------------------


def test_every_shipped_language_has_a_table_catalog():
    shipped = sorted(path.stem for path in CATALOG_DIR.glob("*.json"))
    assert shipped == sorted(code for code, _ in settings.LANGUAGES)


def test_the_english_catalog_has_no_empty_string():
    assert [key for key, text in leaves(catalog("en")).items() if not isinstance(text, str) or not text] == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_catalog_has_every_english_key_filled_and_nothing_else(language):
    english = leaves(catalog("en"))
    translated = leaves({key: value for key, value in catalog(language).items() if key != "refusals"})
    missing = [key for key in english if not str(translated.get(key) or "").strip()]
    assert missing == [], f"{language}: keys with no translation"
    assert sorted(set(translated) - set(english)) == [], f"{language}: keys English does not have"


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_catalog_keeps_every_placeholder(language):
    english = leaves(catalog("en"))
    translated = leaves(catalog(language))
    changed = {
        key: (sorted(placeholders(english[key])), sorted(placeholders(translated[key])))
        for key in english
        if placeholders(english[key]) != placeholders(translated[key])
    }
    assert changed == {}, f"{language}: placeholders differ (English, translation)"


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_catalog_explains_every_refusal_code_and_variant(language, engine_messages):
    english = leaves(engine_messages["MESSAGES_EN"])
    refusals = leaves(catalog(language)["refusals"])
    assert set(engine_messages["MESSAGES_EN"]) == set(engine_messages["REFUSAL_CODES"])
    assert sorted(set(english) - set(refusals)) == [], f"{language}: refusals with no translation"
    assert sorted(set(refusals) - set(english)) == [], f"{language}: refusals the engine does not have"
    for key, text in english.items():
        assert refusals[key].strip(), f"{language}: empty refusal {key}"
        assert placeholders(refusals[key]) == placeholders(text), f"{language}: placeholders of {key}"


SCRIPTS_DIR = CATALOG_DIR.parent
T_CALL = re.compile(r"""(?<![\w.])t\(\s*["'`]([A-Za-z][\w.]*)["'`]""")


def test_every_key_the_scripts_ask_for_is_in_the_english_catalog():
    english = leaves(catalog("en"))
    entries = set(english) | {key.rsplit(".", 1)[0] for key in english}  # plural forms: "say.won"
    asked = {
        (script.name, key)
        for script in SCRIPTS_DIR.glob("*.js")
        for key in T_CALL.findall(script.read_text(encoding="utf-8"))
    }
    assert len(asked) > 100, "the pattern no longer finds the scripts' t() calls"
    assert sorted((name, key) for name, key in asked if key not in entries) == []


def test_english_takes_its_refusals_from_the_engine():
    # One English text per refusal: the engine's MESSAGES_EN, not a copy that could drift.
    assert "refusals" not in catalog("en")


# --- the pages' catalogs ---------------------------------------------------------------------------


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: msgid, msgstr (plural forms joined) and flags."""
    entries, entry, field = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if entry is not None:
                entries.append(entry)
            entry, field = None, None
            continue
        entry = entry if entry is not None else {"flags": set(), "msgid": "", "msgstr": ""}
        if line.startswith("#,"):
            entry["flags"].update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        else:
            keyword, _, rest = line.partition(" ")
            if keyword.startswith("msgstr"):
                field = "msgstr"
            elif keyword in ("msgid", "msgid_plural", "msgctxt"):
                field = "msgid" if keyword == "msgid" else None
            if line.startswith('"'):
                rest = line
            if field:
                entry[field] += json.loads(rest)
    return entries


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_po_file_has_no_empty_or_fuzzy_translation(language):
    entries = po_entries(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")
    header = [entry for entry in entries if entry["msgid"] == ""]
    assert len(header) == 1 and "fuzzy" not in header[0]["flags"]
    assert f"Language: {language}\n" in header[0]["msgstr"]
    messages = [entry for entry in entries if entry["msgid"]]
    assert messages, f"{language}: no messages"
    assert [entry["msgid"] for entry in messages if not entry["msgstr"].strip()] == []
    assert [entry["msgid"] for entry in messages if "fuzzy" in entry["flags"]] == []
    for entry in messages:
        expected = placeholders(entry["msgid"], PO_PLACEHOLDER)
        assert placeholders(entry["msgstr"], PO_PLACEHOLDER) == expected, f"{language}: {entry['msgid']!r}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_mo_file_is_compiled_from_its_po_file(language, tmp_path):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt (GNU gettext) is needed to compile a .po file")
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    fresh = tmp_path / "django.mo"
    subprocess.run([msgfmt, "--check", "-o", str(fresh), str(folder / "django.po")], check=True, timeout=60)
    with (folder / "django.mo").open("rb") as committed, fresh.open("rb") as compiled:
        assert gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(compiled)._catalog, (
            f"locale/{language}: run python manage.py compilemessages --ignore=.venv and commit the .mo"
        )


# --- the pages in each language ----------------------------------------------------------------------


class _Texts(HTMLParser):
    """The text of each heading, paragraph, list item, caption and note of a page, in order."""

    BLOCKS = {"h1", "h2", "h3", "p", "li", "figcaption", "title", "button", "label"}

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.open: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        classes = dict(attrs).get("class") or ""
        if tag in self.BLOCKS or (tag == "span" and "note" in classes.split()):
            self.open.append([])

    def handle_endtag(self, tag):
        if tag in self.BLOCKS and self.open:
            text = " ".join("".join(self.open.pop()).split())
            if text:
                self.texts.append(text)

    def handle_data(self, data):
        for parts in self.open:
            parts.append(data)


def page_texts(client, path: str, language: str) -> list[str]:
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == (404 if path == NO_SUCH_RACE else 200)
    assert response["Content-Language"] == language
    parser = _Texts()
    parser.feed(response.content.decode())
    return parser.texts


# Text that reads the same in every language: codes, notation, figures and the game's name.
LANGUAGE_NEUTRAL = re.compile(r"^[\W\d_]*$|^(Yukon|YU1-[CR]-[A-Z]{7}|English|Bahasa Melayu|हिन्दी|Tagalog)$")


# Words a language shares with English: the game's name, borrowed words.
SAME_AS_ENGLISH = {
    "tl": {"Yukon Solitaire", "Replay", "Replay · Yukon Online", "Email:", "Login:", "Password:", "Username:"}
}


def assert_no_english_left(client, path, language):
    """Every text of the page differs from the English page's, but for words shared with English."""
    english = page_texts(client, path, "en")
    translated = page_texts(client, path, language)
    assert len(translated) == len(english)
    pairs = zip(english, translated, strict=True)
    same = [text for text, other in pairs if text == other and not LANGUAGE_NEUTRAL.match(text)]
    assert [text for text in same if text not in SAME_AS_ENGLISH.get(language, set())] == []


# /race/<id> of no race: its page saying so, a 404 (a race page reads whether its race is there).
NO_SUCH_RACE = "/race/Xq3v9TcM2b"
PAGES = ["/help", "/", "/leaderboard", "/me", "/replay/", "/race", NO_SUCH_RACE]


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("language", TRANSLATED)
def test_a_page_has_no_english_left(client, language, path):
    assert_no_english_left(client, path, language)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/profile/", "/accounts/delete/"])
@pytest.mark.parametrize("language", TRANSLATED)
def test_the_account_pages_of_our_own_have_no_english_left(client, django_user_model, language, path):
    player = django_user_model.objects.create_user("alice", "alice@example.com", "a-long-pass-phrase")
    client.force_login(player)
    assert_no_english_left(client, path, language)


ALLAUTH_PAGES = [
    ("/accounts/login/", False),
    ("/accounts/signup/", False),
    ("/accounts/password/reset/", False),
    ("/accounts/password/reset/done/", False),
    ("/accounts/password/reset/key/1-x/", False),
    ("/accounts/logout/", True),
    ("/accounts/password/change/", True),
    ("/accounts/email/", True),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "signed_in"), ALLAUTH_PAGES)
@pytest.mark.parametrize("language", TRANSLATED)
def test_allauths_pages_have_no_english_left(client, django_user_model, language, path, signed_in):
    if signed_in:
        client.force_login(
            django_user_model.objects.create_user("alice", "alice@example.com", "a-long-pass-phrase")
        )
    assert_no_english_left(client, path, language)


def listed_msgids(name: str) -> list[str]:
    """The msgids of one tuple of accounts/allauth_messages.py, read as makemessages reads them."""
    module = ast.parse((PROJECT_DIR / "accounts" / "allauth_messages.py").read_text(encoding="utf-8"))
    (listed,) = [
        node.value for node in module.body if isinstance(node, ast.Assign) and node.targets[0].id == name
    ]
    return [call.args[1 if call.func.id == "pgettext_lazy" else 0].value for call in listed.elts]


@pytest.mark.parametrize(
    ("name", "package"), [("ALLAUTH_MESSAGES", "allauth"), ("DJANGO_MESSAGES", "django.contrib.auth")]
)
def test_the_words_we_translate_for_allauth_and_django_are_still_theirs(name, package):
    folder = Path(importlib.import_module(package).__file__).parent
    english = folder / "locale" / "en" / "LC_MESSAGES" / "django.po"
    theirs = {entry["msgid"] for entry in po_entries(english)}
    ours = listed_msgids(name)
    assert len(ours) >= 5
    assert [msgid for msgid in ours if msgid not in theirs] == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_headers_navigation_is_named_in_the_pages_language(client, language):
    html = client.get("/help", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    label = re.search(r'<nav class="site-nav" aria-label="([^"]+)"', html).group(1)
    expected = gettext.translation("django", LOCALE_DIR, [language]).gettext("Site")
    assert label == expected
    assert label != "Site" or language == "tl"  # Tagalog borrows the word


def test_the_help_page_draws_the_suits_the_table_draws():
    art = (PROJECT_DIR / "frontend" / "static" / "frontend" / "js" / "art.js").read_text(encoding="utf-8")
    sprite_file = PROJECT_DIR / "frontend" / "templates" / "frontend" / "help" / "suits.html"
    sprite = sprite_file.read_text(encoding="utf-8")
    shapes = re.findall(r'(?:d|cx|cy|r): "([^"]+)"', art)
    assert len(shapes) >= 10
    assert [shape for shape in shapes if f'"{shape}"' not in sprite] == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", TRANSLATED)
def test_the_race_form_has_no_english_left(client, django_user_model, language):
    player = django_user_model.objects.create_user("alice", "alice@example.com", "a-long-pass-phrase")
    client.force_login(player)
    assert_no_english_left(client, "/race", language)
