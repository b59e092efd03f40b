// Games with unknown face-down cards in the browser engine (docs/rules.md, "Positions with
// unknown face-down cards"): visible deals, reveals and their refusals, waiting for a reveal,
// and random play checked against the game of the code. The shared vectors (hidden.json,
// visible_deals.json) are read by vectors.test.mjs.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  COLUMN_COUNT, DECK_SIZE, FACE_DOWN_PLACES, FOUNDATION, Game, HIDDEN_CARD_MESSAGES_EN, HiddenCardGame, IllegalMoveError,
  InvalidMoveError, InvalidPositionError, MESSAGES_EN, Move, REFUSAL_CODES, REVEAL_REFUSAL_CODES, RevealError,
  UNDO, UNKNOWN_CARD, cardName, dealLayout, dealtCard, formatCode, formatRefusal, parseCard, visibleDeal,
} from "../../frontend/static/frontend/js/engine.js";

const CODE = "YU1-C-AAAAAAB"; // column index 2: two face-down cards (the upper one 6S), then TC 6D AD 8C JH
const TURN_UP = "TC>4"; // TC and the cards on it onto JD: turns up column index 2, depth 1
const SIX = parseCard("6S");

const hidden = (code = CODE, revealed = []) => Game.fromVisible(visibleDeal(code), revealed);

// The position of the game of the code as a game told only `deal` shows it.
function masked(known, deal) {
  const position = known.toDict();
  position.code = null;
  deal.columns.forEach((cards, column) =>
    cards.forEach((card, depth) => {
      if (card === null) position.columns[column][depth] = null;
    }),
  );
  return position;
}

describe("visible deals", () => {
  test("the visible deal of a code shows its 31 face-up cards only", () => {
    const deal = visibleDeal(CODE);
    const { columns } = dealLayout(1);
    assert.equal(deal.rules, "classic");
    assert.deepEqual(deal.face_down, [0, 1, 2, 3, 4, 5, 6]);
    deal.columns.forEach((cards, k) => {
      assert.deepEqual(cards.slice(0, k), Array(k).fill(null));
      assert.deepEqual(cards.slice(k), columns[k].slice(k).map(cardName));
    });
    assert.equal(FACE_DOWN_PLACES.length, 21);
    assert.deepEqual(FACE_DOWN_PLACES.slice(0, 3), [{ column: 1, depth: 0 }, { column: 2, depth: 0 }, { column: 2, depth: 1 }]);
    assert.equal(dealtCard(CODE, { column: 2, depth: 1 }), SIX);
    assert.throws(() => dealtCard(CODE, { column: 2, depth: 2 }), (e) => e instanceof RevealError && e.code === "not_face_down_place");
  });

  test("a deal no Yukon deal could show is refused", () => {
    const bad = [
      null, [], "YU1-C-AAAAAAB", { ...visibleDeal(CODE), rules: "C" }, { ...visibleDeal(CODE), face_down: [0, 0, 0, 0, 0, 0, 0] },
      { rules: "classic" }, { rules: "classic", columns: visibleDeal(CODE).columns.slice(1) },
    ];
    for (const deal of bad) assert.throws(() => Game.fromVisible(deal), InvalidPositionError);
    const faceUpUnknown = visibleDeal(CODE);
    faceUpUnknown.columns[3][3] = null;
    assert.throws(() => Game.fromVisible(faceUpUnknown), /column index 3, depth 3 is face up: it must be known/);
    const twice = visibleDeal(CODE);
    twice.columns[2][2] = "4C";
    assert.throws(() => Game.fromVisible(twice), /4C appears twice/);
  });
});

