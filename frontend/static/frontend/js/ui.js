// Everything around the table: the game bar, messages (visible and for screen readers) and
// the dialogs — new game, settings, help, leaving a game, the win banner — whose markup is
// in play.html. A button with data-close="value" closes its dialog with that value.

import { $, formatDuration, formatNumber } from "./dom.js";
import { CLASSIC, DEAL_COUNT, FOUNDATION, cardLabel, formatCode, parseCode, suitSymbol } from "./engine.js";
import { codeErrorText, sentence, t } from "./i18n.js";

export { $, formatDuration, formatNumber, sentence };

const NOTICE_MS = 4000;
const RULE_NOTICE_MS = 8000; // a refusal links to its rule: time to read it and follow the link

/** A new deal, drawn uniformly among all deal numbers. */
export function randomCode(rules = CLASSIC) {
  const words = new Uint32Array(2);
  for (;;) {
    crypto.getRandomValues(words);
    const number = (words[0] % 2) * 2 ** 32 + words[1];
    if (number < DEAL_COUNT) return formatCode(rules, number);
  }
}

/** A move in words ("7♥ and 2 cards on it to column 4"): `from` its column, `group` the cards moving. */
export function describeMove(move, from, group) {
  const card = cardLabel(move.card);
  const column = move.dest + 1;
  if (move.dest === FOUNDATION) return t("say.toFoundation", { card, suit: suitSymbol(Math.floor(move.card / 13)) });
  if (from === FOUNDATION) return t("say.backToColumn", { card, column });
  if (group > 1) return t("say.groupToColumn", { card, count: group - 1, column });
  return t("say.toColumn", { card, column });
}

// Close a dialog from any button marked data-close; Escape closes as the browser does.
document.addEventListener("click", (event) => {
  const button = event.target.closest?.("[data-close]");
  const dialog = button?.closest("dialog");
  if (dialog) dialog.close(button.dataset.close);
});

/**
 * Ask before leaving or rewinding a game: the confirm dialog with these words. Resolves true
 * when the player agrees.
 */
export async function confirmDialog({ title, text, yes }) {
  const dialog = $('[data-dialog="confirm"]');
  $("[data-confirm-title]", dialog).textContent = title;
  $("[data-confirm-text]", dialog).textContent = text;
  $('[data-close="leave"]', dialog).textContent = yes;
  return (await openDialog(dialog)) === "leave";
}

/** Show a modal dialog; resolves with the value it was closed with ("" for Escape). */
export function openDialog(dialog) {
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
    dialog.showModal();
  });
}

// On a phone the actions are a bar at the bottom of the screen, one or two rows tall (table.css):
// the page keeps that much room under the table, so that no card lies under the bar.
function keepRoomForActions(actions) {
  if (!actions) return;
  const style = document.documentElement.style;
  new ResizeObserver(() => style.setProperty("--actions-height", `${actions.offsetHeight}px`)).observe(actions);
}

