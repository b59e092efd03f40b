// The position: seven columns, face-down counts, four foundations, a move stack for undo,
// the refusal checks in the order docs/rules.md lists them, and the canonical legal moves.
// A game from a visible deal, whose face-down cards may be unknown, is a HiddenCardGame
// (hidden.js): a subclass, so that games from a code pay nothing for it.

import { DECK_SIZE, KING, cardLabel, cardName, isRed, rankLabel, rankOf, suitOf, suitSymbol } from "./cards.js";
import { CLASSIC, RELAXED, formatCode, parseCode } from "./codes.js";
import { dealLayout } from "./deal.js";
import { IllegalMoveError } from "./errors.js";
import { finishMoves } from "./finish.js";
import { hiddenCardGame } from "./hidden.js";
import { COLUMN_COUNT, FOUNDATION, Move, UNDO, parseToken, tokenOrNull } from "./move.js";
import { formatRefusal } from "./refusals.js";
import { POINTS_PER_FLIP, POINTS_PER_FOUNDATION_CARD, rankedScore } from "./scoring.js";
import { writeVisibleDeal } from "./visible.js";

export const MAX_GROUP = 20;
const SUIT_COUNT = 4;

// Destinations in canonical order: columns 1–7, then F.
const DESTS = Array.from({ length: COLUMN_COUNT + 1 }, (_, d) => d);

let tableOf; // a game's own arrays, for HiddenCardGame (set below, in the class's static block)

export class Game {
  #rules;
  #number;
  #columns; // arrays of card indices, bottom to top
  #faceDown; // face-down cards at the bottom of each column
  #foundations = [0, 0, 0, 0]; // cards on each suit's foundation, S H D C
  #onFoundations = 0;
  #column = new Int8Array(DECK_SIZE); // where each card lies: 0 … 6, or FOUNDATION
  #depth = new Int8Array(DECK_SIZE); // its place in that column, 0 at the bottom
  #points = 0;
  #moves = 0;
  #history; // undo records, or null when the game keeps none (replaying a log without U)

