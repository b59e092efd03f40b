// Everything around the table: the game bar, messages (visible and for screen readers) and
// the dialogs — new game, settings, help, leaving a game, the win banner — whose markup is
// in play.html. A button with data-close="value" closes its dialog with that value.

import { CLASSIC, DEAL_COUNT, formatCode, parseCode } from "./engine.js";

const NOTICE_MS = 4000;
const RULE_NAMES = { classic: "Classic", relaxed: "Relaxed" };

export const $ = (selector, root = document) => root.querySelector(selector);

/** 75_000 → "1:15"; an hour or more → "1:02:03". */
export function formatDuration(ms) {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

export const formatNumber = (n) => n.toLocaleString("en-US");

/** "7♥ needs a black 8" → "7♥ needs a black 8." with a capital first letter. */
export const sentence = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;

/** A new deal, drawn uniformly among all deal numbers. */
export function randomCode(rules = CLASSIC) {
  const words = new Uint32Array(2);
  for (;;) {
    crypto.getRandomValues(words);
    const number = (words[0] % 2) * 2 ** 32 + words[1];
    if (number < DEAL_COUNT) return formatCode(rules, number);
  }
}

// Close a dialog from any button marked data-close; Escape closes as the browser does.
document.addEventListener("click", (event) => {
  const button = event.target.closest?.("[data-close]");
  const dialog = button?.closest("dialog");
  if (dialog) dialog.close(button.dataset.close);
});

/** Show a modal dialog; resolves with the value it was closed with ("" for Escape). */
export function openDialog(dialog) {
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
    dialog.showModal();
  });
}

/** The figures above the table; the same figures as data-* attributes for tools and tests. */
export class Bar {
  #shown = {};

  constructor(root) {
    this.root = root;
    this.time = $("[data-time]", root);
    this.fields = {
      moves: $('[data-stat="moves"]', root),
      points: $('[data-stat="points"]', root),
      score: $('[data-stat="score"]', root),
    };
    this.codeText = $("[data-code-text]");
    this.rulesText = $("[data-rules-text]");
    this.shareLink = $("[data-share-link]");
  }

  update(game) {
    const figures = { moves: game.movesMade, points: game.points, score: game.rankedScore() };
    for (const [name, value] of Object.entries(figures)) {
      if (this.#shown[name] === value) continue;
      this.#shown[name] = value;
      this.root.dataset[name] = String(value);
      this.fields[name].textContent = formatNumber(value);
    }
    if (this.#shown.code !== game.code) {
      this.#shown.code = game.code;
      this.root.dataset.code = game.code;
      this.codeText.textContent = game.code;
      this.rulesText.textContent = RULE_NAMES[game.rules];
      this.shareLink.href = `/play/${game.code}`;
    }
  }

  showTime(ms) {
    const text = formatDuration(ms);
    if (this.time.textContent !== text) this.time.textContent = text;
  }
}

/** A short visible message under the table, and announcements for screen readers. */
export class Notices {
  #timer = 0;

  constructor() {
    this.notice = $("[data-notice]");
    this.announcer = $("[data-announcer]");
  }

  /** Read out by screen readers only. The same text twice is still announced. */
  say(text) {
    this.announcer.textContent = this.announcer.textContent === text ? `${text}\u00a0` : text;
  }

  /** Shown for a few seconds (and read out); `kind` "rule" for a refused move, "info" otherwise. */
  show(text, { kind = "info", code = "" } = {}) {
    clearTimeout(this.#timer);
    this.notice.textContent = sentence(text);
    this.notice.dataset.kind = kind;
    this.notice.dataset.refusal = code;
    this.notice.hidden = false;
    this.#timer = setTimeout(() => this.clear(), NOTICE_MS);
  }

  clear() {
    clearTimeout(this.#timer);
    this.notice.hidden = true;
    this.notice.textContent = "";
    this.notice.dataset.refusal = "";
  }
}

/** New game: a fresh deal under Classic or Relaxed rules, or a typed or pasted code. */
export class NewGameDialog {
  constructor(dialog) {
    this.dialog = dialog;
    this.input = $("[data-code-input]", dialog);
    this.error = $("[data-code-error]", dialog);
    $('[data-action="deal"]', dialog).addEventListener("click", () => this.#deal());
    $('[data-action="play-code"]', dialog).addEventListener("click", () => this.#playCode());
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.#playCode();
      }
    });
    this.input.addEventListener("input", () => (this.error.textContent = ""));
  }

  /** Resolves with the code to play, or null when the dialog is closed without one. */
  async open(rules) {
    this.code = null;
    for (const radio of this.dialog.querySelectorAll('input[name="rules"]')) radio.checked = radio.value === rules;
    this.input.value = "";
    this.error.textContent = "";
    await openDialog(this.dialog);
    return this.code;
  }

  #deal() {
    const rules = $('input[name="rules"]:checked', this.dialog)?.value ?? CLASSIC;
    this.code = randomCode(rules);
    this.dialog.close("deal");
  }

  #playCode() {
    try {
      this.code = parseCode(this.input.value).code;
      this.dialog.close("code");
    } catch (error) {
      this.error.textContent = sentence(error.message);
      this.input.focus();
    }
  }
}

/** The aids: one checkbox per setting, applied as soon as it is ticked. */
export class SettingsDialog {
  constructor(dialog, onChange) {
    this.dialog = dialog;
    dialog.addEventListener("change", (event) => {
      const box = event.target;
      if (box.type === "checkbox") onChange(box.name, box.checked);
    });
  }

  open(settings) {
    for (const box of this.dialog.querySelectorAll('input[type="checkbox"]')) box.checked = Boolean(settings[box.name]);
    return openDialog(this.dialog);
  }
}

/** The win banner: the result, and the personal best of its rule set on this device. */
export class WinBanner {
  constructor(dialog) {
    this.dialog = dialog;
  }

  /** `result`: {moves, durationMs, score, points, rules}; `best`: the kept best; `isNew`. */
  open(result, best, isNew) {
    const fields = {
      moves: formatNumber(result.moves),
      time: formatDuration(result.durationMs),
      score: formatNumber(result.score),
      points: formatNumber(result.points),
    };
    for (const [name, text] of Object.entries(fields)) {
      const element = $(`[data-win="${name}"]`, this.dialog);
      element.textContent = text;
      element.dataset.value = String(name === "time" ? result.durationMs : result[name]);
    }
    const rules = RULE_NAMES[result.rules];
    const bestLine = $('[data-win="best"]', this.dialog);
    bestLine.textContent = isNew
      ? `New personal best (${rules})!`
      : `Personal best (${rules}): ${formatNumber(best.score)} in ${formatDuration(best.durationMs)}`;
    bestLine.classList.toggle("new-best", isNew);
    this.dialog.dataset.newBest = String(isNew);
    return openDialog(this.dialog);
  }
}
