// /me: the signed-in player's figures per rule set (best score and that game, wins, win rate,
// fewest moves, fastest win, places on the boards now, best season, race rating) from GET
// /api/me/, and every game they finished, newest first, from GET /api/submissions/ (its `next`
// link for more). Signed out: a prompt.

import { api, apiPath, refusalText } from "./api.js";
import { shownBest } from "./bests.js";
import { boardLink, $, RULE_NAMES, el, formatDuration, formatNumber, formatRate, formatWhen, topPercentText } from "./dom.js";
import { intlLocale, t } from "./i18n.js";
import { rejectionText } from "./reasons.js";
import { isOffline, showOffline, startPage, whenOnline } from "./page.js";
import { deviceStats, winRate } from "./stats.js";
import { pendingResults } from "./sync.js";

const PERIOD_KEYS = { all: "me.allTime", season: "me.thisMonth", week: "me.thisWeek", day: "me.today" };

// A game's deal, a link to its board; a daily deal's code is not named until its day is over.
function dealLink(code) {
  if (!code) return el("span", { class: "code hidden-deal" }, t("table.hiddenDeal"));
  return el("a", { class: "code", href: boardLink(`deal:${code}`) }, code);
}

function figure(name, value, key) {
  return el("div", {}, el("dt", {}, name), el("dd", { dataset: { figure: key } }, value));
}

// The best game itself: its deal, moves, time and replay (one result, as on the boards).
function bestGame(best) {
  const figures = t("me.bestGame", { count: best.moves, moves: formatNumber(best.moves), time: formatDuration(best.duration_ms) });
  return el(
    "p",
    { class: "muted best-game", dataset: { bestGame: best.id } },
    dealLink(best.code),
    ` · ${figures} · `,
    el("time", { datetime: best.achieved_at }, formatWhen(best.achieved_at)),
    " · ",
    el("a", { href: `/replay/${best.id}` }, t("results.watch")),
  );
}

// The device's best: verified, or a better win still waiting for its verdict (said so); never a refused one.
function deviceBestText({ best, provisional }) {
  if (!best) return t("me.noDeviceWin");
  const score = formatNumber(best.score);
  if (typeof best.durationMs !== "number") return t("me.deviceBestScore", { score });
  return t(provisional ? "me.deviceBestPending" : "me.deviceBest", { score, time: formatDuration(best.durationMs) });
}

// The player's place on each period board of one kind (hidden-card or open-deal games).
function rankChips(ranks, deals) {
  const chips = Object.entries(ranks ?? {}).map(([period, { board, rank, of }]) => {
    const top = topPercentText(rank, of);
    return el(
      "li",
      { dataset: { period, rank: rank ?? "" } },
      el(
        "a",
        { href: `${boardLink(board)}&around=me` },
        el("span", {}, PERIOD_KEYS[period] ? t(PERIOD_KEYS[period]) : period),
        el("strong", {}, rank ? `#${formatNumber(rank)}` : "—"),
        top && el("small", { class: "top-percent" }, top),
      ),
    );
  });
  return el("ul", { class: "rank-chips", dataset: { deals } }, chips);
}

/** A season's month in the page's language: "2026-11" → "November 2026". */
function seasonName(season) {
  const [year, month] = season.split("-").map(Number);
  return new Intl.DateTimeFormat(intlLocale(), { month: "long", year: "numeric", timeZone: "UTC" }).format(Date.UTC(year, month - 1, 1));
}

// The best final place in a season of a rule set (hidden-card boards), kept when the month ended.
function bestSeason(rules, best) {
  if (!best) return el("p", { class: "muted best-season", dataset: { bestSeason: "none" } }, t("me.noSeason"));
  const text = t("me.bestSeason", { place: formatNumber(best.place), of: formatNumber(best.of), rules: RULE_NAMES[rules], season: seasonName(best.season) });
  return el("p", { class: "best-season", dataset: { bestSeason: best.season, place: best.place } }, text);
}

// The race rating of a rule set and its board; before a first race, a way to one.
function raceRating(rules, rating) {
  if (!rating) {
    return el("p", { class: "race-rating", dataset: { raceRating: "none" } }, t("me.noRaceYet"), " ", el("a", { href: "/race" }, t("me.firstRace")));
  }
  const text = t("me.raceRating", { count: rating.races, rating: formatNumber(rating.rating), races: formatNumber(rating.races) });
  return el(
    "p",
    { class: "race-rating", dataset: { raceRating: rating.rating, races: rating.races } },
    el("strong", {}, text),
    " ",
    el("a", { href: `/leaderboard?deals=races&rules=${rules}` }, t("me.raceBoard")),
  );
}

