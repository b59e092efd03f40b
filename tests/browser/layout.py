"""Boxes measured against the window, for the layout tests of every language: the widths of a
phone, a tablet and a desktop, and what does not fit where it is drawn.
"""

from playwright.sync_api import Page

LANGUAGES = ["en", "ms", "hi", "tl"]
SIZES = {"phone": (360, 740), "tablet": (768, 1024), "desktop": (1366, 768)}
LANGUAGE_KEY = "yukon.language.v1"

# Each visible element matched: inside the window; its text inside its own box; not overlapping
# another matched element; and the one a tap at its centre reaches (nothing laid over it).
_PROBLEMS = """([selectors, hitTest, wholePage]) => {
  const width = document.documentElement.clientWidth;
  const problems = wholePage && document.documentElement.scrollWidth > width ? [`page scrolls sideways`] : [];
  const shown = [...document.querySelectorAll(selectors)].filter((element) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.opacity !== "0";
  });
  const name = (element) => `${element.tagName.toLowerCase()} "${element.textContent.trim().slice(0, 30)}"`;
  const boxes = shown.map((element) => [element, element.getBoundingClientRect()]);
  for (const [element, box] of boxes) {
    if (box.left < -1 || box.right > width + 1) {
      problems.push(`${name(element)} leaves the window: ${box.left}–${box.right}`);
    }
    const range = document.createRange();
    range.selectNodeContents(element);
    const text = range.getBoundingClientRect();
    if (text.width && (text.left < box.left - 1 || text.right > box.right + 1)) {
      const spill = `${text.left}–${text.right} in ${box.left}–${box.right}`;
      problems.push(`${name(element)} spills sideways: ${spill}`);
    }
    if (hitTest) {
      const x = (box.left + box.right) / 2;
      const y = (box.top + box.bottom) / 2;
      const hit = y >= 0 && y < innerHeight ? document.elementFromPoint(x, y) : element;
      if (hit && hit !== element && !element.contains(hit)) {
        problems.push(`${name(element)} is covered by ${name(hit)}`);
      }
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i];
      const [b, q] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      const across = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const down = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (across > 1 && down > 1) problems.push(`${name(a)} overlaps ${name(b)} by ${across}×${down}`);
    }
  }
  return problems;
}"""


def layout_problems(
    page: Page, selectors: str, *, hit_test: bool = True, whole_page: bool = True
) -> list[str]:
    """What does not fit among the visible elements matching `selectors` (see _PROBLEMS); with
    `whole_page`, the page scrolling sideways too (whatever makes it)."""
    return page.evaluate(_PROBLEMS, [selectors, hit_test, whole_page])


def choose_language(context, base_url: str, language: str) -> None:
    """The device's choice, as the picker keeps it, and the server's cookie, before any page."""
    context.add_init_script(
        f"localStorage.getItem('{LANGUAGE_KEY}') || localStorage.setItem('{LANGUAGE_KEY}', '{language}')"
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])


def settled(page: Page) -> None:
    """Two frames later: the layout after a change of size or content."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
