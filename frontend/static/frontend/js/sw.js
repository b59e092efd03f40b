// The service worker, served from /sw.js (frontend/views.py fills in the build and the list
// of files) so that it controls the whole site. It keeps the app shells of one build in one
// cache, so the game loads and plays with no network, and the other pages open and say
// clearly that their data needs one. A new build installs beside the old one and waits: it
// takes over only when the player chooses to reload, so a game in progress never meets a
// half-updated page.

const BUILD = "__BUILD__";
const SHELL = ["__SHELL__"]; // the pages and every static file they load
const STATIC_PREFIX = "__STATIC_URL__";
const CACHE = `yukon-shell-${BUILD}`;
const NETWORK_WAIT_MS = 3000; // a page slower than this comes from the cache

// Requests this worker never answers: the API and every write. Where the browser knows static
// routes (Chromium), they go straight to the network instead of waiting for this worker to start
// and pass them on: under load that wait could hold a page's request for seconds, and drop the
// one a page sends as it goes (the quick-match queue's leave). Elsewhere the fetch handler lets
// them pass.
const NETWORK_ROUTES = [
  { condition: { urlPattern: { pathname: "/api/*" } }, source: "network" },
  { condition: { not: { requestMethod: "GET" } }, source: "network" },
];

self.addEventListener("install", (event) => {
  // An unknown route is no reason to stay uninstalled: the fetch handler covers it.
  const routes = event.addRoutes ? event.addRoutes(NETWORK_ROUTES).catch(() => {}) : null;
  // "no-cache": files the page has just loaded are revalidated, not downloaded again, and
  // an older copy of a file in the HTTP cache never enters this build's cache.
  const shell = caches.open(CACHE).then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: "no-cache" }))));
  event.waitUntil(Promise.all([routes, shell]));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("yukon-shell-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "skip-waiting") self.skipWaiting();
  // A page loaded while this worker activated asks to be controlled (offline.js).
  if (event.data?.type === "claim") event.waitUntil(self.clients.claim());
});

// The cached shell that serves a page: "/" and "/play/<code>" are the game's shell, every
// "/replay/<id>" the replay's; the scripts read the address. null: not a page kept here.
function shellOf(path) {
  if (path === "/" || path.startsWith("/play/")) return "/";
  if (path === "/leaderboard" || path === "/me" || path === "/help") return path;
  if (path.startsWith("/replay/")) return "/replay/";
  return null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const shell = request.mode === "navigate" ? shellOf(url.pathname) : null;
  if (shell) event.respondWith(page(request, shell));
  else if (url.pathname.startsWith(STATIC_PREFIX)) event.respondWith(staticFile(request));
});

/**
 * The page from the network when the server runs this same build (fresh sign-in state,
 * the same files); otherwise — offline, slow, or already a newer build whose files this
 * worker does not have — the cached shell, which matches the cached files.
 */
async function page(request, shell) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(shell);
  try {
    const response = await withTimeout(fetch(request), cached ? NETWORK_WAIT_MS : 0);
    const current = response.ok && !response.redirected && response.headers.get("X-Yukon-Build") === BUILD;
    // The kept copy follows the latest one seen: its language (a player who changes it online
    // finds the pages in that language offline), its account links.
    if (current) cache.put(shell, response.clone()).catch(() => {});
    // A page the server says is not there (404: its own page saying so) is passed through,
    // never kept, and never replaced by the cached shell of a page that is.
    if (!cached || current || response.status === 404) return response;
  } catch {
    if (!cached) return Response.error();
  }
  return cached;
}

async function staticFile(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

function withTimeout(promise, ms) {
  if (!ms) return promise;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
