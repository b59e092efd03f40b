// "Report this result" (docs/fairplay.md, "Reports"): a signed-in player reports someone else's
// result (POST /api/replays/<id>/reports/). The dialog lives on the replay page, the main place:
// the player sees the game before judging it. A board's rows and a race's results link to it
// (`/replay/<id>#report`, which opens the dialog there), so they carry no dialog of their own.

import { hereForNext } from "./account.js";
import { api } from "./api.js";
import { openDialog } from "./dialogs.js";
import { $, $$, el } from "./dom.js";
import { t } from "./i18n.js";

export const REPORT_HASH = "#report";
const SVG = "http://www.w3.org/2000/svg";
const FLAG_PATH = "M5 2h2v20H5zM8 3h12l-3 5 3 5H8z";
// Rows with a replay to report: never the player's own (a board's data-me, a race's "you").
const OTHERS_ROWS = "tr:not([data-me]):not(.you)";

/**
 * What a report's answer means for the player: `{outcome, text, final}`. A final outcome closes
 * the dialog (sent, or refused for good); any other leaves it open to try again.
 */
export function reportOutcome(answer) {
  const code = answer.data?.code;
  if (answer.ok) return { outcome: "sent", text: t("report.thanks"), final: true };
  if (answer.status === 0) return { outcome: "offline", text: t("report.offline"), final: false };
  if (answer.status === 409 || code === "already_reported") return { outcome: "already", text: t("report.already"), final: true };
  if (code === "own_result") return { outcome: "own", text: t("report.own"), final: true };
  if (answer.status === 401 || answer.status === 403) return { outcome: "signedOut", text: t("report.signedOut"), final: true };
  if (answer.status === 404) return { outcome: "missing", text: t("report.missing"), final: true };
  if (answer.status === 429) {
    // The wait in minutes, rounded up: the limit is counted by the hour.
    if (!answer.retryAfter) return { outcome: "throttled", text: t("report.throttledLater"), final: false };
    const minutes = Math.max(1, Math.ceil(answer.retryAfter / 60));
    return { outcome: "throttled", text: t("report.throttled", { count: minutes, minutes }), final: false };
  }
  return { outcome: "failed", text: t("report.failed", { status: answer.status }), final: false };
}

function flagLink(replayHref, player) {
  const label = t("report.rowLink", { player });
  const icon = document.createElementNS(SVG, "svg");
  for (const [name, value] of Object.entries({ viewBox: "0 0 24 24", width: "16", height: "16", "aria-hidden": "true", fill: "currentColor" })) icon.setAttribute(name, value);
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", FLAG_PATH);
  icon.append(path);
  return el("a", { href: `${replayHref}${REPORT_HASH}`, class: "report-link", title: label, "aria-label": label, dataset: { reportLink: "" } }, icon);
}

// The flag goes after the player's name: the row's Watch cell keeps its one link.
function addLinks(container) {
  for (const row of $$(OTHERS_ROWS, container)) {
    const watch = $('a[href^="/replay/"]', row);
    const name = $("td.player .name", row);
    if (!watch || !name || $("[data-report-link]", row)) continue;
    name.after(" ", flagLink(watch.getAttribute("href"), row.dataset.player ?? row.dataset.resultPlayer ?? ""));
  }
}

const watched = new WeakSet();

/**
 * In each of `container`'s rows with a replay (a board, a race's results), a small link to its
 * report, for a signed-in player, never on their own row. The rows are drawn again as the page
 * changes (pages of a board, a race's updates): the links follow them.
 */
export function offerReportLinks(container, { signedIn }) {
  if (!signedIn || !container) return;
  addLinks(container);
  if (watched.has(container)) return;
  watched.add(container);
  new MutationObserver(() => addLinks(container)).observe(container, { childList: true, subtree: true });
}

class ReportDialog {
  constructor(dialog, resultId, onDone) {
    this.dialog = dialog;
    this.resultId = resultId;
    this.onDone = onDone;
    this.form = $("[data-report-form]", dialog);
    this.error = $("[data-report-error]", dialog);
    this.send = $("[data-report-send]", dialog);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.#send();
    });
    this.form.addEventListener("change", () => (this.error.textContent = ""));
  }

  async open() {
    this.form.reset();
    this.error.textContent = "";
    await openDialog(this.dialog);
    // Closed: a reload of a `#report` link opens the replay, not the dialog again.
    if (location.hash === REPORT_HASH) history.replaceState(null, "", `${location.pathname}${location.search}`);
  }

  async #send() {
    const reason = this.form.elements.reason.value;
    if (!reason) {
      this.error.textContent = t("report.chooseReason");
      $('input[name="reason"]', this.form).focus();
      return;
    }
    this.send.disabled = true;
    this.send.setAttribute("aria-busy", "true");
    this.error.textContent = "";
    const answer = await api(`/api/replays/${this.resultId}/reports/`, {
      method: "POST",
      body: { reason, note: this.form.elements.note.value.trim() },
    });
    this.send.disabled = false;
    this.send.removeAttribute("aria-busy");
    const { outcome, text, final } = reportOutcome(answer);
    if (!final) {
      this.error.textContent = text;
      return;
    }
    this.dialog.close(outcome);
    this.onDone(text);
  }
}

function tell(...words) {
  const status = $("[data-report-status]");
  status.replaceChildren(...words);
  status.hidden = false;
}

/**
 * The replay page's "Report this result" (`[data-report-offer]`), for the result `resultId` of
 * `player`: offered to a signed-in player on someone else's result. Opened at once by a
 * `#report` link; signed out, such a link says to sign in; on one's own result, why not.
 */
export function offerReport({ resultId, player, account }) {
  const offer = $("[data-report-offer]");
  if (offer.dataset.offered) return; // a replay loaded again (back online) keeps its one offer
  offer.dataset.offered = "true";
  const asked = location.hash === REPORT_HASH;
  if (!account) {
    if (asked) tell(el("a", { href: `/accounts/login/?next=${encodeURIComponent(`${hereForNext()}${REPORT_HASH}`)}` }, t("report.signIn")));
    return;
  }
  if (account.name === player) {
    if (asked) tell(t("report.own"));
    return;
  }
  const dialog = new ReportDialog($('[data-dialog="report"]'), resultId, (text) => {
    offer.hidden = true;
    tell(text);
  });
  offer.hidden = false;
  $("button", offer).addEventListener("click", () => dialog.open());
  if (asked) dialog.open();
}
