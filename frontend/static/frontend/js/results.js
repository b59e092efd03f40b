// What became of the results this device submitted: the Results dialog (every queued result
// with its state — waiting, sent, verified, rejected and why), the small counter in the game
// bar, and the verdict line of the win banner (the ranks reached, once the server verified).
// A win played with a hint says so (assisted: on no board), and a ranked win sent again as an
// unranked result (its game played elsewhere or expired, sync.js) says where it counts.

import { RULE_NAMES, boardBase, boardLink, boardName, el, formatDuration, formatNumber, formatWhen, sentence, topPercentText } from "./dom.js";
import { t } from "./i18n.js";
import { rejectionText } from "./reasons.js";
import { findResult, listResults, markSeen, onResultsChange, pendingResults, sendableBy, unseenResults } from "./sync.js";

const BOARD_ORDER = ["all", "season", "week", "day"];

/** Ranks from a verified submission, best known board first: `[{key, rank, label, href}]`. */
export function rankList(ranks) {
  // The hidden-card boards, then the open-deal ones, then the deal's.
  const order = (key) => {
    if (key.startsWith("daily:")) return -1;
    if (key.startsWith("deal:")) return 2 * BOARD_ORDER.length;
    return BOARD_ORDER.indexOf(boardBase(key).split(":")[1]) + (boardBase(key) === key ? 0 : BOARD_ORDER.length);
  };
  return Object.entries(ranks ?? {})
    .sort(([a], [b]) => order(a) - order(b))
    .map(([key, rank]) => ({ key, rank, label: boardName(key), href: boardLink(key) }));
}

// Each place: its rank, the board, and its percentile when the board's count was kept (`ranks_of`).
function rankItems(ranks, ranksOf) {
  return rankList(ranks).map(({ key, rank, label, href }) => {
    const top = topPercentText(rank, ranksOf?.[key]);
    return el(
      "li",
      { dataset: { board: key, rank } },
      el("a", { href }, el("strong", {}, `#${formatNumber(rank)}`), ` ${label}`, top && el("span", { class: "top-percent" }, ` · ${top}`)),
    );
  });
}

/** The state of one result in words, for the player who is (or is not) signed in. */
export function stateText(entry, account) {
  switch (entry.state) {
    case "waiting":
      if (!account) return t("results.waitingSignIn");
      if (!sendableBy(entry, account)) return t("results.waitingPlayer");
      return t(navigator.onLine === false ? "results.waitingConnection" : "results.waitingSend");
    case "sent":
      return t("results.sent");
    case "verified":
      if (entry.verdict?.won === false) return t("results.verifiedLost");
      if (isAssisted(entry)) return t("results.verifiedAssisted");
      return t(Object.keys(entry.ranks ?? {}).length ? "results.verified" : "results.verifiedNoBoard");
    case "rejected":
      return sentence(t("results.rejected", { reason: rejectedWhy(entry) }));
    default:
      return "";
  }
}

// The server's reason in the page's language when it came with its figures; else as it was kept
// (a refusal at sending, said by the page; an older entry, in English).
const rejectedWhy = (entry) =>
  entry.reason_code && entry.reason_params
    ? rejectionText({ code: entry.reason_code, message: entry.reason, params: entry.reason_params })
    : (entry.reason ?? t("results.refused"));

// A hint was used: as the server counted it once verified (it may know of a hint given elsewhere).
const isAssisted = (entry) => entry.verdict?.assisted ?? entry.assisted === true;

/** The line of a ranked win sent again as unranked (its game already had a result), or "". */
export const fallbackText = (entry) => (entry.fallback ? t("results.playedElsewhere") : "");

function outcome(entry) {
  const moves = entry.verdict?.moves ?? entry.moves;
  const won = entry.verdict?.won ?? entry.won;
  const time = formatDuration(entry.duration_ms ?? 0);
  return t(won ? "results.won" : "results.left", { count: moves, moves: formatNumber(moves), time });
}

function resultItem(entry, account) {
  const ranked = entry.game != null;
  const links = [];
  if (entry.state === "verified" && entry.verdict?.won && entry.submission) links.push(el("a", { href: `/replay/${entry.submission}` }, t("results.watch")));
  if (entry.code) links.push(el("a", { href: boardLink(`deal:${entry.code}`) }, t("results.dealBoard")));
  return el(
    "li",
    { class: "result", dataset: { result: entry.client_id, state: entry.state, ...(isAssisted(entry) ? { assisted: "" } : {}) } },
    el(
      "div",
      { class: "result-head" },
      // A result without a ranked game: an open deal (its code known), on the open-deal boards once sent.
      el("span", { class: "badge", dataset: { kind: ranked ? "ranked" : "open" } }, t(ranked ? "ranked.ranked" : "ranked.open")),
      el("span", { class: "result-code" }, el("span", { class: "result-rules" }, RULE_NAMES[entry.rules] ?? ""), " ", el("span", { class: "code" }, entry.code ?? "")),
      el("time", { datetime: entry.finished_at }, formatWhen(entry.finished_at)),
    ),
    el("p", { class: "result-outcome" }, outcome(entry)),
    entry.fallback && el("p", { class: "result-fallback", dataset: { fallback: entry.fallback.game } }, fallbackText(entry)),
    el("p", { class: "result-state", dataset: { stateText: entry.state } }, stateText(entry, account)),
    entry.state === "verified" && el("ul", { class: "ranks" }, rankItems(entry.ranks, entry.ranksOf)),
    links.length > 0 && el("p", { class: "result-links" }, ...links),
  );
}

