// /me: the signed-in player's figures per rule set (best score, wins, win rate, fewest moves,
// fastest win, places on the boards now) from GET /api/me/, and every game they finished,
// newest first, from GET /api/submissions/ (its `next` link for more). Signed out: a prompt.

import { api, apiPath } from "./api.js";
import { boardLink, $, RULE_NAMES, el, formatDuration, formatNumber, formatRate, formatWhen } from "./dom.js";
import { isOffline, showOffline, startPage, whenOnline } from "./page.js";
import { loadBests } from "./store.js";
import { pendingResults } from "./sync.js";

const PERIOD_NAMES = { all: "All time", week: "This week", day: "Today" };

function figure(name, value, key) {
  return el("div", {}, el("dt", {}, name), el("dd", { dataset: { figure: key } }, value));
}

function rulesCard(rules, figures, deviceBest) {
  const ranks = Object.entries(figures.ranks ?? {}).map(([period, { board, rank }]) =>
    el(
      "li",
      { dataset: { period, rank: rank ?? "" } },
      el("a", { href: `${boardLink(board)}&around=me` }, el("span", {}, PERIOD_NAMES[period] ?? period), el("strong", {}, rank ? `#${formatNumber(rank)}` : "—")),
    ),
  );
  const best = deviceBest
    ? `Best on this device: ${formatNumber(deviceBest.score)}${typeof deviceBest.durationMs === "number" ? ` in ${formatDuration(deviceBest.durationMs)}` : ""}.`
    : "No win on this device yet.";
  return el(
    "article",
    { class: "figure-card", dataset: { rulesFigures: rules } },
    el("h2", {}, RULE_NAMES[rules]),
    el("p", { class: "big-figure" }, el("span", { class: "label" }, "Best score"), el("strong", { dataset: { figure: "best_score" } }, formatNumber(figures.best_score))),
    el(
      "dl",
      { class: "facts" },
      figure("Ranked wins", formatNumber(figures.ranked_wins), "ranked_wins"),
      figure("Ranked played", formatNumber(figures.ranked_games_finished), "ranked_games_finished"),
      figure("Win rate", formatRate(figures.win_rate), "win_rate"),
      figure("Fewest moves", formatNumber(figures.fewest_moves), "fewest_moves"),
      figure("Fastest win", figures.fastest_win_ms === null ? "—" : formatDuration(figures.fastest_win_ms), "fastest_win_ms"),
      figure("Unranked wins", formatNumber(figures.unranked_wins), "unranked_wins"),
    ),
    el("h3", {}, "Places now"),
    el("ul", { class: "rank-chips" }, ranks),
    el("p", { class: "muted device-best" }, best),
  );
}

function resultText(submission) {
  if (submission.status === "pending") return ["Checking…", "pending"];
  if (submission.status === "rejected") return [`Not accepted: ${submission.reason?.message ?? "refused"}`, "rejected"];
  if (submission.voided) return ["Voided by the staff", "voided"];
  return submission.won ? ["Won", "won"] : ["Not won", "lost"];
}

function gameItem(submission) {
  const [text, kind] = resultText(submission);
  const watchable = submission.status === "verified" && submission.won && !submission.voided;
  const figures = submission.status === "verified" ? `${formatNumber(submission.score)} · ${formatNumber(submission.moves)} moves · ${formatDuration(submission.duration_ms)}` : formatDuration(submission.duration_ms);
  return el(
    "li",
    { class: "game", dataset: { submission: submission.id, status: submission.status, result: kind } },
    el(
      "p",
      { class: "game-head" },
      el("span", { class: "badge", dataset: { kind: submission.ranked ? "ranked" : "unranked" } }, submission.ranked ? "Ranked" : "Unranked"),
      el("a", { class: "code", href: boardLink(`deal:${submission.code}`) }, submission.code),
      el("time", { datetime: submission.received_at }, formatWhen(submission.received_at)),
    ),
    el(
      "p",
      { class: "game-result" },
      el("strong", { class: `outcome ${kind}` }, text),
      el("span", { class: "muted" }, figures),
      watchable && el("a", { href: `/replay/${submission.id}` }, "Watch"),
    ),
  );
}

class MePage {
  async start() {
    const { account } = await startPage();
    this.account = account;
    await this.load();
    whenOnline(() => this.load());
    document.documentElement.dataset.pageStatus = "ready";
  }

  async load() {
    const me = await api("/api/me/");
    showOffline(isOffline(me));
    const signedOut = me.status === 403 || me.status === 401 || (isOffline(me) && !this.account);
    $("[data-me-signed-out]").hidden = !signedOut;
    $("[data-me-signed-in]").hidden = signedOut;
    if (signedOut || !me.ok) {
      if (!signedOut) $("[data-figures]").replaceChildren(el("p", { class: "board-message" }, "Your figures need a connection."));
      return;
    }
    $("[data-me-title]").textContent = me.data.player.name;
    document.title = `${me.data.player.name} · Yukon Online`;
    const bests = loadBests();
    $("[data-figures]").replaceChildren(...Object.entries(me.data.rules).map(([rules, figures]) => rulesCard(rules, figures, bests[rules])));
    this.#showDevice();
    await this.#showHistory("/api/submissions/?page_size=20", false);
  }

  #showDevice() {
    const waiting = pendingResults();
    $("[data-device]").hidden = waiting.length === 0;
    $("[data-device-summary]").textContent = `${waiting.length} result${waiting.length === 1 ? "" : "s"} of this device ${waiting.length === 1 ? "is" : "are"} on the way to the server; ${waiting.length === 1 ? "it appears" : "they appear"} below once received.`;
  }

  async #showHistory(url, append) {
    const box = $("[data-history]");
    const more = $("[data-history-more]");
    const answer = await api(url);
    if (!answer.ok) {
      if (!append) box.replaceChildren(el("p", { class: "board-message" }, isOffline(answer) ? "Your games need a connection." : "Your games cannot be shown."));
      return;
    }
    const { results, next } = answer.data;
    let list = $("ol.games", box);
    if (!append || !list) {
      list = el("ol", { class: "games" });
      box.replaceChildren(results.length ? list : el("p", { class: "board-message" }, "No finished game yet: every win is sent, and every ranked game you leave."));
    }
    list.append(...results.map(gameItem));
    const nextPath = apiPath(next);
    more.hidden = !nextPath;
    more.onclick = nextPath ? () => this.#showHistory(nextPath, true) : null;
  }
}

new MePage().start();
