// How many ~150-token logs the browser engine verifies per second.
//
//   node bench/engine_verify_js.mjs [seconds]
//
// The logs are made here by seeded random legal play, so every run measures the same work.
import { Game, formatCode, verify } from "../frontend/static/frontend/js/engine.js";

const SECONDS = Number(process.argv[2] ?? 2);
const TOKENS = 150;
const LOGS = 64;

let seed = 2026;
const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);

// A random legal game of TOKENS tokens (fewer only if a deal runs out of moves); undo rate as given.
function randomLog(undoRate) {
  for (;;) {
    const code = formatCode(random() < 0.5 ? "classic" : "relaxed", Math.floor(random() * 26 ** 7));
    const game = Game.fromCode(code);
    const tokens = [];
    while (tokens.length < TOKENS && !game.isWon()) {
      const moves = game.legalMoves();
      if (game.canUndo && (moves.length === 0 || random() < undoRate)) {
        game.undo();
        tokens.push("U");
        continue;
      }
      if (moves.length === 0) break;
      const home = moves.filter((m) => m.toFoundation);
      const pool = home.length && random() < 0.5 ? home : moves;
      const move = pool[Math.floor(random() * pool.length)];
      game.push(move);
      tokens.push(String(move));
    }
    if (tokens.length >= TOKENS * 0.9) return { code, log: tokens.join(" ") };
  }
}

function measure(name, cases) {
  const tokens = cases.reduce((sum, c) => sum + c.log.split(" ").length, 0) / cases.length;
  for (let i = 0; i < 2000; i++) verify(cases[i % cases.length].code, cases[i % cases.length].log); // warm up the JIT
  let runs = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  while (performance.now() < end) {
    for (const { code, log } of cases) {
      if (!verify(code, log).legal) throw new Error(`${code}: the benchmark log is illegal`);
    }
    runs += cases.length;
  }
  const elapsed = (performance.now() - start) / 1000;
  const perSecond = runs / elapsed;
  console.log(
    `${name.padEnd(22)} ${Math.round(perSecond).toLocaleString("en").padStart(9)} logs/s` +
      `  ${((1e6 / perSecond)).toFixed(1).padStart(6)} µs/log  (${tokens.toFixed(0)} tokens per log)`,
  );
}

console.log(`node ${process.version}, ${SECONDS} s per case`);
measure("verify, no undo", Array.from({ length: LOGS }, () => randomLog(0)));
measure("verify, 5% undo", Array.from({ length: LOGS }, () => randomLog(0.05)));
