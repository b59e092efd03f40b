// What every page beside the game shares: who is signed in (the header follows), the service
// worker (pages open offline; a new build is offered), results still waiting on this device
// (sent from any page once signed in), and the offline note of pages whose data needs the network.

import { knownAccount, refreshAccount, renderAccountNav } from "./account.js";
import { $ } from "./dom.js";
import { registerServiceWorker } from "./offline.js";
import { ResultsSync } from "./sync.js";

/**
 * Start the page; resolves `{account, fresh, sync}` once the server has said who is signed in
 * (`sync`: the page's ResultsSync, to kick when the page queues a result of its own).
 */
export async function startPage() {
  let account = knownAccount();
  const sync = new ResultsSync(() => account);
  registerServiceWorker({
    onUpdate: (reload) => {
      const notice = $("[data-update]");
      notice.hidden = false;
      $("button", notice).addEventListener("click", reload, { once: true });
    },
    beforeReload: () => {},
  });
  const answer = await refreshAccount();
  account = answer.account;
  renderAccountNav(account);
  sync.kick();
  return { ...answer, sync };
}

/** Show or hide the page's offline note (`[data-offline]`). */
export function showOffline(offline) {
  const note = $("p[data-offline]");
  if (note) note.hidden = !offline;
  document.documentElement.dataset.connection = offline ? "offline" : "online";
}

/** The API answered nothing: offline, or the server is away. */
export const isOffline = (answer) => answer.status === 0;

/** Fetch again when the connection comes back. */
export function whenOnline(reload) {
  addEventListener("online", () => {
    showOffline(false);
    reload();
  });
}
