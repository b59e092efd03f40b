// One game being played: the engine's Game plus what a result needs later — the log of
// tokens, when each was played (active time), and a clock that runs only while the player
// can see the table. Rendering and input live elsewhere.

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

export class Session {
  /**
   * The deal of `code`, with `log` replayed: the saved game of a previous visit resumes
   * exactly. A token that no longer replays (a damaged save) ends the replay there.
   * `issued` is the server's issued game (`{id, code, rules, issued_at, owner}`) of a ranked deal;
   * `assisted`: a hint was used (the result enters no board).
   */
  constructor(code, { log = [], moveTimes = [], elapsedMs = 0, resultId = null, issued = null, origin = null, assisted = false } = {}) {
    this.game = Game.fromCode(code);
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
    this.issued = issued && issued.code === this.code ? issued : null;
    this.origin = this.issued ? ORIGINS.ranked : UNRANKED_ORIGINS.has(origin) ? origin : ORIGINS.deal;
    this.assisted = assisted === true;
  }

  /** A ranked game: a deal the server issued; its result enters the leaderboards. */
  get ranked() {
    return this.issued !== null;
  }

  get code() {
    return this.game.code;
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
    if (this.won) this.clock.stop();
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
    if (visible && this.started && !this.won) this.clock.start();
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
