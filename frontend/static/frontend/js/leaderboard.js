// /leaderboard: the boards of a rule set (Classic / Relaxed × all time / this month, the season /
// this week / today, the top or around me) — the global boards of hidden-card games, or the
// open-deal boards of games whose cards were all known, or the race ratings' board (its top, no
// period) — today's daily deals with their boards, and any deal's board by its code
// (`?deal=<code>`). The address keeps the choice (`?deals=open|races&rules=…&period=…&around=me&deal=…`).

import { api } from "./api.js";
import { showBoard, showRatingBoard } from "./boards.js";
import { $, $$, RULE_NAMES, el, formatNumber, replayEarlyPresses, sentence } from "./dom.js";
import { parseCode } from "./engine.js";
import { codeErrorText, t } from "./i18n.js";
import { isOffline, showOffline, startPage, whenOnline } from "./page.js";
import { offerReportLinks } from "./report.js";

const RULES = ["classic", "relaxed"];
const PERIODS = ["all", "season", "week", "day"];
// The API's `deals` (hidden-card games, or open deals), or the race ratings (their own API).
const DEALS = ["hidden", "open", "races"];
const ABOUT = { hidden: "leaderboard.aboutHidden", open: "leaderboard.aboutOpen", races: "leaderboard.aboutRaces" };
const HEADING = { hidden: "leaderboard.headingHidden", open: "leaderboard.headingOpen", races: "leaderboard.headingRaces" };
const EMPTY = {
  hidden: { all: "leaderboard.emptyAll", season: "leaderboard.emptySeason", week: "leaderboard.emptyWeek", day: "leaderboard.emptyDay" },
  open: { all: "leaderboard.emptyOpenAll", season: "leaderboard.emptyOpenSeason", week: "leaderboard.emptyOpenWeek", day: "leaderboard.emptyOpenDay" },
};
const PAGE_SIZE = 25;
const DAILY_PAGE_SIZE = 10; // the daily board, above the others: its top ten

// A daily deal's Play, or, once the player has played it (one game a day), "Played" (opening the
// game as it ended, with the game page's word on one game a day) and their verified win to watch.
function dailyPlay(deal) {
  const rules = RULE_NAMES[deal.rules] ?? deal.rules;
  const href = `/?daily=${deal.rules}`;
  if (!deal.played) return [el("a", { class: "button primary", href, dataset: { dailyPlay: deal.rules } }, t("leaderboard.play"))];
  return [
    el("a", { class: "button daily-played", href, title: t("leaderboard.dailyPlayedTitle", { rules }), dataset: { dailyPlayed: deal.rules } }, t("leaderboard.dailyPlayed")),
    deal.your_replay_url && el("a", { class: "button", href: deal.your_replay_url, dataset: { dailyReplay: deal.rules } }, t("leaderboard.dailyReplay")),
  ];
}

// The daily deals' day: its date (UTC) and the hours and minutes left (the server words the
// page's first copy the same way, frontend/views.py).
function showDailyWhen({ date, ends_at: endsAt }) {
  const left = Math.max(0, new Date(endsAt) - Date.now());
  const hours = Math.floor(left / 3_600_000);
  const minutes = Math.floor(left / 60_000) % 60;
  $("[data-daily-when]").textContent = t("leaderboard.dailyWhen", { date, hours, minutes });
}

function localDailyDay() {
  const date = new Date().toISOString().slice(0, 10);
  const endsAt = new Date(`${date}T00:00:00Z`);
  endsAt.setUTCDate(endsAt.getUTCDate() + 1);
  return { date, ends_at: endsAt.toISOString() };
}

class LeaderboardPage {
  constructor() {
    const query = new URLSearchParams(location.search);
    this.rules = RULES.includes(query.get("rules")) ? query.get("rules") : "classic";
    this.period = PERIODS.includes(query.get("period")) ? query.get("period") : "all";
    this.deals = DEALS.includes(query.get("deals")) ? query.get("deals") : "hidden";
    this.around = query.get("around") === "me";
    // Entries a page; `?page_size=` (1–100) asks for another number.
    this.pageSize = Math.min(100, Math.max(1, Number.parseInt(query.get("page_size"), 10) || PAGE_SIZE));
    this.deal = null;
    this.account = null;
    this.globalBoard = $('[data-board="global"]');
    this.dealBoard = $('[data-board="deal"]');
    const code = query.get("deal");
    // The markup puts a deal asked for first, its box open (nothing moves at the first paint);
    // set again here for a page served from the offline copy of another address.
    $("[data-deal-section]").classList.toggle("focused", Boolean(code));
    if (code) {
      $("[data-deal-input]").value = code;
      this.deal = this.#readCode(code);
    }
    $("[data-deal]").hidden = !this.deal;
    this.#bind();
    this.#markChoices();
    replayEarlyPresses(); // the choices listen now
  }

