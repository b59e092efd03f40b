// One table a browser: the saved game is one, so two tabs playing it would each go on from
// their own copy and overwrite the other's moves. The tab that holds the Web Lock "yukon.table"
// is the table; another tab opened meanwhile says the game is open elsewhere and offers to take
// it over: it steals the lock, and the tab that loses it reloads (saving nothing more) and says
// the same. Two devices are the server's business (a ranked game's reveals check the log's
// prefix: reveals.js). A browser without Web Locks plays on as before.

import { $ } from "./dom.js";

const LOCK = "yukon.table";
let lost = false;

/** True once another tab took the table: from then on this page writes nothing. */
export const tableLost = () => lost;

// Ask for the table: `steal` takes it from the tab that holds it. Resolves true once held (kept
// for the page's life), false when another tab holds it (not stealing).
function request(steal) {
  return new Promise((resolve) => {
    const options = steal ? { steal: true } : { ifAvailable: true };
    navigator.locks
      .request(LOCK, options, (lock) => {
        resolve(lock !== null);
        return lock === null ? undefined : new Promise(() => {});
      })
      .catch(() => {
        // Stolen by another tab: its game is newer than ours from now on.
        lost = true;
        location.reload();
      });
  });
}

/**
 * Resolves once this tab is the table: at once when no other tab is, else when the player
 * chooses "Play here" in the dialog that says the game is open in another tab.
 */
export async function claimTable() {
  if (!navigator.locks?.request || (await request(false))) return;
  const dialog = $('[data-dialog="elsewhere"]');
  const status = $("[data-app-status]");
  status.dataset.appStatus = "elsewhere";
  dialog.addEventListener("cancel", (event) => event.preventDefault()); // no table behind it to use
  dialog.showModal();
  await new Promise((resolve) => $('[data-elsewhere="take"]', dialog).addEventListener("click", resolve, { once: true }));
  await request(true);
  dialog.close();
  status.dataset.appStatus = "loading";
}
