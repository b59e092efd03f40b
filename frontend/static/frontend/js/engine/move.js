// Moves and logs: Move.parse("TD>5"), String(move) === "TD>5", "U" for an undo.

import { DECK_SIZE, cardName } from "./cards.js";
import { InvalidMoveError } from "./errors.js";
import { splitWords } from "./text.js";

export const COLUMN_COUNT = 7;
export const FOUNDATION = 7; // the destination index of `F`; columns are 0 … 6
export const UNDO = "U";

/** A card and where it goes: a column index 0 … 6, or FOUNDATION. Frozen; one object per move. */
export class Move {
  constructor(card, dest) {
    this.card = card;
    this.dest = dest;
    Object.freeze(this);
  }

  /** The shared Move for a card and a destination. */
  static of(card, dest) {
    const move = MOVES[card * (COLUMN_COUNT + 1) + dest];
    if (move === undefined || !Number.isInteger(card) || !Number.isInteger(dest)) {
      throw new RangeError(`no move for card ${card} and destination ${dest}`);
    }
    return move;
  }

  /** `Move.parse("TD>5")`; anything else throws InvalidMoveError. */
  static parse(text) {
    const move = MOVES_BY_TEXT.get(text);
    if (move === undefined) throw new InvalidMoveError(text);
    return move;
  }

  get toFoundation() {
    return this.dest === FOUNDATION;
  }

  equals(other) {
    return other instanceof Move && other.card === this.card && other.dest === this.dest;
  }

  toString() {
    return `${cardName(this.card)}>${this.dest === FOUNDATION ? "F" : this.dest + 1}`;
  }

  toJSON() {
    return this.toString();
  }
}

// Every possible move exists once, so parsing is a look-up and moves compare with ===.
const MOVES = [];
for (let card = 0; card < DECK_SIZE; card++) {
  for (let dest = 0; dest <= COLUMN_COUNT; dest++) MOVES.push(new Move(card, dest));
}
Object.freeze(MOVES);
const MOVES_BY_TEXT = new Map(MOVES.map((move) => [move.toString(), move]));

/** A Move, UNDO, or null when the text is not a token. */
export const tokenOrNull = (text) => (text === UNDO ? UNDO : MOVES_BY_TEXT.get(text) ?? null);

/** `parseToken("U")` → UNDO, `parseToken("TD>5")` → a Move; else InvalidMoveError. */
export function parseToken(text) {
  const token = tokenOrNull(text);
  if (token === null) throw new InvalidMoveError(text);
  return token;
}

/** Split a log on white space and parse each token; a bad one throws with its index. */
export function parseLog(log) {
  return splitWords(log).map((text, index) => {
    const token = tokenOrNull(text);
    if (token === null) throw new InvalidMoveError(text, index);
    return token;
  });
}

/** The canonical form: tokens separated by single spaces. */
export const formatLog = (tokens) => tokens.map(String).join(" ");
