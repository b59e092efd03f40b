// Narrow exceptions, each with a message a player can read (Python: ValueError subclasses).

import { formatRefusal } from "./refusals.js";

/** A game code that cannot be read. */
export class InvalidCodeError extends Error {
  constructor(message) {
    super(message);
    this.name = "InvalidCodeError";
  }
}

/** A refused token: a stable `code` from REFUSAL_CODES, a `message` and its `params`. */
export class Refusal extends Error {
  constructor(code, message, params = {}) {
    super(message);
    this.name = "Refusal";
    this.code = code;
    this.params = params;
  }
}

/** A token that is not a move at all (`bad_token`); `index` is its place in a log. */
export class InvalidMoveError extends Refusal {
  constructor(token, index = null) {
    const params = { token: String(token) };
    super("bad_token", formatRefusal("bad_token", params), params);
    this.name = "InvalidMoveError";
    this.token = String(token);
    this.index = index;
  }
}

/** A well-formed move that the rules refuse in this position. */
export class IllegalMoveError extends Refusal {
  constructor(code, message, params = {}) {
    super(code, message, params);
    this.name = "IllegalMoveError";
  }
}

/** A visible deal that no Yukon deal could show (Python: InvalidPositionError). */
export class InvalidPositionError extends Error {
  constructor(message) {
    super(message);
    this.name = "InvalidPositionError";
  }
}

/** A refused reveal: a stable `code` from REVEAL_REFUSAL_CODES, a `message` and its `params`. */
export class RevealError extends Error {
  constructor(code, message, params = {}) {
    super(message);
    this.name = "RevealError";
    this.code = code;
    this.params = params;
  }
}
