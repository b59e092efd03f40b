// Visible deals: a deal as a player sees it, each face-down card known or not (null). A
// face-down card is named by its place `{column, depth}`: the column index 0–6 (as in
// Move.dest) and the depth from the bottom of the column, as dealt. Face-down cards never move,
// so a place names one card for the whole game. The JSON form is the Python engine's
// VisibleDeal.to_dict(): `{rules, columns: [["4C"], [null, "2H", …], …], face_down}`.

import { DECK_SIZE, cardName, parseCard } from "./cards.js";
import { CLASSIC, RELAXED, parseCode } from "./codes.js";
import { COLUMN_SIZES, FACE_DOWN_AT_DEAL, dealLayout } from "./deal.js";
import { InvalidPositionError, RevealError } from "./errors.js";
import { formatRefusal } from "./refusals.js";

/** The 21 face-down places of a Yukon deal, column by column, bottom up. */
export const FACE_DOWN_PLACES = Object.freeze(
  FACE_DOWN_AT_DEAL.flatMap((count, column) => Array.from({ length: count }, (_, depth) => Object.freeze({ column, depth }))),
);

/** `{column, depth}` of a face-down place of the deal, or `{code: "not_face_down_place", params}`. */
export function readPlace(place) {
  const { column, depth } = place ?? {};
  if (!Number.isInteger(column) || !Number.isInteger(depth)) {
    return { code: "not_face_down_place", params: { variant: "malformed" } };
  }
  if (column < 0 || column >= FACE_DOWN_AT_DEAL.length || depth < 0 || depth >= FACE_DOWN_AT_DEAL[column]) {
    return { code: "not_face_down_place", params: { variant: "place", column, depth } };
  }
  return { column, depth };
}

/** A revealed card, given by index or name, as an index; null when it is not a card. */
export function readCard(card) {
  if (Number.isInteger(card) && card >= 0 && card < DECK_SIZE) return card;
  try {
    return parseCard(card);
  } catch {
    return null;
  }
}

/**
 * `{rules, columns}` of a visible deal in its JSON form: card indices, null for a face-down
 * card not known. Throws InvalidPositionError for anything no Yukon deal could show.
 */
export function readVisibleDeal(deal) {
  if (deal === null || typeof deal !== "object" || Array.isArray(deal)) {
    throw new InvalidPositionError("a visible deal is an object with rules and columns");
  }
  const { rules, columns } = deal;
  if (rules !== CLASSIC && rules !== RELAXED) {
    throw new InvalidPositionError(`unknown rules ${JSON.stringify(rules)}: expected classic or relaxed`);
  }
  const faceDown = deal.face_down;
  if (faceDown !== undefined && !(Array.isArray(faceDown) && sameNumbers(faceDown, FACE_DOWN_AT_DEAL))) {
    throw new InvalidPositionError("a Yukon deal has 0, 1, 2, 3, 4, 5, 6 face-down cards");
  }
  if (!Array.isArray(columns) || !columns.every(Array.isArray)) {
    throw new InvalidPositionError("columns are seven lists of card names (null for unknown)");
  }
  let cards;
  try {
    cards = columns.map((column) => column.map((name) => (name === null ? null : parseCard(name))));
  } catch {
    throw new InvalidPositionError("cards are names like TD, or null for a face-down card not known");
  }
  if (!sameNumbers(cards.map((column) => column.length), COLUMN_SIZES)) {
    throw new InvalidPositionError(`a deal has 7 columns of ${COLUMN_SIZES.join(", ")} cards`);
  }
  const seen = new Set();
  cards.forEach((column, index) =>
    column.forEach((card, depth) => {
      if (card === null) {
        if (depth >= FACE_DOWN_AT_DEAL[index]) {
          throw new InvalidPositionError(`the card at column index ${index}, depth ${depth} is face up: it must be known`);
        }
      } else if (seen.has(card)) {
        throw new InvalidPositionError(`${cardName(card)} appears twice`);
      } else {
        seen.add(card);
      }
    }),
  );
  return { rules, columns: cards };
}

const sameNumbers = (a, b) => a.length === b.length && a.every((value, i) => value === b[i]);

/** The JSON form of a visible deal from its rules and columns (card indices, null unknown). */
export function writeVisibleDeal(rules, columns) {
  return {
    rules,
    columns: columns.map((column) => column.map((card) => (card === null ? null : cardName(card)))),
    face_down: FACE_DOWN_AT_DEAL.slice(),
  };
}

/** What a player sees of the deal of `code`: the 31 face-up cards; the 21 face-down ones null. */
export function visibleDeal(code) {
  const { rules, number } = parseCode(code);
  const { columns } = dealLayout(number);
  return writeVisibleDeal(
    rules,
    columns.map((column, index) => column.map((card, depth) => (depth < FACE_DOWN_AT_DEAL[index] ? null : card))),
  );
}

/** The card (an index) dealt face down at `place` in the deal of `code`: the answer to a reveal. */
export function dealtCard(code, place) {
  const found = readPlace(place);
  if (found.code !== undefined) throw new RevealError(found.code, formatRefusal(found.code, found.params), found.params);
  return dealLayout(parseCode(code).number).columns[found.column][found.depth];
}
