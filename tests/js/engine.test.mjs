// Unit tests of the browser engine, rule by rule (docs/rules.md). Positions come from real
// deals: a code and the log that leads to the position.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  FOUNDATION, Game, IllegalMoveError, InvalidCodeError, InvalidMoveError, MESSAGES_EN, Move, REFUSAL_CODES,
  UNDO, Xoshiro128, cardLabel, cardName, dealLayout, fmix32, formatCode, formatLog, formatRefusal, isRed,
  parseCard, parseCode, parseLog, rankOf, rankedScore, suitOf, verify, dealtCard, visibleDeal,
} from "../../frontend/static/frontend/js/engine.js";

function play(code, log = "") {
  const game = Game.fromCode(code);
  for (const token of parseLog(log)) game.push(token);
  return game;
}

function refusal(game, text) {
  return game.check(Move.parse(text));
}

function assertRefused(game, text, code, message) {
  const found = refusal(game, text);
  assert.equal(found?.code, code, `${text}: ${JSON.stringify(found)}`);
  if (message !== undefined) assert.equal(found.message, message);
  assert.throws(() => game.push(text), (error) => error instanceof IllegalMoveError && error.code === code);
}

// Positions (found by searching deals; the layouts are in the comments).
const DEAL = "YU1-C-AAAAAAB"; // 1: 4C | 2: td / 2H QH 5H 3C KC | 3: 4h 6s / TC 6D AD 8C JH | 5: as 2d 7h 5s / KS 2S 7C AH 3D …
const EMPTY_FIRST = ["YU1-C-AAAABOD", "AS>F"]; // column 1 empty; column 2: jh / KH QS TH 5D QH
const TWO_SPADES = ["YU1-C-AAAACTA", "AS>F 2S>F"]; // ♠ foundation A 2; column 3 ends 3D, column 1 is 9D
const KING_ALONE = ["YU1-C-AAAACMA", "TC>4 AC>F"]; // column 1: KS alone; column 2 empty
const TALL_GROUP = ["YU1-R-AAAACBG", "8C>6 2D>4 2H>5 5S>5"]; // column 5: 3 face down, then 21 cards from 3C
const CLASSIC_WIN = [
  "YU1-C-AAAACQC",
  "3S>6 TC>7 8S>1 7D>1 AS>4 4D>7 3C>7 TD>7 AD>F 3H>4 2H>7 4C>5 5H>3 6C>1 AC>F JC>1 5C>6 2S>4 4H>6 " +
    "6H>5 JD>7 AS>F 2S>F 2D>F 9S>5 3D>F QC>2 KH>3 7S>2 QD>3 8H>5 TH>3 JC>5 3H>1 JD>7 3H>4 JD>2 JD>7 " +
    "JH>2 9H>7 6S>5 JS>3 AH>F 2H>F 3S>F 3H>F 4H>F 4S>F 2C>F 3C>F 4C>F 4D>F 5C>F 5H>F 5S>F 6C>F 6S>F " +
    "6H>F 7H>F 7C>F 7S>F 8H>F KS>5 8D>2 QS>3 5D>F 6D>F 9D>3 7D>F 8D>F 8S>F 9D>F 9S>F TS>F 9H>F TH>F " +
    "KC>6 8C>F 9C>F JH>F TC>F JC>F QH>F TD>F JD>F QC>F KC>F JS>F QD>F KD>F QS>F KS>F KH>F",
];

describe("cards", () => {
  test("indices, names and labels", () => {
    assert.deepEqual(["AS", "KS", "AH", "KC", "TD"].map(parseCard), [0, 12, 13, 51, 35]);
    assert.equal(cardName(35), "TD");
    assert.equal(cardLabel(35), "10♦");
    assert.deepEqual([0, 12, 13, 51].map(cardLabel), ["A♠", "K♠", "A♥", "K♣"]);
    assert.deepEqual([rankOf(0), rankOf(12), suitOf(13), suitOf(51)], [1, 13, 1, 3]);
    assert.deepEqual(["AS", "AH", "KD", "KC"].map((name) => isRed(parseCard(name))), [false, true, true, false]);
  });

  test("bad cards are refused", () => {
    for (const text of ["1S", "td", "T", "TDX", "10D", ""]) assert.throws(() => parseCard(text), RangeError);
    assert.throws(() => cardName(52), RangeError);
  });
});

