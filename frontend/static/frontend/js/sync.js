// Results on their way to the server: a durable outbox in localStorage. Every finished game
// to submit — every win, and every ranked game left unfinished — is queued at once under a
// client_id (a UUID), so an upload retried after a lost answer is recognised by the server
// (200: already stored) instead of counted twice. Each entry then goes through
//   waiting → sent (the server stored it, 202/200) → verified | rejected (its verdict),
// and keeps what the player may want to see: the ranks reached, or the server's reason.
// Uploads need a signed-in player; a ranked result goes only with the player it was issued to.
// A ranked win refused because its game accepts no result any more (409 game_used: played on
// another device, or expired) is sent again as an unranked result of its code, under a new
// client_id (unrankedClientId): the win then counts as any play of that deal does, on the
// deal's own board. A hidden-card game has no code to fall back on: its refusal stands. Its
// verdict brings the code and the secret the server publishes once the game is finished.

import { api, refusalText, sessionRefused } from "./api.js";
import { t } from "./i18n.js";

const OUTBOX_KEY = "yukon.outbox.v1";
export const RESULTS_ENDPOINT = "/api/submissions/";
const SETTLED_KEPT = 20; // verified or rejected entries kept for the Results list
const CHANGE_EVENT = "yukon:results";
// The fields the API takes; the rest of an entry is the page's own bookkeeping.
const BODY_FIELDS = ["client_id", "game", "code", "log", "move_times_ms", "duration_ms", "finished_at", "client_version", "assisted"];

/** A random UUID (version 4), also where crypto.randomUUID is missing. */
export function newClientId() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return asUuid([...bytes].map((b) => b.toString(16).padStart(2, "0")).join(""));
}

const asUuid = (hex) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * The client_id of a ranked result sent again as unranked: another UUID, the same on every try
 * and in every tab (so the server recognises a repeated upload), made from the first one.
 */
export function unrankedClientId(clientId) {
  const digits = String(clientId).replaceAll("-", "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(digits)) return newClientId();
  const hex = [...digits].map((digit) => (parseInt(digit, 16) ^ 0xa).toString(16)); // every digit changes
  hex[12] = "4"; // version 4
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16); // RFC 4122 variant
  return asUuid(hex.join(""));
}

// Entries written by older builds had no state (waiting) or a `rejected` HTTP status.
function normalise(entry) {
  if (entry.state) return entry;
  return entry.rejected
    ? { ...entry, state: "rejected", reason: entry.reason ?? t("api.status", { status: entry.rejected }) }
    : { ...entry, state: "waiting" };
}

function readOutbox() {
  try {
    const entries = JSON.parse(localStorage.getItem(OUTBOX_KEY) ?? "[]");
    return Array.isArray(entries) ? entries.filter((entry) => entry && entry.client_id).map(normalise) : [];
  } catch {
    return [];
  }
}

function writeOutbox(entries) {
  const settled = entries.filter((entry) => entry.state === "verified" || entry.state === "rejected");
  const dropped = new Set(settled.slice(0, Math.max(0, settled.length - SETTLED_KEPT)).map((entry) => entry.client_id));
  try {
    localStorage.setItem(OUTBOX_KEY, JSON.stringify(entries.filter((entry) => !dropped.has(entry.client_id))));
  } catch {
    return; // storage full or blocked: nothing changed
  }
  dispatchEvent(new CustomEvent(CHANGE_EVENT));
}

// A result that settles is new to the player until they have seen its verdict (markSeen);
// `news: false` keeps it as it was (a verdict asked for again that did not change).
function update(clientId, changes, { news = true } = {}) {
  const settled = news && (changes.state === "verified" || changes.state === "rejected");
  const change = { ...changes, ...(settled ? { seen: false } : {}), updated_at: new Date().toISOString() };
  writeOutbox(readOutbox().map((entry) => (entry.client_id === clientId ? { ...entry, ...change } : entry)));
}

/** Every result on this device, newest first. */
export const listResults = () => readOutbox().reverse();

/** The entry queued under `clientId` (also once it was sent again as unranked under another one). */
export const findResult = (clientId) =>
  readOutbox().find((entry) => entry.client_id === clientId || entry.fallback?.client_id === clientId) ?? null;

/** Settled results whose verdict the player has not seen yet. */
export const unseenResults = () => readOutbox().filter((entry) => entry.seen === false);

/** The player has seen these verdicts (all of them without `clientIds`). */
export function markSeen(clientIds = null) {
  const entries = readOutbox();
  const seen = (entry) => entry.seen === false && (clientIds === null || clientIds.includes(entry.client_id));
  if (entries.some(seen)) writeOutbox(entries.map((entry) => (seen(entry) ? { ...entry, seen: true } : entry)));
}

