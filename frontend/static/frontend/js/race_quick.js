// /race: quick match (docs/races.md, "Quick match"). The player picks a rule set and joins its
// queue; the page asks again every few seconds while it waits (each ask keeps the ticket alive
// and widens the rating window), shows how long and how wide, offers an asynchronous match once
// the server says it may, and opens the race or challenge it is matched into. Leaving the page
// or Cancel leaves the queue.

import { api, csrfToken, refusalText } from "./api.js";
import { $, el, formatDuration, formatNumber } from "./dom.js";
import { t } from "./i18n.js";
import { refusal } from "./race_views.js";

const ENDPOINT = "/api/races/quick/";
const ASK_EVERY_MS = 2_500; // the server drops a ticket not asked about for 10 s
const TICK_MS = 1_000;
const DEFAULT_ASYNCHRONOUS_AFTER_S = 30; // until the server's first answer says otherwise

/** The quick-match section (`root`: `[data-quick-match]`): idle, waiting, or opening a match. */
export class QuickMatch {
  state = "idle"; // idle | waiting | opening
  #rules = "classic";
  #wait = ""; // this wait's name, sent with every ask and the leave (an ask crossing the leave queues nothing)
  #since = 0; // performance.now() when the player pressed Find
  #asynchronousAfterS = DEFAULT_ASYNCHRONOUS_AFTER_S;
  #nextAsk = null;
  #tick = null;
  #polling = false; // asking again every few seconds: from Find until Cancel, a match or a refusal
  #asking = null; // the ask in flight: Cancel and the asynchronous match wait for its answer

  constructor(root) {
    this.root = root;
    this.form = $("[data-quick-form]", root);
    this.error = $("[data-quick-error]", root);
    this.status = $("[data-quick-status]", root);
    this.waited = $("[data-quick-waited]", root);
    this.offer = $("[data-quick-offer]", root);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.#find();
    });
    $("[data-quick-cancel]", root).addEventListener("click", () => this.#cancel());
    $("[data-quick-async]", root).addEventListener("click", () => this.#playNow());
    $("[data-quick-find]", root).disabled = false; // disabled in the page until this script takes the form
    // Best effort: a page closed or left while waiting takes its ticket out of the queue.
    addEventListener("pagehide", () => {
      if (this.state !== "waiting") return;
      this.#stopAsking();
      fetch(this.#leaveUrl(), {
        method: "DELETE",
        headers: { "X-CSRFToken": csrfToken() },
        credentials: "same-origin",
        keepalive: true,
      }).catch(() => {});
      this.#show("idle"); // a page restored from the back-forward cache starts again from here
    });
  }

  #leaveUrl() {
    return `${ENDPOINT}?rules=${this.#rules}&wait=${encodeURIComponent(this.#wait)}`;
  }

  #find() {
    this.#rules = new FormData(this.form).get("quick_rules") === "relaxed" ? "relaxed" : "classic";
    this.#wait = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    this.#since = performance.now();
    this.#show("waiting");
    this.status.textContent = t("race.quick.joining");
    this.#drawWaited();
    $("[data-quick-cancel]", this.root).focus();
    this.#tick = setInterval(() => this.#drawWaited(), TICK_MS);
    this.#polling = true;
    this.#ask();
  }

  async #ask() {
    this.#nextAsk = null;
    this.#asking = api(ENDPOINT, { method: "POST", body: { rules: this.#rules, asynchronous: false, wait: this.#wait } });
    const answer = await this.#asking;
    this.#asking = null;
    if (this.#opened(answer) || !this.#polling) return;
    if (answer.ok && answer.data?.state === "waiting") {
      this.error.textContent = "";
      this.#asynchronousAfterS = answer.data.asynchronous_after_seconds ?? this.#asynchronousAfterS;
      const width = Math.round(answer.data.rating_window ?? 0);
      this.status.textContent = t("race.quick.looking", { window: formatNumber(width) });
      this.#drawWaited();
    } else if (answer.status === 0) {
      this.error.textContent = t("race.quick.offline"); // asked again below: the ticket comes back
    } else if (answer.status !== 429) {
      this.#refused(answer);
      return;
    }
    this.#nextAsk = setTimeout(() => this.#ask(), Math.max(ASK_EVERY_MS, (answer.retryAfter ?? 0) * 1000));
  }

  // The player stops waiting. An answer already on its way may have matched them: then the
  // match stands (the other player is already seated) and the page opens it.
  async #cancel() {
    const cancel = $("[data-quick-cancel]", this.root);
    if (!this.#polling) return; // already cancelled, or the asynchronous match asked for
    this.#stopAsking();
    cancel.disabled = true; // Find again only once the ticket is gone
    if (this.#asking) await this.#asking; // its own handler opens a match it brings
    if (this.state === "opening") return;
    const left = await api(this.#leaveUrl(), { method: "DELETE" });
    cancel.disabled = false;
    if (this.#opened(left)) return; // paired meanwhile: the race has started with this player's seat
    this.#show("idle");
    $("[data-quick-find]", this.root).focus();
  }

  // Nobody close yet: a challenge the player plays now, which the queue gives to the next player.
  async #playNow() {
    if (!this.#polling) return;
    this.#stopAsking();
    if (this.#asking) await this.#asking; // its own handler opens a match it brings
    if (this.state === "opening") return;
    const button = $("[data-quick-async]", this.root);
    button.disabled = true;
    const answer = await api(ENDPOINT, { method: "POST", body: { rules: this.#rules, asynchronous: true, wait: this.#wait } });
    button.disabled = false;
    if (this.#opened(answer)) return;
    this.#refused(answer);
  }

  /** A matched answer: the page opens the race (or challenge); true when it does. */
  #opened(answer) {
    const url = answer.ok && answer.data?.state === "matched" ? answer.data.race?.url : null;
    if (!url) return false;
    this.#stopAsking();
    this.#show("opening");
    this.status.textContent = t(answer.data.race.kind === "challenge" ? "race.quick.foundChallenge" : "race.quick.found");
    location.assign(url);
    return true;
  }

  #refused(answer) {
    this.#stopAsking();
    this.#show("idle");
    const signIn = `/accounts/login/?next=${encodeURIComponent(location.pathname + location.search)}`;
    this.error.replaceChildren(
      answer.status === 0 ? t("race.quick.offline") : refusal(answer.data?.code, refusalText(answer.data, answer.status)),
      ...(answer.status === 403 || answer.status === 401 ? [" ", el("a", { href: signIn }, t("race.signIn"))] : []),
    );
  }

  #stopAsking() {
    this.#polling = false;
    clearTimeout(this.#nextAsk);
    clearInterval(this.#tick);
    this.#nextAsk = this.#tick = null;
  }

  #drawWaited() {
    const waitedMs = performance.now() - this.#since;
    this.waited.textContent = t("race.quick.waited", { time: formatDuration(waitedMs) });
    const offered = this.state === "waiting" && waitedMs >= this.#asynchronousAfterS * 1000;
    if (this.offer.hidden === offered) this.offer.hidden = !offered;
  }

  #show(state) {
    this.state = state;
    this.root.dataset.quickState = state;
    this.form.hidden = state !== "idle";
    $("[data-quick-waiting]", this.root).hidden = state === "idle";
    $("[data-quick-cancel]", this.root).hidden = state !== "waiting";
    if (state !== "waiting") this.offer.hidden = true;
    if (state !== "idle") this.error.textContent = "";
  }
}
