// One game being played: the engine's Game plus what a result needs later — the log of
// tokens, when each was played (active time), and a clock that runs only while the player
// can see the table. A hidden-card ranked game has no code on the page: it is played from its
// visible deal, and each face-down card is told by the server when the log turns it up
// (reveals.js asks; docs/security.md, "Hidden-card games"). Rendering and input live elsewhere.

import { COLUMN_COUNT, FOUNDATION, Game, Move, UNDO } from "./engine.js";

/** Active play time: runs between start() and stop(), resumable; milliseconds. */
export class Clock {
  #base;
  #since = null;

  constructor(elapsedMs = 0) {
    this.#base = elapsedMs;
  }

  get running() {
    return this.#since !== null;
  }

  start() {
    if (this.#since === null) this.#since = performance.now();
  }

  stop() {
    if (this.#since === null) return;
    this.#base += performance.now() - this.#since;
    this.#since = null;
  }

  elapsed() {
    return Math.round(this.#base + (this.#since === null ? 0 : performance.now() - this.#since));
  }
}

/**
 * Where a game comes from: a ranked deal issued by the server, a local deal, a typed or shared
 * code, or a winnable deal (unranked, from the solver's codes: winnable.js).
 */
export const ORIGINS = Object.freeze({ ranked: "ranked", deal: "deal", code: "code", winnable: "winnable" });
const UNRANKED_ORIGINS = new Set([ORIGINS.code, ORIGINS.winnable]);

/** Is `issued` a hidden-card game as the page keeps it (its visible deal, no code)? */
export const isHiddenIssued = (issued) =>
  Boolean(issued) && issued.hidden === true && Number.isInteger(issued.id) && issued.deal !== null && typeof issued.deal === "object";

export class Session {
  #visible = true;

  /**
   * The deal of `code`, with `log` replayed: the saved game of a previous visit resumes
   * exactly. A token that no longer replays (a damaged save) ends the replay there.
   * `issued` is the server's issued game of a ranked deal: `{id, code, rules, issued_at, owner}`,
   * or for a hidden-card game (`code` null) `{id, hidden: true, rules, commitment, deal,
   * issued_at, owner}`, its `deal` the visible deal as issued; `revealed`: the cards the server
   * has told since, `[{column, depth, card}]`. `assisted`: a hint was used (no board).
   */
  constructor(
    code,
    { log = [], moveTimes = [], elapsedMs = 0, resultId = null, issued = null, origin = null, assisted = false, revealed = [] } = {},
  ) {
    const hidden = isHiddenIssued(issued);
    this.revealed = [];
    if (hidden) {
      this.game = Game.fromVisible(issued.deal);
      for (const card of revealed) this.#learn(card);
    } else {
      this.game = Game.fromCode(code);
    }
    this.log = [];
    this.moveTimes = [];
    for (let i = 0; i < log.length; i++) {
      try {
        this.game.push(log[i]);
      } catch {
        break;
      }
      this.log.push(log[i]);
      this.moveTimes.push(Number(moveTimes[i]) || 0);
    }
    this.clock = new Clock(Math.max(Number(elapsedMs) || 0, this.moveTimes.at(-1) ?? 0));
    this.resultId = resultId; // the outbox entry of this game's result, once queued
    this.issued = hidden || (issued && issued.code === this.code) ? issued : null;
    this.origin = this.issued ? ORIGINS.ranked : UNRANKED_ORIGINS.has(origin) ? origin : ORIGINS.deal;
    this.assisted = assisted === true;
  }

  /** A ranked game: a deal the server issued; its result enters the leaderboards. */
  get ranked() {
    return this.issued !== null;
  }

  /** The deal's code; null for a hidden-card game (published once it is finished: fairness.js). */
  get code() {
    return this.game.code;
  }

  /** A hidden-card ranked game: its face-down cards come from the server as they turn up. */
  get hidden() {
    return this.issued?.hidden === true;
  }

  /** The place `{column, depth}` of a card turned up and not told yet, or null. */
  get awaitingReveal() {
    return this.hidden ? this.game.awaitingReveal : null;
  }

  /**
   * The server told the card at `place` (`{column, depth}`; `card` a name like "TD"). Throws the
   * engine's RevealError for a card that cannot lie there; telling a known card again is a no-op.
   */
  reveal(place, card) {
    this.#learn({ column: place.column, depth: place.depth, card });
    this.#runClock();
  }

  #learn({ column, depth, card }) {
    this.game.reveal({ column, depth }, card);
    if (!this.revealed.some((known) => known.column === column && known.depth === depth)) this.revealed.push({ column, depth, card });
  }

  get rules() {
    return this.game.rules;
  }

  /** A game is started by its first move; an unstarted one can be left without losing anything. */
  get started() {
    return this.log.length > 0;
  }

  get won() {
    return this.game.isWon();
  }

  /** Play a Move or undo (UNDO); returns null, or the engine's refusal `{code, message}`. */
  play(token) {
    const refusal = this.game.check(token);
    if (refusal !== null) return refusal;
    this.clock.start();
    this.game.push(token);
    this.log.push(String(token));
    this.moveTimes.push(this.clock.elapsed());
    // The clock stops while the server turns a card up: the server requires the page's time
    // between two reveals to be no longer than its own (docs/security.md, "Hidden-card games").
    if (this.won || this.awaitingReveal !== null) this.clock.stop();
    return null;
  }

  undo() {
    return this.play(UNDO);
  }

  /** Take back every move, one undo at a time (all kept in the log); returns how many. */
  undoAll() {
    let undone = 0;
    while (this.game.canUndo && this.play(UNDO) === null) undone++;
    return undone;
  }

  /** The page was shown or hidden: time counts only for a started game that is on screen. */
  setVisible(visible) {
    this.#visible = visible;
    this.#runClock();
  }

  // Time counts while the table is on screen, the game started and not won, no card awaited.
  #runClock() {
    if (this.#visible && this.started && !this.won && this.awaitingReveal === null) this.clock.start();
    else this.clock.stop();
  }

  /** What store.js keeps so that a reload resumes this very game. */
  toSaved() {
    return {
      code: this.code,
      log: this.log.slice(),
      moveTimes: this.moveTimes.slice(),
      elapsedMs: this.clock.elapsed(),
      resultId: this.resultId,
      issued: this.issued,
      origin: this.origin,
      assisted: this.assisted,
      revealed: this.revealed.map((known) => ({ ...known })),
    };
  }

  /** The legal moves of one card (its possible destinations). */
  movesOf(card) {
    return this.game.legalMoves().filter((move) => move.card === card);
  }

  /** The move to the card's foundation, if it is legal now; else null. */
  foundationMove(card) {
    const move = Move.of(card, FOUNDATION);
    return this.game.check(move) === null ? move : null;
  }

  /**
   * Where a double tap (or auto placement) puts a card and the cards on it: the longest
   * column (most cards; ties: the leftmost) that accepts it, then an empty column for a King.
   * A King already at the bottom of a column is not moved to another empty column.
   */
  placementFor(card) {
    const { column: from, depth } = this.game.locate(card);
    const columns = this.game.columns;
    let best = null;
    let bestLength = -1;
    for (let dest = 0; dest < COLUMN_COUNT; dest++) {
      if (dest === from) continue;
      const length = columns[dest].length;
      if (length === 0 && from !== FOUNDATION && depth === 0) continue;
      if (length <= bestLength) continue;
      const move = Move.of(card, dest);
      if (this.game.check(move) === null) {
        best = move;
        bestLength = length;
      }
    }
    return best;
  }
}
