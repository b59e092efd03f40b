// A leaderboard page as a table: rank, player, score, moves, time, when, and a link to watch
// the win. Used by the leaderboard page for the global, around-me and deal boards. Player
// names are the players' own words: always set as text.

import { api, apiPath } from "./api.js";
import { el, formatDuration, formatNumber, formatWhen } from "./dom.js";
import { t } from "./i18n.js";

/** `/api/replays/5531/` → `/replay/5531`; null when there is nothing to watch yet. */
export function replayPage(replayUrl) {
  const match = /\/api\/replays\/(\d+)\/?$/.exec(replayUrl ?? "");
  return match ? `/replay/${match[1]}` : null;
}

function entryRow(entry, me) {
  const watch = replayPage(entry.replay_url);
  const mine = Boolean(me) && entry.player.name === me.name;
  return el(
    "tr",
    { class: mine ? "me" : null, dataset: { entry: "", rank: entry.rank, player: entry.player.name, ...(mine ? { me: "" } : {}) } },
    el("td", { class: "rank" }, formatNumber(entry.rank)),
    el("td", { class: "player" }, el("span", { class: "name" }, entry.player.name)),
    el("td", { class: "num score" }, formatNumber(entry.score)),
    el("td", { class: "num moves" }, formatNumber(entry.moves)),
    el("td", { class: "num time" }, formatDuration(entry.duration_ms)),
    el("td", { class: "when" }, el("time", { datetime: entry.achieved_at }, formatWhen(entry.achieved_at))),
    el(
      "td",
      { class: "watch" },
      watch
        ? el("a", { href: watch, "aria-label": t("boards.watchWin", { player: entry.player.name }) }, t("boards.watch"))
        : el("span", { class: "muted", title: t("boards.notYet") }, "—"),
    ),
  );
}

function table(entries, me) {
  return el(
    "table",
    { class: "board-table" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { class: "rank", scope: "col" }, "#"),
        el("th", { class: "player", scope: "col" }, t("boards.player")),
        el("th", { class: "num score", scope: "col" }, t("boards.score")),
        el("th", { class: "num moves", scope: "col" }, t("boards.moves")),
        el("th", { class: "num time", scope: "col" }, t("boards.time")),
        el("th", { class: "when", scope: "col" }, t("boards.when")),
        el("th", { class: "watch", scope: "col" }, el("span", { class: "sr-only" }, t("boards.replay"))),
      ),
    ),
    el("tbody", {}, entries.map((entry) => entryRow(entry, me))),
  );
}

// The last request of each board's container: an earlier answer arriving later is dropped.
const latestRequest = new WeakMap();

/**
 * A board in `container`, loaded from `url`, with keyset Previous / Next from the API's links.
 * `me` marks the player's own row; `empty` is said when the board has no entry, `noEntry` when
 * the player asked for around-me without one. Resolves the API's answer (`status` 0 when offline).
 */
export async function showBoard(container, url, { me = null, empty = t("boards.empty"), noEntry = t("boards.noEntryMe") } = {}) {
  container.dataset.state = "loading";
  container.setAttribute("aria-busy", "true");
  const asked = {};
  latestRequest.set(container, asked);
  const answer = await api(url);
  // A board asked for again meanwhile (another tab, around me) shows the later answer only.
  if (latestRequest.get(container) !== asked) return answer;
  container.removeAttribute("aria-busy");
  if (!answer.ok) {
    container.dataset.state = "error";
    const text = answer.status === 0 ? t("boards.needsConnection") : (answer.data?.detail ?? t("boards.cannotShow"));
    container.replaceChildren(el("p", { class: "board-message" }, text));
    return answer;
  }
  const page = answer.data;
  if (page.ranked === false) {
    container.dataset.state = "empty";
    container.replaceChildren(el("p", { class: "board-message" }, noEntry));
    return answer;
  }
  container.dataset.state = page.results.length ? "ready" : "empty";
  container.dataset.count = String(page.count);
  if (!page.results.length) {
    container.replaceChildren(el("p", { class: "board-message" }, empty));
    return answer;
  }
  const pager = el("nav", { class: "pager", "aria-label": t("boards.pages") });
  const previous = apiPath(page.previous);
  const next = apiPath(page.next);
  pager.append(
    el("button", { type: "button", dataset: { page: "previous" }, disabled: !previous }, t("boards.previous")),
    el("span", { class: "muted" }, t("boards.players", { count: page.count, players: formatNumber(page.count) })),
    el("button", { type: "button", dataset: { page: "next" }, disabled: !next }, t("boards.next")),
  );
  pager.addEventListener("click", (event) => {
    const which = event.target.closest("[data-page]")?.dataset.page;
    const target = which === "next" ? next : which === "previous" ? previous : null;
    if (target) showBoard(container, target, { me, empty, noEntry }).then(() => container.scrollIntoView({ block: "nearest" }));
  });
  container.replaceChildren(el("div", { class: "table-wrap" }, table(page.results, me)), pager);
  return answer;
}
