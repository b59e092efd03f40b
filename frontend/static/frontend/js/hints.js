// Hints in unranked play: POST /api/hint/ with the game's code and log answers the next move of
// a win the solver found from here (or why there is none), at once or, while the server's solver
// searches, through a ticket read about once a second. The move is shown with the table's
// own marks — its card selected (lifted), its one destination lit — so a tap or Enter plays it,
// and it is read out. A hint makes the game "assisted": kept in the saved game, sent with the
// result (`assisted: true`), shown in the game bar and the win banner; such a result enters no
// board. Hints need a signed-in player and a connection; ranked games get none.

import { api, refusalText, sessionRefused } from "./api.js";
import { $ } from "./dom.js";
import { Move } from "./engine.js";
import { t } from "./i18n.js";
import { moveWords } from "./move_words.js";

const ENDPOINT = "/api/hint/";
const HINTED_KEY = "yukon.hinted.v1"; // codes hinted on this device: any later result on them is assisted
const HINTED_KEPT = 200;
const THROTTLE_DEFAULT_S = 60;
const SEARCH_WAIT_MS = 30_000; // a search queued longer is dropped by the server anyway (20 s)

// The server's answers without a move, by their stable code.
const NO_MOVE = Object.freeze({
  no_win: "hint.noWin",
  no_win_found: "hint.noWinFound",
  game_won: "hint.won",
  solver_busy: "hint.busy",
});
// Answers without a move that gave the player nothing: the game stays unassisted.
const NOT_GIVEN = new Set(["game_won", "solver_busy"]);

function hintedCodes() {
  try {
    const codes = JSON.parse(localStorage.getItem(HINTED_KEY) ?? "[]");
    return Array.isArray(codes) ? codes : [];
  } catch {
    return [];
  }
}

function rememberHinted(code) {
  const codes = [...hintedCodes().filter((each) => each !== code), code].slice(-HINTED_KEPT);
  try {
    localStorage.setItem(HINTED_KEY, JSON.stringify(codes));
  } catch {
    // storage blocked: the saved game still says it is assisted
  }
}

/**
 * `app` gives: `session`, `account`, `input`, `table`, `keys`, `bar`, `notices`, `walkthrough`,
 * `save()` and `say(text)`.
 */
export class Hints {
  #asking = false;

  constructor(app) {
    this.app = app;
    this.button = $('[data-action="hint"]');
  }

  /** Why the game in progress can get no hint now (a catalog key), or null. */
  #unavailable() {
    const { session } = this.app;
    if (session.won) return "hint.won";
    if (session.ranked) return "hint.ranked";
    if (!this.app.account) return "hint.signIn";
    return null;
  }

  /** After every render: the button's state and reason, and the bar's "Assisted". */
  refresh() {
    const { session } = this.app;
    if (!session.assisted && hintedCodes().includes(session.code)) session.assisted = true; // the server will say so too
    const why = this.#unavailable();
    // aria-disabled, not disabled: the button still explains itself when pressed.
    this.button.setAttribute("aria-disabled", String(why === "hint.won" || why === "hint.ranked"));
    this.button.dataset.hintState = why ? why.slice("hint.".length) : "ready";
    this.button.title = t(why ?? "hint.title");
    this.app.bar.showAssisted(session.assisted);
  }

  /** The Hint button or the H key. */
  async ask() {
    const { app } = this;
    if (this.#asking) return;
    if (app.walkthrough.active) {
      app.hint(t("tour.notNow"));
      return;
    }
    const why = this.#unavailable();
    if (why) {
      this.#explain(why);
      return;
    }
    const session = app.session;
    const log = session.log.join(" ");
    this.#asking = true;
    this.button.setAttribute("aria-busy", "true");
    app.say(t("hint.asking"));
    const movedOn = () => app.session !== session || session.log.join(" ") !== log;
    let answer;
    try {
      answer = await api(ENDPOINT, { method: "POST", body: { code: session.code, log } });
      answer = await this.#awaitSearch(answer, movedOn);
    } finally {
      this.#asking = false;
      this.button.removeAttribute("aria-busy");
    }
    if (answer === null || movedOn()) return; // the player moved on meanwhile
    this.#answered(session, answer);
  }

  /**
   * A position the server has not solved yet is searched by its solver's worker: the answer is
   * `202` with a ticket's `url`, read after `Retry-After` until it is there (`200`), at most
   * SEARCH_WAIT_MS. Null once the player has moved on: the answer no longer applies.
   */
  async #awaitSearch(answer, movedOn) {
    const deadline = Date.now() + SEARCH_WAIT_MS;
    while (answer.status === 202 && typeof answer.data?.url === "string") {
      const url = answer.data.url;
      await new Promise((resolve) => setTimeout(resolve, 1000 * Math.max(answer.retryAfter ?? 1, 0.5)));
      if (movedOn()) return null;
      if (Date.now() > deadline) return { ok: true, status: 200, data: { move: null, code: "solver_busy" } };
      answer = await api(url);
    }
    return answer;
  }

  #explain(why) {
    const { notices } = this.app;
    if (why !== "hint.signIn") {
      notices.show(t(why));
      return;
    }
    const href = `/accounts/login/?next=${encodeURIComponent(location.pathname)}`;
    notices.show(t("hint.signIn"), { link: { href, text: t("hint.signInLink") } });
  }

  #answered(session, { ok, status, data, retryAfter }) {
    const { notices } = this.app;
    if (ok && typeof data?.move === "string") {
      this.#show(session, data.move);
    } else if (ok) {
      if (!NOT_GIVEN.has(data?.code)) this.#markAssisted(session); // the server counted the hint
      notices.show(t(NO_MOVE[data?.code] ?? "hint.noWinFound"));
    } else if (status === 0) {
      notices.show(t("hint.offline"));
    } else if (status === 429) {
      notices.show(t("hint.throttled", { seconds: retryAfter ?? THROTTLE_DEFAULT_S }));
    } else if (status === 403 && data?.code === "ranked_game_in_play") {
      notices.show(t("hint.ranked"));
    } else if (sessionRefused({ status, data }) && data?.code !== "permission_denied") {
      this.#explain("hint.signIn"); // signed out meanwhile
    } else {
      notices.show(t("hint.failed", { reason: refusalText(data, status) }));
    }
  }

  /** The suggested move: its card selected and its destination lit, the cursor on the card, read out. */
  #show(session, token) {
    const { app } = this;
    let move;
    try {
      move = Move.parse(token);
    } catch {
      move = null;
    }
    if (!move || session.game.check(move) !== null) {
      app.notices.show(t("hint.failed", { reason: token }));
      return;
    }
    this.#markAssisted(session);
    app.dropSelection();
    app.input.select(move.card);
    app.table.markTargets([move]); // the hinted destination only, whatever the aids
    app.keys.follow(move.card);
    const text = t("hint.move", { move: moveWords(session.game, move) });
    app.notices.show(text);
    app.say(text);
  }

  #markAssisted(session) {
    rememberHinted(session.code);
    if (session.assisted) return;
    session.assisted = true;
    this.app.bar.showAssisted(true);
    this.app.save();
  }
}
