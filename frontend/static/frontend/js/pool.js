// Ranked games issued by the server (POST /api/games/ with `hidden`) and kept on the device, a
// few per rule set, so that a new ranked game starts at once. They are hidden-card games: each
// comes with its face-up cards and a commitment, never its code, and every face-down card is
// told by the server when the log turns it up (reveals.js) — so they are played online only;
// offline, dealer.js deals an open deal instead. The pool belongs to one player: another player
// signing in on this device starts a pool of their own.
//
// The server keeps the list of the player's games that still accept a result
// (GET /api/games/?state=issued). Each refill reads it first: games it no longer holds (played
// or expired on another device) leave the pool; and a device with no pool of this player (new,
// or its storage cleared), or one the server refuses more games (too_many_unplayed), takes the
// listed unstarted games back, oldest first, rather than leaving them to block ranked play until
// they expire. A game started on another device is not pooled: dealer.js resumes it. The page
// deals from the pool only once it has been squared with the list in this visit (dealer.js).

import { api, refusalText } from "./api.js";
import { loadGame } from "./store.js";
import { listResults } from "./sync.js";

const KEY = "yukon.pool.v2"; // v1 held games issued with their code
const HELD_ENDPOINT = "/api/games/?state=issued";
export const POOL_SIZE = 3; // deals kept per rule set
const RULES = ["classic", "relaxed"];

// A hidden-card game the page can play: its id and its visible deal.
const isPoolable = (game) => Number.isInteger(game?.id) && game.hidden === true && game.deal !== null && typeof game.deal === "object";

function emptyPool(owner) {
  return { owner, games: Object.fromEntries(RULES.map((rules) => [rules, []])) };
}

function readPool(owner) {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (saved && saved.owner === owner && saved.games) {
      const pool = emptyPool(owner);
      for (const rules of RULES) pool.games[rules] = (saved.games[rules] ?? []).filter(isPoolable);
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

/**
 * The next issued game of `rules` for `account` (`{id, hidden, rules, commitment, deal,
 * issued_at}`), taken out of the pool; or null.
 */
export function takeIssued(account, rules) {
  if (!account) return null;
  const pool = readPool(account.id);
  const game = pool.games[rules]?.shift() ?? null;
  if (!game) return null;
  writePool(pool);
  const { added_at, ...issued } = game; // not the pool's own bookkeeping
  return issued;
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

/** Issued games this device is already using: the game on the table, and results queued or sent (ids). */
export function gamesInUse() {
  const ids = new Set(listResults().map((entry) => entry.game).filter(Number.isInteger));
  const playing = loadGame()?.issued?.id;
  if (Number.isInteger(playing)) ids.add(playing);
  return ids;
}

const poolEntry = ({ id, rules, commitment, deal, issued_at }, addedAt) => ({ id, hidden: true, rules, commitment, deal, issued_at, added_at: addedAt });

/**
 * Square the pool of `account` with the server's list of the player's games that still accept a
 * result: drop what the list no longer holds (a game added after the list was asked for stays:
 * another tab may have just been issued it). With `adopt`, take back listed games this device
 * does not use, oldest first, up to POOL_SIZE per rule set (only `rules` if given).
 * Resolves `{status, held, started}`: the list's HTTP status (0: no answer), the ids it holds (a
 * Set; null without a list) and its hidden-card games started on some device (a list).
 */
async function squareWithServer(account, { adopt, rules = null }) {
  const askedAt = Date.now();
  const answer = await api(HELD_ENDPOINT);
  if (!answer.ok || !Array.isArray(answer.data)) return { status: answer.status, held: null, started: [] };
  const held = answer.data.filter((game) => isPoolable(game) && RULES.includes(game.rules));
  const heldIds = new Set(held.map((game) => game.id));
  const startedIds = new Set(held.filter((game) => game.started === true).map((game) => game.id)); // played on elsewhere: not to be dealt afresh
  const pool = readPool(account.id);
  for (const kind of RULES) pool.games[kind] = pool.games[kind].filter((game) => !startedIds.has(game.id) && (heldIds.has(game.id) || (game.added_at ?? 0) >= askedAt));
  if (adopt) {
    const inUse = gamesInUse();
    for (const game of held) {
      const kept = pool.games[game.rules];
      if (game.started || (rules && game.rules !== rules) || kept.length >= POOL_SIZE || inUse.has(game.id) || kept.some((mine) => mine.id === game.id)) continue;
      kept.push(poolEntry(game, Date.now()));
    }
  }
  writePool(pool);
  return { status: answer.status, held: heldIds, started: held.filter((game) => game.started === true) };
}

/**
 * Fill the pool of `account` up to POOL_SIZE deals per rule set (only `rules` if given): first
 * squared with the server's list (and taken back from it on a device without a pool of this
 * player), then new deals. Resolves `{ok, reason, held}`: reason "offline", or the server's
 * refusal when it issues no more and none of the player's games can be taken back; `held`, the
 * ids of the games the server's list holds (null without a list); `started`, its hidden-card
 * games started on some device.
 */
export async function refillPool(account, rules = null) {
  if (!account) return { ok: false, reason: "signed_out", held: null };
  const firstHere = storedOwner() !== account.id;
  const { status, held, started } = await squareWithServer(account, { adopt: firstHere, rules });
  if (status === 0) return { ok: false, reason: "offline", status: 0, held, started };
  for (const wanted of rules ? [rules] : RULES) {
    if (POOL_SIZE - readPool(account.id).games[wanted].length <= 0) continue;
    const answer = await issue(account, wanted);
    if (answer.status === 409 && answer.data?.code === "too_many_unplayed") {
      // The player holds the most unplayed games: they are somewhere; take them back.
      await squareWithServer(account, { adopt: true, rules: wanted });
      if (readPool(account.id).games[wanted].length > 0) continue;
    }
    if (!answer.ok) {
      return { ok: false, reason: answer.status === 0 ? "offline" : refusalText(answer.data, answer.status), status: answer.status, held, started };
    }
  }
  return { ok: true, reason: null, held, started };
}

// Ask for the deals of `wanted` the pool misses, and keep them. Resolves the API's answer.
async function issue(account, wanted) {
  const missing = POOL_SIZE - readPool(account.id).games[wanted].length;
  const answer = await api("/api/games/", { method: "POST", body: { rules: wanted, count: missing, hidden: true } });
  if (!answer.ok || !Array.isArray(answer.data)) return answer.ok ? { ...answer, ok: false } : answer;
  const pool = readPool(account.id); // read again: another tab may have taken a deal meanwhile
  pool.games[wanted].push(...answer.data.map((game) => poolEntry(game, Date.now())));
  writePool(pool);
  return answer;
}
