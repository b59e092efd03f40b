// YU2 game codes in the browser engine (docs/rules.md, "YU2: a whole deck"): the index of a
// deck, its 46 characters, and games of such codes. YU1 codes are tested in engine.test.mjs; the
// shared cases of both are in codes.json and deals.json (vectors.test.mjs).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  CODE_MAX_LENGTH, Game, InvalidCodeError, WHOLE_DEAL_COUNT, cardName, codeOfDeck, dealLayout, dealtCard, deckOfIndex,
  formatCode, indexOfDeck, parseCode, shuffledDeck, verify, visibleDeal,
} from "../../frontend/static/frontend/js/engine.js";

const ORDERED = "0".repeat(46);
const LAST = "1FVS99MCKMRS4WZTTB305DPQ5SC0N9W1HRNCFZZZZZZZZZ"; // 52! − 1
const NO_DEAL = "1FVS99MCKMRS4WZTTB305DPQ5SC0N9W1HRNCG000000000"; // 52!
const AAAAAAB = "YU2-C-179K4SJYA54BMXRGE6XPVSBMHVYM5M1STZNEX6V3C5EF53"; // the deck of YU1-C-AAAAAAB
const range = (n) => Array.from({ length: n }, (_, i) => i);

let seed = 20260301;
const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
function randomDeck() {
  const deck = range(52);
  for (let i = 51; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

describe("YU2 codes", () => {
  test("52! and the longest code", () => {
    assert.equal(WHOLE_DEAL_COUNT, range(52).reduce((product, i) => product * BigInt(i + 1), 1n));
    assert.ok(32n ** 45n < WHOLE_DEAL_COUNT && WHOLE_DEAL_COUNT <= 32n ** 46n);
    assert.equal(CODE_MAX_LENGTH, 52);
  });

  test("the ordered deck is index 0, the reverse deck 52! − 1", () => {
    assert.deepEqual(parseCode(` yu2-c-${ORDERED}\n`), { code: `YU2-C-${ORDERED}`, rules: "classic", number: 0n });
    assert.deepEqual(parseCode(`Yu2-r-${LAST.toLowerCase()}`), { code: `YU2-R-${LAST}`, rules: "relaxed", number: WHOLE_DEAL_COUNT - 1n });
    assert.deepEqual(shuffledDeck(0n), range(52));
    assert.deepEqual(shuffledDeck(WHOLE_DEAL_COUNT - 1n), range(52).reverse());
    assert.deepEqual(deckOfIndex(1n), [...range(50), 51, 50]);
    assert.equal(formatCode("relaxed", 0n), `YU2-R-${ORDERED}`);
    assert.equal(codeOfDeck("relaxed", range(52).reverse()), `YU2-R-${LAST}`);
    assert.equal(`YU2-R-${LAST}`.length, CODE_MAX_LENGTH);
  });

  test("the YU2 code of a YU1 deck deals the same layout", () => {
    assert.equal(codeOfDeck("classic", shuffledDeck(1)), AAAAAAB);
    const { number } = parseCode(AAAAAAB);
    assert.deepEqual(dealLayout(number), dealLayout(1));
    assert.deepEqual(Game.fromCode(AAAAAAB).columns, Game.fromCode("YU1-C-AAAAAAB").columns);
    assert.equal(Game.fromCode(AAAAAAB.toLowerCase()).code, AAAAAAB);
    assert.deepEqual(visibleDeal(AAAAAAB), visibleDeal("YU1-C-AAAAAAB"));
    assert.equal(dealtCard(AAAAAAB, { column: 2, depth: 1 }), dealtCard("YU1-C-AAAAAAB", { column: 2, depth: 1 }));
    assert.deepEqual(verify(AAAAAAB, "3D>1 AH>F KS>1"), verify("YU1-C-AAAAAAB", "3D>1 AH>F KS>1"));
  });

  test("any deck round-trips through its code (seeded)", () => {
    for (let i = 0; i < 300; i++) {
      const deck = randomDeck();
      const rules = random() < 0.5 ? "classic" : "relaxed";
      const code = codeOfDeck(rules, deck);
      const parsed = parseCode(code.toLowerCase());
      assert.deepEqual([parsed.code, parsed.rules, typeof parsed.number], [code, rules, "bigint"]);
      assert.deepEqual(shuffledDeck(parsed.number), deck);
      assert.equal(indexOfDeck(deck), parsed.number);
      assert.equal(formatCode(rules, parsed.number), code);
      assert.deepEqual(dealLayout(parsed.number).columns.flat().map(cardName), deck.map(cardName));
    }
  });

  test("the index is the deck's lexicographic rank (seeded)", () => {
    const compare = (a, b) => a.findIndex((card, i) => card !== b[i]);
    for (let i = 0; i < 200; i++) {
      const [a, b] = [randomDeck(), randomDeck()];
      const at = compare(a, b);
      assert.equal(indexOfDeck(a) < indexOfDeck(b), at >= 0 && a[at] < b[at]);
    }
  });

  test("say what is wrong", () => {
    const cases = [
      ["YU2-C-AAAAAAB", /exactly 46 characters, not 7/],
      [`YU2-C-${ORDERED}0`, /exactly 46 characters, not 47/],
      ["YU2-C-", /exactly 46 characters, not 0/],
      [`YU2-C-${"0".repeat(45)}I`, /"I" is not a YU2 deal character/],
      [`yu2-c-${"0".repeat(45)}o`, /"O" is not a YU2 deal character/],
      [`YU2-C-U${"0".repeat(45)}`, /"U" is not a YU2 deal character/],
      [`YU2-C-${"0".repeat(20)}L${"0".repeat(25)}`, /"L" is not a YU2 deal character/],
      [`YU2-C-${NO_DEAL}`, /names no deal/],
      [`YU2-C-${"Z".repeat(46)}`, /names no deal/],
      [`YU2-Q-${ORDERED}`, /expected C \(Classic\) or R \(Relaxed\)/],
      [`YU3-C-${ORDERED}`, /version "YU3": expected YU1 or YU2/],
    ];
    for (const [text, message] of cases) {
      assert.throws(() => parseCode(text), (e) => e instanceof InvalidCodeError && message.test(e.message), text);
    }
    assert.throws(() => formatCode("classic", WHOLE_DEAL_COUNT), InvalidCodeError);
    assert.throws(() => formatCode("classic", -1n), InvalidCodeError);
    assert.throws(() => dealLayout(WHOLE_DEAL_COUNT), RangeError);
    for (const deck of [[...range(51), 0], range(51), [...range(52), 0], [...range(51), "KC"], [...range(51), 52], null]) {
      assert.throws(() => codeOfDeck("classic", deck), (e) => e instanceof InvalidCodeError && /52 cards/.test(e.message));
    }
  });
});
