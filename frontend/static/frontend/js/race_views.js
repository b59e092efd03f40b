// What the race page draws from the server's race (docs/races.md, "The race"): the players of
// the lobby, the other players' figures beside the table, and the places of the results. Plain
// functions of the data; race_room.js decides when. Each element carries the figures as data-*
// attributes for tools and tests; text from the server goes in as text.

import { RULE_NAMES, el, formatDuration, formatNumber, formatWhen } from "./dom.js";
import { t } from "./i18n.js";

/** "Classic · 10-minute limit"; a challenge's: "Classic · open until 4 Dec 2026, 17:12". */
export function raceSummary(race) {
  const rules = RULE_NAMES[race.rules] ?? race.rules;
  if (race.kind === "challenge") {
    return race.state === "finished" || !race.deadline ? t("race.challenge.summaryOver", { rules }) : t("race.challenge.summary", { rules, when: formatWhen(race.deadline) });
  }
  const limit = race.time_limit_minutes ? t("race.timeLimitMinutes", { minutes: race.time_limit_minutes }) : t("race.noTimeLimit");
  return t("race.summary", { rules, limit });
}

const rating = (player) => (player.rating === null || player.rating === undefined ? t("race.newPlayer") : t("race.rating", { rating: formatNumber(player.rating) }));

function figures(player) {
  return el(
    "dl",
    { class: "race-figures" },
    el("div", {}, el("dt", {}, t("race.cardsHome")), el("dd", { dataset: { figure: "foundation_cards" } }, `${player.foundation_cards ?? 0}/52`)),
    el("div", {}, el("dt", {}, t("race.moves")), el("dd", { dataset: { figure: "moves" } }, formatNumber(player.moves ?? 0))),
    el("div", {}, el("dt", {}, t("race.time")), el("dd", { dataset: { figure: "time_ms" } }, formatDuration(player.time_ms ?? 0))),
  );
}

const statusBadge = (status) => el("span", { class: "race-badge", dataset: { status } }, t(`race.status.${status}`));

function playerData(player) {
  return {
    player: player.name,
    host: String(Boolean(player.host)),
    you: String(Boolean(player.you)),
    connected: String(Boolean(player.connected)),
    status: player.status ?? "",
    // A challenge keeps the other player's figures back (null) until it is over.
    foundationCards: String(player.foundation_cards ?? ""),
    moves: String(player.moves ?? ""),
    timeMs: String(player.time_ms ?? ""),
  };
}

// Online or away while in the race; a player who is out has left it: no dot (its room kept, so
// the names stay in line).
const onlineDot = (player) => el("span", { class: "race-dot", dataset: { connected: String(Boolean(player.connected)), out: String(player.status === "out") } });

const hasFigures = (player) => player.moves !== null && player.moves !== undefined;

/** One player of the lobby (with the figures once the race has begun). */
export function lobbyPlayer(player, race) {
  return el(
    "li",
    { class: "race-player", dataset: playerData(player) },
    el(
      "p",
      { class: "race-player-head" },
      onlineDot(player),
      el("strong", { class: "race-name" }, player.name),
      player.you && el("span", { class: "muted" }, `(${t("race.you")})`),
      player.host && race.kind !== "challenge" && el("span", { class: "badge race-host" }, t("race.host")),
      !player.connected && player.status !== "out" && el("span", { class: "muted race-away" }, t("race.away")),
      el("span", { class: "race-rating muted" }, rating(player)),
    ),
    race.state !== "lobby" && el("div", { class: "race-player-figures" }, statusBadge(player.status), hasFigures(player) && figures(player)),
  );
}

/** One other player beside the table: name, state and figures. */
export function opponentChip(player) {
  return el(
    "li",
    { class: "race-opponent", dataset: { ...playerData(player), opponent: player.name } },
    el("p", { class: "race-opponent-head" }, onlineDot(player), el("strong", { class: "race-name" }, player.name), statusBadge(player.status)),
    figures(player),
  );
}

const RESULT_STATES = new Set(["pending", "verified", "rejected"]);

/** The rating the race moved the seat to, beside the change: "1,583 (+83)"; "—" unmoved. */
function ratingMoved({ rating_change: change, rating_after: after }) {
  if (change === null || change === undefined) return "—";
  const signed = change > 0 ? `+${formatNumber(change)}` : formatNumber(change);
  return after === null || after === undefined ? signed : `${formatNumber(after)} (${signed})`;
}

/** One row of the results: place, player, won or not, score, moves, time, verdict, rating, replay. */
export function placeRow(player) {
  const result = RESULT_STATES.has(player.result) ? player.result : "none";
  const outcome = player.won === null || player.won === undefined ? "—" : t(player.won ? "race.won" : "race.notWon");
  const verdict = () => el("span", { class: "race-verdict", dataset: { result } }, t(`race.resultStatus.${result}`));
  return el(
    "tr",
    { class: player.you ? "you" : null, dataset: { resultPlayer: player.name, place: player.place ?? "", result, won: String(player.won) } },
    el("td", { class: "rank" }, player.place ? formatNumber(player.place) : "—"),
    el(
      "td",
      { class: "player" },
      el("span", { class: "name" }, player.you ? `${player.name} (${t("race.you")})` : player.name),
      // Phones: the columns that do not fit, under the name.
      el(
        "span",
        { class: "outcome-inline muted" },
        [outcome, `${t("race.score")} ${formatNumber(player.score)}`, formatDuration(player.time_ms ?? 0)].join(" · "),
        " · ",
        verdict(),
        player.replay_url && [" · ", el("a", { href: player.replay_url }, t("race.replay"))],
      ),
    ),
    el("td", { class: "outcome" }, outcome),
    el("td", { class: "num score" }, formatNumber(player.score)),
    el("td", { class: "num moves" }, formatNumber(player.moves ?? 0)),
    el("td", { class: "num time" }, formatDuration(player.time_ms ?? 0)),
    el("td", { class: "verdict" }, verdict()),
    el("td", { class: "num rating" }, ratingMoved(player)),
    el("td", { class: "watch" }, player.replay_url ? el("a", { href: player.replay_url, "aria-label": `${t("race.replay")}: ${player.name}` }, t("race.replay")) : ""),
  );
}

/** The players in their places (no place yet: after, in the server's order). */
export function byPlace(players) {
  return players
    .map((player, index) => ({ player, index }))
    .sort((a, b) => (a.player.place ?? Infinity) - (b.player.place ?? Infinity) || a.index - b.index)
    .map(({ player }) => player);
}

const REFUSED_WORDS = "race.refusals";
const CHALLENGE_REFUSED_WORDS = "race.challenge.refusals";

// A refusal of the API or the socket in the page's language: its code's words (a challenge's
// own, if it has them), else the server's.
export function refusal(code, fallback, params = {}, { challenge = false } = {}) {
  for (const words of challenge ? [CHALLENGE_REFUSED_WORDS, REFUSED_WORDS] : [REFUSED_WORDS]) {
    const key = `${words}.${code}`;
    const text = code ? t(key, params) : key;
    if (text !== key) return text;
  }
  return fallback;
}
