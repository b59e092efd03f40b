// Game codes (docs/rules.md, "Game codes"): format version, rule letter, deal.
// YU1-C-AAAAAAB: a deal number in base 26 (a Number), dealt by the public shuffle.
// YU2-C- and 46 characters: the deck's permutation index in base 32 (a BigInt), any deal.

import { DECK_SIZE } from "./cards.js";
import { DEAL_COUNT, WHOLE_DEAL_COUNT, indexOfDeck } from "./deal.js";
import { InvalidCodeError } from "./errors.js";
import { strip } from "./text.js";

export const CODE_VERSION = "YU1"; // what formatCode writes for a Number
export const CODE_VERSIONS = Object.freeze(["YU1", "YU2"]);
export const CLASSIC = "classic";
export const RELAXED = "relaxed";
const DEAL_LETTERS = 7;
const WHOLE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford's base 32: no I, L, O, U
const WHOLE_DIGITS = 46; // 32^45 < 52! ≤ 32^46
export const CODE_MAX_LENGTH = "YU2-C-".length + WHOLE_DIGITS; // 52: the longest canonical code
const RULES_BY_LETTER = Object.freeze({ C: CLASSIC, R: RELAXED });
const LETTER_BY_RULES = Object.freeze({ [CLASSIC]: "C", [RELAXED]: "R" });
const DEAL_PART = /^[A-Z]{7}$/;
const ASCII = /^[\x00-\x7f]*$/;

/**
 * `parseCode(" yu1-c-aaaaaab ")` → {code: "YU1-C-AAAAAAB", rules: "classic", number: 1}.
 * A YU2 code's number is its permutation index, a BigInt.
 */
export function parseCode(text) {
  if (typeof text !== "string") throw new InvalidCodeError("a game code is text like YU1-C-AAAAAAB");
  const stripped = strip(text);
  if (!ASCII.test(stripped)) {
    // toUpperCase() would read "ı" as I and "ſ" as S: only ASCII letters may be lower case.
    throw new InvalidCodeError(`"${stripped}" is not a game code: use only letters A–Z, digits and '-', like YU1-C-AAAAAAB`);
  }
  const parts = stripped.toUpperCase().split("-");
  if (parts.length !== 3) {
    throw new InvalidCodeError(`"${stripped}" is not a game code: expected three parts like YU1-C-AAAAAAB`);
  }
  const [version, letter, deal] = parts;
  if (!CODE_VERSIONS.includes(version)) {
    throw new InvalidCodeError(`unknown code version "${version}": expected YU1 or YU2`);
  }
  if (!Object.hasOwn(RULES_BY_LETTER, letter)) {
    throw new InvalidCodeError(`unknown rule letter "${letter}": expected C (Classic) or R (Relaxed)`);
  }
  const rules = RULES_BY_LETTER[letter];
  const number = version === "YU2" ? wholeIndex(deal) : dealNumber(deal);
  return { code: formatCode(rules, number), rules, number };
}

function dealNumber(deal) {
  if (!DEAL_PART.test(deal)) {
    throw new InvalidCodeError(`deal part "${deal}" must be exactly ${DEAL_LETTERS} letters A–Z, like AAAAAAB`);
  }
  let number = 0;
  for (let i = 0; i < DEAL_LETTERS; i++) number = number * 26 + (deal.charCodeAt(i) - 65);
  return number;
}

function wholeIndex(deal) {
  if (deal.length !== WHOLE_DIGITS) {
    throw new InvalidCodeError(`the deal part of a YU2 code must be exactly ${WHOLE_DIGITS} characters, not ${deal.length}`);
  }
  let index = 0n;
  for (const ch of deal) {
    const digit = WHOLE_ALPHABET.indexOf(ch);
    if (digit < 0) {
      throw new InvalidCodeError(`"${ch}" is not a YU2 deal character: use the digits 0–9 and the letters A–Z except I, L, O and U`);
    }
    index = index * 32n + BigInt(digit);
  }
  if (index >= WHOLE_DEAL_COUNT) throw new InvalidCodeError(`deal part "${deal}" names no deal: its index is not below 52!`);
  return index;
}

/** `formatCode("classic", 1)` → "YU1-C-AAAAAAB"; a BigInt index gives a YU2 code. */
export function formatCode(rules, number) {
  const letter = LETTER_BY_RULES[rules];
  if (letter === undefined) throw new InvalidCodeError(`unknown rules "${rules}": expected classic or relaxed`);
  if (typeof number === "bigint") {
    if (number < 0n || number >= WHOLE_DEAL_COUNT) throw new InvalidCodeError(`deal index ${number} is out of range 0 … 52! − 1`);
    let deal = "";
    for (let i = 0, n = number; i < WHOLE_DIGITS; i++, n >>= 5n) deal = WHOLE_ALPHABET[Number(n & 31n)] + deal;
    return `YU2-${letter}-${deal}`;
  }
  if (!Number.isSafeInteger(number) || number < 0 || number >= DEAL_COUNT) {
    throw new InvalidCodeError(`deal number ${number} is out of range 0 … ${DEAL_COUNT - 1}`);
  }
  let deal = "";
  for (let i = 0, n = number; i < DEAL_LETTERS; i++, n = Math.floor(n / 26)) {
    deal = String.fromCharCode(65 + (n % 26)) + deal;
  }
  return `${CODE_VERSION}-${letter}-${deal}`;
}

/**
 * A new deal's code, drawn uniformly among all YU1 deal numbers (the browser's or Node's Web
 * Crypto: a local deal no one can predict).
 */
export function randomCode(rules = CLASSIC) {
  const words = new Uint32Array(2);
  for (;;) {
    crypto.getRandomValues(words);
    const number = (words[0] % 2) * 2 ** 32 + words[1];
    if (number < DEAL_COUNT) return formatCode(rules, number);
  }
}

/** The YU2 code of `deck`, the 52 card indices in deal order. */
export function codeOfDeck(rules, deck) {
  const cards = Array.isArray(deck) ? deck : [];
  const seen = new Set(cards.filter((card) => Number.isInteger(card) && card >= 0 && card < DECK_SIZE));
  if (cards.length !== DECK_SIZE || seen.size !== DECK_SIZE) {
    throw new InvalidCodeError("a deck is the 52 cards 0 … 51, each once, in deal order");
  }
  return formatCode(rules, indexOfDeck(cards));
}
