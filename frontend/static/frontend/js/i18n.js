// The language of the page. The table's words live in one catalog per language
// (i18n/<lang>.json, keyed by name; refusals keyed by the engine's refusal codes); `t(key,
// params)` reads them, English filling any gap. The choice of language is kept on the device
// (localStorage) and in the django_language cookie, so that server pages (help, accounts)
// follow it; with no choice made, the browser's languages decide. A signed-in player's choice
// also goes to the account (account.js), and the account's language comes back to the device
// when the server sets the cookie at sign-in. docs/help.md.

import { formatRefusal } from "./engine.js";

export const LANGUAGES = Object.freeze(["en", "ms", "hi", "tl"]);
export const DEFAULT_LANGUAGE = "en";
const STORAGE_KEY = "yukon.language.v1";
const WRITTEN_KEY = "yukon.language.cookie.v1"; // what this page last wrote into the cookie
const UNSENT_KEY = "yukon.language.unsent.v1"; // a choice made here, not yet on the account
const COOKIE = "django_language";
// Set for the reload that a language chosen with the picker makes: the same view in other words.
const RELOADED_KEY = "yukon.language.reloaded";
const COOKIE_MAX_AGE_S = 365 * 24 * 3600;
const ALIASES = Object.freeze({ fil: "tl" }); // browsers set to Filipino ask for "fil"
const INTL_LOCALES = Object.freeze({ tl: "fil" }); // Intl knows Tagalog as Filipino

let current = DEFAULT_LANGUAGE;
let catalogs = []; // the language's catalog first, then English
let plurals = new Intl.PluralRules(DEFAULT_LANGUAGE);

/** The first supported language among BCP 47 tags ("ms-MY" → "ms"), or null. */
export function matchLanguage(tags) {
  for (const tag of tags ?? []) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    const language = ALIASES[base] ?? base;
    if (LANGUAGES.includes(language)) return language;
  }
  return null;
}

function read(key) {
  try {
    const value = localStorage.getItem(key);
    return LANGUAGES.includes(value) ? value : null;
  } catch {
    return null; // storage blocked: the browser's languages decide
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage blocked: the cookie still carries the choice
  }
}

/** The language chosen on this device (picker, or the account's), or null. */
export const storedLanguage = () => read(STORAGE_KEY);

/** A language picked on this device that the account has not been told yet, or null. */
export const unsentLanguage = () => read(UNSENT_KEY);

/** The account now knows `name` (or, with no argument, any unsent choice is dropped). */
export function forgetUnsentLanguage(name = null) {
  if (name === null || unsentLanguage() === name) write(UNSENT_KEY, null);
}

/** The device's choice, else the browser's languages, else English. */
export function resolveLanguage() {
  const browser = typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]);
  return storedLanguage() ?? matchLanguage(browser) ?? DEFAULT_LANGUAGE;
}

export const language = () => current;

/** The locale for Intl (numbers, plural rules). */
export const intlLocale = () => INTL_LOCALES[current] ?? current;

async function fetchCatalog(name) {
  const response = await fetch(new URL(`./i18n/${name}.json`, import.meta.url));
  if (!response.ok) throw new Error(`catalog ${name}: HTTP ${response.status}`);
  return response.json();
}

/** Load the catalogs of `name` (and English beneath it); a catalog that fails is left out. */
export async function loadLanguage(name = resolveLanguage()) {
  const wanted = LANGUAGES.includes(name) ? name : DEFAULT_LANGUAGE;
  const names = wanted === DEFAULT_LANGUAGE ? [DEFAULT_LANGUAGE] : [wanted, DEFAULT_LANGUAGE];
  const loaded = await Promise.all(names.map((each) => fetchCatalog(each).catch(() => null)));
  catalogs = loaded.filter(Boolean);
  current = loaded[0] ? wanted : DEFAULT_LANGUAGE;
  plurals = new Intl.PluralRules(intlLocale());
  return current;
}

function lookup(catalog, key) {
  let entry = catalog;
  for (const part of key.split(".")) entry = entry?.[part];
  return entry;
}

const fill = (template, params) =>
  template.replace(/\{(\w+)\}/g, (placeholder, name) => (name in params ? String(params[name]) : placeholder));

/**
 * The text of `key` ("bar.moves") with `{name}` placeholders filled from `params`. An entry
 * with plural forms ({one, other}) is chosen by `params.count`. A key no catalog has is
 * returned as it is, so that a gap shows and is caught by the tests.
 */
export function t(key, params = {}) {
  for (const catalog of catalogs) {
    let entry = lookup(catalog, key);
    if (entry !== null && typeof entry === "object") entry = entry[plurals.select(Number(params.count ?? 0))] ?? entry.other;
    if (typeof entry === "string" && entry !== "") return fill(entry, params);
  }
  return key;
}

/** A refusal (`{code, message, params}` from the engine) in the page's language. */
export function refusalText(refusal) {
  const catalog = catalogs[0]?.refusals;
  if (!catalog) return refusal.message; // English: the engine's own words
  return formatRefusal(refusal.code, refusal.params ?? {}, catalog); // a gap falls back to English
}

