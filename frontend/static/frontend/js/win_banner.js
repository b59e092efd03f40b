// The win banner (play.html's data-dialog="win"): the result, the record's line, the deal's
// check and the links to its board and to share it; results.js fills in the verdict and ranks.

import { openDialog } from "./dialogs.js";
import { $, formatDuration, formatNumber } from "./dom.js";
import { t } from "./i18n.js";

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

  /** `result`: {moves, durationMs, score, points, assisted}. The record's line: showRecord. */
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
   * Signed out, a provisional best waits for the player to sign in, and the line says so.
   */
  showRecord(rules, record, best, provisional, { signedIn = true } = {}) {
    const line = $('[data-win="best"]', this.dialog);
    const name = t(`rules.${rules}`);
    const pending = signedIn ? "" : "SignedOut";
    if (record === "new" || record === "provisional") {
      line.textContent = t(record === "new" ? "win.newBest" : `win.provisionalBest${pending}`, { rules: name });
    } else if (best) {
      const score = formatNumber(best.score);
      line.textContent =
        typeof best.durationMs !== "number"
          ? t("win.bestScore", { rules: name, score })
          : t(provisional ? `win.bestPending${pending}` : "win.best", { rules: name, score, time: formatDuration(best.durationMs) });
    } else {
      line.textContent = "";
    }
    line.classList.toggle("new-best", record === "new" || record === "provisional");
    this.dialog.dataset.newBest = record;
  }
}
