// Yukon Solitaire rules for the browser: no DOM, no dependencies. The contract is
// docs/rules.md; games/engine (Python) is the server's truth, and both engines pass the same
// vectors in games/engine/vectors/. The modules under engine/ go bottom-up: cards, the deal,
// codes, moves, refusal messages, scores, the game, verification, visible deals (games whose
// face-down cards are not all known), and what a move does (for the words the page says of it).

export {
  ACE, CLUBS, DECK_SIZE, DIAMONDS, HEARTS, KING, RANKS, RANK_LABELS, SPADES, SUITS, SUIT_SYMBOLS,
  cardLabel, cardName, isRed, makeCard, parseCard, rankLabel, rankOf, suitOf, suitSymbol,
} from "./engine/cards.js";
export {
  COLUMN_SIZES, DEAL_COUNT, FACE_DOWN_AT_DEAL, WHOLE_DEAL_COUNT, Xoshiro128, dealLayout, deckOfIndex, fmix32, indexOfDeck,
  shuffledDeck,
} from "./engine/deal.js";
export {
  CLASSIC, CODE_MAX_LENGTH, CODE_VERSION, CODE_VERSIONS, RELAXED, codeOfDeck, formatCode, parseCode, randomCode,
} from "./engine/codes.js";
export { IllegalMoveError, InvalidCodeError, InvalidMoveError, InvalidPositionError, Refusal, RevealError } from "./engine/errors.js";
export { COLUMN_COUNT, FOUNDATION, Move, UNDO, formatLog, parseLog, parseToken } from "./engine/move.js";
export {
  HIDDEN_CARD_MESSAGES_EN, MESSAGES_EN, REFUSAL_CODES, REVEAL_REFUSAL_CODES, UNKNOWN_CARD, formatRefusal,
} from "./engine/refusals.js";
export { RANKED_MAX, RANKED_MIN, rankedScore } from "./engine/scoring.js";
export { Game, HiddenCardGame, MAX_GROUP } from "./engine/game.js";
export { verify } from "./engine/verify.js";
export { FACE_DOWN_PLACES, dealtCard, visibleDeal } from "./engine/visible.js";
export { describeMove } from "./engine/describe.js";
