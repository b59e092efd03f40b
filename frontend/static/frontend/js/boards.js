// A leaderboard page as a table: rank, player, score, moves, time, when, and a link to watch
// the win. Used by the leaderboard page for the global, around-me and deal boards, and the race
// ratings' board (rank, player, rating, races). Player names are the players' own words:
// always set as text.

import { api, apiPath } from "./api.js";
import { el, formatDuration, formatNumber, formatWhen } from "./dom.js";
import { t } from "./i18n.js";

/** `/api/replays/5531/` → `/replay/5531`; null when there is nothing to watch yet. */
export function replayPage(replayUrl) {
  const match = /\/api\/replays\/(\d+)\/?$/.exec(replayUrl ?? "");
  return match ? `/replay/${match[1]}` : null;
}

// A board's row: its rank and player's name, the signed-in player's own row marked.
function row(rank, name, me, ...cells) {
  const mine = Boolean(me) && name === me.name;
  return el(
    "tr",
    { class: mine ? "me" : null, dataset: { entry: "", rank, player: name, ...(mine ? { me: "" } : {}) } },
    el("td", { class: "rank" }, formatNumber(rank)),
    // "(you)" after the name is drawn by the style sheet from data-you, in the page's language.
    el("td", { class: "player" }, el("span", { class: "name", dataset: mine ? { you: t("boardsMine.you") } : {} }, name)),
    ...cells,
  );
}

function entryRow(entry, me) {
  const watch = replayPage(entry.replay_url);
  return row(
    entry.rank,
    entry.player.name,
    me,
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

function table(rows, ...headings) {
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
        ...headings,
      ),
    ),
    el("tbody", {}, rows),
  );
}

const resultsTable = (entries, me) =>
  table(
    entries.map((entry) => entryRow(entry, me)),
    el("th", { class: "num score", scope: "col" }, t("boards.score")),
    el("th", { class: "num moves", scope: "col" }, t("boards.moves")),
    el("th", { class: "num time", scope: "col" }, t("boards.time")),
    el("th", { class: "when", scope: "col" }, t("boards.when")),
    el("th", { class: "watch", scope: "col" }, el("span", { class: "sr-only" }, t("boards.replay"))),
  );

const ratingsTable = (entries, me) =>
  table(
    entries.map((entry) =>
      row(
        entry.rank,
        entry.name,
        me,
        el("td", { class: "num rating" }, formatNumber(entry.rating)),
        el("td", { class: "num races" }, formatNumber(entry.races)),
      ),
    ),
    el("th", { class: "num rating", scope: "col" }, t("boards.rating")),
    el("th", { class: "num races", scope: "col" }, t("boards.races")),
  );

// The last request of each board's container: an earlier answer arriving later is dropped.
const latestRequest = new WeakMap();

/**
 * A board in `container`, loaded from `url`, with keyset Previous / Next from the API's links.
 * `me` marks the player's own row; `empty` is said when the board has no entry, `noEntry` when
 * the player asked for around-me without one; `after`, a promise the board is shown after (what
 * is above it drawn first). Resolves the API's answer (`status` 0 when offline).
 */
export async function showBoard(container, url, { me = null, empty = t("boards.empty"), noEntry = t("boards.noEntryMe"), after = null } = {}) {
  const answer = await ask(container, url, after);
  if (!answer.shown) return answer;
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
  container.replaceChildren(el("div", { class: "table-wrap" }, resultsTable(page.results, me)), pager);
  return answer;
}

/**
 * The race ratings' board of a rule set in `container`, from `url` (`GET /api/races/ratings/`:
 * its top entries, no pages). `me` marks the player's own row; `empty` is said without an entry.
 */
export async function showRatingBoard(container, url, { me = null, empty = t("boards.empty") } = {}) {
  const answer = await ask(container, url);
  if (!answer.shown) return answer;
  const { entries } = answer.data;
  container.dataset.state = entries.length ? "ready" : "empty";
  container.dataset.count = String(entries.length);
  container.replaceChildren(
    entries.length ? el("div", { class: "table-wrap" }, ratingsTable(entries, me)) : el("p", { class: "board-message" }, empty),
  );
  return answer;
}

// Ask for a board: `shown` is false when a later request of the container has taken over, or
// when the answer was an error (then said in the container).
async function ask(container, url, after = null) {
  container.dataset.state = "loading";
  container.setAttribute("aria-busy", "true");
  const asked = {};
  latestRequest.set(container, asked);
  const [answer] = await Promise.all([api(url), after]);
  // A board asked for again meanwhile (another tab, around me) shows the later answer only.
  if (latestRequest.get(container) !== asked) return { ...answer, shown: false };
  container.removeAttribute("aria-busy");
  if (!answer.ok) {
    container.dataset.state = "error";
    const text = answer.status === 0 ? t("boards.needsConnection") : (answer.data?.detail ?? t("boards.cannotShow"));
    container.replaceChildren(el("p", { class: "board-message" }, text));
    return { ...answer, shown: false };
  }
  return { ...answer, shown: true };
}