describe("the deal", () => {
  test("fmix32 and xoshiro128** give the Python engine's words", () => {
    assert.deepEqual([0, 1, 0x9e3779b9, 0xffffffff].map(fmix32), [0, 1364076727, 2462723854, 2180083513]);
    const rng = new Xoshiro128(1);
    assert.deepEqual([rng.next(), rng.next(), rng.next(), rng.next()], [658992940, 2002942521, 3100894849, 3126153970]);
    const last = new Xoshiro128(26 ** 7 - 1); // hi word 1: the seeding splits 33 bits
    assert.deepEqual([last.next(), last.next()], [4151941601, 246075463]);
  });

  test("deal 1", () => {
    const { columns, faceDown } = dealLayout(1);
    assert.deepEqual(columns.map((c) => c.map(cardName).join(" ")), [
      "4C",
      "TD 2H QH 5H 3C KC",
      "4H 6S TC 6D AD 8C JH",
      "KH 8H 6C 7D 3S 9H 6H JD",
      "AS 2D 7H 5S KS 2S 7C AH 3D",
      "TH KD 9C 8D JS QD QS 7S 3H QC",
      "5C 8S 4D TS 4S 9D 2C 5D JC AC 9S",
    ]);
    assert.deepEqual(faceDown, [0, 1, 2, 3, 4, 5, 6]);
  });

  test("every deal holds the 52 cards in columns of 1, 6, 7 … 11", () => {
    for (const number of [0, 2, 2 ** 32 - 1, 2 ** 32, 26 ** 7 - 1]) {
      const { columns } = dealLayout(number);
      assert.deepEqual(columns.map((c) => c.length), [1, 6, 7, 8, 9, 10, 11]);
      assert.deepEqual(columns.flat().sort((a, b) => a - b), Array.from({ length: 52 }, (_, i) => i));
    }
    assert.throws(() => dealLayout(26 ** 7), RangeError);
    assert.throws(() => dealLayout(-1), RangeError);
  });

  test("Classic and Relaxed share the layout", () => {
    assert.deepEqual(Game.fromCode("YU1-R-AAAAAAB").columns, Game.fromCode(DEAL).columns);
  });
});

describe("game codes", () => {
  test("parse and format", () => {
    assert.deepEqual(parseCode(" yu1-c-aaaaaab\n"), { code: "YU1-C-AAAAAAB", rules: "classic", number: 1 });
    assert.deepEqual(parseCode("YU1-R-ZZZZZZZ"), { code: "YU1-R-ZZZZZZZ", rules: "relaxed", number: 8031810175 });
    assert.equal(parseCode("YU1-C-AAAAAAA").number, 0);
    assert.equal(parseCode("YU1-C-AAAAABA").number, 26);
    assert.equal(formatCode("relaxed", 26 ** 7 - 1), "YU1-R-ZZZZZZZ");
    assert.equal(formatCode("classic", 2 ** 32 + 5), parseCode(formatCode("classic", 2 ** 32 + 5)).code);
    assert.equal(Game.fromCode(" yu1-r-aaaaaab ").code, "YU1-R-AAAAAAB");
  });

  test("say what is wrong", () => {
    const cases = [
      ["YU3-C-AAAAAAB", /version "YU3": expected YU1 or YU2/],
      ["YU1-X-AAAAAAB", /rule letter "X": expected C \(Classic\) or R \(Relaxed\)/],
      ["YU1-C-AAAAAA", /deal part "AAAAAA" must be exactly 7 letters/],
      ["YU1-C-AAAAAAAA", /deal part/],
      ["YU1-C-AAAAA1B", /deal part/],
      ["YU1C-AAAAAAB", /expected three parts/],
      ["YU1-C-AAAAAAB-", /expected three parts/],
      ["", /expected three parts/],
      ["yu1-c-ıııııı", /use only letters A–Z/],
      ["YU1-C-AAAAAAß", /use only letters A–Z/],
    ];
    for (const [text, message] of cases) assert.throws(() => parseCode(text), (e) => e instanceof InvalidCodeError && message.test(e.message));
    assert.throws(() => parseCode(42), InvalidCodeError);
    assert.throws(() => formatCode("classic", 26 ** 7), InvalidCodeError);
    assert.throws(() => formatCode("easy", 1), InvalidCodeError);
    assert.throws(() => Game.fromCode("YU1-Q-AAAAAAB"), InvalidCodeError);
  });
});

