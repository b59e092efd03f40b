// The first-game walkthrough: on a fixed easy deal, the table lights a suggested move, says
// in one sentence what it teaches, and waits for the player to make it with the usual
// gestures. Offered to a new player until answered (Take the tour, No thanks, or a first move:
// remembered on the device), so a page reloaded first, as a change of language does, offers it
// again; skippable at any step, and started again from Help (the table's dialog, or /help's link
// to /?tour=1).

import { FOUNDATION, Move, cardLabel, suitOf } from "./engine.js";
import { t } from "./i18n.js";

/**
 * The deal and its opening, picked with the Python engine (docs/help.md): a foundation move
 * that empties column 1, a group of unordered cards that turns a card up, a King into the
 * empty column, two more groups, and a second Ace. The deal is winnable. Each step's text is
 * a catalog key; tests/frontend/test_walkthrough.py replays the moves.
 */
export const WALKTHROUGH = Object.freeze({
  code: "YU1-C-AAAAABR",
  steps: Object.freeze([
    Object.freeze({ move: "AH>F", text: "tour.foundation" }),
    Object.freeze({ move: "TD>4", text: "tour.group" }),
    Object.freeze({ move: "KC>1", text: "tour.king" }),
    Object.freeze({ move: "QH>1", text: "tour.build" }),
    Object.freeze({ move: "9D>5", text: "tour.flip" }),
    Object.freeze({ move: "AC>F", text: "tour.ace" }),
  ]),
});

const STORAGE_KEY = "yukon.tour.v1"; // {state: "offered" | "declined" | "active" | "done" | "skipped"}
const UNANSWERED = new Set([null, "offered"]); // shown, but neither taken nor declined yet

function readState() {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEY))?.state ?? null;
  } catch {
    return null;
  }
}

function writeState(state) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ state }));
  } catch {
    // storage blocked: the offer may come again, nothing else changes
  }
}

export class Walkthrough {
  #step = -1; // the step waiting for its move; -1 when no walkthrough runs
  #marked = [];

  /**
   * `app` gives `session`, `table`, `startWalkthrough()` (leave the game in progress, if the
   * player agrees, and deal the walkthrough's deal) and `hint(text)`.
   */
  constructor(app, root = document) {
    this.app = app;
    this.panel = root.querySelector("[data-tour]");
    this.offerBox = root.querySelector("[data-tour-offer]");
    this.progress = root.querySelector("[data-tour-progress]");
    this.text = root.querySelector("[data-tour-text]");
    this.skipButton = root.querySelector('[data-tour-action="skip"]');
    this.finishButton = root.querySelector('[data-tour-action="finish"]');
    root.addEventListener("click", (event) => {
      const action = event.target.closest?.("[data-tour-action]")?.dataset.tourAction;
      if (action === "start") {
        this.#hideOffer("active");
        app.startWalkthrough();
      } else if (action === "decline") this.#hideOffer("declined");
      else if (action === "skip") this.end("skipped");
      else if (action === "finish") this.end("done");
    });
  }

  /** True while a step waits for its move. */
  get active() {
    return this.#step >= 0 && this.#step < WALKTHROUGH.steps.length;
  }

  /** The move the current step waits for, or null. */
  get expected() {
    return this.active ? Move.parse(WALKTHROUGH.steps[this.#step].move) : null;
  }

  /** Offer the walkthrough to a device that has not answered the offer, with no game under way. */
  offerOnce() {
    if (!UNANSWERED.has(readState()) || this.app.session.started) return;
    writeState("offered");
    this.offerBox.hidden = false;
  }

  #hideOffer(state) {
    this.offerBox.hidden = true;
    writeState(state);
  }

  /** Start at the first step: the walkthrough's deal must be on the table, unplayed. */
  begin() {
    this.offerBox.hidden = true;
    this.#step = 0;
    writeState("active");
    this.#show();
  }

  /** After a reload: carry on where the saved game of the walkthrough's deal stopped. */
  resume() {
    if (readState() !== "active") return false;
    const { code, log } = this.app.session;
    const played = WALKTHROUGH.steps.slice(0, log.length).map((step) => step.move);
    if (code !== WALKTHROUGH.code || log.length >= WALKTHROUGH.steps.length || log.join() !== played.join()) {
      writeState("skipped");
      return false;
    }
    this.#step = log.length;
    this.#show();
    return true;
  }

  /** Whether `move` may be played now: anything when no step waits, else only the step's move. */
  allows(move) {
    const expected = this.expected;
    return expected === null || (expected.card === move.card && expected.dest === move.dest);
  }

  /** Say what to do instead of a move the current step does not want. */
  nudge() {
    this.app.hint(t("tour.notNow"));
  }

  /** A move was played: the next step, or the end. */
  moved(move) {
    if (!this.offerBox.hidden) this.#hideOffer("declined"); // played on instead: the answer is no
    if (!this.active || !this.allows(move)) return;
    this.#step++;
    if (!this.active) writeState("done");
    this.#show();
  }

  /** Stop (skipped, finished, or the game left); the panel goes away. */
  end(state = "skipped") {
    if (this.#step < 0 && this.panel.hidden) return;
    this.#step = -1;
    this.panel.hidden = true;
    if (readState() === "active" || state === "done") writeState(state);
    this.refresh();
  }

  #show() {
    const steps = WALKTHROUGH.steps;
    const done = this.#step >= steps.length;
    this.panel.hidden = false;
    this.progress.textContent = done ? "" : t("tour.progress", { step: this.#step + 1, total: steps.length });
    this.progress.hidden = done;
    this.text.textContent = done ? t("tour.done") : t(steps[this.#step].text, this.#params(this.expected));
    this.panel.dataset.step = done ? "done" : String(this.#step + 1);
    this.skipButton.hidden = done;
    this.finishButton.hidden = !done;
    this.refresh();
  }

  // The words of a step: the card, the column it goes to (or leaves), the card it goes onto.
  #params(move) {
    const game = this.app.session.game;
    const from = game.locate(move.card).column;
    const column = move.dest === FOUNDATION ? from : move.dest;
    const onto = move.dest === FOUNDATION ? undefined : game.columns[move.dest].at(-1);
    return { card: cardLabel(move.card), column: column + 1, onto: onto === undefined ? "" : cardLabel(onto) };
  }

  /** Light the suggested move on the table (after every render). */
  refresh() {
    for (const [element, name] of this.#marked) {
      element.classList.remove(name);
      delete element.dataset.tourMark;
    }
    this.#marked = [];
    const move = this.expected;
    if (!move) return;
    const table = this.app.table;
    const to = move.dest === FOUNDATION ? table.foundationElements[suitOf(move.card)] : table.columnElements[move.dest];
    // The card to take and every card on it (they move together), and where they go.
    const [card, ...onIt] = table.groupElements(this.app.session.game, move.card);
    const marks = [[card, "tour-from", "from"], ...onIt.map((element) => [element, "tour-from", "group"]), [to, "tour-to", "to"]];
    for (const [element, name, role] of marks) {
      element.classList.add(name);
      element.dataset.tourMark = role;
      this.#marked.push([element, name]);
    }
  }
}
