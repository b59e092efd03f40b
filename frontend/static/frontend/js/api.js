// The site's JSON API, as the page calls it: the session cookie signs the player in, and every
// writing request carries the CSRF token (the csrftoken cookie in an X-CSRFToken header).
// Every call resolves — never throws — with {ok, status, data}; status 0 means no answer
// (offline, the server down, or too slow), so callers can tell "try later" from "refused".

import { t } from "./i18n.js";

const TIMEOUT_MS = 10_000;

export function csrfToken(cookies = document.cookie) {
  const match = cookies.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

const READ_RETRY_MS = 700;

/**
 * `api("/api/games/", {method: "POST", body: {...}})` → `{ok, status, data, retryAfter}`.
 * `data` is the parsed JSON answer (null when there is none); `retryAfter` is in seconds.
 * A read the server failed (5xx) is asked once more after a moment: reading twice is harmless.
 */
export async function api(url, options = {}) {
  const answer = await request(url, options);
  if ((options.method ?? "GET") !== "GET" || answer.status < 500) return answer;
  await new Promise((resolve) => setTimeout(resolve, READ_RETRY_MS));
  return request(url, options);
}

async function request(url, { method = "GET", body, timeoutMs = TIMEOUT_MS, fetchImpl = globalThis.fetch } = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    headers["X-CSRFToken"] = csrfToken();
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response;
  try {
    response = await fetchImpl(url, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch {
    return { ok: false, status: 0, data: null, retryAfter: null };
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // 204, or not JSON (a proxy's error page): no data
  }
  const retryAfter = Number(response.headers.get("Retry-After")) || null;
  return { ok: response.ok, status: response.status, data, retryAfter };
}

// The session's refusals (docs/api.md): signed out, or the CSRF token missing. Not a refusal of the
// request itself: it may go through once the player signs in again.
const SESSION_REFUSALS = ["not_authenticated", "permission_denied"];

/** A 403 of the session rather than of the request (an answer without a code counts as one). */
export const sessionRefused = ({ status, data }) =>
  status === 403 && (!data?.code || SESSION_REFUSALS.includes(data.code));

/** A refusal as one sentence: `{detail}`, `{field: [messages]}` or a log error `{log: [{message}]}`. */
export function refusalText(data, status) {
  if (data && typeof data.detail === "string") return data.detail;
  if (data && typeof data === "object") {
    const parts = [];
    for (const [field, errors] of Object.entries(data)) {
      for (const error of [errors].flat()) {
        const text = typeof error === "string" ? error : error?.message;
        if (text) parts.push(field === "non_field_errors" ? text : `${field.replaceAll("_", " ")}: ${text}`);
      }
    }
    if (parts.length) return parts.join("; ");
  }
  return t("api.status", { status });
}

/** A link of our own API (a page's `next` or `previous`) as a path; null for anything else. */
export function apiPath(url) {
  if (!url) return null;
  try {
    const parsed = new URL(url, location.href);
    return parsed.origin === location.origin ? `${parsed.pathname}${parsed.search}` : null;
  } catch {
    return null;
  }
}
