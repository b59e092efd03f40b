// The shared vectors (games/engine/vectors/*.json), read by pytest for the Python engine and
// here for the browser engine. Every file is loaded and dispatched on its name; a missing
// folder, a missing or empty known file, or an unknown file fails the run.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import {
  FACE_DOWN_AT_DEAL, Game, IllegalMoveError, InvalidCodeError, InvalidMoveError, InvalidPositionError, RevealError,
  cardName, codeOfDeck, dealLayout, formatCode, parseCode, parseLog, shuffledDeck, verify, visibleDeal,
} from "../../frontend/static/frontend/js/engine.js";

const FOLDER = new URL("../../games/engine/vectors/", import.meta.url);

function play(code, log) {
  const game = Game.fromCode(code);
  for (const token of parseLog(log)) game.push(token);
  return game;
}

// A step of hidden.json as this engine takes it: the result, the place awaiting a reveal, the points.
function takeStep(game, step) {
  let result = step.token !== undefined ? "played" : "revealed";
  try {
    if (step.token !== undefined) game.push(step.token);
    else game.reveal({ column: step.reveal.column, depth: step.reveal.depth }, step.reveal.card);
  } catch (error) {
    if (!(error instanceof IllegalMoveError || error instanceof InvalidMoveError || error instanceof RevealError)) throw error;
    result = error.code;
  }
  return { ...step, result, awaiting: game.awaitingReveal, points: game.points };
}

const CHECKS = {
  "codes.json"(c) {
    if (c.error !== undefined) {
      assert.equal(c.error, "invalid_code", "codes.json knows only the error invalid_code");
      assert.throws(() => parseCode(c.input), InvalidCodeError);
      return;
    }
    // A YU2 index is a decimal string in the file (JSON has no big integers) and a BigInt here.
    assert.equal(typeof c.number, c.code.startsWith("YU2-") ? "string" : "number");
    const number = typeof c.number === "string" ? BigInt(c.number) : c.number;
    assert.deepEqual(parseCode(c.input), { code: c.code, rules: c.rules, number });
    assert.equal(formatCode(c.rules, number), c.code);
    if (c.whole_of !== undefined) {
      const yu1 = parseCode(c.whole_of);
      assert.equal(typeof yu1.number, "number");
      assert.equal(codeOfDeck(c.rules, shuffledDeck(yu1.number)), c.code);
      assert.deepEqual(dealLayout(number), dealLayout(yu1.number));
    }
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
  "hidden.json"(c) {
    const game = Game.fromVisible(c.deal, c.revealed);
    c.steps.forEach((step, i) => assert.deepEqual(takeStep(game, step), step, `step ${i}`));
    assert.deepEqual(game.toDict(), c.position);
    assert.deepEqual(game.legalMoves().map(String), c.moves);
  },
  "finish.json"(c) {
    const moves = play(c.code, c.log).finishMoves();
    assert.deepEqual(moves === null ? null : moves.map(String), c.moves);
  },
  "visible_deals.json"(c) {
    if (c.error !== undefined) {
      assert.equal(c.error, "invalid_position", "visible_deals.json knows only the error invalid_position");
      assert.throws(() => Game.fromVisible(c.deal), InvalidPositionError);
      return;
    }
    if (c.code !== undefined) assert.deepEqual(visibleDeal(c.code), c.deal);
    const game = Game.fromVisible(c.deal);
    assert.deepEqual(game.toDict(), c.position);
    assert.deepEqual(game.knownDeal(), { ...c.deal, face_down: FACE_DOWN_AT_DEAL.slice() });
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