describe("playing with unknown cards", () => {
  test("a game from a visible deal starts as the game of its code, but has no code", () => {
    const game = hidden();
    const known = Game.fromCode(CODE);
    assert.equal(game.code, null);
    assert.equal(game.number, null);
    assert.deepEqual(game.toDict(), masked(known, visibleDeal(CODE)));
    assert.deepEqual(game.legalMoves().map(String), known.legalMoves().map(String));
    assert.equal(game.awaitingReveal, null);
    assert.equal(known.awaitingReveal, null);
    assert.equal(game.locate(SIX), null); // face down, place not known
    assert.equal(game.check(Move.of(SIX, 3)).code, "face_down");
  });

  test("a move that turns up an unknown card waits for its reveal; then play goes on", () => {
    const game = hidden();
    game.push(TURN_UP);
    assert.deepEqual(game.awaitingReveal, { column: 2, depth: 1 });
    assert.deepEqual([game.points, game.movesMade, game.faceDown[2]], [5, 1, 1]);
    assert.deepEqual(game.columns[2], [null, null]);
    assert.deepEqual(game.legalMoves(), []);
    for (const text of ["3D>1", "6S>F", "QD>2"]) {
      assert.deepEqual(game.check(text), {
        code: UNKNOWN_CARD, message: "the card turned up in column 3 is not known yet", params: { column: 3 },
      });
      assert.throws(() => game.push(text), (e) => e instanceof IllegalMoveError && e.code === UNKNOWN_CARD);
    }
    assert.throws(() => game.push("KC>9"), InvalidMoveError); // the token is read first
    game.reveal({ column: 2, depth: 1 }, "6S");
    const known = Game.fromCode(CODE);
    known.push(TURN_UP);
    assert.equal(game.awaitingReveal, null);
    assert.deepEqual(game.locate(SIX), { column: 2, depth: 1, faceUp: true });
    assert.deepEqual(game.legalMoves().map(String), known.legalMoves().map(String));
    assert.deepEqual(game.toDict(), masked(known, game.knownDeal()));
  });

  test("undo before the reveal: face down and unknown; after it: known when turned up again", () => {
    const game = hidden();
    game.push(TURN_UP);
    game.push(UNDO);
    assert.equal(game.awaitingReveal, null);
    game.push(TURN_UP);
    assert.deepEqual(game.awaitingReveal, { column: 2, depth: 1 });
    game.reveal(game.awaitingReveal, SIX);
    game.push("5H>3");
    while (game.canUndo) game.undo(); // a redeal
    assert.deepEqual([game.faceDown[2], game.columns[2][1], game.points, game.movesMade], [2, SIX, 0, 3]);
    assert.deepEqual(game.locate(SIX), { column: 2, depth: 1, faceUp: false });
    game.push(TURN_UP);
    assert.equal(game.awaitingReveal, null);
    assert.equal(game.points, 5);
  });

  test("reveals refused, in their order, with their messages", () => {
    const game = hidden(CODE, [{ column: 1, depth: 0, card: "TD" }]);
    const before = game.toDict();
    const refused = [
      [{ column: 0, depth: 0 }, "6S", "not_face_down_place", "no card was dealt face down at column index 0, depth 0"],
      [{ column: 7, depth: 0 }, "6S", "not_face_down_place", "no card was dealt face down at column index 7, depth 0"],
      [{ column: 2, depth: -1 }, "6S", "not_face_down_place", "no card was dealt face down at column index 2, depth -1"],
      [{ column: "2", depth: 1 }, "6S", "not_face_down_place", "a face-down place is a column index (0–6) and a depth from the bottom"],
      [[2, 1], "6S", "not_face_down_place", "a face-down place is a column index (0–6) and a depth from the bottom"],
      [null, "6S", "not_face_down_place", "a face-down place is a column index (0–6) and a depth from the bottom"],
      [{ column: 0, depth: 0 }, "9X", "not_face_down_place", undefined],
      [{ column: 2, depth: 1 }, "9X", "bad_card", "`9X` is not a card: expected a rank (A23456789TJQK) then a suit (SHDC)"],
      [{ column: 2, depth: 1 }, DECK_SIZE, "bad_card", undefined],
      [{ column: 2, depth: 1 }, null, "bad_card", undefined],
      [{ column: 2, depth: 1 }, "KC", "card_elsewhere", "K♣ is already elsewhere on the table"],
      [{ column: 1, depth: 0 }, "7S", "reveal_conflict", "column index 1, depth 0 is already known to hold 10♦"],
    ];
    for (const [place, card, code, message] of refused) {
      const found = game.checkReveal(place, card);
      assert.equal(found?.code, code, JSON.stringify([place, card]));
      if (message !== undefined) assert.equal(found.message, message);
      assert.throws(() => game.reveal(place, card), (e) => e instanceof RevealError && e.code === code);
    }
    assert.deepEqual(game.toDict(), before);
    assert.deepEqual([...REVEAL_REFUSAL_CODES], ["not_face_down_place", "bad_card", "reveal_conflict", "card_elsewhere"]);
  });

  test("a reveal again is a no-op; by index or by name; a card is known at one place only", () => {
    const game = hidden();
    assert.equal(game.checkReveal({ column: 2, depth: 1 }, SIX), null);
    game.reveal({ column: 2, depth: 1 }, SIX);
    game.reveal({ column: 2, depth: 1 }, "6S");
    assert.equal(game.checkReveal({ column: 2, depth: 1 }, "7S").code, "reveal_conflict");
    assert.equal(game.checkReveal({ column: 2, depth: 0 }, "6S").code, "card_elsewhere");
    game.push(TURN_UP);
    assert.equal(game.awaitingReveal, null); // revealed before it turned up
  });

  test("a card on a foundation is elsewhere; a game from a code knows every card", () => {
    const game = hidden("YU1-R-AAAAAAD");
    game.push("AC>F");
    assert.equal(game.checkReveal({ column: 6, depth: 5 }, "AC").code, "card_elsewhere");
    const known = Game.fromCode(CODE);
    assert.ok(!(known instanceof HiddenCardGame) && game instanceof HiddenCardGame && game instanceof Game);
    assert.equal(known.reveal, undefined); // reveals are for games from a visible deal
    assert.deepEqual(known.knownDeal().columns, dealLayout(1).columns.map((cards) => cards.map(cardName)));
  });

  test("a game in progress resumes from its known deal", () => {
    const game = hidden(CODE, [{ column: 6, depth: 0, card: dealtCard(CODE, { column: 6, depth: 0 }) }]);
    game.push(TURN_UP);
    game.reveal(game.awaitingReveal, "6S");
    const deal = JSON.parse(JSON.stringify(game.knownDeal()));
    assert.equal(deal.columns[6][0], cardName(dealtCard(CODE, { column: 6, depth: 0 })));
    const again = Game.fromVisible(deal);
    again.push(TURN_UP);
    assert.equal(again.awaitingReveal, null);
    assert.deepEqual(again.toDict(), game.toDict());
  });

  test("the hidden-card refusals have their own catalog; a log's closed list is unchanged", () => {
    assert.equal(REFUSAL_CODES.length, 12);
    assert.ok(!REFUSAL_CODES.includes(UNKNOWN_CARD));
    assert.deepEqual(Object.keys(MESSAGES_EN).sort(), [...REFUSAL_CODES].sort());
    assert.deepEqual(Object.keys(HIDDEN_CARD_MESSAGES_EN).sort(), [UNKNOWN_CARD, ...REVEAL_REFUSAL_CODES].sort());
    assert.equal(formatRefusal(UNKNOWN_CARD, { column: 3 }), "the card turned up in column 3 is not known yet");
    assert.equal(formatRefusal(UNKNOWN_CARD, { column: 3 }, { unknown_card: "Spalte {column}" }), "Spalte 3");
    assert.equal(formatRefusal("not_face_down_place", { variant: "malformed" }, {}), HIDDEN_CARD_MESSAGES_EN.not_face_down_place.malformed);
  });
});

