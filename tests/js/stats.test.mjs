// The device's stats (stats.js): games, wins, streaks, the fastest win and the fewest moves per
// rule set, kept across reads, surviving damaged data.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { countGame, deviceStats, winRate } from "../../frontend/static/frontend/js/stats.js";
import { MemoryStorage } from "./page_globals.mjs";

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
});

test("a first visit has no games and no win rate", () => {
  const figures = deviceStats("classic");
  assert.deepEqual(figures, { games: 0, wins: 0, currentStreak: 0, bestStreak: 0, bestTimeMs: null, fewestMoves: null });
  assert.equal(winRate(figures), null);
});

test("wins and games left make the streaks, the best time and the fewest moves", () => {
  countGame({ rules: "classic", won: true, moves: 120, durationMs: 300_000 });
  countGame({ rules: "classic", won: true, moves: 98, durationMs: 410_000 });
  countGame({ rules: "classic", won: false, moves: 14, durationMs: 60_000 });
  countGame({ rules: "classic", won: true, moves: 130, durationMs: 250_000 });
  const figures = deviceStats("classic");
  assert.deepEqual(figures, { games: 4, wins: 3, currentStreak: 1, bestStreak: 2, bestTimeMs: 250_000, fewestMoves: 98 });
  assert.equal(winRate(figures), 0.75);
  assert.equal(deviceStats("relaxed").games, 0); // each rule set apart
});

test("damaged data falls back to the defaults, field by field", () => {
  localStorage.setItem("yukon.stats.v1", JSON.stringify({ classic: { games: "7", wins: 2, bestStreak: -1 } }));
  assert.deepEqual(deviceStats("classic"), { games: 0, wins: 2, currentStreak: 0, bestStreak: 0, bestTimeMs: null, fewestMoves: null });
  localStorage.setItem("yukon.stats.v1", "not json");
  countGame({ rules: "relaxed", won: false, moves: 3, durationMs: 1_000 });
  assert.equal(deviceStats("relaxed").games, 1);
});
