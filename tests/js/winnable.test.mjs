// The stash of winnable deals as data (winnable.js): codes kept per rule set without repeats,
// a code dealt once leaves the stash and is never kept again, drawing is at random.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { DEALT_KEPT, STASH_SIZE, addCodes, normaliseStash, takeCode, wanted } from "../../frontend/static/frontend/js/winnable.js";

const codes = (count, from = 0) => Array.from({ length: count }, (_, i) => `YU1-C-${String(from + i).padStart(7, "A")}`);

describe("the stash of winnable deals", () => {
  test("a damaged or missing stash reads as empty", () => {
    for (const saved of [null, "text", 7, [], { classic: "x", relaxed: [1, "YU1-R-AAAAAAB"], dealt: null }]) {
      const stash = normaliseStash(saved);
      assert.deepEqual(stash.classic, []);
      assert.deepEqual(stash.dealt, []);
    }
    assert.deepEqual(normaliseStash({ relaxed: [1, "YU1-R-AAAAAAB"] }).relaxed, ["YU1-R-AAAAAAB"]);
  });

  test("codes are added once, per rule set, up to the stash's size", () => {
    let stash = normaliseStash(null);
    stash = addCodes(stash, "classic", ["A", "B", "A"]);
    stash = addCodes(stash, "classic", ["B", "C"]);
    assert.deepEqual(stash.classic, ["A", "B", "C"]);
    assert.deepEqual(stash.relaxed, []);
    stash = addCodes(stash, "classic", codes(20));
    assert.equal(stash.classic.length, STASH_SIZE);
    assert.equal(wanted(stash, "classic"), 0);
    assert.equal(wanted(stash, "relaxed"), STASH_SIZE);
  });

  test("a code taken leaves the stash and is never kept again", () => {
    let stash = addCodes(normaliseStash(null), "classic", ["A", "B", "C"]);
    const taken = takeCode(stash, "classic", () => 0.5);
    assert.equal(taken.code, "B");
    assert.deepEqual(taken.stash.classic, ["A", "C"]);
    assert.deepEqual(taken.stash.dealt, ["B"]);
    stash = addCodes(taken.stash, "classic", ["B", "D"]);
    assert.deepEqual(stash.classic, ["A", "C", "D"]);
  });

  test("the draw follows the random number over the whole stash", () => {
    const stash = addCodes(normaliseStash(null), "classic", ["A", "B", "C", "D"]);
    assert.equal(takeCode(stash, "classic", () => 0).code, "A");
    assert.equal(takeCode(stash, "classic", () => 0.999999).code, "D");
    const seen = new Set();
    for (let i = 0; i < 200; i++) seen.add(takeCode(stash, "classic").code);
    assert.deepEqual([...seen].sort(), ["A", "B", "C", "D"]);
  });

  test("an empty stash gives no code and stays as it was", () => {
    const stash = normaliseStash(null);
    const taken = takeCode(stash, "relaxed");
    assert.equal(taken.code, null);
    assert.equal(taken.stash, stash);
  });

  test("the codes dealt are remembered up to a limit, the latest kept", () => {
    let stash = normaliseStash({ dealt: codes(DEALT_KEPT) });
    stash = addCodes(stash, "classic", ["NEW"]);
    stash = takeCode(stash, "classic").stash;
    assert.equal(stash.dealt.length, DEALT_KEPT);
    assert.equal(stash.dealt.at(-1), "NEW");
    assert.ok(!stash.dealt.includes(codes(1)[0]));
  });
});
