// Game codes: YU1-C-AAAAAAB = format version, rule letter, deal number in base 26.

import { DEAL_COUNT } from "./deal.js";
import { InvalidCodeError } from "./errors.js";
import { strip } from "./text.js";

export const CODE_VERSION = "YU1";
export const CLASSIC = "classic";
export const RELAXED = "relaxed";
const DEAL_LETTERS = 7;
const RULES_BY_LETTER = Object.freeze({ C: CLASSIC, R: RELAXED });
const LETTER_BY_RULES = Object.freeze({ [CLASSIC]: "C", [RELAXED]: "R" });
const DEAL_PART = /^[A-Z]{7}$/;
const ASCII = /^[\x00-\x7f]*$/;

/** `parseCode(" yu1-c-aaaaaab ")` → {code: "YU1-C-AAAAAAB", rules: "classic", number: 1}. */
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
  if (version !== CODE_VERSION) {
    throw new InvalidCodeError(`unknown code version "${version}": expected ${CODE_VERSION}`);
  }
  if (!Object.hasOwn(RULES_BY_LETTER, letter)) {
    throw new InvalidCodeError(`unknown rule letter "${letter}": expected C (Classic) or R (Relaxed)`);
  }
  if (!DEAL_PART.test(deal)) {
    throw new InvalidCodeError(`deal part "${deal}" must be exactly ${DEAL_LETTERS} letters A–Z, like AAAAAAB`);
  }
  let number = 0;
  for (let i = 0; i < DEAL_LETTERS; i++) number = number * 26 + (deal.charCodeAt(i) - 65);
  const rules = RULES_BY_LETTER[letter];
  return { code: formatCode(rules, number), rules, number };
}

/** `formatCode("classic", 1)` → "YU1-C-AAAAAAB". */
export function formatCode(rules, number) {
  const letter = LETTER_BY_RULES[rules];
  if (letter === undefined) throw new InvalidCodeError(`unknown rules "${rules}": expected classic or relaxed`);
  if (!Number.isSafeInteger(number) || number < 0 || number >= DEAL_COUNT) {
    throw new InvalidCodeError(`deal number ${number} is out of range 0 … ${DEAL_COUNT - 1}`);
  }
  let deal = "";
  for (let i = 0, n = number; i < DEAL_LETTERS; i++, n = Math.floor(n / 26)) {
    deal = String.fromCharCode(65 + (n % 26)) + deal;
  }
  return `${CODE_VERSION}-${letter}-${deal}`;
}