/** The figures above the table; the same figures as data-* attributes for tools and tests. */
export class Bar {
  #shown = {};
  #counts = false; // the game counts on a board (ranked, or an open deal signed in)
  #scoreMeant = { won: false, foundationCards: 0 };

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
    this.codeActions = $(".code-actions");
    this.kind = $("[data-kind]", root);
    this.assisted = $("[data-assisted]", root);
    keepRoomForActions(root.querySelector(".actions"));
  }

  /** The Ranked / Open deal / Unranked badge, and why a game is not ranked. */
  showKind(session, { signedIn }) {
    const daily = session.issued?.daily ?? null; // a daily-deal game: its UTC day
    const why = t(
      daily
        ? "ranked.whyDaily"
        : session.ranked
        ? "ranked.whyRanked"
        : session.origin === "code"
          ? "ranked.whyCode"
          : session.origin === "winnable"
            ? "ranked.whyWinnable"
            : signedIn
            ? "ranked.whyOffline"
            : "ranked.whySignIn",
      { date: daily },
    );
    // Signed in, a game that is not ranked is an open deal: it counts on the open-deal boards.
    const kind = session.ranked ? "ranked" : signedIn ? "open" : "unranked";
    this.root.dataset.ranked = String(session.ranked);
    this.root.dataset.hidden = String(session.hidden);
    this.root.dataset.gameId = session.issued ? String(session.issued.id) : "";
    this.root.dataset.daily = daily ?? "";
    if (session.hidden) {
      const name = daily ? t("table.dailyDeal", { date: daily }) : t("table.hiddenDeal");
      if (this.codeText.textContent !== name) this.codeText.textContent = name;
    }
    this.kind.textContent = t(`ranked.${kind}`);
    this.kind.dataset.kind = kind;
    this.#counts = kind !== "unranked";
    this.#drawScoreShown();
    this.kind.title = why;
    this.kind.setAttribute("aria-label", why);
  }

  /** One clear score: points always; the ranked score only where it means something, a win, or
   * the standing of a game that counts on a board once a card is on a foundation (at 0 moves it
   * is a puzzling 1). Hidden, its cell keeps its room, so the bar never shifts. */
  #drawScoreShown() {
    const { won, foundationCards } = this.#scoreMeant;
    const shown = won || (this.#counts && foundationCards > 0);
    if (this.root.dataset.scoreShown !== String(shown)) this.root.dataset.scoreShown = String(shown);
  }

  /** "Assisted": a hint was used in this game, which therefore enters no board. */
  showAssisted(assisted) {
    this.root.dataset.assisted = String(assisted);
    this.assisted.hidden = !assisted;
  }

  update(game) {
    const figures = { moves: game.movesMade, points: game.points, score: game.rankedScore() };
    for (const [name, value] of Object.entries(figures)) {
      if (this.#shown[name] === value) continue;
      this.#shown[name] = value;
      this.root.dataset[name] = String(value);
      this.fields[name].textContent = formatNumber(value);
    }
    this.#scoreMeant = { won: game.isWon(), foundationCards: game.foundationCards };
    this.#drawScoreShown();
    if (this.#shown.code !== game.code || this.#shown.rules !== game.rules) {
      // A hidden-card game has no code to show, copy or share until it is finished.
      this.#shown.code = game.code;
      this.#shown.rules = game.rules;
      this.root.dataset.code = game.code ?? "";
      this.codeText.textContent = game.code ?? t("table.hiddenDeal");
      this.codeText.classList.toggle("hidden-deal", !game.code);
      this.codeText.classList.toggle("whole-code", Boolean(game.code?.startsWith("YU2")));
      this.rulesText.textContent = t(`rules.${game.rules}`);
      this.shareLink.href = game.code ? `/play/${game.code}` : "/";
      this.codeActions.style.visibility = game.code ? "" : "hidden";
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
    this.notice.hidden = false;
    this.#timer = setTimeout(() => this.clear(), code || link ? RULE_NOTICE_MS : NOTICE_MS);
  }

  clear() {
    clearTimeout(this.#timer);
    this.notice.hidden = true;
    this.notice.textContent = "";
    this.notice.dataset.refusal = "";
  }
}

/**
 * New game: a fresh deal under Classic or Relaxed rules (winnable deals only, or not), or a
 * typed or pasted code. `onWinnable(on)`: the player ticked or unticked "Winnable deals only".
 */
export class NewGameDialog {
  constructor(dialog, onWinnable) {
    this.dialog = dialog;
    this.input = $("[data-code-input]", dialog);
    this.error = $("[data-code-error]", dialog);
    this.winnable = $('input[name="winnableOnly"]', dialog);
    this.dealNote = $("[data-deal-note]", dialog);
    this.signedOutNote = $("[data-deal-note-signed-out]", dialog);
    this.winnable.addEventListener("change", () => {
      this.#showNote();
      onWinnable(this.winnable.checked);
    });
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

  /**
   * Resolves with the player's choice: `{rules}` for a new deal, `{code}` for a typed code,
   * `{results: true}` to see the results; null when the dialog is closed without one.
   * `signedIn`: a new deal is ranked; signed out, it is unranked (the note says which).
   */
  async open(rules, { winnableOnly = false, signedIn = false } = {}) {
    this.signedIn = signedIn;
    this.choice = null;
    for (const radio of this.dialog.querySelectorAll('input[name="rules"]')) radio.checked = radio.value === rules;
    this.winnable.checked = winnableOnly;
    this.#showNote();
    this.input.value = "";
    this.error.textContent = "";
    const closedWith = await openDialog(this.dialog);
    return closedWith === "results" ? { results: true } : this.choice;
  }

  // What a new deal is for this player: ranked signed in, unranked signed out; neither
  // note with winnable deals, whose option says why.
  #showNote() {
    this.dealNote.hidden = this.winnable.checked || !this.signedIn;
    this.signedOutNote.hidden = this.winnable.checked || this.signedIn;
  }

  #deal() {
    this.choice = { rules: $('input[name="rules"]:checked', this.dialog)?.value ?? CLASSIC };
    this.dialog.close("deal");
  }

  #playCode() {
    try {
      this.choice = { code: parseCode(this.input.value).code };
      this.dialog.close("code");
    } catch (error) {
      this.error.textContent = sentence(codeErrorText(error));
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

/**
 * The win banner: the result, the personal best of its rule set (this device's, merged with
 * the server's), and — filled in by results.js as the upload goes — the verdict and ranks.
 */
export class WinBanner {
  constructor(dialog) {
    this.dialog = dialog;
    // "Challenge a friend" opens a challenge (a hidden deal both play, /race); "Share this deal"
    // sends the link of the deal just won, an open deal for whoever opens it.
    this.share = $('[data-win-link="share"]', dialog);
    this.copied = $("[data-win-copied]", dialog);
    this.share.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey) return; // a new tab, as asked
      event.preventDefault();
      this.#shareDeal();
    });
  }

  /**
   * The deal's leaderboard and the share link of the deal just won; no share link before a
   * hidden-card game's code is published (`code` null).
   */
  setLinks(code) {
    $('[data-win-link="board"]', this.dialog).href = code ? `/leaderboard?deal=${encodeURIComponent(code)}` : "/leaderboard";
    this.share.href = code ? `/play/${code}` : "/";
    this.share.hidden = !code;
    this.copied.textContent = "";
  }

  /**
   * A hidden-card game's deal, checked against the server's commitment (fairness.js): `check`
   * `{state: "pending" | "fair" | "unfair" | "unchecked", code}`, or null (not such a game).
   */
  showDealCheck(check) {
    const line = $('[data-win="deal-check"]', this.dialog);
    line.hidden = check === null;
    line.dataset.state = check?.state ?? "";
    line.textContent = check === null ? "" : t(`win.deal.${check.state}`, { code: check.code ?? "" });
  }

  async #shareDeal() {
    const url = this.share.href;
    const text = t("win.shareText");
    try {
      if (navigator.share && matchMedia("(pointer: coarse)").matches) {
        await navigator.share({ title: "Yukon Online", text, url });
        return;
      }
      await navigator.clipboard.writeText(url);
      this.copied.textContent = t("win.linkCopied");
    } catch {
      this.copied.textContent = url; // no clipboard: the link to copy by hand
    }
  }

  /** `result`: {moves, durationMs, score, points, rules, assisted}. The record's line: showRecord. */
  open(result) {
    $("[data-win-assisted]", this.dialog).hidden = !result.assisted;
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
    return openDialog(this.dialog);
  }

  /**
   * The line on the player's record. `record` (bests.js winRecord): "new" once the server has
   * verified a better win, "provisional" before its verdict, else the best of the rule set
   * (`best`, itself `provisional` while its verdict is awaited); data-new-best says which.
   */
  showRecord(rules, record, best, provisional) {
    const line = $('[data-win="best"]', this.dialog);
    const name = t(`rules.${rules}`);
    if (record === "new" || record === "provisional") {
      line.textContent = t(record === "new" ? "win.newBest" : "win.provisionalBest", { rules: name });
    } else if (best) {
      const score = formatNumber(best.score);
      line.textContent =
        typeof best.durationMs !== "number"
          ? t("win.bestScore", { rules: name, score })
          : t(provisional ? "win.bestPending" : "win.best", { rules: name, score, time: formatDuration(best.durationMs) });
    } else {
      line.textContent = "";
    }
    line.classList.toggle("new-best", record === "new" || record === "provisional");
    this.dialog.dataset.newBest = record;
  }
}
