// The device's own figures per rule set (docs/ui.md, "Stats"): every game played on this
// device, ranked or not, sent or not. The server knows the ranked and submitted games (/me's
// figures); an unranked game left unfinished is known to this device only. A game counts once:
// at its winning move, or when a game with a move made and not won is left for another.

import { loadStats, saveStats } from "./store.js";

const EMPTY = Object.freeze({
  games: 0,
  wins: 0,
  currentStreak: 0,
  bestStreak: 0,
  bestTimeMs: null, // the fastest win
  fewestMoves: null, // the win in fewest moves
});

const whole = (value) => Number.isInteger(value) && value >= 0;

/** One rule set's figures, every field present and sane (old or damaged data: the defaults). */
export function deviceStats(rules) {
  const saved = loadStats()[rules] ?? {};
  const figures = { ...EMPTY };
  for (const key of Object.keys(EMPTY)) if (whole(saved[key])) figures[key] = saved[key];
  return figures;
}

/** Wins ÷ games, or null before the first game. */
export const winRate = ({ games, wins }) => (games ? wins / games : null);

/** Count one game that ended on this device: `{rules, won, moves, durationMs}`. */
export function countGame({ rules, won, moves, durationMs }) {
  const figures = deviceStats(rules);
  figures.games += 1;
  if (won) {
    figures.wins += 1;
    figures.currentStreak += 1;
    figures.bestStreak = Math.max(figures.bestStreak, figures.currentStreak);
    if (whole(durationMs)) figures.bestTimeMs = Math.min(figures.bestTimeMs ?? durationMs, durationMs);
    if (whole(moves)) figures.fewestMoves = Math.min(figures.fewestMoves ?? moves, moves);
  } else {
    figures.currentStreak = 0;
  }
  saveStats({ ...loadStats(), [rules]: figures });
  return figures;
}