/** The results not settled yet (waiting or sent). */
export const pendingResults = () => readOutbox().filter((entry) => entry.state === "waiting" || entry.state === "sent");

/** Call `listener()` whenever the outbox changes, in this tab or another one. */
export function onResultsChange(listener) {
  addEventListener(CHANGE_EVENT, listener);
  addEventListener("storage", (event) => {
    if (event.key === OUTBOX_KEY) listener();
  });
}

/**
 * Queue a finished game: `{game?, code, log, move_times_ms, duration_ms, finished_at,
 * client_version}` plus, for the page, `rules`, `won`, `moves`, `score` and `owner` (the
 * player a ranked game was issued to). Returns the entry; a client_id is never queued twice.
 */
export function enqueueResult(result) {
  const now = new Date().toISOString();
  const entry = { client_id: newClientId(), ...result, state: "waiting", queued_at: now, updated_at: now };
  const entries = readOutbox();
  if (!entries.some((queued) => queued.client_id === entry.client_id)) writeOutbox([...entries, entry]);
  return entry;
}

/**
 * May `account` send this entry? A ranked result (or one sent again as unranked) only by its
 * owner; any other by anyone signed in.
 */
export const sendableBy = (entry, account) =>
  Boolean(account) && ((entry.game == null && !entry.fallback) || entry.owner == null || entry.owner === account.id);

// The refusal of a game that accepts no result any more (docs/api.md): already used, or expired.
const GAME_USED = "game_used";

/**
 * The changes that turn a refused ranked win into an unranked result of its code, or null: only
 * for a win whose game was already used or has expired (409 game_used), never another refusal.
 */
export function unrankedFallback(entry, answer) {
  if (entry.game == null || !entry.code || entry.won !== true || answer.status !== 409 || answer.data?.code !== GAME_USED) return null;
  return { client_id: unrankedClientId(entry.client_id), game: null, fallback: { client_id: entry.client_id, game: entry.game, reason: refusalText(answer.data, answer.status) } };
}

// The API takes `game` (ranked) or `code` (unranked), never both; the entry keeps the code to show it.
const bodyOf = (entry) =>
  Object.fromEntries(
    BODY_FIELDS.filter((name) => entry[name] !== undefined && entry[name] !== null && !(name === "code" && entry.game != null)).map((name) => [name, entry[name]]),
  );

/**
 * Send the waiting results `account` may send, oldest first. Resolves `{sent, pending, reason}`:
 * reason null when everything possible went, else why the rest waits ("signed_out",
 * "offline", "http_503", …) — and `retryAfter` (seconds) when the server asked for a pause.
 */
export async function uploadPending({ account, fetchImpl } = {}) {
  if (!account) return { sent: 0, pending: pendingResults().length, reason: "signed_out" };
  let sent = 0;
  for (let entry of readOutbox()) {
    if (entry.state !== "waiting" || !sendableBy(entry, account)) continue;
    let answer = await api(RESULTS_ENDPOINT, { method: "POST", body: bodyOf(entry), fetchImpl });
    const fallback = answer.ok ? null : unrankedFallback(entry, answer);
    if (fallback) {
      update(entry.client_id, fallback); // kept at once: a later try sends the unranked result
      entry = { ...entry, ...fallback };
      answer = await api(RESULTS_ENDPOINT, { method: "POST", body: bodyOf(entry), fetchImpl });
    }
    if (answer.ok) {
      update(entry.client_id, { state: "sent", submission: answer.data?.id ?? null, uploaded_by: account.id });
      sent++;
      continue;
    }
    const refusedForGood = [400, 404, 409, 413].includes(answer.status) || (answer.status === 403 && !sessionRefused(answer));
    if (!refusedForGood) {
      // Offline, signed out, CSRF, throttled, the server failing: everything waits for a later try.
      const reason = answer.status === 0 ? "offline" : answer.status === 403 ? "signed_out" : `http_${answer.status}`;
      return { sent, pending: pendingResults().length, reason, retryAfter: answer.retryAfter };
    }
    update(entry.client_id, { state: "rejected", reason: refusalText(answer.data, answer.status), http_status: answer.status });
  }
  return { sent, pending: pendingResults().length, reason: null };
}

// Refusals the server has since judged again: until the timing model was fixed, `timing_move`
// refused every game a person played (move 1 was timed from 0), and those results were judged
// again (docs/operations.md, "Upgrading"). Such a verdict is asked for once more.
const JUDGED_AGAIN = new Set(["timing_move"]);

