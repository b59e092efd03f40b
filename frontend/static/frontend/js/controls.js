// The page's controls, wired to the app (app.js): the buttons marked data-action, the keys that
// work anywhere on the page (undo, hint, finish, Escape), the page being hidden or shown, the clock's
// tick, the connection (offline or not) and the service worker's update notice.

import { openDialog } from "./dialogs.js";
import { $ } from "./dom.js";
import { isFinishKey } from "./finish.js";
import { t } from "./i18n.js";
import { registerServiceWorker } from "./offline.js";

const TICK_MS = 500;
const SAVE_EVERY_MS = 10_000;

export function bindControls(app) {
  const actions = {
    undo: () => app.undo(),
    hint: () => app.hints.ask(),
    finish: () => app.finisher.press(),
    "new-deal": () => app.newDeal(),
    redeal: () => app.redeal(),
    "new-game": () => app.newGame(),
    settings: () => app.settingsDialog.open(app.settings),
    help: async () => {
      if ((await openDialog($('[data-dialog="help"]'))) === "tour") app.startWalkthrough();
    },
    results: () => app.results.open(),
    connection: () => app.notices.show(t("connection.offlineNote")),
    "copy-code": () => copy(app, app.session.code, t("notice.codeCopied")),
    "copy-link": () => copy(app, new URL(`/play/${app.session.code}`, location.href).href, t("notice.linkCopied")),
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-action]");
    const action = button && !button.closest("dialog") ? actions[button.dataset.action] : undefined;
    const newTab = button?.tagName === "A" && (event.ctrlKey || event.metaKey || event.shiftKey);
    if (action && !newTab) {
      event.preventDefault();
      action();
    }
  });
  document.addEventListener("keydown", (event) => globalKey(app, event));
  document.addEventListener("visibilitychange", () => {
    app.session.setVisible(!document.hidden);
    if (document.hidden) app.save();
    else app.settle(); // signed in or out in another tab meanwhile?
  });
  addEventListener("pagehide", () => app.save());
  addEventListener("online", () => {
    showConnection(app, { changed: true });
    app.dealer.refill();
    app.winnable.topUpAll();
  });
  addEventListener("offline", () => showConnection(app, { changed: true }));
  showConnection(app, { changed: false });
  let sinceSave = 0;
  setInterval(() => {
    if (!app.session.clock.running) return;
    app.bar.showTime(app.session.clock.elapsed());
    sinceSave += TICK_MS;
    if (sinceSave >= SAVE_EVERY_MS) {
      sinceSave = 0;
      app.save();
    }
  }, TICK_MS);
  registerServiceWorker({
    onUpdate: (reload) => {
      const notice = $("[data-update]");
      notice.hidden = false;
      $("button", notice).addEventListener("click", reload, { once: true });
    },
    beforeReload: () => app.save(),
  });
}

// Offline, said plainly: the bar's Offline chip while the browser has no network (pressed, it
// says what still works), and the same words once when the connection goes or the page opens
// without one; "Back online" when it returns.
function showConnection(app, { changed }) {
  const offline = navigator.onLine === false;
  const chip = $('[data-action="connection"]');
  if (chip.hidden === !offline && changed) return; // said already
  chip.hidden = !offline;
  if (offline) app.notices.show(t("connection.offlineNote"));
  else if (changed) app.notices.show(t("connection.backOnline"));
}

function globalKey(app, event) {
  if (document.querySelector("dialog[open]")) return;
  if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
  const undoKey = (event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === "z";
  const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
  if (undoKey || (plain && (event.key === "u" || event.key === "U"))) {
    event.preventDefault();
    app.undo();
  } else if (plain && (event.key === "h" || event.key === "H")) {
    event.preventDefault();
    app.hints.ask();
  } else if (isFinishKey(event)) {
    event.preventDefault();
    app.finisher.press();
  } else if (event.key === "Escape") {
    app.dropSelection();
  }
}

async function copy(app, text, done) {
  try {
    await navigator.clipboard.writeText(text);
    app.notices.show(done);
  } catch {
    app.notices.show(text); // no clipboard access: show it to copy by hand
  }
}
