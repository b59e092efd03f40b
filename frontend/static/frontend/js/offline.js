// The page's side of offline play: register the service worker (/sw.js) and, when a new
// build has installed in the background, offer a reload. The reload happens only when the
// player asks for it, after the game in progress has been saved.

/**
 * `onUpdate(reload)` is called once a new build is ready; calling `reload()` switches to it.
 * `beforeReload()` saves what must survive the reload.
 */
export function registerServiceWorker({ onUpdate, beforeReload }) {
  if (!("serviceWorker" in navigator)) return;
  const workers = navigator.serviceWorker;
  let asked = false;
  workers.addEventListener("controllerchange", () => {
    if (asked) location.reload();
  });
  const offer = (worker) =>
    onUpdate(() => {
      asked = true;
      beforeReload();
      worker.postMessage({ type: "skip-waiting" });
    });

  workers
    .register("/sw.js", { scope: "/" })
    .then((registration) => {
      if (registration.waiting && workers.controller) offer(registration.waiting);
      registration.addEventListener("updatefound", () => {
        const worker = registration.installing;
        worker?.addEventListener("statechange", () => {
          // With no controller this is the first install, not an update.
          if (worker.state === "installed" && workers.controller) offer(worker);
        });
      });
      // A page whose load raced the worker's activation stays uncontrolled (the worker claims
      // the pages open when it activates, and this one was not yet): ask it to claim again, so
      // that this page plays offline too without a reload.
      workers.ready.then((ready) => {
        if (!workers.controller) ready.active?.postMessage({ type: "claim" });
      });
      // A player who keeps the tab open for days still hears of a new build.
      document.addEventListener("visibilitychange", () => {
        if (!document.hidden) registration.update().catch(() => {});
      });
    })
    .catch(() => {}); // no worker (private mode, old browser): the game still plays online
}
