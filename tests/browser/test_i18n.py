"""Languages in Chromium: the picker, the browser's own language, the table's words in each
shipped language (from the page or put in by i18n.js), refusals in the player's language, the
language remembered on the account.
"""

import json
import re
import time
from pathlib import Path

import pytest
from helpers import BAR, PASSWORD, READY, make_player, open_game, sign_in, tap_card, tap_column
from playwright.sync_api import Page, expect

from accounts.services import user_language_set
from games.engine import Game, Move

pytestmark = pytest.mark.browser

CATALOG_DIR = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "js" / "i18n"
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "device_scale_factor": 2}
NOTICE = "[data-notice]"
TRANSLATED = ["ms", "hi", "tl"]


def catalog(language: str) -> dict:
    return json.loads((CATALOG_DIR / f"{language}.json").read_text(encoding="utf-8"))


def lookup(tree: dict, key: str) -> str:
    for part in key.split("."):
        tree = tree[part]
    return tree


def keys(tree: dict, prefix: str = "") -> list[str]:
    """Every dotted key of a catalog: "bar.moves", "say.won.one", …"""
    found = []
    for name, value in tree.items():
        found += keys(value, f"{prefix}{name}.") if isinstance(value, dict) else [f"{prefix}{name}"]
    return found


def choose(context, base_url: str, language: str, *, cookie: str | None = None) -> None:
    """The device's choice (as the picker keeps it) and the server's cookie, before any page."""
    key = "yukon.language.v1"
    context.add_init_script(f"localStorage.getItem('{key}') || localStorage.setItem('{key}', '{language}')")
    context.add_cookies([{"name": "django_language", "value": cookie or language, "url": base_url}])


def shown_words(page: Page) -> dict[str, str]:
    """Every element that carries a catalog key, with its text."""
    script = """() => [...document.querySelectorAll("[data-i18n]")]
        .map((element) => [element.dataset.i18n, element.textContent])"""
    return dict(page.evaluate(script))


@pytest.mark.browser_context_args(**PHONE)
def test_switching_to_malay_shows_the_game_bar_and_a_refusal_in_malay(live_server, page: Page, artifacts_dir):
    code = "YU1-C-AAAAAAA"
    game = Game(code)
    assert game.check_move(Move.parse("6C>2").card, 1) == "wrong_colour"  # 6♣ onto 7♣
    open_game(page, live_server.url, code)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    with page.expect_navigation():
        page.select_option("#language-picker", "ms")
    page.wait_for_selector(READY)

    malay = catalog("ms")
    expect(page.locator("html")).to_have_attribute("lang", "ms")
    bar = page.locator(BAR)
    figures = {"bar.time": "Masa", "bar.moves": "Langkah", "bar.points": "Mata", "bar.score": "Skor"}
    for key, text in figures.items():
        assert lookup(malay, key) == text
        expect(bar.locator(f'[data-i18n="{key}"]')).to_have_text(text)
    expect(page.get_by_role("button", name="Buat asal")).to_be_disabled()
    expect(page.get_by_role("button", name="Agih baru")).to_be_visible()
    expect(page.locator("[data-rules-text]")).to_have_text("Klasik")

    tap_card(page, "6C")
    expect(page.locator("[data-announcer]")).to_have_text("6♣ dipilih")
    tap_column(page, 2)
    expected = lookup(malay, "refusals.wrong_colour.red").format(card="6♣", rank="7")
    assert expected == "6♣ memerlukan 7 merah"
    expect(page.locator(NOTICE)).to_have_text(expected + ".")
    expect(page.locator(NOTICE)).to_have_attribute("data-refusal", "wrong_colour")
    page.screenshot(path=artifacts_dir / "table-phone-ms.png")

    # Kept on the device and sent to the server: its pages follow.
    assert page.evaluate("() => localStorage.getItem('yukon.language.v1')") == "ms"
    cookies = {cookie["name"]: cookie["value"] for cookie in page.context.cookies()}
    assert cookies["django_language"] == "ms"
    page.locator(NOTICE).get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"/help#rule-wrong_colour$"))
    expect(page.locator("h1")).to_have_text("Cara bermain Yukon")
    expect(page.locator("#rule-wrong_colour h3")).to_have_text("Warna: Klasik dan Longgar")
    page.wait_for_load_state("load")
    page.screenshot(path=artifacts_dir / "help-phone-ms.png")
    page.evaluate("() => scrollTo(0, 0)")
    page.screenshot(path=artifacts_dir / "help-phone-ms-top.png")


@pytest.mark.browser_context_args(locale="hi-IN")
def test_with_no_choice_the_browser_language_decides(live_server, page: Page):
    page.goto(f"{live_server.url}/help")
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    expect(page.locator("h1")).to_have_text("Yukon कैसे खेलें")
    open_game(page, live_server.url, "YU1-C-AAAAAAC")
    expect(page.locator('[data-i18n="bar.moves"]')).to_have_text("चालें")
    expect(page.locator("#language-picker")).to_have_value("hi")


