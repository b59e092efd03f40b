// Who is playing. The server says (GET /api/session/: the account, or null signed out); the
// device remembers the last answer for visits without a network, when the page itself may
// come from the service worker's cache. The header's links follow: the player's name, sign
// in / sign up / sign out, each bringing the player back to this page (`?next=`).
// The account also keeps the player's language: see settleLanguage below.

import { api } from "./api.js";
import { $, $$ } from "./dom.js";
import { chooseLanguage, forgetUnsentLanguage, resolveLanguage, storedLanguage, t, unsentLanguage } from "./i18n.js";

const KEY = "yukon.account.v1";

/** The account last seen on this device: `{id, name}`, or null (signed out or never seen). */
export function knownAccount() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null");
    return saved && Number.isInteger(saved.id) && typeof saved.name === "string" ? saved : null;
  } catch {
    return null;
  }
}

function remember(account) {
  try {
    if (account) localStorage.setItem(KEY, JSON.stringify(account));
    else localStorage.removeItem(KEY);
  } catch {
    // storage blocked: the account is asked for again next time
  }
}

/**
 * Ask the server. Resolves `{account, fresh}`: `fresh` is true when the server answered (the
 * account is then certain, null when signed out); false when it could not be reached (the
 * account is the one remembered).
 */
export async function refreshAccount() {
  // A 200 signed out too: a 403 would be logged as an error on every signed-out visit.
  const answer = await api("/api/session/", { timeoutMs: 5000 });
  const data = answer.ok && answer.data ? answer.data.account : undefined;
  if (data) {
    const account = { id: data.id, name: data.display_name || data.username };
    remember(account);
    settleLanguage(data.language ?? "");
    return { account, fresh: true };
  }
  if (data === null || answer.status === 401 || answer.status === 403) {
    remember(null);
    forgetUnsentLanguage(); // a choice made signed out stays on this device only
    return { account: null, fresh: true };
  }
  return { account: knownAccount(), fresh: false };
}

const sendLanguage = (language) =>
  api("/api/account/", { method: "PATCH", body: { language }, timeoutMs: 5000 });

/**
 * Keep the device's language and the account's in step, once the server has said who is
 * signed in. The latest explicit choice wins:
 * - a language picked on this device and not yet sent (offline, or picked and reloaded)
 *   goes to the account; it stays unsent until the server answers;
 * - otherwise the account's language, when it has one, becomes the device's: a new device
 *   follows the account, and so does a device after a choice made on another one (the page
 *   reloads in it);
 * - an account with no language yet takes the one chosen on this device, if any.
 */
export async function settleLanguage(accountLanguage) {
  const unsent = unsentLanguage();
  if (unsent) {
    const sent = await sendLanguage(unsent);
    if (sent.status !== 0 && sent.status < 500) forgetUnsentLanguage(unsent); // stored, or refused for good
    return;
  }
  if (accountLanguage && accountLanguage !== resolveLanguage()) {
    chooseLanguage(accountLanguage, { byPlayer: false });
    // Reload only when the device kept it (storage blocked would reload forever).
    if (resolveLanguage() === accountLanguage) location.reload();
    return;
  }
  const chosen = storedLanguage();
  if (!accountLanguage && chosen) await sendLanguage(chosen);
}

/** Where a sign-in, sign-up or sign-out should bring the player back to: this page. */
export function hereForNext(place = location) {
  return place.pathname.startsWith("/accounts/") ? "/" : `${place.pathname}${place.search}`;
}

/** Show `account` in the header: its name, and the links that fit (server-rendered, kept in step). */
export function renderAccountNav(account, root = document) {
  const nav = $("[data-account-nav]", root);
  if (!nav) return;
  nav.dataset.signedIn = String(Boolean(account));
  for (const part of $$("[data-when]", nav)) part.hidden = (part.dataset.when === "signed-in") !== Boolean(account);
  const name = $("[data-account-name]", nav);
  if (name && account) {
    name.textContent = account.name;
    name.title = t("me.linkTitle", { player: account.name });
  }
  for (const link of $$("[data-account-link]", nav)) {
    const url = new URL(link.href, location.href);
    url.searchParams.set("next", hereForNext());
    link.href = `${url.pathname}${url.search}`;
  }
}