  /** A new deal; `{history: false}` saves the undo records when no undo will come. */
  constructor(rules, number, { history = true } = {}) {
    if (rules !== CLASSIC && rules !== RELAXED) throw new RangeError(`unknown rules ${JSON.stringify(rules)}`);
    const layout = dealLayout(number);
    this.#rules = rules;
    this.#number = number;
    this.#columns = layout.columns;
    this.#faceDown = layout.faceDown;
    this.#history = history ? [] : null;
    this.#columns.forEach((cards, column) =>
      cards.forEach((card, depth) => {
        this.#column[card] = column;
        this.#depth[card] = depth;
      }),
    );
  }

  static fromCode(code, options) {
    const { rules, number } = parseCode(code);
    return new Game(rules, number, options);
  }

  /**
   * A game whose face-down cards may be unknown (docs/rules.md, "Positions with unknown
   * face-down cards"): a HiddenCardGame, which has no code. `deal` is a visible deal in its
   * JSON form (visible.js), `revealed` the reveals already known, `[{column, depth, card}]`.
   */
  static fromVisible(deal, revealed = []) {
    return new HiddenCardGame(deal, revealed);
  }

  static {
    tableOf = (game) => ({ columns: game.#columns, column: game.#column, depth: game.#depth });
  }

  get code() {
    return formatCode(this.#rules, this.#number);
  }
  get rules() {
    return this.#rules;
  }
  get number() {
    return this.#number;
  }
  /** Copies: seven arrays of card indices, bottom to top. */
  get columns() {
    return this.#columns.map((cards) => cards.slice());
  }
  get faceDown() {
    return this.#faceDown.slice();
  }
  get foundations() {
    return this.#foundations.slice();
  }
  get foundationCards() {
    return this.#onFoundations;
  }
  get movesMade() {
    return this.#moves;
  }
  get points() {
    return this.#points;
  }
  get canUndo() {
    return this.#history !== null && this.#history.length > 0;
  }
  /** The place of a card turned up but not known yet: never in a game from a code. */
  get awaitingReveal() {
    return null;
  }

  /** The deal as this game knows it, in the JSON form of a visible deal: for a code, all of it. */
  knownDeal() {
    return writeVisibleDeal(this.#rules, dealLayout(this.#number).columns);
  }

  isWon() {
    return this.#onFoundations === DECK_SIZE;
  }

  rankedScore() {
    return rankedScore({ foundationCards: this.#onFoundations, won: this.isWon(), moves: this.#moves });
  }

  /** Where a card lies: `{column: 0 … 6 | FOUNDATION, depth, faceUp}`. */
  locate(card) {
    const column = this.#column[card];
    if (column === FOUNDATION) return { column, depth: rankOf(card) - 1, faceUp: true };
    const depth = this.#depth[card];
    return { column, depth, faceUp: depth >= this.#faceDown[column] };
  }

  // ---- refusals ------------------------------------------------------------------------

  /** null if the token (a Move, UNDO or its text) can be played, else `{code, message, params}`. */
  check(token) {
    if (typeof token === "string") {
      const params = { token };
      token = tokenOrNull(token);
      if (token === null) return { code: "bad_token", message: formatRefusal("bad_token", params), params };
    }
    const code = this.#refuse(token);
    if (code === null) return null;
    const params = this.#describe(code, token);
    return { code, message: formatRefusal(code, params), params };
  }

  // The refusal code, checks 2–12 of docs/rules.md in order (1, bad_token, is the parser's).
  #refuse(token) {
    if (this.#onFoundations === DECK_SIZE) return "game_over";
    if (token === UNDO) {
      if (this.#history === null) throw new Error("this game keeps no undo history");
      return this.#history.length > 0 ? null : "nothing_to_undo";
    }
    if (!(token instanceof Move)) throw new TypeError(`${token} is not a move`);
    const { card, dest } = token;
    const from = this.#column[card];
    const suit = suitOf(card);
    if (from === FOUNDATION) {
      if (this.#foundations[suit] !== rankOf(card)) return "not_foundation_top";
      if (dest === FOUNDATION) return "same_column";
      return this.#refuseLanding(card, dest); // a take-back skips checks 7–9
    }
    const depth = this.#depth[card];
    if (depth < this.#faceDown[from]) return "face_down";
    if (dest === from) return "same_column";
    const length = this.#columns[from].length;
    if (dest === FOUNDATION) {
      if (depth !== length - 1) return "not_last_card";
      if (this.#foundations[suit] !== rankOf(card) - 1) return "foundation_order";
      return null;
    }
    if (length - depth > MAX_GROUP) return "group_too_large";
    return this.#refuseLanding(card, dest);
  }

  // Checks 10–12: does the card fit on the last card of column `dest`?
  #refuseLanding(card, dest) {
    const target = this.#columns[dest];
    if (target.length === 0) return rankOf(card) === KING ? null : "empty_needs_king";
    const last = target[target.length - 1];
    if (rankOf(last) !== rankOf(card) + 1) return "wrong_rank";
    if (this.#rules === CLASSIC && isRed(last) === isRed(card)) return "wrong_colour";
    return null;
  }

  // The message parameters of a refusal; `variant` picks a template in the catalog.
  #describe(code, { card, dest }) {
    switch (code) {
      case "same_column": {
        const column = this.#column[card];
        return column === FOUNDATION
          ? { variant: "foundation", card: cardLabel(card) }
          : { variant: "column", card: cardLabel(card), column: column + 1 };
      }
      case "foundation_order": {
        const suit = suitOf(card);
        return { suit: suitSymbol(suit), needs: cardLabel(suit * 13 + this.#foundations[suit]) };
      }
      case "group_too_large":
        return { size: this.#columns[this.#column[card]].length - this.#depth[card], limit: MAX_GROUP };
      case "wrong_rank":
      case "wrong_colour": {
        const rank = rankOf(card);
        if (rank === KING) return { variant: "king", card: cardLabel(card) };
        const needs = { card: cardLabel(card), rank: rankLabel(rank + 1) };
        if (this.#rules === CLASSIC) return { variant: isRed(card) ? "black" : "red", ...needs };
        return { variant: rank + 1 === 8 ? "any_an" : "any", ...needs };
      }
      default:
        return {};
    }
  }

  // ---- moves ---------------------------------------------------------------------------

  /** The legal moves in canonical order (docs/rules.md, "Legal moves, in canonical order"). */
  legalMoves() {
    const moves = [];
    if (this.isWon()) return moves;
    for (let column = 0; column < COLUMN_COUNT; column++) {
      const cards = this.#columns[column];
      for (let depth = this.#faceDown[column]; depth < cards.length; depth++) this.#collect(cards[depth], moves);
    }
    for (let suit = 0; suit < SUIT_COUNT; suit++) {
      if (this.#foundations[suit] > 0) this.#collect(suit * 13 + this.#foundations[suit] - 1, moves);
    }
    return moves;
  }

  /** The foundation moves that win from here, when foundation moves alone do and no card lies face down; else null (finish.js). */
  finishMoves() {
    return finishMoves(this);
  }

  #collect(card, moves) {
    for (const dest of DESTS) {
      const move = Move.of(card, dest);
      if (this.#refuse(move) === null) moves.push(move);
    }
  }

  /** Play a Move, UNDO, or their text; a refused one throws (IllegalMoveError, InvalidMoveError). */
  push(token) {
    token = typeof token === "string" ? parseToken(token) : token;
    const code = this.#refuse(token);
    if (code !== null) {
      const params = this.#describe(code, token);
      throw new IllegalMoveError(code, formatRefusal(code, params), params);
    }
    if (token === UNDO) this.#takeBack();
    else this.#play(token);
  }

  /** Take back the last move: the same as `push(UNDO)`. */
  undo() {
    this.push(UNDO);
  }

  #play(move) {
    const { card, dest } = move;
    const from = this.#column[card];
    const suit = suitOf(card);
    if (this.#history !== null) this.#history.push({ move, from, points: this.#points, flipped: false });
    this.#moves++;
    if (from === FOUNDATION) {
      this.#foundations[suit]--;
      this.#onFoundations--;
      this.#place(card, dest);
      return;
    }
    const cards = this.#columns[from];
    if (dest === FOUNDATION) {
      cards.pop();
      this.#toFoundation(card);
      this.#points += POINTS_PER_FOUNDATION_CARD;
    } else {
      this.#moveGroup(from, this.#depth[card], dest);
    }
    if (cards.length > 0 && cards.length === this.#faceDown[from]) {
      this.#faceDown[from]--;
      this.#points += POINTS_PER_FLIP;
      if (this.#history !== null) this.#history[this.#history.length - 1].flipped = true;
    }
  }

  // Undo: cards, face-down state and points return; the move counter stays.
  #takeBack() {
    const { move, from, points, flipped } = this.#history.pop();
    const { card, dest } = move;
    if (from === FOUNDATION) {
      this.#columns[dest].pop();
      this.#toFoundation(card);
    } else {
      if (flipped) this.#faceDown[from]++;
      if (dest === FOUNDATION) {
        this.#foundations[suitOf(card)]--;
        this.#onFoundations--;
        this.#place(card, from);
      } else {
        this.#moveGroup(dest, this.#depth[card], from);
      }
    }
    this.#points = points;
  }

  #place(card, column) {
    const cards = this.#columns[column];
    this.#column[card] = column;
    this.#depth[card] = cards.length;
    cards.push(card);
  }

  #toFoundation(card) {
    this.#column[card] = FOUNDATION;
    this.#foundations[suitOf(card)]++;
    this.#onFoundations++;
  }

  // The cards of column `from` from `depth` up, in order, onto column `to`.
  #moveGroup(from, depth, to) {
    const cards = this.#columns[from];
    for (let i = depth; i < cards.length; i++) this.#place(cards[i], to);
    cards.length = depth;
  }

  // ---- serialisation -------------------------------------------------------------------

  /** The position as JSON, the same shape as the Python engine's `to_dict()`. */
  toDict() {
    return {
      code: this.code,
      rules: this.#rules,
      columns: this.#columns.map((cards) => cards.map((card) => (card === null ? null : cardName(card)))),
      face_down: this.#faceDown.slice(),
      foundations: this.#foundations.slice(),
      moves: this.#moves,
      points: this.#points,
      score: this.rankedScore(),
      won: this.isWon(),
    };
  }
}

export const HiddenCardGame = hiddenCardGame(Game, tableOf);
