// What a move does, as the engine tells the page (engine/describe.js: the facts, no words), and
// a new deal's random code (engine/codes.js randomCode).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Game, Move, describeMove, parseCode, parseLog, randomCode } from "../../frontend/static/frontend/js/engine.js";

const DEAL = "YU1-C-AAAAAAB";

function play(log = "") {
  const game = Game.fromCode(DEAL);
  for (const token of parseLog(log)) game.push(token);
  return game;
}

const described = (game, text) => describeMove(game, Move.parse(text));

describe("describeMove", () => {
  test("one card to a column", () => {
    assert.deepEqual(described(play(), "JH>6"), { kind: "toColumn", card: "J♥", column: 6 });
  });

  test("a card and the cards on it to a column", () => {
    assert.deepEqual(described(play(), "TC>4"), { kind: "groupToColumn", card: "10♣", count: 4, column: 4 });
    assert.deepEqual(described(play(), "3H>1"), { kind: "groupToColumn", card: "3♥", count: 1, column: 1 });
  });

  test("a card to its foundation", () => {
    assert.deepEqual(described(play("JH>6 2C>5 3D>1"), "AH>F"), { kind: "toFoundation", card: "A♥", suit: "♥" });
  });

  test("a card back from its foundation", () => {
    const game = play("JH>6 2C>5 3D>1 AH>F QD>2 TC>2 7D>2 5H>3 5D>4");
    assert.deepEqual(described(game, "AH>1"), { kind: "backToColumn", card: "A♥", column: 1 });
  });

  test("describes the position before the move, and leaves it alone", () => {
    const game = play();
    const before = game.columns;
    described(game, "TC>4");
    assert.deepEqual(game.columns, before);
  });
});

describe("randomCode", () => {
  test("a YU1 code of the rules asked for, Classic by default", () => {
    for (let i = 0; i < 200; i++) {
      const classic = parseCode(randomCode());
      assert.equal(classic.rules, "classic");
      assert.equal(classic.code.slice(0, 6), "YU1-C-");
      assert.equal(parseCode(randomCode("relaxed")).rules, "relaxed");
    }
  });

  test("codes do not repeat", () => {
    const codes = new Set(Array.from({ length: 200 }, () => randomCode()));
    assert.equal(codes.size, 200);
  });
});
