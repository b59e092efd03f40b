// Ranked deals issued by the server (POST /api/games/) and kept on the device, a few per rule
// set, so that ranked play goes on without a network. The pool belongs to one player: another
// player signing in on this device starts a pool of their own.

import { api, refusalText } from "./api.js";

const KEY = "yukon.pool.v1";
export const POOL_SIZE = 3; // deals kept per rule set
const RULES = ["classic", "relaxed"];

function emptyPool(owner) {
  return { owner, games: Object.fromEntries(RULES.map((rules) => [rules, []])) };
}

function readPool(owner) {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (saved && saved.owner === owner && saved.games) {
      const pool = emptyPool(owner);
      for (const rules of RULES) pool.games[rules] = (saved.games[rules] ?? []).filter((game) => Number.isInteger(game?.id) && typeof game.code === "string");
      return pool;
    }
  } catch {
    // damaged: start again
  }
  return emptyPool(owner);
}

function writePool(pool) {
  try {
    localStorage.setItem(KEY, JSON.stringify(pool));
  } catch {
    // storage blocked: the deals are issued again next time
  }
}

/** How many deals of `rules` the pool of `account` holds. */
export const poolSize = (account, rules) => (account ? readPool(account.id).games[rules]?.length ?? 0 : 0);

/** The next issued deal of `rules` for `account` (`{id, code, rules, issued_at}`), taken out of the pool; or null. */
export function takeIssued(account, rules) {
  if (!account) return null;
  const pool = readPool(account.id);
  const game = pool.games[rules]?.shift() ?? null;
  if (game) writePool(pool);
  return game;
}

function storedOwner() {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "null")?.owner ?? null;
  } catch {
    return null;
  }
}

/**
 * An issued deal left before its first move goes back to the front of its owner's pool —
 * unless the device now keeps another player's pool (that deal expires on the server).
 */
export function giveBack(game, owner) {
  const held = storedOwner();
  if (held !== null && held !== owner) return;
  const pool = readPool(owner);
  if (!pool.games[game.rules] || pool.games[game.rules].some((held) => held.id === game.id)) return;
  pool.games[game.rules].unshift(game);
  writePool(pool);
}

/**
 * Fill the pool of `account` up to POOL_SIZE deals per rule set (only `rules` if given).
 * Resolves `{ok, reason}`: reason "offline", or the server's refusal (too many unplayed deals).
 */
export async function refillPool(account, rules = null) {
  if (!account) return { ok: false, reason: "signed_out" };
  for (const wanted of rules ? [rules] : RULES) {
    const missing = POOL_SIZE - readPool(account.id).games[wanted].length;
    if (missing <= 0) continue;
    const answer = await api("/api/games/", { method: "POST", body: { rules: wanted, count: missing } });
    if (!answer.ok || !Array.isArray(answer.data)) {
      return { ok: false, reason: answer.status === 0 ? "offline" : refusalText(answer.data, answer.status), status: answer.status };
    }
    const pool = readPool(account.id); // read again: another tab may have taken a deal meanwhile
    pool.games[wanted].push(...answer.data.map(({ id, code, rules: issuedRules, issued_at }) => ({ id, code, rules: issuedRules, issued_at })));
    writePool(pool);
  }
  return { ok: true, reason: null };
}
