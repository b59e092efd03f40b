// What a move does, as the facts a sentence about it needs ("7♥ and 2 cards on it to column 4").
// No words here: the page says them in the player's language (table_controller.js).

import { cardLabel, suitOf, suitSymbol } from "./cards.js";
import { FOUNDATION } from "./move.js";

/**
 * `move` in `game`, before it is played: `{kind, card, …}` with `card` its label ("7♥") and
 * `kind` "toFoundation" (`suit`: the foundation's symbol), "backToColumn" (from a foundation),
 * "groupToColumn" (`count`: the cards on it) or "toColumn", each with `column` 1 … 7.
 */
export function describeMove(game, move) {
  const card = cardLabel(move.card);
  if (move.dest === FOUNDATION) return { kind: "toFoundation", card, suit: suitSymbol(suitOf(move.card)) };
  const column = move.dest + 1;
  const { column: from, depth } = game.locate(move.card);
  if (from === FOUNDATION) return { kind: "backToColumn", card, column };
  const count = game.columns[from].length - depth - 1;
  return count > 0 ? { kind: "groupToColumn", card, count, column } : { kind: "toColumn", card, column };
}