  async start() {
    const { account } = await startPage();
    this.account = account;
    for (const board of $$("[data-board]")) offerReportLinks(board, { signedIn: Boolean(account) }); // report.js
    if (!account) this.around = false;
    this.#markChoices();
    await this.load();
    document.documentElement.dataset.pageStatus = "ready";
  }

  async load() {
    const answers = await Promise.all([this.#loadDaily(), this.#loadGlobal(), this.deal ? this.#loadDeal() : null]);
    showOffline(answers.some((answer) => answer && isOffline(answer)));
  }

  #readCode(text) {
    const error = $("[data-deal-error]");
    try {
      const code = parseCode(text).code;
      error.textContent = "";
      return code;
    } catch (problem) {
      error.textContent = sentence(codeErrorText(problem));
      return null;
    }
  }

  #bind() {
    for (const button of $$("[data-rules-choice]")) button.addEventListener("click", () => this.#choose({ rules: button.dataset.rulesChoice }));
    for (const button of $$("[data-period-choice]")) button.addEventListener("click", () => this.#choose({ period: button.dataset.periodChoice }));
    for (const button of $$("[data-deals-choice]")) button.addEventListener("click", () => this.#choose({ deals: button.dataset.dealsChoice }));
    for (const button of $$("[data-around]")) button.addEventListener("click", () => this.#choose({ around: button.dataset.around === "me" }));
    $("[data-deal-form]").addEventListener("submit", (event) => {
      event.preventDefault();
      const code = this.#readCode($("[data-deal-input]").value);
      if (!code) return;
      this.deal = code;
      this.#remember();
      this.#loadDeal().then((answer) => showOffline(isOffline(answer)));
    });
    whenOnline(() => this.load());
  }

  #choose(choice) {
    Object.assign(this, choice);
    this.#markChoices();
    this.#remember();
    this.#loadGlobal().then((answer) => showOffline(isOffline(answer)));
  }

  #markChoices() {
    for (const button of $$("[data-rules-choice]")) button.setAttribute("aria-pressed", String(button.dataset.rulesChoice === this.rules));
    for (const button of $$("[data-period-choice]")) button.setAttribute("aria-pressed", String(button.dataset.periodChoice === this.period));
    for (const button of $$("[data-around]")) button.setAttribute("aria-pressed", String((button.dataset.around === "me") === this.around));
    for (const button of $$("[data-deals-choice]")) button.setAttribute("aria-pressed", String(button.dataset.dealsChoice === this.deals));
    // A race rating has no period, and its board no around-me (its top only).
    const races = this.deals === "races";
    $("[data-period-choices]").hidden = races;
    $("[data-around-choice]").hidden = races || !this.account;
    // data-i18n too, so that a page translated again (i18n.js) keeps saying which games it ranks.
    for (const [element, words] of [[$("[data-deals-about]"), ABOUT], [$("[data-deals-heading]"), HEADING]]) {
      element.dataset.i18n = words[this.deals];
      element.textContent = t(words[this.deals]);
    }
  }

  // The choice in the address, so that it can be shared and survives a reload.
  #remember() {
    const query = new URLSearchParams();
    const races = this.deals === "races";
    if (this.deals !== "hidden") query.set("deals", this.deals);
    if (this.rules !== "classic") query.set("rules", this.rules);
    if (this.period !== "all" && !races) query.set("period", this.period);
    if (this.around && !races) query.set("around", "me");
    if (this.deal) query.set("deal", this.deal);
    if (this.pageSize !== PAGE_SIZE) query.set("page_size", String(this.pageSize));
    const search = query.toString();
    history.replaceState(null, "", `${location.pathname}${search ? `?${search}` : ""}`);
  }

  #loadGlobal() {
    if (this.deals === "races") return this.#loadRatings();
    const query = new URLSearchParams({ rules: this.rules, period: this.period, page_size: String(this.pageSize) });
    if (this.deals !== "hidden") query.set("deals", this.deals);
    // Around the player by the name the boards show: a public answer, the same for everyone,
    // which the server keeps rendered and browsers may keep a moment (around=me reads the session).
    if (this.around) query.set("around", this.account?.name ?? "me");
    this.globalBoard.dataset.deals = this.deals;
    this.globalBoard.dataset.rules = this.rules;
    this.globalBoard.dataset.period = this.period;
    this.globalBoard.dataset.around = String(this.around);
    const open = this.deals === "open";
    return showBoard(this.globalBoard, `/api/leaderboards/?${query}`, {
      me: this.account,
      empty: t(EMPTY[this.deals][this.period], { rules: RULE_NAMES[this.rules] }),
      noEntry: open ? t("leaderboard.noEntryOpen") : t("boards.noEntryMe"),
    });
  }

