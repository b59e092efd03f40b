// The player's check of a finished hidden-card game (fairness.js; docs/security.md, "Checking a
// hidden-card game"), for both kinds of code: YU1 (games finished before YU2) and YU2.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";

import { cardName, codeOfDeck, dealLayout, parseCode, shuffledDeck, visibleDeal } from "../../frontend/static/frontend/js/engine.js";
import { checkDeal, commitmentHolds, dealAgrees } from "../../frontend/static/frontend/js/fairness.js";

const YU1 = "YU1-C-AAAAAAB";
const YU1_WHOLE = "YU2-C-179K4SJYA54BMXRGE6XPVSBMHVYM5M1STZNEX6V3C5EF53"; // the same deal
const YU2 = codeOfDeck("relaxed", [...shuffledDeck(12345)].reverse()); // a deal no YU1 code names
const SECRET = "b1f0c0ffee";

const commitment = (code, secret = SECRET) => createHash("sha256").update(`${code}:${secret}`).digest("hex");

// What the page knew at the end: the visible deal plus the face-down cards turned up.
function shownDeal(code, turnedUp = [[1, 0], [6, 5], [6, 0]]) {
  const deal = visibleDeal(code);
  const { columns } = dealLayout(parseCode(code).number);
  for (const [column, depth] of turnedUp) deal.columns[column][depth] = cardName(columns[column][depth]);
  return deal;
}

// The same shown deal with one shown card swapped for another (the server dealt something else).
function tampered(deal) {
  const columns = deal.columns.map((cards) => cards.slice());
  [columns[1][0], columns[2][2]] = [columns[2][2], columns[1][0]];
  return { ...deal, columns };
}

describe("a finished hidden-card game", () => {
  for (const [kind, code] of [["YU1", YU1], ["YU2", YU2], ["YU2 of a YU1 deal", YU1_WHOLE]]) {
    test(`${kind}: fair when the hash is the commitment and the deal agrees`, async () => {
      const verdict = await checkDeal({ code, secret: SECRET, commitment: commitment(code), knownDeal: shownDeal(code) });
      assert.deepEqual(verdict, { state: "fair", code });
    });

    test(`${kind}: unfair when the secret or the code is not what was committed to`, async () => {
      const knownDeal = shownDeal(code);
      assert.equal((await checkDeal({ code, secret: "other", commitment: commitment(code), knownDeal })).state, "unfair");
      assert.equal(await commitmentHolds({ code: code.toLowerCase(), secret: SECRET, commitment: commitment(code) }), false);
    });

    test(`${kind}: unfair when a card shown is not where the code's deal has it`, async () => {
      const knownDeal = tampered(shownDeal(code));
      assert.equal(dealAgrees(code, knownDeal), false);
      assert.equal((await checkDeal({ code, secret: SECRET, commitment: commitment(code), knownDeal })).state, "unfair");
    });
  }

  test("the deal of a YU1 code and of its YU2 agree; the commitment is to the text of one", async () => {
    assert.equal(dealAgrees(YU1_WHOLE, shownDeal(YU1)), true);
    assert.equal(dealAgrees(YU1, shownDeal(YU1_WHOLE)), true);
    const verdict = await checkDeal({ code: YU1_WHOLE, secret: SECRET, commitment: commitment(YU1), knownDeal: shownDeal(YU1) });
    assert.equal(verdict.state, "unfair");
  });

  test("another deal, other rules or an unreadable code do not agree", () => {
    assert.equal(dealAgrees(YU2, shownDeal(YU1)), false);
    assert.equal(dealAgrees(YU1, shownDeal(YU2)), false);
    assert.equal(dealAgrees(YU1.replace("-C-", "-R-"), shownDeal(YU1)), false);
    assert.equal(dealAgrees(YU2.replace("-R-", "-C-"), shownDeal(YU2)), false);
    for (const code of ["YU2-C-AAAAAAB", `${YU2}0`, YU2.replace(/.$/, "U"), "YU3-C-AAAAAAB", ""]) {
      assert.equal(dealAgrees(code, shownDeal(YU2)), false, code);
    }
    assert.equal(dealAgrees(YU2, null), false);
  });
});