describe("notation", () => {
  test("moves round-trip and are shared objects", () => {
    const move = Move.parse("TD>5");
    assert.deepEqual([move.card, move.dest, String(move)], [35, 4, "TD>5"]);
    assert.equal(Move.parse("AS>F").dest, FOUNDATION);
    assert.equal(String(Move.parse("AS>F")), "AS>F");
    assert.equal(Move.parse("KC>1"), Move.of(51, 0));
    assert.ok(Move.parse("KC>1").equals(new Move(51, 0)));
    assert.ok(Object.isFrozen(move));
    assert.equal(JSON.stringify([move]), '["TD>5"]');
  });

  test("bad tokens", () => {
    for (const text of ["9X>2", "td>5", "TD>8", "TD>0", "TD-5", "TD>f", "TD>", "u", "TD>5 "]) {
      assert.throws(() => Move.parse(text), (e) => e instanceof InvalidMoveError && e.code === "bad_token");
    }
    assert.throws(() => Move.parse("9X>2"), { message: "`9X>2` is not a move: write a card and a destination like TD>5, or U to undo" });
  });

  test("logs split on any white space; a bad token knows its index", () => {
    assert.deepEqual(parseLog(" 7H>3\n AS>F\tTD>5  U\r\nKC>1 ").map(String), ["7H>3", "AS>F", "TD>5", "U", "KC>1"]);
    assert.equal(parseLog("AS>F U")[1], UNDO);
    assert.deepEqual(parseLog(""), []);
    assert.throws(() => parseLog("AS>F U as>f"), (e) => e instanceof InvalidMoveError && e.index === 2 && e.token === "as>f");
    assert.equal(formatLog(parseLog("7H>3\nU  AS>F")), "7H>3 U AS>F");
  });
});

describe("tableau moves", () => {
  test("a group moves whole, in sequence or not", () => {
    const game = play(DEAL, "3H>1"); // 3H with QC on top of it, onto 4C
    assert.deepEqual(game.toDict().columns[0], ["4C", "3H", "QC"]);
    assert.deepEqual(game.toDict().columns[5], ["TH", "KD", "9C", "8D", "JS", "QD", "QS", "7S"]);
  });

  test("an empty column takes a King, with its group", () => {
    const game = play(...EMPTY_FIRST);
    assert.equal(refusal(game, "KH>1"), null);
    game.push("KH>1");
    assert.deepEqual(game.toDict().columns[0], ["KH", "QS", "TH", "5D", "QH"]);
    assert.deepEqual(game.faceDown.slice(0, 2), [0, 0]); // JH turned up
  });

  test("a King at the bottom of a column may move to another empty column, as a move", () => {
    const game = play(...KING_ALONE);
    assert.ok(game.legalMoves().map(String).includes("KS>2"));
    game.push("KS>2");
    assert.deepEqual(game.toDict().columns.slice(0, 2), [[], ["KS"]]);
    assert.equal(game.movesMade, 3);
  });

  test("Relaxed ignores colour", () => {
    assert.equal(refusal(Game.fromCode("YU1-R-AAAAAAB"), "3S>1"), null); // 3♠ onto 4♣
    assertRefused(Game.fromCode(DEAL), "3S>1", "wrong_colour", "3♠ needs a red 4");
  });

  test("a group of exactly 20 cards moves; 21 do not", () => {
    const game = play(...TALL_GROUP);
    assertRefused(game, "3C>2", "group_too_large", "the group has 21 cards; at most 20 move at once"); // 4C would fit
    assertRefused(game, "2H>1", "wrong_rank", "2♥ needs a 3"); // 20 cards: the landing is what is refused
  });
});

