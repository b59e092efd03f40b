// Plays logs in the browser engine and prints what it sees, for tests/engine/test_differential_js.py.
//
//   node tests/js/differential_runner.mjs CASES.json
//
// CASES.json: [{code, log, probe?: [step, ...], verify?: [log, ...]}]. Output, one entry per case:
// {code, steps: [{legal_moves, position, refusals?}], error, verdicts}. Step 0 is the deal,
// step k follows the k-th token. `refusals` (only at probed steps) has one character per
// candidate, every card × destination 1…7, F, then U: "." when legal, else the index of the
// refusal code in REFUSAL_CODES as a letter (a = bad_token, b = game_over, …).
import { readFileSync } from "node:fs";
import { COLUMN_COUNT, DECK_SIZE, FOUNDATION, Game, Move, REFUSAL_CODES, UNDO, parseLog, verify } from "../../frontend/static/frontend/js/engine.js";

const CANDIDATES = [];
for (let card = 0; card < DECK_SIZE; card++) {
  for (let dest = 0; dest <= FOUNDATION; dest++) CANDIDATES.push(Move.of(card, dest));
}
CANDIDATES.push(UNDO);
const LETTER = Object.fromEntries(REFUSAL_CODES.map((code, i) => [code, String.fromCharCode(97 + i)]));

function refusalSignature(game) {
  return CANDIDATES.map((token) => {
    const refusal = game.check(token);
    return refusal === null ? "." : LETTER[refusal.code];
  }).join("");
}

function snapshot(game, probe) {
  const step = { legal_moves: game.legalMoves().map(String), position: game.toDict() };
  if (probe) step.refusals = refusalSignature(game);
  return step;
}

function play({ code, log, probe = [], verify: logs = [] }) {
  const probed = new Set(probe);
  const game = Game.fromCode(code);
  const steps = [snapshot(game, probed.has(0))];
  let error = null;
  for (const token of parseLog(log)) {
    try {
      game.push(token);
    } catch (refusal) {
      error = { token: String(token), code: refusal.code, reason: refusal.message };
      break;
    }
    steps.push(snapshot(game, probed.has(steps.length)));
  }
  return { code, steps, error, verdicts: logs.map((other) => verify(code, other)) };
}

if (COLUMN_COUNT !== 7) throw new Error("the runner assumes seven columns");
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
process.stdout.write(JSON.stringify(cases.map(play)));