@pytest.mark.browser_context_args(locale="fil-PH")
def test_a_browser_set_to_filipino_gets_tagalog(live_server, page: Page):
    open_game(page, live_server.url, "YU1-C-AAAAAAC")
    expect(page.locator('[data-i18n="bar.moves"]')).to_have_text("Galaw")
    page.goto(f"{live_server.url}/help")
    expect(page.locator("h1")).to_have_text("Paano laruin ang Yukon")


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_untranslated_words_on_the_table(live_server, page: Page, context, language):
    words = catalog(language)
    english = catalog("en")
    names = set(keys(english))
    choose(context, live_server.url, language)
    open_game(page, live_server.url, "YU1-C-AAAAAAC")
    shown = shown_words(page)
    assert shown, "no element names its catalog key"
    assert {key: text for key, text in shown.items() if text != lookup(words, key)} == {}
    # Words made by the scripts: the table's labels, and nothing that is a key rather than words.
    labels = page.evaluate(
        """() => [...document.querySelectorAll("[aria-label], [title]")]
            .flatMap((e) => [e.getAttribute("aria-label"), e.getAttribute("title")]).filter(Boolean)"""
    )
    text = page.evaluate("() => document.body.textContent") + "\n".join(labels)
    assert [name for name in names if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w.])", text)] == []
    column = page.locator('[data-column="2"]').get_attribute("aria-label")
    assert column.startswith(lookup(words, "table.column").split("{")[0])
    face_down = page.locator('[data-face="down"]').first.get_attribute("aria-label")
    assert face_down == lookup(words, "table.faceDown")


def test_a_page_kept_in_another_language_is_put_into_the_devices(live_server, page: Page, context):
    # The server renders English (the cookie), as a page kept offline may be; the device says Tagalog.
    choose(context, live_server.url, "tl", cookie="en")
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/play/YU1-C-AAAAAAC")
    page.wait_for_selector(READY)
    tagalog = catalog("tl")
    expect(page.locator("html")).to_have_attribute("lang", "tl")
    expect(page.get_by_role("button", name=lookup(tagalog, "bar.undo"))).to_be_visible()
    assert {key: text for key, text in shown_words(page).items() if text != lookup(tagalog, key)} == {}
    # And the cookie now says so, for the next page from the server.
    cookies = {cookie["name"]: cookie["value"] for cookie in context.cookies()}
    assert cookies["django_language"] == "tl"


# --- the language on the account ---------------------------------------------------------------

UNSENT = "yukon.language.unsent.v1"


def wait_for_account_language(page: Page, user, language: str, timeout_s: float = 10) -> None:
    """The page sends the choice after it has loaded: wait for the account to have it.

    Waiting with Playwright, not time.sleep: the tests' route handlers run in this thread.
    """
    deadline = time.monotonic() + timeout_s
    user.refresh_from_db()
    while user.language != language and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        user.refresh_from_db()
    assert user.language == language


def stored(page: Page, key: str = "yukon.language.v1"):
    return page.evaluate("(key) => localStorage.getItem(key)", key)


def test_a_signed_in_players_choice_goes_to_the_account_and_a_new_browser_follows_it(
    live_server, browser, page: Page, context
):
    player = make_player("siti")
    sign_in(context, live_server.url, player)
    open_game(page, live_server.url, "YU1-C-AAAAAAC")
    expect(page.locator("[data-account-name]")).to_have_text("siti")
    assert player.language == ""

    with page.expect_navigation():
        page.select_option("#language-picker", "ms")
    page.wait_for_selector(READY)
    wait_for_account_language(page, player, "ms")
    page.wait_for_function("(key) => localStorage.getItem(key) === null", arg=UNSENT)
    expect(page.locator('[data-i18n="bar.moves"]')).to_have_text("Langkah")

    # Another browser, English so far, signs in on the account page: it follows the account.
    other_context = browser.new_context(locale="en-GB")
    try:
        other = other_context.new_page()
        other.emulate_media(reduced_motion="reduce")
        other.goto(f"{live_server.url}/play/YU1-C-AAAAAAC")
        other.wait_for_selector(READY)
        expect(other.locator("html")).to_have_attribute("lang", "en")
        other.goto(f"{live_server.url}/accounts/login/?next=/play/YU1-C-AAAAAAC")
        other.fill('input[name="login"]', "siti")
        other.fill('input[name="password"]', PASSWORD)
        with other.expect_navigation():
            other.locator("main").get_by_role("button", name="Sign In").click()
        other.wait_for_selector(READY)
        expect(other.locator("html")).to_have_attribute("lang", "ms")
        expect(other.locator('[data-i18n="bar.moves"]')).to_have_text("Langkah")
        expect(other.locator(".site-header").get_by_role("link", name="Log keluar")).to_be_visible()
        assert stored(other) == "ms"
        assert stored(other, UNSENT) is None  # the account's language is not sent back as a choice
        other.goto(f"{live_server.url}/help")
        expect(other.locator("h1")).to_have_text("Cara bermain Yukon")
    finally:
        other_context.close()
    player.refresh_from_db()
    assert player.language == "ms"