describe("foundations and take-backs", () => {
  test("Ace first, then one card at a time, for 10 points each", () => {
    const game = play(...TWO_SPADES);
    assert.deepEqual([game.foundations, game.foundationCards, game.points], [[2, 0, 0, 0], 2, 20]);
  });

  test("a take-back follows the fitting rules, costs nothing, and the return pays again", () => {
    const game = play(...TWO_SPADES);
    assert.ok(game.legalMoves().map(String).includes("2S>3"));
    game.push("2S>3"); // onto 3D
    assert.deepEqual([game.foundations[0], game.points, game.movesMade], [1, 20, 3]);
    assert.equal(game.toDict().columns[2].at(-1), "2S");
    game.push("2S>F");
    assert.deepEqual([game.foundations[0], game.points, game.movesMade], [2, 30, 4]);
  });

  test("take-backs are refused by the landing rules (checks 10–12) only", () => {
    assertRefused(play("YU1-C-AAAACMZ", "AC>F"), "AC>2", "wrong_colour", "A♣ needs a red 2"); // onto 2S
    assert.equal(refusal(play("YU1-R-AAAACMZ", "AC>F"), "AC>2"), null);
    assertRefused(play("YU1-C-AAAACMZ", "AC>F"), "AC>1", "empty_needs_king");
    assertRefused(play(...TWO_SPADES), "2S>1", "wrong_rank", "2♠ needs a red 3"); // onto 9D
  });

  test("canonical order: columns, then each card from the bottom, destinations 1–7 then F, then take-backs", () => {
    assert.deepEqual(Game.fromCode(DEAL).legalMoves().map(String), ["TC>4", "JH>6", "JD>6", "3D>1", "QD>2", "3H>1", "2C>5"]);
    const game = play(...TWO_SPADES);
    const moves = game.legalMoves().map(String);
    assert.deepEqual(moves, ["8S>1", "3D>5", "9S>6", "5D>7", "TD>2", "JH>4", "2S>3"]);
    const candidates = [];
    game.columns.forEach((cards, column) =>
      cards.slice(game.faceDown[column]).forEach((card) => {
        for (let dest = 0; dest <= FOUNDATION; dest++) candidates.push(Move.of(card, dest));
      }),
    );
    game.foundations.forEach((count, suit) => {
      for (let dest = 0; count > 0 && dest < 7; dest++) candidates.push(Move.of(suit * 13 + count - 1, dest));
    });
    assert.deepEqual(moves, candidates.filter((m) => game.check(m) === null).map(String));
  });
});

