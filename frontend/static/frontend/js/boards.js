// A leaderboard page as a table: rank, player, score, moves, time, when, and a link to watch
// the win. Used by the leaderboard page for the global, around-me and deal boards. Player
// names are the players' own words: always set as text.

import { api, apiPath } from "./api.js";
import { el, formatDuration, formatNumber, formatWhen } from "./dom.js";

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
      watch ? el("a", { href: watch, "aria-label": `Watch ${entry.player.name}'s win` }, "Watch") : el("span", { class: "muted", title: "A daily deal's wins can be watched when its day is over" }, "—"),
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
        el("th", { class: "player", scope: "col" }, "Player"),
        el("th", { class: "num score", scope: "col" }, "Score"),
        el("th", { class: "num moves", scope: "col" }, "Moves"),
        el("th", { class: "num time", scope: "col" }, "Time"),
        el("th", { class: "when", scope: "col" }, "When"),
        el("th", { class: "watch", scope: "col" }, el("span", { class: "sr-only" }, "Replay")),
      ),
    ),
    el("tbody", {}, entries.map((entry) => entryRow(entry, me))),
  );
}

/**
 * A board in `container`, loaded from `url`, with keyset Previous / Next from the API's links.
 * `me` marks the player's own row; `empty` is said when the board has no entry. Resolves the
 * API's answer (`status` 0 when offline).
 */
export async function showBoard(container, url, { me = null, empty = "No entry yet." } = {}) {
  container.dataset.state = "loading";
  container.setAttribute("aria-busy", "true");
  const answer = await api(url);
  container.removeAttribute("aria-busy");
  if (!answer.ok) {
    container.dataset.state = "error";
    const text = answer.status === 0 ? "This board needs a connection." : answer.data?.detail ?? "This board cannot be shown.";
    container.replaceChildren(el("p", { class: "board-message" }, text));
    return answer;
  }
  const page = answer.data;
  if (page.ranked === false) {
    container.dataset.state = "empty";
    container.replaceChildren(el("p", { class: "board-message" }, "You have no entry on this board yet: win a ranked deal to get one."));
    return answer;
  }
  container.dataset.state = page.results.length ? "ready" : "empty";
  container.dataset.count = String(page.count);
  if (!page.results.length) {
    container.replaceChildren(el("p", { class: "board-message" }, empty));
    return answer;
  }
  const pager = el("nav", { class: "pager", "aria-label": "Board pages" });
  const previous = apiPath(page.previous);
  const next = apiPath(page.next);
  pager.append(
    el("button", { type: "button", dataset: { page: "previous" }, disabled: !previous }, "← Previous"),
    el("span", { class: "muted" }, `${formatNumber(page.count)} player${page.count === 1 ? "" : "s"}`),
    el("button", { type: "button", dataset: { page: "next" }, disabled: !next }, "Next →"),
  );
  pager.addEventListener("click", (event) => {
    const which = event.target.closest("[data-page]")?.dataset.page;
    const target = which === "next" ? next : which === "previous" ? previous : null;
    if (target) showBoard(container, target, { me, empty }).then(() => container.scrollIntoView({ block: "nearest" }));
  });
  container.replaceChildren(el("div", { class: "table-wrap" }, table(page.results, me)), pager);
  return answer;
}