def test_a_device_follows_the_language_chosen_on_another_device(live_server, page: Page, context):
    player = make_player("ravi")
    user_language_set(user=player, language="hi")  # picked on another device
    choose(context, live_server.url, "en")  # this device chose English before
    sign_in(context, live_server.url, player)

    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/play/YU1-C-AAAAAAC")

    expect(page.locator("html")).to_have_attribute("lang", "hi", timeout=10_000)
    page.wait_for_selector(READY)
    expect(page.locator('[data-i18n="bar.moves"]')).to_have_text(lookup(catalog("hi"), "bar.moves"))
    assert stored(page) == "hi"
    player.refresh_from_db()
    assert player.language == "hi"


def test_a_choice_made_offline_reaches_the_account_when_the_server_answers(live_server, page: Page, context):
    player = make_player("maria")
    user_language_set(user=player, language="en")
    sign_in(context, live_server.url, player)
    open_game(page, live_server.url, "YU1-C-AAAAAAC")
    expect(page.locator("[data-account-name]")).to_have_text("maria")

    # The account answers, but a change does not get through: the choice stays on the
    # device, marked unsent, and the account's English does not take the page back.
    def refuse_changes(route):
        route.abort() if route.request.method == "PATCH" else route.continue_()

    page.route("**/api/account/", refuse_changes)
    lost = lambda request: request.method == "PATCH" and request.url.endswith("/api/account/")  # noqa: E731
    with page.expect_event("requestfailed", lost):
        with page.expect_navigation():
            page.select_option("#language-picker", "tl")
    page.wait_for_selector(READY)
    expect(page.locator("html")).to_have_attribute("lang", "tl")
    assert stored(page, UNSENT) == "tl"
    player.refresh_from_db()
    assert player.language == "en"

    # Waits for a handler still deciding on a request: unrouted under it, its continue would
    # fail ("Route is already handled") and leave that request, and the reload, hanging.
    page.unroute_all(behavior="wait")
    page.reload()
    page.wait_for_selector(READY)
    wait_for_account_language(page, player, "tl")
    page.wait_for_function("(key) => localStorage.getItem(key) === null", arg=UNSENT)
    expect(page.locator("html")).to_have_attribute("lang", "tl")


# --- Hindi rendered with a real font; every language laid out on a phone and a desktop ---------

# Measured in the page with the element's own font stack: without a font that covers
# Devanagari, every letter is the same empty box (.notdef), as wide as a code point no font has,
# and a conjunct is as wide as its three parts.
MEASURE_DEVANAGARI = """(selector) => {
  const element = document.querySelector(selector);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `32px ${getComputedStyle(element).fontFamily}`;
  const width = (text) => context.measureText(text).width;
  const letters = ["क", "ख", "ग", "म", "र", "ि", "ा", "ं"];
  return {
    shown: element.textContent.trim(),
    tofu: width("\\u{10FFFD}"),
    letters: letters.map(width),
    conjunct: width("क्ष"),
    parts: width("क") + width("्") + width("ष"),
  };
}"""


def assert_devanagari_has_a_font(page: Page, selector: str) -> None:
    measured = page.evaluate(MEASURE_DEVANAGARI, selector)
    assert re.search(r"[\u0900-\u097F]", measured["shown"]), (
        f"{selector} shows no Hindi: {measured['shown']!r}"
    )
    letters, tofu = measured["letters"], measured["tofu"]
    assert all(abs(width - tofu) > 0.5 for width in letters), f"letters drawn as empty boxes: {measured}"
    assert len({round(width) for width in letters}) >= 4, f"every letter as wide as the others: {measured}"
    assert measured["conjunct"] < measured["parts"] - 1, f"क्ष not shaped into a conjunct: {measured}"


def test_hindi_is_drawn_with_a_devanagari_font(live_server, page: Page, context, artifacts_dir):
    choose(context, live_server.url, "hi")
    open_game(page, live_server.url, "YU1-C-AAAAAAC")
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    assert_devanagari_has_a_font(page, '[data-i18n="bar.moves"]')
    assert_devanagari_has_a_font(page, '[data-action="new-deal"]')
    # Spaced-out labels would break the top line that joins Devanagari letters.
    spacing = page.evaluate(
        """() => getComputedStyle(document.querySelector('[data-i18n="bar.moves"]')).letterSpacing"""
    )
    assert spacing == "normal"
    page.goto(f"{live_server.url}/help")
    expect(page.locator("h1")).to_have_text("Yukon कैसे खेलें")
    assert_devanagari_has_a_font(page, "h1")
    assert_devanagari_has_a_font(page, "main p")