describe("refusals, in their order", () => {
  test("the closed list", () => {
    assert.deepEqual(REFUSAL_CODES, [
      "bad_token", "game_over", "nothing_to_undo", "face_down", "not_foundation_top", "same_column",
      "not_last_card", "foundation_order", "group_too_large", "empty_needs_king", "wrong_rank", "wrong_colour",
    ]);
    assert.deepEqual(Object.keys(MESSAGES_EN).sort(), [...REFUSAL_CODES].sort());
  });

  test("bad_token is decided by the token alone, even after a win", () => {
    assert.equal(verify(DEAL, "9X>2").error.code, "bad_token");
    const verdict = verify(CLASSIC_WIN[0], `${CLASSIC_WIN[1]} 9X>2`);
    assert.deepEqual(verdict.error, {
      index: 93, token: "9X>2", code: "bad_token",
      reason: "`9X>2` is not a move: write a card and a destination like TD>5, or U to undo",
    });
    assert.throws(() => Game.fromCode(DEAL).push("TD>9"), InvalidMoveError);
    assert.deepEqual(play(...CLASSIC_WIN).check("TD>9"), {
      code: "bad_token",
      message: "`TD>9` is not a move: write a card and a destination like TD>5, or U to undo",
      params: { token: "TD>9" },
    });
  });

  test("game_over: any token, U included, once won", () => {
    const game = play(...CLASSIC_WIN);
    assert.ok(game.isWon());
    assertRefused(game, "KS>1", "game_over", "the game is won: no more moves");
    assert.equal(game.check(UNDO).code, "game_over");
    assert.throws(() => game.undo(), (e) => e.code === "game_over");
    assert.deepEqual(game.legalMoves(), []);
  });

  test("nothing_to_undo", () => {
    const game = Game.fromCode(DEAL);
    assert.deepEqual(game.check("U"), { code: "nothing_to_undo", message: "there is nothing to undo", params: {} });
    assert.throws(() => game.undo(), (e) => e instanceof IllegalMoveError && e.code === "nothing_to_undo");
  });

  test("face_down comes before same_column", () => {
    const game = Game.fromCode(DEAL);
    assertRefused(game, "AS>F", "face_down", "that card is face down");
    assertRefused(game, "TD>2", "face_down"); // TD lies face down in column 2
  });

  test("not_foundation_top comes before same_column", () => {
    const game = play(...TWO_SPADES);
    assertRefused(game, "AS>3", "not_foundation_top", "only the top card of a foundation can be taken back");
    assertRefused(game, "AS>F", "not_foundation_top");
  });

  test("same_column, in a column or on a foundation", () => {
    assertRefused(Game.fromCode(DEAL), "3D>5", "same_column", "3♦ is already in column 5");
    assertRefused(play(...TWO_SPADES), "2S>F", "same_column", "2♠ is already on its foundation");
  });

  test("not_last_card comes before foundation_order", () => {
    const game = Game.fromCode(DEAL);
    assertRefused(game, "AH>F", "not_last_card", "only the last card of a column can go to a foundation");
    assertRefused(game, "2S>F", "not_last_card");
  });

  test("foundation_order names the card needed", () => {
    assertRefused(Game.fromCode(DEAL), "3D>F", "foundation_order", "the ♦ foundation needs A♦ next");
    assertRefused(play(...TWO_SPADES), "3D>F", "foundation_order", "the ♦ foundation needs A♦ next");
    assertRefused(play("YU1-C-AAAACMA", "TC>4 AC>F"), "KC>F", "foundation_order", "the ♣ foundation needs 2♣ next");
  });

  test("group_too_large comes before the landing checks", () => {
    assertRefused(play(...TALL_GROUP), "3C>2", "group_too_large");
    assertRefused(play(...TALL_GROUP), "3C>F", "not_last_card");
  });

  test("empty_needs_king", () => {
    assertRefused(play(...EMPTY_FIRST), "5D>1", "empty_needs_king", "an empty column takes only a King");
  });

  test("wrong_rank, worded for the rule set", () => {
    assertRefused(Game.fromCode(DEAL), "4C>2", "wrong_rank", "4♣ needs a red 5");
    assertRefused(Game.fromCode(DEAL), "JH>1", "wrong_rank", "J♥ needs a black Q");
    assertRefused(Game.fromCode("YU1-R-AAAAAAB"), "4C>2", "wrong_rank", "4♣ needs a 5");
    assertRefused(Game.fromCode("YU1-R-AAAAAAB"), "7S>1", "wrong_rank", "7♠ needs an 8");
    assertRefused(Game.fromCode(DEAL), "7S>1", "wrong_rank", "7♠ needs a red 8");
    assertRefused(Game.fromCode(DEAL), "KC>1", "wrong_rank", "K♣ can only go to an empty column");
    assertRefused(Game.fromCode("YU1-R-AAAAAAB"), "KS>6", "wrong_rank", "K♠ can only go to an empty column");
  });

  test("wrong_colour, Classic only", () => {
    assertRefused(Game.fromCode(DEAL), "3S>1", "wrong_colour", "3♠ needs a red 4");
  });

  test("check() gives the message parameters for other languages", () => {
    const found = refusal(Game.fromCode(DEAL), "3S>1");
    assert.deepEqual(found.params, { variant: "red", card: "3♠", rank: "4" });
    const tagalog = { wrong_colour: { red: "kailangan ng {card} ang pulang {rank}", black: "—" } };
    assert.equal(formatRefusal(found.code, found.params, tagalog), "kailangan ng 3♠ ang pulang 4");
  });
});

