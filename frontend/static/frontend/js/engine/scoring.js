// The two scores: ranked (leaderboards) and points (shown at the table).

export const RANKED_MIN = 1;
export const RANKED_MAX = 99_999;
export const FOUNDATION_CARD_VALUE = 100;
export const WIN_BONUS = 2000;
export const POINTS_PER_FOUNDATION_CARD = 10;
export const POINTS_PER_FLIP = 5;

/** 100 × foundation cards + 2000 for a win − moves made, kept within 1 … 99,999. */
export function rankedScore({ foundationCards, won, moves }) {
  const raw = FOUNDATION_CARD_VALUE * foundationCards + (won ? WIN_BONUS : 0) - moves;
  return Math.max(RANKED_MIN, Math.min(RANKED_MAX, raw));
}