  #loadRatings() {
    this.globalBoard.dataset.deals = this.deals;
    this.globalBoard.dataset.rules = this.rules;
    delete this.globalBoard.dataset.period;
    delete this.globalBoard.dataset.around;
    return showRatingBoard(this.globalBoard, `/api/races/ratings/?rules=${this.rules}`, {
      me: this.account,
      empty: t("leaderboard.emptyRaces", { rules: RULE_NAMES[this.rules] }),
    });
  }

  async #loadDeal() {
    const code = this.deal;
    const box = $("[data-deal]");
    box.hidden = false;
    $("[data-deal-code]").textContent = code;
    $("[data-deal-rules]").textContent = RULE_NAMES[parseCode(code).rules];
    $("[data-deal-play]").href = `/play/${code}`;
    this.dealBoard.dataset.code = code;
    // The facts first, the board under them then (never before): the facts' rows (par, the
    // solver's verdict) do not move the board's.
    const facts = api(`/api/deals/${encodeURIComponent(code)}/`).then((answer) => this.#showFacts(answer));
    await showBoard(this.dealBoard, `/api/deals/${encodeURIComponent(code)}/leaderboard/?page_size=${this.pageSize}`, {
      me: this.account,
      empty: t("leaderboard.emptyDeal"),
      after: facts,
    });
    return facts;
  }

  #showFacts(answer) {
    const list = $("[data-deal-facts]");
    if (!answer.ok) {
      list.replaceChildren();
      return answer;
    }
    const deal = answer.data;
    const items = [
      ["played", t("leaderboard.played"), formatNumber(deal.plays)],
      ["won", t("leaderboard.won"), formatNumber(deal.wins)],
      ["players", t("leaderboard.players"), formatNumber(deal.players)],
      ["best", t("leaderboard.best"), formatNumber(deal.best_score)],
    ];
    // Par: the moves of the shortest win the solver found, once it has found one.
    if (deal.par !== null && deal.par !== undefined) items.push(["par", t("leaderboard.par"), formatNumber(deal.par)]);
    // The solver's verdict once it has one: won, or proven unwinnable (docs/winnability.md).
    if (typeof deal.winnable === "boolean") items.push(["winnable", t("leaderboard.winnable"), t(deal.winnable ? "leaderboard.winnableYes" : "leaderboard.winnableNo")]);
    list.replaceChildren(...items.map(([key, name, value]) => el("div", { dataset: { fact: key } }, el("dt", {}, name), el("dd", {}, value))));
    if (deal.daily?.length) list.append(el("div", { class: "wide" }, el("dt", {}, t("leaderboard.daily")), el("dd", {}, deal.daily.join(", "))));
    return answer;
  }

  async #loadDaily() {
    const container = $("[data-daily-deals]");
    const answer = await api("/api/daily/");
    if (!answer.ok) {
      // The page may be the offline copy of another day: today and the time left by this device's clock.
      showDailyWhen(localDailyDay());
      container.replaceChildren(el("p", { class: "board-message" }, t(isOffline(answer) ? "leaderboard.dailyOffline" : "leaderboard.dailyError")));
      return answer;
    }
    const daily = answer.data;
    showDailyWhen(daily);
    // Each daily deal is played as a hidden-card game (/?daily=<rules>), so no code is shown
    // before the day is over; its board is the day's daily board, shown below the cards when
    // asked for (shown at once it would push the boards below down as the page loads).
    container.replaceChildren(
      ...daily.deals.map((deal) =>
        el(
          "article",
          { class: "daily-deal", dataset: { daily: deal.rules } },
          el("h3", {}, RULE_NAMES[deal.rules] ?? deal.rules),
          el("p", { class: "code hidden-deal" }, t("table.hiddenDeal")),
          el(
            "p",
            { class: "daily-actions" },
            ...dailyPlay(deal),
            el("button", { type: "button", class: "button", dataset: { dailyBoard: deal.rules }, "aria-pressed": "false" }, t("leaderboard.board")),
          ),
        ),
      ),
    );
    const showDaily = (rules) => {
      const deal = daily.deals.find((candidate) => candidate.rules === rules) ?? daily.deals[0];
      for (const button of $$("[data-daily-board]", container)) button.setAttribute("aria-pressed", String(button.dataset.dailyBoard === deal.rules));
      const board = $('[data-board="daily"]');
      board.dataset.rules = deal.rules;
      board.hidden = false;
      const title = $("[data-daily-board-title]");
      title.textContent = t("leaderboard.dailyBoard", { rules: RULE_NAMES[deal.rules], date: daily.date });
      title.hidden = false;
      return showBoard(board, `${deal.leaderboard_url}&page_size=${DAILY_PAGE_SIZE}`, {
        me: this.account,
        empty: t("leaderboard.emptyDaily", { rules: RULE_NAMES[deal.rules] }),
      });
    };
    for (const button of $$("[data-daily-board]", container)) button.addEventListener("click", () => showDaily(button.dataset.dailyBoard));
    return answer;
  }
}

new LeaderboardPage().start();
