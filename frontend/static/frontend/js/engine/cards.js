// Cards as small integers: index = suit × 13 + (rank − 1), suits in foundation order ♠ ♥ ♦ ♣.
// AS is 0, KS 12, AH 13, KC 51 (docs/rules.md, "Cards").

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
export const SUIT_SYMBOLS = "♠♥♦♣";
export const RANK_LABELS = Object.freeze(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]);

export const SPADES = 0;
export const HEARTS = 1;
export const DIAMONDS = 2;
export const CLUBS = 3;
export const ACE = 1;
export const KING = 13;
export const DECK_SIZE = 52;

/** Rank 1 (Ace) … 13 (King). */
export const rankOf = (card) => (card % 13) + 1;
/** Suit 0 … 3 in the order S H D C. */
export const suitOf = (card) => (card / 13) | 0;
/** Hearts and diamonds: the cards 13 … 38. */
export const isRed = (card) => card >= 13 && card < 39;
export const makeCard = (rank, suit) => suit * 13 + rank - 1;

const NAMES = Array.from({ length: DECK_SIZE }, (_, c) => RANKS[c % 13] + SUITS[suitOf(c)]);
const LABELS = Array.from({ length: DECK_SIZE }, (_, c) => RANK_LABELS[c % 13] + SUIT_SYMBOLS[suitOf(c)]);
const CARD_BY_NAME = new Map(NAMES.map((name, card) => [name, card]));

function checkIndex(card) {
  if (!Number.isInteger(card) || card < 0 || card >= DECK_SIZE) {
    throw new RangeError(`${card} is not a card index: expected 0 … ${DECK_SIZE - 1}`);
  }
  return card;
}

/** `cardName(35)` → "TD": the notation used in logs and JSON. */
export const cardName = (card) => NAMES[checkIndex(card)];

/** `cardLabel(35)` → "10♦": what a player reads. */
export const cardLabel = (card) => LABELS[checkIndex(card)];

/** `parseCard("TD")` → 35; anything else throws a RangeError. */
export function parseCard(text) {
  const card = CARD_BY_NAME.get(text);
  if (card === undefined) {
    throw new RangeError(`${JSON.stringify(String(text))} is not a card: expected a rank (${RANKS}) then a suit (${SUITS})`);
  }
  return card;
}

export const rankLabel = (rank) => RANK_LABELS[rank - 1];
export const suitSymbol = (suit) => SUIT_SYMBOLS[suit];
