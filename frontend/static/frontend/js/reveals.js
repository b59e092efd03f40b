// The face-down cards of a hidden-card ranked game, asked of the server as the log turns them
// up (POST /api/games/<id>/reveals/ with the log so far and its times; docs/api.md). The page
// draws the card turning at once and fills it in when the answer comes. One request at a time:
// the log sent always ends with the move that turned the card up (while a card waits, every
// other move is refused and an undo turns it face down again, needing no answer). Without an
// answer (offline, the server busy or failing) the card waits and is asked for again — at once
// when the browser is back online. A log the server's recorded game does not extend (played on
// further in another tab or device), and a game that is over, are handed to the page to say so.
// Also here: a hidden-card game as the server recorded it (GET /api/games/<id>/), to resume it,
// and the player's game of today's daily deal (POST /api/daily/games/).

import { api } from "./api.js";

const RETRY_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];
const PREFIX_CONFLICT = "prefix_conflict";

export const revealEndpoint = (gameId) => `/api/games/${gameId}/reveals/`;

export class Revealer {
  #asking = null; // the session a request is out for
  #timer = 0;
  #try = 0;

  /**
   * `sessionOf()`: the game on the table. `on`: what the page does with an answer —
   * `revealed(session, place, card)`, `waiting(session, why)` (why: "offline", "busy"; the
   * card is asked for again by itself), `conflict(session)` (the server recorded another game),
   * `over(session, answer)` (the game accepts no more play), `refused(session, answer)`.
   */
  constructor(sessionOf, on) {
    this.sessionOf = sessionOf;
    this.on = on;
    addEventListener("online", () => this.ask({ now: true }));
  }

  /** Is a card of `session` being asked for (or waiting to be asked for again)? */
  pending(session) {
    return this.#asking === session || (this.#timer !== 0 && session.awaitingReveal !== null);
  }

  /** Ask for the card the game on the table waits for, if it waits for one and no request is out. */
  ask({ now = false } = {}) {
    const session = this.sessionOf();
    if (now) this.#try = 0;
    if (this.#asking || !session?.awaitingReveal) return;
    clearTimeout(this.#timer);
    this.#timer = 0;
    this.#asking = session;
    this.#send(session).finally(() => {
      this.#asking = null;
    });
  }

  async #send(session) {
    const answer = await api(revealEndpoint(session.issued.id), {
      method: "POST",
      body: { log: session.log.join(" "), move_times_ms: session.moveTimes.slice() },
    });
    if (this.sessionOf() !== session) return; // the player left that game meanwhile
    if (answer.ok && answer.data?.place && typeof answer.data.card === "string") {
      this.#try = 0;
      this.on.revealed(session, answer.data.place, answer.data.card);
      queueMicrotask(() => this.ask()); // another card may wait by now
      return;
    }
    if (answer.status === 0 || answer.status === 429 || answer.status >= 500) {
      this.on.waiting(session, answer.status === 0 ? "offline" : "busy");
      this.#again(answer.retryAfter);
    } else if (answer.status === 409 && answer.data?.code === PREFIX_CONFLICT) {
      this.on.conflict(session, answer);
    } else if (answer.status === 404 || answer.status === 409) {
      this.on.over(session, answer);
    } else {
      this.on.refused(session, answer);
    }
  }

  #again(retryAfterSeconds) {
    const wait = retryAfterSeconds ? retryAfterSeconds * 1000 : RETRY_MS[Math.min(this.#try++, RETRY_MS.length - 1)];
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = 0;
      this.ask();
    }, wait);
  }
}

/**
 * The hidden-card game `gameId` as the server recorded it, as Session options with its issued
 * game (`{code: null, issued, log, moveTimes, elapsedMs, revealed, origin}`); null when it cannot
 * be had or accepts no more play.
 */
export async function recordedGame(gameId, owner) {
  const answer = await api(`/api/games/${gameId}/`);
  const game = answer.data;
  if (!answer.ok || !game?.hidden || game.state !== "issued" || !game.deal) return null;
  const moveTimes = Array.isArray(game.move_times_ms) ? game.move_times_ms : [];
  return {
    code: null,
    issued: issuedOf(game, owner),
    log: String(game.log ?? "").split(" ").filter(Boolean),
    moveTimes,
    elapsedMs: moveTimes.at(-1) ?? 0,
    revealed: (game.reveals ?? []).map(({ place, card }) => ({ column: place.column, depth: place.depth, card })),
    origin: "ranked",
  };
}

/**
 * The player's game of today's daily deal under `rules`, ready for startGame: issued now, or the
 * one issued earlier today (resumed as the server recorded it). `{refused: code}` when there is
 * none to play (`daily_played`: played today already; `offline`; another status's code).
 */
export async function dailyGame(rules, owner) {
  const answer = await api("/api/daily/games/", { method: "POST", body: { rules } });
  if (!answer.ok) return { refused: answer.status === 0 ? "offline" : answer.data?.code ?? String(answer.status) };
  const game = answer.data;
  if (game.started) return (await recordedGame(game.id, owner)) ?? { refused: "unavailable" };
  return {
    code: null,
    issued: issuedOf(game, owner),
    origin: "ranked",
  };
}

// A hidden-card game of the server's answer as the page keeps it (session.js's `issued`).
function issuedOf(game, owner) {
  return { id: game.id, hidden: true, rules: game.rules, commitment: game.commitment, deal: game.deal, issued_at: game.issued_at, daily: game.daily_date ?? null, owner };
}
