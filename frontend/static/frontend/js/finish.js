// Finish: once foundation moves alone win (the engine's finishMoves: every card face up, none
// blocked), a button and the E key play them, one every FINISH_MOVE_MS, each through app.play
// as a tap would: counted, logged and timed like any move, so the server replays the same log.
// Nothing starts by itself. The player's next action stops it: a touch or a key on the table,
// Escape, Undo (or any move), a dialog, a new game, the page hidden or left; the moves made so far stay
// (and are saved), and Finish is offered again. Then the win's celebration (CSS; none with
// reduced motion). docs/ui.md, "Finish".

import { suitIcon } from "./art.js";
import { $ } from "./dom.js";
import { SUITS } from "./engine.js";
import { t } from "./i18n.js";

// At least 200 ms a move: a pace a player can follow, above the server's timing checks
// (SUBMISSION_MIN_MOVE_MS, SUBMISSION_MIN_AVERAGE_MOVE_MS), measured on the game's own clock.
export const FINISH_MOVE_MS = 250;
const CELEBRATION_MS = 1600;
const DOUBLE_PRESS_MS = 300; // a second tap this soon after starting is a double tap, not Stop

/** The Finish key (E), without Ctrl, Alt or Meta. */
export const isFinishKey = (event) => !event.ctrlKey && !event.metaKey && !event.altKey && (event.key === "e" || event.key === "E");

export class Finisher {
  #session = null; // the session being finished, or null
  #logLength = -1; // its log as the last finish move left it
  #timer = 0;
  #startedAt = -Infinity;
  #offeredBefore = false;
  #seen = { session: null, won: false }; // for the celebration: a game won before our eyes
  #celebration = 0;

  constructor(app) {
    this.app = app;
    this.button = $('[data-action="finish"]');
    const table = app.table.root;
    table.addEventListener("pointerdown", () => this.stop(), { capture: true });
    table.addEventListener("keydown", (event) => isFinishKey(event) || this.stop(), { capture: true });
    document.addEventListener("keydown", (event) => event.key === "Escape" && this.stop());
    document.addEventListener("visibilitychange", () => document.hidden && this.stop());
    addEventListener("pagehide", () => this.stop());
    const banner = $('[data-dialog="win"]'); // the game page's; a race shows its results instead
    this.celebrated = banner ? [table, banner] : [table];
    if (!banner) return;
    const suits = document.createElement("div");
    suits.className = "win-suits";
    suits.setAttribute("aria-hidden", "true");
    for (const letter of SUITS) suits.append(suitIcon(letter, `win-suit suit-${letter}`));
    banner.prepend(suits);
  }

  get running() {
    return this.#session !== null;
  }

  /** Finish offered: the game can be won by foundation moves alone, and nothing else is going on. */
  #offered(session) {
    // `locked`: a race table that takes no more moves; a race has no walkthrough.
    return !session.won && !this.app.locked && session.awaitingReveal === null && !this.app.walkthrough?.active && session.game.finishMoves() !== null;
  }

  /** After every render: the button shown or hidden, a finish stopped if the game moved under it. */
  refresh() {
    const { session } = this.app;
    if (this.running && (session !== this.#session || session.log.length !== this.#logLength)) this.stop();
    const running = this.running;
    const offered = !running && this.#offered(session);
    if (offered && !this.#offeredBefore) this.#announceOffer();
    this.#offeredBefore = offered;
    this.button.hidden = !running && !offered;
    this.button.dataset.finishState = running ? "running" : "ready";
    const label = t(running ? "finish.stop" : "finish.button");
    if (this.button.textContent !== label) this.button.textContent = label;
    this.button.title = t(running ? "finish.stopTitle" : "finish.title");
    this.#celebrateWin(session);
  }

  // Said after what the move that made it possible says (app.play announces once it has rendered).
  #announceOffer() {
    setTimeout(() => {
      if (this.button.hidden || this.running) return;
      const said = this.app.notices.announcer.textContent.trim();
      this.app.say(said ? `${said}; ${t("finish.offered")}` : t("finish.offered"));
    }, 0);
  }

  /** The button or the key: start, or stop a finish under way. */
  press() {
    if (this.running) {
      if (performance.now() - this.#startedAt < DOUBLE_PRESS_MS) return;
      this.stop();
      this.app.say(t("finish.stopped"));
      return;
    }
    const { session } = this.app;
    if (!this.#offered(session)) {
      if (!session.won) this.app.hint(t("finish.unavailable"));
      return;
    }
    this.app.dropSelection();
    this.#session = session;
    this.#logLength = session.log.length;
    this.#startedAt = performance.now();
    this.app.say(t("finish.started", { count: session.game.finishMoves().length }));
    this.refresh();
    this.#next();
  }

  stop() {
    clearTimeout(this.#timer);
    this.#timer = 0;
    if (!this.running) return;
    this.#session = null;
    this.refresh();
  }

  // The next move once FINISH_MOVE_MS have passed on the game's clock since the last token.
  #next() {
    const session = this.#session;
    if (session === null) return;
    if (session !== this.app.session || session.log.length !== this.#logLength || !session.clock.running) return this.stop();
    if (document.hidden || document.querySelector("dialog[open]")) return this.stop();
    const wait = FINISH_MOVE_MS - (session.clock.elapsed() - (session.moveTimes.at(-1) ?? 0));
    if (wait > 0) {
      this.#timer = setTimeout(() => this.#next(), wait);
      return;
    }
    const move = session.game.finishMoves()?.[0];
    if (!move) return this.stop();
    this.#logLength = session.log.length + 1; // app.play renders: refresh must know this move
    if (this.app.play(move) !== null || session.won) return this.stop();
    this.#timer = setTimeout(() => this.#next(), FINISH_MOVE_MS);
  }

  // A game won on this page (not one resumed won): the foundations' Kings and the banner's
  // suits hop, once (table.css; still with reduced motion).
  #celebrateWin(session) {
    const justWon = this.#seen.session === session && !this.#seen.won && session.won;
    this.#seen = { session, won: session.won };
    if (!justWon) return;
    for (const element of this.celebrated) element.dataset.celebrating = "true";
    clearTimeout(this.#celebration);
    this.#celebration = setTimeout(() => {
      for (const element of this.celebrated) delete element.dataset.celebrating;
    }, CELEBRATION_MS);
  }
}