function rulesCard(rules, figures, deviceBest) {
  return el(
    "article",
    { class: "figure-card", dataset: { rulesFigures: rules } },
    el("h2", {}, RULE_NAMES[rules]),
    el("p", { class: "big-figure" }, el("span", { class: "label" }, t("me.bestScore")), el("strong", { dataset: { figure: "best_score" } }, formatNumber(figures.best_score))),
    figures.best && bestGame(figures.best),
    el(
      "dl",
      { class: "facts" },
      figure(t("me.rankedWins"), formatNumber(figures.ranked_wins), "ranked_wins"),
      figure(t("me.rankedPlayed"), formatNumber(figures.ranked_games_finished), "ranked_games_finished"),
      figure(t("me.winRate"), formatRate(figures.win_rate), "win_rate"),
      figure(t("me.currentStreak"), formatNumber(figures.current_streak), "current_streak"),
      figure(t("me.bestStreak"), formatNumber(figures.best_streak), "best_streak"),
      figure(t("me.fewestMoves"), formatNumber(figures.fewest_moves), "fewest_moves"),
      figure(t("me.fastestWin"), figures.fastest_win_ms === null ? "—" : formatDuration(figures.fastest_win_ms), "fastest_win_ms"),
      figure(t("me.unrankedWins"), formatNumber(figures.unranked_wins), "unranked_wins"),
    ),
    el("p", { class: "muted figures-from" }, t("me.figuresFrom")),
    el("h3", {}, t("me.placesNow")),
    rankChips(figures.ranks, "hidden"),
    bestSeason(rules, figures.best_season),
    el("h3", {}, t("me.placesOpen")),
    rankChips(figures.open_ranks, "open"),
    el("h3", {}, t("me.races")),
    raceRating(rules, figures.race_rating),
    el("p", { class: "muted device-best", dataset: { deviceBest: deviceBest.provisional ? "provisional" : deviceBest.best ? "verified" : "none" } }, deviceBestText(deviceBest)),
  );
}

// Every game played on this device (stats.js), signed in or not: unranked games left
// unfinished are known here only.
function deviceStatsCard(rules) {
  const figures = deviceStats(rules);
  return el(
    "article",
    { class: "figure-card", dataset: { deviceFigures: rules } },
    el("h3", {}, RULE_NAMES[rules]),
    el(
      "dl",
      { class: "facts" },
      figure(t("me.games"), formatNumber(figures.games), "games"),
      figure(t("me.wins"), formatNumber(figures.wins), "wins"),
      figure(t("me.winRate"), formatRate(winRate(figures)), "win_rate"),
      figure(t("me.currentStreak"), formatNumber(figures.currentStreak), "current_streak"),
      figure(t("me.bestStreak"), formatNumber(figures.bestStreak), "best_streak"),
      figure(t("me.fewestMoves"), formatNumber(figures.fewestMoves), "fewest_moves"),
      figure(t("me.fastestWin"), figures.bestTimeMs === null ? "—" : formatDuration(figures.bestTimeMs), "fastest_win_ms"),
    ),
  );
}

function resultText(submission) {
  if (submission.status === "pending") return [t("me.checking"), "pending"];
  if (submission.status === "rejected") {
    return [t("results.rejected", { reason: rejectionText(submission.reason) }), "rejected"];
  }
  if (submission.voided) return [t("me.voided"), "voided"];
  return submission.won ? [t("me.won"), "won"] : [t("me.notWon"), "lost"];
}

function gameItem(submission) {
  const [text, kind] = resultText(submission);
  const watchable = submission.status === "verified" && submission.won && !submission.voided;
  const time = formatDuration(submission.duration_ms);
  const figures =
    submission.status === "verified"
      ? t("me.figures", { count: submission.moves, score: formatNumber(submission.score), moves: formatNumber(submission.moves), time })
      : time;
  return el(
    "li",
    { class: "game", dataset: { submission: submission.id, status: submission.status, result: kind } },
    el(
      "p",
      { class: "game-head" },
      el("span", { class: "badge", dataset: { kind: submission.ranked ? "ranked" : "open" } }, t(submission.ranked ? "ranked.ranked" : "ranked.open")),
      submission.seeded_deal && el("span", { class: "badge", dataset: { kind: "seeded" }, title: t("me.seededDealWhy") }, t("me.seededDeal")),
      dealLink(submission.code),
      el("time", { datetime: submission.received_at }, formatWhen(submission.received_at)),
    ),
    el(
      "p",
      { class: "game-result" },
      el("strong", { class: `outcome ${kind}` }, text),
      el("span", { class: "muted" }, figures),
      watchable && el("a", { href: `/replay/${submission.id}` }, t("results.watch")),
    ),
  );
}

