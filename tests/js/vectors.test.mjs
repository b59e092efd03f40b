// The shared vectors (games/engine/vectors/*.json), read by pytest for the Python engine and
// here for the browser engine. Every file is loaded and dispatched on its name; a missing
// folder, a missing or empty known file, or an unknown file fails the run.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { Game, InvalidCodeError, dealLayout, cardName, parseCode, parseLog, verify } from "../../frontend/static/frontend/js/engine.js";

const FOLDER = new URL("../../games/engine/vectors/", import.meta.url);

function play(code, log) {
  const game = Game.fromCode(code);
  for (const token of parseLog(log)) game.push(token);
  return game;
}

const CHECKS = {
  "codes.json"(c) {
    if (c.error !== undefined) {
      assert.equal(c.error, "invalid_code", "codes.json knows only the error invalid_code");
      assert.throws(() => parseCode(c.input), InvalidCodeError);
      return;
    }
    assert.deepEqual(parseCode(c.input), { code: c.code, rules: c.rules, number: c.number });
  },
  "deals.json"(c) {
    const { rules, number } = parseCode(c.code);
    assert.equal(rules, c.rules);
    const layout = dealLayout(number);
    assert.deepEqual(layout.columns.map((cards) => cards.map(cardName)), c.columns);
    assert.deepEqual(layout.faceDown, c.face_down);
  },
  "logs.json"(c) {
    const verdict = verify(c.code, c.log);
    const expected = { ...c.verdict };
    if (expected.error) {
      // The message is not part of the contract's vectors: compare everything else.
      assert.equal(typeof verdict.error?.reason, "string");
      expected.error = { ...expected.error, reason: verdict.error.reason };
    }
    assert.deepEqual(verdict, expected);
  },
  "legal_moves.json"(c) {
    assert.deepEqual(play(c.code, c.log).legalMoves().map(String), c.moves);
  },
  "positions.json"(c) {
    assert.deepEqual(play(c.code, c.log).toDict(), c.position);
  },
};

test("the vector folder exists", () => {
  assert.ok(existsSync(FOLDER), `missing ${FOLDER.pathname}`);
});

const files = existsSync(FOLDER) ? readdirSync(FOLDER).filter((name) => name.endsWith(".json")).sort() : [];

for (const name of Object.keys(CHECKS)) {
  test(`${name} is present`, () => assert.ok(files.includes(name), `missing vector file ${name}`));
}

for (const name of files) {
  test(name, () => {
    const check = CHECKS[name];
    assert.ok(check, `unknown vector file ${name}: teach tests/js/vectors.test.mjs to read it`);
    const { cases } = JSON.parse(readFileSync(new URL(name, FOLDER), "utf8"));
    assert.ok(Array.isArray(cases) && cases.length > 0, `${name} has no cases`);
    cases.forEach((c, i) => {
      try {
        check(c);
      } catch (error) {
        error.message = `${name} case ${i} ${JSON.stringify(c.name ?? c.input ?? c.code)}: ${error.message}`;
        throw error;
      }
    });
  });
}
