// The deals, as docs/rules.md "Game codes" specifies. YU1 (a Number, the deal number), bit for
// bit: fmix32 seeding, xoshiro128**, 8 warm-up draws, rejection sampling, Fisher–Yates;
// Math.imul keeps products in 32 bits, `>>> 0` reads a word as unsigned. YU2 (a BigInt, the
// permutation index): the Lehmer code of the deck. Both decks are dealt the same way.

import { DECK_SIZE } from "./cards.js";

export const COLUMN_SIZES = Object.freeze([1, 6, 7, 8, 9, 10, 11]);
export const FACE_DOWN_AT_DEAL = Object.freeze([0, 1, 2, 3, 4, 5, 6]);
export const DEAL_COUNT = 26 ** 7; // deal numbers 0 … 26^7 − 1 (33 bits)
const WARM_UP_DRAWS = 8;
const TWO_32 = 4294967296;

// 52!: YU2 indexes run 0n … 52! − 1n, one for every order of the deck.
export const WHOLE_DEAL_COUNT = Array.from({ length: DECK_SIZE }, (_, i) => BigInt(i + 1)).reduce((a, b) => a * b, 1n);

/** MurmurHash3's finaliser: a bijection on 32-bit words. */
export function fmix32(x) {
  x >>>= 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

const rotl = (x, k) => (x << k) | (x >>> (32 - k));

/** xoshiro128** seeded from a 33-bit deal number. */
export class Xoshiro128 {
  constructor(number) {
    const hi = Math.floor(number / TWO_32);
    const lo = number % TWO_32;
    this.s0 = fmix32(lo ^ 0x9e3779b9);
    this.s1 = fmix32(hi ^ 0x85ebca6b);
    this.s2 = fmix32(this.s0 ^ this.s1 ^ 0x6a09e667);
    this.s3 = fmix32(this.s0 + this.s1 + 0xbb67ae85); // fmix32 reduces the sum mod 2^32
    for (let i = 0; i < WARM_UP_DRAWS; i++) this.next();
  }

  /** The next unsigned 32-bit word. */
  next() {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A uniform integer in 0 … m−1, by rejection sampling (no modulo bias). */
  below(m) {
    const limit = TWO_32 - (TWO_32 % m);
    for (;;) {
      const x = this.next();
      if (x < limit) return x % m;
    }
  }
}

function checkNumber(number) {
  if (!Number.isSafeInteger(number) || number < 0 || number >= DEAL_COUNT) {
    throw new RangeError(`deal number ${number} is out of range 0 … ${DEAL_COUNT - 1}`);
  }
}

/** The 52 card indices in deal order: YU1's shuffle of a Number, YU2's deck of a BigInt index. */
export function shuffledDeck(number) {
  if (typeof number === "bigint") return deckOfIndex(number);
  checkNumber(number);
  const rng = new Xoshiro128(number);
  const deck = Array.from({ length: DECK_SIZE }, (_, i) => i);
  for (let i = DECK_SIZE - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const card = deck[i];
    deck[i] = deck[j];
    deck[j] = card;
  }
  return deck;
}

/** The deck whose lexicographic rank is `index` (a BigInt, 0n … 52! − 1n): its Lehmer code, read back. */
export function deckOfIndex(index) {
  if (typeof index !== "bigint" || index < 0n || index >= WHOLE_DEAL_COUNT) {
    throw new RangeError(`deal index ${index} is out of range 0 … 52! − 1`);
  }
  const digits = new Array(DECK_SIZE);
  for (let i = DECK_SIZE - 1; i >= 0; i--) {
    const base = BigInt(DECK_SIZE - i);
    digits[i] = Number(index % base);
    index /= base;
  }
  const remaining = Array.from({ length: DECK_SIZE }, (_, i) => i);
  return digits.map((digit) => remaining.splice(digit, 1)[0]);
}

/** The lexicographic rank (a BigInt) of a permutation of 0 … 51; the caller checks that it is one. */
export function indexOfDeck(deck) {
  const remaining = Array.from({ length: DECK_SIZE }, (_, i) => i);
  let index = 0n;
  deck.forEach((card, i) => {
    const digit = remaining.indexOf(card);
    remaining.splice(digit, 1);
    index = index * BigInt(DECK_SIZE - i) + BigInt(digit);
  });
  return index;
}

/**
 * The layout of a YU1 deal number or a YU2 index (BigInt): `{columns, faceDown}`, seven
 * columns bottom to top; column k's bottom k−1 cards face down.
 */
export function dealLayout(number) {
  const deck = shuffledDeck(number);
  const columns = [];
  let start = 0;
  for (const size of COLUMN_SIZES) {
    columns.push(deck.slice(start, start + size));
    start += size;
  }
  return { columns, faceDown: FACE_DOWN_AT_DEAL.slice() };
}