/** Send `account`'s results refused for a reason judged again back to "sent", once each. */
export function askAgainJudgedAgain(account) {
  const entries = readOutbox();
  const again = (entry) =>
    entry.state === "rejected" && JUDGED_AGAIN.has(entry.reason_code) && entry.submission && entry.uploaded_by === account?.id && !entry.asked_again;
  if (!entries.some(again)) return 0;
  writeOutbox(entries.map((entry) => (again(entry) ? { ...entry, state: "sent", asked_again: entry.reason_code } : entry)));
  return entries.filter(again).length;
}

// What a verdict publishes: a hidden-card game's code, secret and commitment (fairness.js).
const published = (entry, submission) =>
  typeof submission.secret === "string" && typeof submission.code === "string"
    ? { code: submission.code, secret: submission.secret, commitment: submission.commitment ?? null }
    : {};

/** Ask for the verdict of every sent result of `account`. Resolves how many are still unsettled. */
export async function pollSent({ account, fetchImpl } = {}) {
  if (account) askAgainJudgedAgain(account);
  let unsettled = 0;
  for (const entry of readOutbox()) {
    if (entry.state !== "sent") continue;
    if (!account || entry.uploaded_by !== account.id || !entry.submission) continue;
    const answer = await api(`${RESULTS_ENDPOINT}${entry.submission}/`, { fetchImpl });
    const submission = answer.data;
    if (answer.ok && submission?.status === "verified") {
      update(entry.client_id, {
        ...published(entry, submission),
        state: "verified",
        ranks: submission.ranks ?? {},
        ranksOf: submission.ranks_of ?? {},
        verdict: { won: submission.won, moves: submission.moves, score: submission.score, points: submission.points, assisted: submission.assisted === true },
      });
    } else if (answer.ok && submission?.status === "rejected") {
      const code = submission.reason?.code ?? "";
      const unchanged = entry.asked_again === code; // asked again, and still refused for the same reason
      update(
        entry.client_id,
        // The reason's figures too: the page words it in the player's language (reasons.js).
        { ...published(entry, submission), state: "rejected", reason: submission.reason?.message ?? t("results.refused"), reason_code: code, reason_params: submission.reason?.params ?? null },
        { news: !unchanged },
      );
    } else if (answer.status === 404) {
      update(entry.client_id, { state: "rejected", reason: t("results.gone") });
    } else {
      unsettled++;
    }
  }
  return unsettled;
}

// The first retry comes soon (a passing server error), then the pauses grow.
const UPLOAD_RETRY_MS = [3_000, 15_000, 60_000, 120_000, 300_000, 600_000];
const POLL_MS = [500, 1000, 2000, 4000, 8000, 15_000, 30_000];

/**
 * Keeps results moving in the background: uploads on start, when the browser is back online,
 * when the page is seen again and after sign-in (`kick()`); retries with a growing pause while
 * results wait; after an upload asks for the verdicts until every one is settled.
 */
export class ResultsSync {
  #timer = 0;
  #uploadTry = 0;
  #pollTry = 0;
  #running = null;
  #again = false;

  /** `accountOf()` returns the signed-in account ({id, name}) or null. */
  constructor(accountOf) {
    this.accountOf = accountOf;
    addEventListener("online", () => this.kick());
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.kick();
    });
  }

  /** Upload and ask for verdicts now (once at a time); then plan the next round. */
  kick() {
    this.#uploadTry = 0;
    this.#pollTry = 0;
    return this.#round();
  }

  async #round() {
    if (this.#running) {
      this.#again = true; // something new came during this round: one more round after it
      return this.#running;
    }
    clearTimeout(this.#timer);
    this.#running = (async () => {
      let upload;
      do {
        this.#again = false;
        const account = this.accountOf();
        upload = await uploadPending({ account });
        const unsettled = await pollSent({ account });
        if (!this.#again) this.#plan(upload, unsettled, account);
      } while (this.#again);
      return upload;
    })().finally(() => (this.#running = null));
    return this.#running;
  }

  #plan(upload, unsettled, account) {
    let wait = null;
    if (unsettled > 0) wait = POLL_MS[Math.min(this.#pollTry++, POLL_MS.length - 1)];
    const waiting = account && pendingResults().some((entry) => entry.state === "waiting" && sendableBy(entry, account));
    if (waiting && upload.reason) {
      const retry = upload.retryAfter ? upload.retryAfter * 1000 : UPLOAD_RETRY_MS[Math.min(this.#uploadTry++, UPLOAD_RETRY_MS.length - 1)];
      wait = wait === null ? retry : Math.min(wait, retry);
    }
    if (wait !== null) this.#timer = setTimeout(() => this.#round(), wait);
  }
}
