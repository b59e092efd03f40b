// Replay a log from the deal and answer a verdict; replay stops at the first refused token.

import { parseCode } from "./codes.js";
import { Refusal } from "./errors.js";
import { Game } from "./game.js";
import { UNDO, parseToken } from "./move.js";
import { splitWords } from "./text.js";

/**
 * `verify(code, log)` → {legal, won, moves, foundation_cards, score, points, error}, the JSON
 * of the Python CLI's `verify --json`; `error` is null or {index, token, code, reason} (reason:
 * the sentence a player reads; say "move {index + 1}" around it) and the figures are those of
 * the position before the refused token. A bad code throws InvalidCodeError.
 */
export function verify(code, log) {
  const { rules, number } = parseCode(code);
  const texts = Array.isArray(log) ? log.map(String) : splitWords(log);
  const game = new Game(rules, number, { history: texts.includes(UNDO) });
  let error = null;
  for (let index = 0; index < texts.length; index++) {
    try {
      game.push(parseToken(texts[index]));
    } catch (refusal) {
      if (!(refusal instanceof Refusal)) throw refusal;
      error = { index, token: texts[index], code: refusal.code, reason: refusal.message };
      break;
    }
  }
  return {
    legal: error === null,
    won: game.isWon(),
    moves: game.movesMade,
    foundation_cards: game.foundationCards,
    score: game.rankedScore(),
    points: game.points,
    error,
  };
}
