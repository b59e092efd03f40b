// Messages around the table: a short visible notice under it (a refused move links to its rule
// in Help) and announcements read by screen readers only.

import { $, sentence } from "./dom.js";
import { t } from "./i18n.js";

const NOTICE_MS = 4000;
const RULE_NOTICE_MS = 8000; // a refusal links to its rule: time to read it and follow the link

/** A short visible message under the table, and announcements for screen readers. */
export class Notices {
  #timer = 0;

  constructor() {
    this.notice = $("[data-notice]");
    this.announcer = $("[data-announcer]");
    // A message being read or pointed at stays until it is left.
    for (const type of ["pointerenter", "focusin"]) this.notice.addEventListener(type, () => clearTimeout(this.#timer));
    for (const type of ["pointerleave", "focusout"]) {
      this.notice.addEventListener(type, () => {
        if (!this.notice.hidden) this.#timer = setTimeout(() => this.clear(), NOTICE_MS);
      });
    }
  }

  /** Read out by screen readers only. The same text twice is still announced. */
  say(text) {
    this.announcer.textContent = this.announcer.textContent === text ? `${text}\u00a0` : text;
  }

  /**
   * Shown for a few seconds (and read out); `kind` "rule" for a refused move, "info" otherwise.
   * A refusal's `code` makes the sentence a link to its rule in Help (/help#rule-<code>);
   * `link` (`{href, text}`) follows the sentence (a way out: sign in).
   */
  show(text, { kind = "info", code = "", link = null } = {}) {
    clearTimeout(this.#timer);
    const words = sentence(text);
    if (code) {
      const rule = document.createElement("a");
      rule.href = `/help#rule-${code}`;
      rule.dataset.ruleLink = code;
      rule.title = t("notice.ruleLink");
      rule.textContent = words;
      this.notice.replaceChildren(rule);
    } else if (link) {
      const anchor = document.createElement("a");
      anchor.href = link.href;
      anchor.dataset.noticeLink = "";
      anchor.textContent = link.text;
      this.notice.replaceChildren(`${words} `, anchor);
    } else {
      this.notice.textContent = words;
    }
    this.notice.dataset.kind = kind;
    this.notice.dataset.refusal = code;
    this.#keepClear();
    this.notice.hidden = false;
    this.#timer = setTimeout(() => this.clear(), code || link ? RULE_NOTICE_MS : NOTICE_MS);
  }

  // Above a panel fixed at the foot of the page (the walkthrough's offer: data-notice-clear),
  // never drawn over it: both would be unreadable.
  #keepClear() {
    const panels = [...document.querySelectorAll("[data-notice-clear]")].filter((panel) => !panel.hidden);
    const top = Math.min(...panels.map((panel) => panel.getBoundingClientRect().top));
    this.notice.style.bottom = panels.length ? `${Math.round(innerHeight - top + 8)}px` : "";
  }

  clear() {
    clearTimeout(this.#timer);
    this.notice.hidden = true;
    this.notice.textContent = "";
    this.notice.dataset.refusal = "";
  }
}