/** The Results dialog: every result this device keeps, newest first. */
export class ResultsDialog {
  constructor(dialog, { accountOf, send }) {
    this.dialog = dialog;
    this.accountOf = accountOf;
    this.list = dialog.querySelector("[data-results-list]");
    this.summary = dialog.querySelector("[data-results-summary]");
    this.sendButton = dialog.querySelector('[data-action="send-results"]');
    this.sendButton.addEventListener("click", () => send());
  }

  render() {
    const account = this.accountOf();
    const entries = listResults();
    const waiting = entries.filter((entry) => entry.state === "waiting").length;
    this.summary.textContent = entries.length
      ? waiting
        ? `${t("results.waitingCount", { count: waiting })}${account ? "" : ` ${t("results.signInToSend")}`}`
        : t("results.allSent")
      : t("results.none");
    this.list.replaceChildren(...entries.map((entry) => resultItem(entry, account)));
    this.sendButton.hidden = !waiting || !account; // nothing to send, or no one to send it as
  }

  open() {
    this.render();
    if (!this.dialog.open) this.dialog.showModal();
    markSeen();
  }
}

/** The bar's counter: results not settled yet, or settled and not seen; hidden when there are none. */
export function renderResultsChip(chip) {
  const pending = pendingResults();
  const fresh = unseenResults();
  const waiting = pending.filter((entry) => entry.state === "waiting").length;
  const refused = fresh.filter((entry) => entry.state === "rejected").length;
  chip.hidden = pending.length + fresh.length === 0;
  chip.dataset.pending = String(pending.length);
  chip.dataset.fresh = String(fresh.length);
  const [text, title, count] = waiting
    ? ["results.chipWaiting", "results.chipWaitingTitle", waiting]
    : pending.length
      ? ["results.chipChecking", "results.chipCheckingTitle", pending.length]
      : refused
        ? ["results.chipRefused", "results.chipNewTitle", refused]
        : ["results.chipNew", "results.chipNewTitle", fresh.length];
  chip.textContent = t(text, { count });
  chip.title = t(title);
}

// A win kept on a device signed out: where it goes once sent. A ranked game's goes on the
// leaderboards; an open deal's (a shared code, a deal dealt signed out) on its deal's board and
// the open-deal board; a hinted one on none.
function keptText(entry) {
  if (isAssisted(entry)) return t("keptWin.assisted");
  return t(entry.game != null ? "results.verdictKept" : "keptWin.open");
}

/** The win banner's verdict: where this win's result is, and the ranks once verified. */
export function renderVerdict(banner, entry, account) {
  const box = banner.querySelector("[data-win-verdict]");
  const text = box.querySelector("[data-verdict-text]");
  const ranks = box.querySelector("[data-win-ranks]");
  const signIn = box.querySelector("[data-verdict-sign-in]");
  box.dataset.state = entry ? entry.state : "";
  signIn.hidden = Boolean(account) || !entry;
  if (!entry) {
    text.textContent = "";
    ranks.replaceChildren();
    return;
  }
  const verdict =
    entry.state === "verified"
      ? Object.keys(entry.ranks ?? {}).length
        ? t("results.verdictPlaces", { kind: t(entry.game != null ? "ranked.ranked" : "ranked.open") })
        : t("results.verdictVerified")
      : !account && entry.state === "waiting"
        ? keptText(entry)
        : stateText(entry, account);
  text.textContent = [fallbackText(entry), verdict].filter(Boolean).join(" ");
  ranks.replaceChildren(...(entry.state === "verified" ? rankItems(entry.ranks, entry.ranksOf) : []));
  const board = banner.querySelector('[data-win-link="board"]');
  board.hidden = entry.state !== "verified";
}

/**
 * The results as the game page shows them: the counter in the game bar, the Results dialog,
 * and the win banner's verdict of the game on the table (`resultIdOf()`). Each follows the
 * outbox as it changes; a verdict shown to the player is marked seen.
 */
export class ResultsView {
  constructor({ dialog, chip, banner, accountOf, resultIdOf, send }) {
    this.dialog = new ResultsDialog(dialog, { accountOf, send });
    this.chip = chip;
    this.banner = banner;
    this.accountOf = accountOf;
    this.resultIdOf = resultIdOf;
    onResultsChange(() => this.#changed());
    renderResultsChip(chip);
  }

  open() {
    this.dialog.open();
  }

  /** The banner's verdict for the game on the table (the banner just opened, or a result changed). */
  showVerdict() {
    const clientId = this.resultIdOf();
    const entry = clientId ? findResult(clientId) : null;
    renderVerdict(this.banner, entry, this.accountOf());
    if (entry?.seen === false && this.banner.open) markSeen([entry.client_id]);
  }

  #changed() {
    if (this.dialog.dialog.open) {
      this.dialog.render();
      markSeen(); // a verdict arriving under the player's eyes is seen
    }
    if (this.banner.open) this.showVerdict();
    renderResultsChip(this.chip);
  }
}
