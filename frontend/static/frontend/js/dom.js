// Small helpers shared by every page: finding and making elements, and formatting figures,
// times and dates. Text from the server always goes in as text (textContent), never as HTML.

import { intlLocale, language, sentence, t } from "./i18n.js";

export { sentence }; // in the page's language: capital first letter, its own full stop

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/**
 * A new element: `el("a", {href: "/", class: "x", dataset: {rank: 1}}, "text", child, …)`.
 * Children are nodes or text (null and false are skipped); attributes are set as attributes.
 */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "class") element.className = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false).map(asNode));
  return element;
}

const asNode = (child) => (child instanceof Node ? child : document.createTextNode(String(child)));

/** 75_000 → "1:15"; an hour or more → "1:02:03". */
export function formatDuration(ms) {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

export const formatNumber = (n) => (n === null || n === undefined ? "—" : n.toLocaleString("en-US"));

// Below this many entries a board's rank says it all ("#1 · top 50%" of two players says less).
const PERCENTILE_MIN_ENTRIES = 20;

/**
 * A place as the share of the board at or above it: rank 37 of 12,408 → "top 1%" (never below
 * 1%); "" on a board of fewer than PERCENTILE_MIN_ENTRIES, or without its count (a result placed
 * before counts were kept).
 */
export function topPercentText(rank, of) {
  if (!rank || !of || of < PERCENTILE_MIN_ENTRIES) return "";
  return t("places.top", { percent: formatNumber(Math.max(1, Math.ceil((100 * rank) / Math.max(of, rank)))) });
}

/** 0.6316 → "63%"; null → "—". */
export const formatRate = (rate) => (rate === null || rate === undefined ? "—" : `${Math.round(rate * 100)}%`);

/** An ISO date-time as a short local date and time: "29 Nov 2026, 17:12"; today: "17:12". */
export function formatWhen(iso, now = new Date()) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return "";
  const locale = language() === "en" ? "en-GB" : intlLocale();
  const time = moment.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  if (moment.toDateString() === now.toDateString()) return time;
  const date = moment.toLocaleDateString(locale, { day: "numeric", month: "short", year: "numeric" });
  return `${date}, ${time}`;
}

/** The rule sets' names in the page's language: `RULE_NAMES.classic`. */
export const RULE_NAMES = Object.freeze({
  get classic() {
    return t("rules.classic");
  },
  get relaxed() {
    return t("rules.relaxed");
  },
});

// The open-deal boards' keys: `open:` before a global board's (leaderboard/boards.py).
const OPEN_PREFIX = "open:";
// A daily deal's board: `daily:` before the day board's key (`daily:classic:day:2026-12-02`).
const DAILY_PREFIX = "daily:";

/** A board key of the server as words: "classic:week:2026-W48" → "Classic, this week";
 *  an open-deal board's with "(open deals)". */
export function boardName(key, { current = true } = {}) {
  if (key.startsWith(OPEN_PREFIX)) return t("boards.openDeals", { board: boardName(key.slice(OPEN_PREFIX.length), { current }) });
  if (key.startsWith(DAILY_PREFIX)) {
    const [rules, , day] = key.slice(DAILY_PREFIX.length).split(":");
    return t("leaderboard.dailyBoard", { rules: RULE_NAMES[rules] ?? rules, date: day });
  }
  const [kind, period, when] = key.split(":");
  if (kind === "deal") return t("boards.thisDeal");
  const rules = RULE_NAMES[kind] ?? kind;
  if (period === "all") return t("boards.allTime", { rules });
  if (current) return t({ season: "boards.thisSeason", week: "boards.thisWeek" }[period] ?? "boards.today", { rules });
  return t("boards.period", { rules, when });
}

/** The leaderboard page that shows a board key. */
export function boardLink(key) {
  if (key.startsWith(DAILY_PREFIX)) return "/leaderboard#daily-title"; // the daily section, its board
  const open = key.startsWith(OPEN_PREFIX);
  const [kind, period] = (open ? key.slice(OPEN_PREFIX.length) : key).split(":");
  if (kind === "deal") return `/leaderboard?deal=${encodeURIComponent(key.slice(5))}`;
  return `/leaderboard?${open ? "deals=open&" : ""}rules=${kind}&period=${period}`;
}

/** A board key without its open-deal prefix: `open:classic:all` → `classic:all` (others as they are). */
export function boardBase(key) {
  return key.startsWith(OPEN_PREFIX) ? key.slice(OPEN_PREFIX.length) : key;
}

/**
 * Press again the buttons pressed before the page's module listened (early_presses.js, a
 * classic script in every shell page's head); call it once the page's listeners are there.
 */
export function replayEarlyPresses() {
  for (const button of window.takeEarlyPresses?.() ?? []) button.click();
}