describe("undo", () => {
  test("cards, face-down state and points return; the move counter stays", () => {
    const game = Game.fromCode(DEAL);
    const start = game.toDict();
    game.push("TC>4"); // turns 6S up
    assert.deepEqual([game.faceDown[2], game.points, game.movesMade], [1, 5, 1]);
    game.undo();
    assert.deepEqual(game.toDict(), { ...start, moves: 1 });
    assert.equal(game.canUndo, false);
    assert.equal(game.check(UNDO).code, "nothing_to_undo");
  });

  test("back to the start through foundation moves and take-backs", () => {
    const [code, log] = TWO_SPADES;
    const game = play(code, `${log} 2S>3 2S>F 2S>3`);
    const positions = [];
    const replay = Game.fromCode(code);
    for (const token of parseLog(`${log} 2S>3 2S>F`)) {
      positions.push(replay.toDict());
      replay.push(token);
    }
    positions.push(replay.toDict());
    while (game.canUndo) {
      game.push("U");
      const expected = positions.pop();
      assert.deepEqual(game.toDict(), { ...expected, moves: 5, score: Math.max(1, expected.score + expected.moves - 5) });
    }
    assert.equal(positions.length, 0);
    assert.equal(game.movesMade, 5);
  });

  test("a game kept without history cannot undo", () => {
    const game = new Game("classic", 1, { history: false });
    game.push("3D>1");
    assert.equal(game.canUndo, false);
    assert.throws(() => game.undo(), /no undo history/);
  });
});

describe("scores", () => {
  test("ranked: 100 per foundation card, 2000 for a win, minus moves, within 1 … 99,999", () => {
    assert.equal(rankedScore({ foundationCards: 0, won: false, moves: 5 }), 1);
    assert.equal(rankedScore({ foundationCards: 3, won: false, moves: 5 }), 295);
    assert.equal(rankedScore({ foundationCards: 52, won: true, moves: 93 }), 7107);
    assert.equal(rankedScore({ foundationCards: 5000, won: true, moves: 0 }), 99999);
    assert.equal(Game.fromCode(DEAL).rankedScore(), 1);
  });

  test("a win without take-backs: 625 points and 7,200 − moves", () => {
    const game = play(...CLASSIC_WIN);
    assert.deepEqual(
      [game.isWon(), game.movesMade, game.points, game.rankedScore(), game.foundations],
      [true, 93, 625, 7107, [13, 13, 13, 13]],
    );
  });
});

describe("verify", () => {
  test("a won log", () => {
    assert.deepEqual(verify(...CLASSIC_WIN), {
      legal: true, won: true, moves: 93, foundation_cards: 52, score: 7107, points: 625, error: null,
    });
  });

  test("stops at the first refused token with the figures before it", () => {
    assert.deepEqual(verify(DEAL, "TC>4 3D>1 U U U AS>F"), {
      legal: false, won: false, moves: 2, foundation_cards: 0, score: 1, points: 0, // back at the deal
      error: { index: 4, token: "U", code: "nothing_to_undo", reason: "there is nothing to undo" },
    });
    const verdict = verify(DEAL, "TC>4\n\tAS>F 3D>1");
    assert.deepEqual(verdict.error, { index: 1, token: "AS>F", code: "face_down", reason: "that card is face down" });
    assert.deepEqual([verdict.moves, verdict.points], [1, 5]);
  });

  test("an empty log, a list of tokens, a bad code", () => {
    assert.deepEqual(verify(DEAL, " \n"), {
      legal: true, won: false, moves: 0, foundation_cards: 0, score: 1, points: 0, error: null,
    });
    assert.deepEqual(verify(DEAL, ["3D>1", "U"]), verify(DEAL, "3D>1 U"));
    assert.throws(() => verify("YU1-C-AAAAAB", "3D>1"), InvalidCodeError);
  });
});