// The engine explains a code it cannot read in English; these find which case it is.
const CODE_ERRORS = [
  [/^a game code is text/, "notText"],
  [/^"(?<text>.*)" is not a game code: use only/, "characters"],
  [/^"(?<text>.*)" is not a game code: expected three parts/, "parts"],
  [/^unknown code version "(?<version>.*)"/, "version"],
  [/^unknown rule letter "(?<letter>.*)"/, "ruleLetter"],
  [/^deal part "(?<deal>.*)" must be/, "dealPart"],
];

/** Why a game code was refused (an InvalidCodeError), in the page's language. */
export function codeErrorText(error) {
  for (const [pattern, key] of CODE_ERRORS) {
    const match = pattern.exec(error.message);
    if (match) return t(`code.${key}`, match.groups ?? {});
  }
  return error.message;
}

/** The stop that ends a sentence in this language ("." or Hindi's "।"). */
export function fullStop() {
  const stop = t("meta.stop");
  return stop === "meta.stop" ? "." : stop; // no catalog loaded (a page without the table)
}

/** "7♥ needs a black 8" → "7♥ needs a black 8." with a capital first letter and this language's stop. */
export function sentence(text) {
  const ended = /[.!?।…]$/.test(text);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${ended ? "" : fullStop()}`;
}

/**
 * Put the catalog's words into markup rendered for another language (a page kept for
 * offline use): `data-i18n="key"` sets the text, `data-i18n-attr="aria-label:key title:key"`
 * sets attributes.
 */
export function translatePage(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    const text = t(element.dataset.i18n);
    if (element.textContent !== text) element.textContent = text;
  }
  for (const element of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of element.dataset.i18nAttr.trim().split(/\s+/)) {
      const [attribute, key] = pair.split(":");
      element.setAttribute(attribute, t(key));
    }
  }
  document.documentElement.lang = current;
}

// ---- the choice: device, cookie, picker ---------------------------------------------------

function readCookie() {
  const found = document.cookie.split("; ").find((pair) => pair.startsWith(`${COOKIE}=`));
  return found ? decodeURIComponent(found.slice(COOKIE.length + 1)) : null;
}

function writeCookie(name) {
  document.cookie = `${COOKIE}=${encodeURIComponent(name)}; path=/; max-age=${COOKIE_MAX_AGE_S}; samesite=lax`;
  write(WRITTEN_KEY, name);
}

/**
 * Remember `name` on this device and tell the server (the cookie). A choice `byPlayer` (the
 * picker) is also kept as unsent until account.js has written it to the account; the
 * account's own language, adopted by the device, is not.
 */
export function chooseLanguage(name, { byPlayer = true } = {}) {
  if (!LANGUAGES.includes(name)) throw new RangeError(`unsupported language ${JSON.stringify(name)}`);
  write(STORAGE_KEY, name);
  write(UNSENT_KEY, byPlayer ? name : null);
  writeCookie(name);
}

// A cookie this page did not write was set by the server: at sign-in (the account's
// language) or by the picker's form without scripts. The device takes it as its choice.
// On a device where this page never wrote the cookie, only when it has no choice of its own.
function followServerCookie() {
  const cookie = readCookie();
  const chosen = storedLanguage();
  const written = read(WRITTEN_KEY);
  if (LANGUAGES.includes(cookie) && cookie !== chosen && (written ? cookie !== written : chosen === null)) {
    chooseLanguage(cookie, { byPlayer: false });
  }
}

// The picker is a form for the server's set_language view; with scripts on, a choice takes
// effect at once: kept, sent as the cookie, and the page reloaded in that language.
function wirePickers() {
  for (const form of document.querySelectorAll("[data-language-picker]")) {
    const select = form.querySelector("select");
    if (!select) continue;
    select.value = resolveLanguage();
    const shown = form.querySelector("[data-language-shown]");
    if (shown) shown.textContent = select.value.toUpperCase();
    for (const button of form.querySelectorAll('[type="submit"]')) button.hidden = true;
    select.addEventListener("change", () => {
      chooseLanguage(select.value);
      try {
        sessionStorage.setItem(RELOADED_KEY, "1");
      } catch {
        // no session storage: the page comes back as any reload brings it
      }
      location.reload();
    });
  }
}

/** True once, in the page loaded again for a language chosen with the picker. */
export function reloadedForLanguage() {
  try {
    const reloaded = sessionStorage.getItem(RELOADED_KEY) !== null;
    sessionStorage.removeItem(RELOADED_KEY);
    return reloaded;
  } catch {
    return false;
  }
}

if (typeof document !== "undefined") {
  followServerCookie();
  // Server pages follow the device: the cookie says what this device resolved.
  const resolved = resolveLanguage();
  if (readCookie() !== resolved) writeCookie(resolved);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wirePickers, { once: true });
  else wirePickers();
  // Every module that imports this one runs with the words of the page's language at hand.
  await loadLanguage(resolved);
}
