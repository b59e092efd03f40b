// Results waiting to reach the server: a durable outbox in localStorage. Every win is queued
// at once, keyed by a client_id (a UUID) so that an upload retried after a lost answer is
// recognised by the server instead of counted twice. Until the site announces an endpoint
// (<meta name="yukon-results-endpoint">), upload() sends nothing and says so.

const OUTBOX_KEY = "yukon.outbox.v1";

/** A random UUID (version 4), also where crypto.randomUUID is missing. */
export function newClientId() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function readOutbox() {
  try {
    const entries = JSON.parse(localStorage.getItem(OUTBOX_KEY) ?? "[]");
    return Array.isArray(entries) ? entries : [];
  } catch {
    return [];
  }
}

function writeOutbox(entries) {
  try {
    localStorage.setItem(OUTBOX_KEY, JSON.stringify(entries));
    return true;
  } catch {
    return false;
  }
}

/** The results not yet accepted by the server, oldest first (those it refused for good are marked `rejected`). */
export const pendingResults = () => readOutbox();

/**
 * Queue a finished game: `{code, log, move_times_ms, duration_ms, finished_at, client_version}`.
 * Returns the entry with its client_id. The same client_id is never queued twice.
 */
export function enqueueResult(result) {
  const entry = { client_id: result.client_id ?? newClientId(), ...result };
  const entries = readOutbox();
  if (!entries.some((queued) => queued.client_id === entry.client_id)) {
    entries.push(entry);
    writeOutbox(entries);
  }
  return entry;
}

function markRejected(clientId, status) {
  writeOutbox(readOutbox().map((entry) => (entry.client_id === clientId ? { ...entry, rejected: status } : entry)));
}

function removeResult(clientId) {
  writeOutbox(readOutbox().filter((entry) => entry.client_id !== clientId));
}

/** The results endpoint the page announces, or null while the site has none. */
export function resultsEndpoint(doc = document) {
  return doc.querySelector('meta[name="yukon-results-endpoint"]')?.content || null;
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/**
 * Send the queued results, oldest first. A result leaves the outbox only when the server
 * has it (2xx, or 409: already recorded); a network failure or a 5xx keeps it for later.
 * Returns `{sent, pending, reason}`; reason "no_endpoint" when there is nowhere to send.
 */
export async function uploadPending({ endpoint = resultsEndpoint(), fetchImpl = globalThis.fetch } = {}) {
  const entries = readOutbox();
  if (!endpoint) return { sent: 0, pending: entries.length, reason: "no_endpoint" };
  let sent = 0;
  for (const entry of entries) {
    if (entry.rejected) continue;
    let response;
    try {
      response = await fetchImpl(endpoint, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(entry),
      });
    } catch {
      return { sent, pending: readOutbox().length, reason: "offline" };
    }
    if (response.ok || response.status === 409) {
      removeResult(entry.client_id);
      sent++;
    } else if (response.status >= 500 || response.status === 401 || response.status === 403 || response.status === 429) {
      // The server or the session is not ready: keep everything for a later try.
      return { sent, pending: readOutbox().length, reason: `http_${response.status}` };
    } else {
      markRejected(entry.client_id, response.status); // refused for good: kept, never resent
    }
  }
  return { sent, pending: readOutbox().length, reason: null };
}