// ---- random play against the game of the code ----------------------------------------------

let seed = 20261202;
const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const pick = (items) => items[Math.floor(random() * items.length)];
const ALL_MOVES = Array.from({ length: DECK_SIZE * (COLUMN_COUNT + 1) }, (_, i) => Move.of(Math.floor(i / 8), i % 8));

function compare(known, game, probe) {
  assert.deepEqual(game.toDict(), masked(known, game.knownDeal()));
  assert.equal(game.canUndo, known.canUndo);
  if (game.awaitingReveal !== null) {
    assert.deepEqual(game.legalMoves(), []);
    return;
  }
  assert.deepEqual(game.legalMoves().map(String), known.legalMoves().map(String));
  if (probe) for (const move of ALL_MOVES) assert.deepEqual(game.check(move), known.check(move), String(move));
}

test("random play answered from the deal cannot be told from the game of the code", () => {
  let reveals = 0;
  let waited = 0;
  for (let n = 0; n < 60; n++) {
    const code = formatCode(random() < 0.5 ? "classic" : "relaxed", Math.floor(random() * 26 ** 7));
    const known = Game.fromCode(code);
    const game = Game.fromVisible(visibleDeal(code));
    const both = (token) => {
      known.push(token);
      game.push(token);
    };
    for (let step = 0; step < 150 && !known.isWon(); step++) {
      const waiting = game.awaitingReveal;
      const roll = random();
      const moves = known.legalMoves();
      if (waiting !== null) {
        waited++;
        if (roll < 0.1) assert.equal(game.check(pick(ALL_MOVES)).code, UNKNOWN_CARD);
        else if (roll < 0.2) both(UNDO);
        else {
          game.reveal(waiting, dealtCard(code, waiting));
          reveals++;
        }
      } else if (roll < 0.02 && known.canUndo) {
        while (known.canUndo) both(UNDO); // a redeal
      } else if ((roll < 0.12 && known.canUndo) || moves.length === 0) {
        if (!known.canUndo) break;
        both(UNDO);
      } else {
        const home = moves.filter((m) => m.dest === FOUNDATION);
        both(pick(home.length && random() < 0.5 ? home : moves));
      }
      compare(known, game, step % 30 === 0);
    }
  }
  assert.ok(reveals > 200 && waited > reveals, `${reveals} reveals, ${waited} steps waiting`);
});
