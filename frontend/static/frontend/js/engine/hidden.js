// Games whose face-down cards may be unknown (docs/rules.md, "Positions with unknown face-down
// cards"): built from a visible deal, and told each face-down card by `reveal`. When a move
// turns up a card not known, the game waits (`awaitingReveal`): every move is refused with
// unknown_card until the place is revealed; undo stays allowed. A revealed card stays known,
// face up or face down again after an undo. Answered from the real deal, such a game plays
// exactly as the game of the code; Game keeps the rules, this subclass adds what it lacks.

import { cardLabel } from "./cards.js";
import { IllegalMoveError, RevealError } from "./errors.js";
import { COLUMN_COUNT, UNDO, parseToken, tokenOrNull } from "./move.js";
import { UNKNOWN_CARD, formatRefusal } from "./refusals.js";
import { readCard, readPlace, readVisibleDeal, writeVisibleDeal } from "./visible.js";

const UNKNOWN = -1; // the column of a card that lies face down at a place not known

/**
 * The HiddenCardGame class, a subclass of `Game`. game.js makes it with this factory, so as to
 * hand it `tableOf(game)` (a game's own arrays, which a reveal writes to) without exporting it.
 */
export function hiddenCardGame(Game, tableOf) {
  return class HiddenCardGame extends Game {
    #deal; // the columns as dealt, as far as known: null where a card is not known yet
    #table; // this game's own arrays: {columns, column, depth}

    /** See Game.fromVisible. Throws InvalidPositionError, or RevealError for a refused reveal. */
    constructor(deal, revealed = []) {
      const { rules, columns } = readVisibleDeal(deal);
      super(rules, 0); // deal 0, laid out again as the visible deal
      const table = (this.#table = tableOf(this));
      table.column.fill(UNKNOWN);
      columns.forEach((cards, column) => {
        table.columns[column].splice(0, Infinity, ...cards);
        cards.forEach((card, depth) => {
          if (card === null) return;
          table.column[card] = column;
          table.depth[card] = depth;
        });
      });
      this.#deal = columns;
      for (const { column, depth, card } of revealed) this.reveal({ column, depth }, card);
    }

    /** A game from a visible deal has no code. */
    get code() {
      return null;
    }
    get number() {
      return null;
    }

    /** The place `{column, depth}` of the card a move has just turned up, while it is not known. */
    get awaitingReveal() {
      const { columns } = this.#table;
      for (let column = 0; column < COLUMN_COUNT; column++) {
        const cards = columns[column];
        if (cards.length > 0 && cards[cards.length - 1] === null) return { column, depth: cards.length - 1 };
      }
      return null;
    }

    /** As Game.locate; null for a card face down at a place not known. */
    locate(card) {
      return this.#table.column[card] === UNKNOWN ? null : super.locate(card);
    }

    check(token) {
      const move = typeof token === "string" ? tokenOrNull(token) : token;
      const code = move === null ? null : this.#refuseUnknown(move);
      if (code === null) return super.check(token);
      const params = this.#params(code);
      return { code, message: formatRefusal(code, params), params };
    }

    push(token) {
      const move = typeof token === "string" ? parseToken(token) : token;
      const code = this.#refuseUnknown(move);
      if (code !== null) {
        const params = this.#params(code);
        throw new IllegalMoveError(code, formatRefusal(code, params), params);
      }
      super.push(move);
    }

    legalMoves() {
      return this.awaitingReveal === null ? super.legalMoves() : [];
    }

    // The refusals only unknown cards bring (checked before the others, which cannot apply), or null.
    #refuseUnknown(token) {
      if (token === UNDO) return null;
      if (this.awaitingReveal !== null) return UNKNOWN_CARD;
      if (this.#table.column[token.card] === UNKNOWN) return "face_down"; // not known anywhere: face down
      return null;
    }

    #params(code) {
      return code === UNKNOWN_CARD ? { column: this.awaitingReveal.column + 1 } : {};
    }

    /** null if `card` (an index or a name) may be revealed at `place`, else `{code, message, params}`. */
    checkReveal(place, card) {
      const found = this.#judgeReveal(place, card);
      if (found.code === undefined) return null;
      return { code: found.code, message: formatRefusal(found.code, found.params), params: found.params };
    }

    /** Say which card lies at a face-down place of the deal; saying it again is a no-op. Throws RevealError. */
    reveal(place, card) {
      const found = this.#judgeReveal(place, card);
      if (found.code !== undefined) throw new RevealError(found.code, formatRefusal(found.code, found.params), found.params);
      const { column, depth, index, known } = found;
      if (known !== null) return; // the same card again
      // Not known, so never turned up with a name: still at its place, face down or just turned up.
      const table = this.#table;
      this.#deal[column][depth] = index;
      table.columns[column][depth] = index;
      table.column[index] = column;
      table.depth[index] = depth;
    }

    // `{column, depth, index, known}` of an acceptable reveal (known: the card, if known
    // already), or its refusal `{code, params}`; in the order of REVEAL_REFUSAL_CODES.
    #judgeReveal(place, card) {
      const where = readPlace(place);
      if (where.code !== undefined) return where;
      const index = readCard(card);
      if (index === null) return { code: "bad_card", params: { card: String(card) } };
      const known = this.#deal[where.column][where.depth];
      if (known !== null && known !== index) {
        return { code: "reveal_conflict", params: { ...where, known: cardLabel(known) } };
      }
      if (known === null && this.#table.column[index] !== UNKNOWN) {
        return { code: "card_elsewhere", params: { card: cardLabel(index) } };
      }
      return { ...where, index, known };
    }

    /** The deal as far as this game knows it: what it was built from, and every reveal since. */
    knownDeal() {
      return writeVisibleDeal(this.rules, this.#deal);
    }
  };
}