// A fair-play case that keeps the player's ranked results off the boards (`review` of /api/me/):
// why, in words, and for a decision already made, the appeal (POST /api/fairplay/appeals/).
function showReview(review) {
  const box = $("[data-review]");
  box.hidden = review === null;
  if (review === null) return;
  const reason = t(`me.review.reasons.${review.reason}`);
  $("[data-review-text]", box).textContent = t(`me.review.${review.state}`, { reason });
  const form = $("[data-appeal]", box);
  form.hidden = review.state !== "confirmed";
  $("[data-appeal-send]", form).textContent = t("me.review.appeal");
  form.onsubmit = async (event) => {
    event.preventDefault();
    const why = form.elements.why.value.trim();
    const answer = await api("/api/fairplay/appeals/", { method: "POST", body: { why } });
    $("[data-appeal-said]", box).textContent = answer.ok ? t("me.review.appealSent") : refusalText(answer.data, answer.status);
    if (answer.ok) form.hidden = true;
  };
}

class MePage {
  async start() {
    const { account, fresh } = await startPage();
    this.account = account;
    this.signedOut = fresh && !account; // the server said so (GET /api/session/)
    await this.load();
    whenOnline(() => this.load());
    document.documentElement.dataset.pageStatus = "ready";
  }

  async load() {
    // Signed out, /api/me/ is not asked: its 403 would be logged by the browser as an error.
    const me = this.signedOut ? null : await api("/api/me/");
    showOffline(me !== null && isOffline(me));
    const signedOut =
      me === null || me.status === 403 || me.status === 401 || (isOffline(me) && !this.account);
    $("[data-me-signed-out]").hidden = !signedOut;
    $("[data-me-signed-in]").hidden = signedOut;
    this.#showDeviceStats();
    if (signedOut || !me.ok) {
      if (!signedOut) $("[data-figures]").replaceChildren(el("p", { class: "board-message" }, t("me.figuresOffline")));
      return;
    }
    $("[data-me-title]").textContent = me.data.player.name;
    showReview(me.data.review ?? null);
    document.title = t("me.title", { player: me.data.player.name });
    $("[data-figures]").replaceChildren(...Object.entries(me.data.rules).map(([rules, figures]) => rulesCard(rules, figures, shownBest(rules))));
    this.#showDevice();
    await this.#showHistory("/api/submissions/?page_size=20", false);
  }

  #showDeviceStats() {
    const section = $("[data-device-stats]");
    section.replaceChildren(
      el("h2", { id: "device-stats-title" }, t("me.deviceStatsTitle")),
      el("p", { class: "muted" }, t("me.deviceStatsFrom")),
      el("div", { class: "figure-cards" }, ...Object.keys(RULE_NAMES).map(deviceStatsCard)),
    );
    section.hidden = false;
  }

  #showDevice() {
    const waiting = pendingResults();
    $("[data-device]").hidden = waiting.length === 0;
    $("[data-device-summary]").textContent = t("me.onTheWay", { count: waiting.length });
  }

  async #showHistory(url, append) {
    const box = $("[data-history]");
    const more = $("[data-history-more]");
    const answer = await api(url);
    if (!answer.ok) {
      if (!append) box.replaceChildren(el("p", { class: "board-message" }, t(isOffline(answer) ? "me.historyOffline" : "me.historyError")));
      return;
    }
    const { results, next } = answer.data;
    let list = $("ol.games", box);
    if (!append || !list) {
      list = el("ol", { class: "games" });
      box.replaceChildren(results.length ? list : el("p", { class: "board-message" }, t("me.noGames")));
    }
    list.append(...results.map(gameItem));
    const nextPath = apiPath(next);
    more.hidden = !nextPath;
    more.onclick = nextPath ? () => this.#showHistory(nextPath, true) : null;
  }
}

new MePage().start();