describe("serialisation", () => {
  test("toDict has the Python engine's keys and shapes", () => {
    const dict = play(...TWO_SPADES).toDict();
    assert.deepEqual(Object.keys(dict), ["code", "rules", "columns", "face_down", "foundations", "moves", "points", "score", "won"]);
    assert.deepEqual(
      { ...dict, columns: dict.columns.map((c) => c.join(" ")) },
      {
        code: "YU1-C-AAAACTA",
        rules: "classic",
        columns: [
          "9D", "5C 8D QH 8S KS JS", "7C QD TC AH 2C 3D", "KH 9H 6D 7S JD AC 9S QS",
          "5S TS 3C TH 7D 4D 5D 2H 4C", "3S 8H 6S JC 9C AD KC 7H KD TD", "4H 3H 5H 8C 6H QC JH 2D 4S 6C",
        ],
        face_down: [0, 1, 2, 3, 4, 5, 6],
        foundations: [2, 0, 0, 0],
        moves: 2,
        points: 20,
        score: 198,
        won: false,
      },
    );
  });

  test("the getters hand out copies", () => {
    const game = Game.fromCode(DEAL);
    game.columns[0].push(51);
    game.faceDown[1] = 0;
    game.foundations[0] = 13;
    assert.deepEqual([game.columns[0], game.faceDown[1], game.foundations[0]], [[parseCard("4C")], 1, 0]);
  });
});

describe("formatRefusal", () => {
  test("fills named parameters and picks variants", () => {
    assert.equal(formatRefusal("group_too_large", { size: 23, limit: 20 }), "the group has 23 cards; at most 20 move at once");
    assert.equal(formatRefusal("wrong_rank", { variant: "any", card: "8♠", rank: "9" }), "8♠ needs a 9");
    assert.equal(formatRefusal("same_column", { variant: "column", card: "7♥", column: 3 }), "7♥ is already in column 3");
  });

  test("falls back to English, and from any_an to any", () => {
    const catalog = { wrong_rank: { any: "{card} perlu {rank}" } };
    assert.equal(formatRefusal("wrong_rank", { variant: "any_an", card: "7♠", rank: "8" }, catalog), "7♠ perlu 8");
    assert.equal(formatRefusal("face_down", {}, catalog), "that card is face down");
    assert.throws(() => formatRefusal("no_such_code"), RangeError);
  });
});

describe("finishing", () => {
  // The shared vectors (finish.json) give the moves after real games; here, what the table
  // relies on: played one by one they win, each counted as a move, and the log verifies.
  const [code, log] = CLASSIC_WIN;
  const tokens = parseLog(log);

  test("offered from the first position where foundation moves alone win, and played they win", () => {
    const game = Game.fromCode(code);
    let played = 0;
    while (game.finishMoves() === null) game.push(tokens[played++]);
    assert.ok(game.faceDown.every((count) => count === 0), "every card is face up");
    const moves = game.finishMoves();
    assert.equal(game.foundationCards + moves.length, 52);
    assert.ok(moves.every((move) => move.dest === FOUNDATION));
    const before = game.movesMade;
    for (const move of moves) game.push(move);
    assert.ok(game.isWon());
    assert.equal(game.movesMade, before + moves.length);
    assert.equal(game.finishMoves(), null, "a won game has nothing to finish");
    const verdict = verify(code, formatLog([...tokens.slice(0, played), ...moves]));
    assert.equal(verdict.won, true);
    assert.equal(verdict.moves, before + moves.length);
  });

  test("never while a card lies face down, and an undo takes the offer back", () => {
    const game = Game.fromCode(code);
    for (const token of tokens) {
      if (game.faceDown.some((count) => count > 0)) assert.equal(game.finishMoves(), null);
      if (game.finishMoves() !== null) break;
      game.push(token);
    }
    assert.notEqual(game.finishMoves(), null);
    game.undo();
    assert.equal(game.finishMoves(), null);
  });

  test("a hidden-card game offers the same moves as the game of its code, never before a card is told", () => {
    const known = Game.fromCode(code);
    const hiddenGame = Game.fromVisible(visibleDeal(code));
    let waited = 0;
    for (const token of tokens) {
      known.push(token);
      hiddenGame.push(token);
      if (hiddenGame.awaitingReveal !== null) {
        waited++;
        assert.equal(hiddenGame.finishMoves(), null, `waiting for a card after ${token}`);
        hiddenGame.reveal(hiddenGame.awaitingReveal, dealtCard(code, hiddenGame.awaitingReveal));
      }
      assert.deepEqual(hiddenGame.finishMoves()?.map(String) ?? null, known.finishMoves()?.map(String) ?? null, `after ${token}`);
    }
    assert.equal(waited, 21);
  });
});
