// Personal bests, one per rule set. A win becomes the device's best only once the server has
// verified it: until its verdict it is a provisional best (said so wherever it is shown), and a
// refused win never becomes one. The verified bests are kept in `yukon.bests.v1` (store.js),
// merged with the server's; provisional ones are the waiting wins of the outbox (sync.js).
// Older builds kept a win as the best at once: such a best whose result the server refused is
// dropped.

import { loadBests, saveBests } from "./store.js";
import { findResult, listResults } from "./sync.js";

const RULES = ["classic", "relaxed"];

/** A higher ranked score is better; for the same score, the shorter time (the game's clock). */
export const isBetter = (result, best) =>
  !best || result.score > best.score || (result.score === best.score && (result.durationMs ?? Infinity) < (best.durationMs ?? Infinity));

// A win that may be a record: won, no hint (as the page and, once verified, the server say).
const isRecordWin = (entry) => entry.won === true && entry.assisted !== true && entry.verdict?.assisted !== true && entry.verdict?.won !== false;
const isAwaitingVerdict = (entry) => entry.state === "waiting" || entry.state === "sent";

// The best an outbox entry stands for: the server's figures once verified, the page's before.
const bestOf = (entry) => ({
  score: entry.verdict?.score ?? entry.score,
  moves: entry.verdict?.moves ?? entry.moves,
  points: entry.verdict?.points ?? null,
  durationMs: typeof entry.duration_ms === "number" ? entry.duration_ms : null,
  code: entry.code ?? null,
  finishedAt: entry.finished_at ?? null,
  resultId: entry.client_id,
});

// The kept best is the result of `entry` (by its id; older builds kept no id: by code and end time).
const isBestOf = (best, entry) =>
  Boolean(best) && !best.fromServer && (best.resultId ? best.resultId === entry.client_id : best.code === entry.code && best.finishedAt === entry.finished_at);

/**
 * Square the kept bests with the outbox: a best whose result was refused goes, a verified win
 * better than the kept best takes its place. Returns the kept bests.
 */
export function confirmBests(entries = listResults()) {
  const bests = loadBests();
  let changed = false;
  for (const entry of entries) {
    if (entry.state === "rejected" && RULES.includes(entry.rules) && isBestOf(bests[entry.rules], entry)) {
      bests[entry.rules] = null;
      changed = true;
    }
  }
  for (const entry of entries) {
    if (entry.state !== "verified" || !RULES.includes(entry.rules) || !isRecordWin(entry)) continue;
    const candidate = bestOf(entry);
    if (isBetter(candidate, bests[entry.rules])) {
      bests[entry.rules] = candidate;
      changed = true;
    }
  }
  if (changed) saveBests(bests);
  return bests;
}

/**
 * The best to show for `rules`: `{best, provisional}` — the kept best, or a better win still
 * waiting for its verdict (`provisional`). `except`: a result left out (the win being judged).
 */
export function shownBest(rules, { except = null } = {}) {
  const entries = listResults();
  let best = confirmBests(entries)[rules];
  let provisional = false;
  for (const entry of entries) {
    if (entry.rules !== rules || entry.client_id === except || !isAwaitingVerdict(entry) || !isRecordWin(entry)) continue;
    const candidate = bestOf(entry);
    if (isBetter(candidate, best)) {
      best = candidate;
      provisional = true;
    }
  }
  return { best, provisional };
}

/**
 * What the win queued under `clientId` is to the player's record: "new" (verified, and now the
 * best), "provisional" (better than every other, waiting for its verdict), "refused" (the server
 * refused it: no record), "assisted" (a hint was used: no record) or "none" (not better).
 */
export function winRecord(rules, clientId) {
  const entry = clientId ? findResult(clientId) : null;
  if (!entry) return "none";
  if (!isRecordWin(entry)) return entry.won === true && entry.verdict?.won !== false ? "assisted" : "none";
  if (entry.state === "rejected") return "refused";
  if (entry.state === "verified") return confirmBests()[rules]?.resultId === entry.client_id ? "new" : "none";
  return isBetter(bestOf(entry), shownBest(rules, { except: entry.client_id }).best) ? "provisional" : "none";
}

/**
 * Fold the server's figures (GET /api/me/ `rules`) into the kept bests: a better score won on
 * another device becomes this device's best too (its time may be unknown: null).
 */
export function mergeServerBests(serverRules) {
  const bests = loadBests();
  let changed = false;
  for (const rules of RULES) {
    const server = serverRules?.[rules];
    if (!server || typeof server.best_score !== "number") continue;
    const kept = bests[rules];
    if (!kept || server.best_score > kept.score) {
      bests[rules] = { score: server.best_score, moves: null, points: null, durationMs: null, code: null, finishedAt: null, fromServer: true };
      changed = true;
    }
  }
  if (changed) saveBests(bests);
  return bests;
}
