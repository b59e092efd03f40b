// Finishing a game: the foundation moves that win it, when foundation moves alone do
// (docs/rules.md, "Finishing"). The table's Finish button plays them one by one.

import { DECK_SIZE, rankOf, suitOf } from "./cards.js";
import { FOUNDATION, Move } from "./move.js";

/**
 * The foundation moves that put every card left on the foundations: each time, of the columns'
 * last cards that fit their foundation, the lowest rank (the leftmost column at equal ranks).
 * null when the game is won, when a card lies face down (a player cannot know what it is, and a
 * hidden-card game's page does not), or when foundation moves alone cannot win.
 */
export function finishMoves(game) {
  if (game.isWon() || game.faceDown.some((count) => count > 0)) return null;
  const columns = game.columns;
  if (columns.some((cards) => cards.includes(null))) return null; // a card turned up and not told yet
  const foundations = game.foundations;
  const moves = [];
  for (;;) {
    let best = -1;
    columns.forEach((cards, index) => {
      const card = cards.at(-1);
      if (card === undefined || foundations[suitOf(card)] !== rankOf(card) - 1) return;
      if (best < 0 || rankOf(card) < rankOf(columns[best].at(-1))) best = index;
    });
    if (best < 0) break;
    const card = columns[best].pop();
    foundations[suitOf(card)]++;
    moves.push(Move.of(card, FOUNDATION));
  }
  return game.foundationCards + moves.length === DECK_SIZE ? moves : null;
}
