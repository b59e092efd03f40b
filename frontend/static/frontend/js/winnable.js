// "Winnable deals only" (unranked play): deals drawn at random from codes the solver has won
// (GET /api/deals/winnable/). A stash of such codes per rule set is kept on the device, topped
// up in the background while online, so the option works offline too; a code leaves the stash
// when it is dealt and is remembered, so that it is not dealt twice. With the stash empty and
// no answer, the deal is a random one and the player is told. Ranked deals never come from here:
// the server draws them at random for everyone.

import { api } from "./api.js";

const STASH_KEY = "yukon.winnable.v1";
export const RULE_SETS = Object.freeze(["classic", "relaxed"]);
export const STASH_SIZE = 10; // codes kept per rule set
const TOP_UP_BELOW = 6; // a background top-up starts when fewer are left
// Codes already dealt, remembered so as not to deal them again: well under the server's pool of
// a rule set (SOLVER_POOL_SIZE, 200), else a player who has dealt most of it gets no fresh codes.
export const DEALT_KEPT = 100;
const ENDPOINT = "/api/deals/winnable/";

// ---- the stash as data (no storage, no network): `{classic: [codes], relaxed: [codes], dealt: [codes]}`

const codeList = (value) => (Array.isArray(value) ? value.filter((code) => typeof code === "string") : []);

/** A stash read back from storage, whatever shape it was left in. */
export function normaliseStash(saved) {
  const object = saved !== null && typeof saved === "object" ? saved : {};
  const stash = { dealt: codeList(object.dealt).slice(-DEALT_KEPT) };
  for (const rules of RULE_SETS) stash[rules] = codeList(object[rules]);
  return stash;
}

/** `codes` added to the stash of `rules`: no repeat, none already dealt, at most STASH_SIZE. */
export function addCodes(stash, rules, codes) {
  const known = new Set([...stash[rules], ...stash.dealt]);
  const added = codeList(codes).filter((code) => !known.has(code) && known.add(code));
  return { ...stash, [rules]: [...stash[rules], ...added].slice(0, STASH_SIZE) };
}

/**
 * One code of `rules` drawn at random (`random()` in [0, 1)), and the stash without it (the
 * code remembered as dealt); `{code: null}` when the stash of `rules` is empty.
 */
export function takeCode(stash, rules, random = Math.random) {
  const codes = stash[rules];
  if (codes.length === 0) return { code: null, stash };
  const index = Math.min(codes.length - 1, Math.floor(random() * codes.length));
  const code = codes[index];
  const dealt = [...stash.dealt.filter((each) => each !== code), code].slice(-DEALT_KEPT);
  return { code, stash: { ...stash, [rules]: codes.filter((_, i) => i !== index), dealt } };
}

/** How many codes to ask the server for: enough to fill the stash, with room for repeats. */
export const wanted = (stash, rules) => Math.max(0, STASH_SIZE - stash[rules].length);

// ---- on the device ---------------------------------------------------------------------

function readStash() {
  try {
    return normaliseStash(JSON.parse(localStorage.getItem(STASH_KEY) ?? "null"));
  } catch {
    return normaliseStash(null);
  }
}

function writeStash(stash) {
  try {
    localStorage.setItem(STASH_KEY, JSON.stringify(stash));
  } catch {
    // storage full or blocked: the option works online only
  }
}

/** The codes of `rules` kept on this device (a copy). */
export const stashedCodes = (rules) => readStash()[rules].slice();

/**
 * The option and its stash. `enabled()` reads the player's choice (the aid `winnableOnly`).
 * Deals come as `{code, issued: null, origin}`, origin `winnable`, or `deal` for the
 * random deal given when no winnable one was at hand (`why`: "offline" or "none").
 */
export class WinnableDeals {
  #refills = new Map(); // rules → the top-up under way

  constructor({ enabled, origins }) {
    this.enabled = enabled;
    this.origins = origins;
  }

  /** A winnable deal from the stash now, or null (the stash is empty); tops the stash up. */
  take(rules) {
    const taken = takeCode(readStash(), rules);
    if (taken.code === null) return null;
    writeStash(taken.stash);
    this.topUp(rules);
    return { code: taken.code, issued: null, origin: this.origins.winnable };
  }

  /**
   * The next winnable deal of `rules`: from the stash, else asked for now. `null` with a
   * reason when there is none: `{code: null, why: "offline" | "none"}`.
   */
  async next(rules) {
    const now = this.take(rules);
    if (now) return now;
    const answer = await this.refill(rules);
    return this.take(rules) ?? { code: null, why: answer.status === 0 ? "offline" : "none" };
  }

  /** Fill the stash of `rules` in the background when it runs low (only while the option is on). */
  topUp(rules) {
    if (!this.enabled() || stashedCodes(rules).length >= TOP_UP_BELOW) return Promise.resolve(null);
    return this.refill(rules);
  }

  /** Top up every rule set (the option just turned on, the page loaded, back online). */
  topUpAll() {
    return Promise.all(RULE_SETS.map((rules) => this.topUp(rules)));
  }

  /** Ask the server for codes of `rules` and keep them; resolves the API's answer (one at a time per rule set). */
  refill(rules) {
    if (!this.#refills.has(rules)) {
      const running = this.#fetch(rules).finally(() => this.#refills.delete(rules));
      this.#refills.set(rules, running);
    }
    return this.#refills.get(rules);
  }

  async #fetch(rules) {
    const count = wanted(readStash(), rules);
    if (count === 0) return { ok: true, status: 200, data: null };
    const answer = await api(`${ENDPOINT}?rules=${rules}&count=${count + 2}`);
    if (answer.ok && Array.isArray(answer.data?.codes)) writeStash(addCodes(readStash(), rules, answer.data.codes));
    return answer;
  }
}
