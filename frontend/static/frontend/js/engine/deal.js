// The deal generator, bit for bit as docs/rules.md "From deal number to layout" specifies:
// fmix32 seeding, xoshiro128**, 8 warm-up draws, rejection sampling, Fisher–Yates.
// Math.imul keeps products in 32 bits; `>>> 0` reads a word as unsigned.

import { DECK_SIZE } from "./cards.js";

export const COLUMN_SIZES = Object.freeze([1, 6, 7, 8, 9, 10, 11]);
export const FACE_DOWN_AT_DEAL = Object.freeze([0, 1, 2, 3, 4, 5, 6]);
export const DEAL_COUNT = 26 ** 7; // deal numbers 0 … 26^7 − 1 (33 bits)
const WARM_UP_DRAWS = 8;
const TWO_32 = 4294967296;

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

/** The 52 card indices in deal order. */
export function shuffledDeck(number) {
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

/** `{columns, faceDown}`: seven columns bottom to top; column k's bottom k−1 cards face down. */
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