VIEWPORTS = {"phone": (390, 844), "tablet": (820, 1180), "desktop": (1280, 800)}

# What does not fit where it is drawn: wider than the window, or text cut by its own box.
FIND_OVERFLOW = """(selectors) => {
  const width = document.documentElement.clientWidth;
  const page = document.documentElement.scrollWidth;
  const problems = page > width ? [`page scrolls sideways: ${page} > ${width}`] : [];
  for (const element of document.querySelectorAll(selectors)) {
    const box = element.getBoundingClientRect();
    if (!box.width || getComputedStyle(element).visibility === "hidden") continue;
    const name = `${element.tagName.toLowerCase()} "${element.textContent.trim().slice(0, 40)}"`;
    if (box.left < -1 || box.right > width + 1) {
      problems.push(`${name} leaves the window: ${box.left}–${box.right}`);
    }
    // The text's own box against the element's: centred text spills out on both sides.
    const range = document.createRange();
    range.selectNodeContents(element);
    const text = range.getBoundingClientRect();
    const style = getComputedStyle(element);
    const inner = {
      left: box.left + parseFloat(style.borderLeftWidth),
      right: box.right - parseFloat(style.borderRightWidth),
      top: box.top + parseFloat(style.borderTopWidth),
      bottom: box.bottom - parseFloat(style.borderBottomWidth),
    };
    if (text.width && (text.left < inner.left - 1 || text.right > inner.right + 1)) {
      problems.push(`${name} spills sideways: ${text.left}–${text.right} in ${inner.left}–${inner.right}`);
    }
    if (text.height && (text.top < inner.top - 1 || text.bottom > inner.bottom + 1)) {
      problems.push(`${name} spills up/down: ${text.top}–${text.bottom} in ${inner.top}–${inner.bottom}`);
    }
  }
  return problems;
}"""
BAR_PARTS = "[data-bar] button, [data-bar] dt, [data-bar] dd, .site-header a, .site-header select, .brand"
ACCOUNT_PARTS = "main h1, main a, main button, main label, main input, .site-header a, .site-header select"
HELP_PARTS = "main h1, main h2, main h3, main a, main button, .site-header a, .site-header select"


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_table_and_help_fit_in_each_language(
    live_server, page: Page, context, language, size, artifacts_dir
):
    width, height = VIEWPORTS[size]
    page.set_viewport_size({"width": width, "height": height})
    choose(context, live_server.url, language)
    open_game(page, live_server.url, "YU1-C-AAAAAAC")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.screenshot(path=artifacts_dir / f"table-{size}-{language}.png")
    page.locator("[data-bar] .actions").screenshot(path=artifacts_dir / f"actions-{size}-{language}.png")
    table_problems = page.evaluate(FIND_OVERFLOW, BAR_PARTS)
    page.goto(f"{live_server.url}/help")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.screenshot(path=artifacts_dir / f"help-{size}-{language}.png")
    help_problems = page.evaluate(FIND_OVERFLOW, HELP_PARTS)
    page.goto(f"{live_server.url}/accounts/signup/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.screenshot(path=artifacts_dir / f"signup-{size}-{language}.png", full_page=True)
    signup_problems = page.evaluate(FIND_OVERFLOW, ACCOUNT_PARTS)
    assert (table_problems, help_problems, signup_problems) == ([], [], [])


ME_PARTS = "main h1, main h2, main h3, main dt, main dd, main a, .site-header a, .site-header select"


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_players_figures_fit_in_each_language(live_server, page: Page, context, language, artifacts_dir):
    """/me's figures per rule set (best score, wins, streaks…): their labels are long words in
    Malay and Tagalog, and must wrap in their boxes rather than push the page sideways."""
    player = make_player(f"Figures-{language}")
    choose(context, live_server.url, language)
    sign_in(context, live_server.url, player)
    problems = {}
    for size, (width, height) in {"phone": (360, 740), "tablet": (768, 1024), "desktop": (1366, 768)}.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/me")
        expect(page.locator('[data-rules-figures="classic"] [data-figure="best_streak"]')).to_be_visible()
        page.screenshot(path=artifacts_dir / f"me-figures-{size}-{language}.png", full_page=True)
        problems[size] = page.evaluate(FIND_OVERFLOW, ME_PARTS)
    assert problems == {"phone": [], "tablet": [], "desktop": []}
