// One table controller for the game page (app.js) and a race seat (race_table.js): the cards,
// the game bar, gestures and keys (input.js and keys.js call play, hint and say), the cards the
// server turns up (reveals.js), a move played, described and kept, an undo, and a win queued
// once for the server. A page extends it with what only it does: the methods under "the page's".

import { installSuitSymbols } from "./art.js";
import { Bar } from "./bar.js";
import { $ } from "./dom.js";
import { FOUNDATION, cardLabel, parseCard } from "./engine.js";
import { refusalText, t } from "./i18n.js";
import { Input } from "./input.js";
import { Keys } from "./keys.js";
import { moveWords } from "./move_words.js";
import { Notices } from "./notices.js";
import { Revealer } from "./reveals.js";
import { loadSettings } from "./store.js";
import { Table } from "./table.js";

const MEASURES_KEPT = 1000;
const UNDO_RULE = "rule-nothing_to_undo"; // Help's section on Undo (help/rules.html)
let undoExplained = false; // the first undo of a visit says what an undo does to the figures

export class TableController {
  session = null;

  /** The page's own parts (`dealer`, `sync`, `session`) are set by the page after this. */
  constructor() {
    installSuitSymbols(); // the pips of every card refer to them
    this.settings = loadSettings();
    this.table = new Table($("[data-table]"));
    this.bar = new Bar($("[data-bar]"));
    this.notices = new Notices();
    this.undoButton = $('[data-action="undo"]');
    this.input = new Input(this.table, this);
    this.keys = new Keys(this.table, this.input, this);
    this.revealer = new Revealer(() => this.session, {
      revealed: (session, place, card) => this.#revealed(session, place, card),
      waiting: (session, why) => this.#waitingForCard(session, why),
      conflict: (session) => this.recordedElsewhere(session),
      over: (session, answer) => this.revealsOver(session, answer),
      refused: (session, answer) => this.notices.show(t("reveal.refused", { reason: refusalText(answer.data, answer.status) })),
    });
    this.applySettings();
  }

  // ---- moves ---------------------------------------------------------------------------

  /** Play a move chosen by a gesture or a key; returns null, or the engine's refusal. */
  play(move) {
    const started = performance.now();
    const game = this.session.game;
    const from = game.locate(move.card).column;
    const hiddenBefore = from === FOUNDATION ? 0 : game.faceDown[from];
    const words = moveWords(game, move);
    const refusal = this.session.play(move);
    if (refusal) {
      this.refuse(refusal);
      return refusal;
    }
    this.#changed(started);
    this.say(from !== FOUNDATION && game.faceDown[from] < hiddenBefore ? `${words}; ${this.#turnedUp(game, from)}` : words);
    this.moved(move);
    if (game.isWon()) this.won();
    return null;
  }

  #turnedUp(game, column) {
    const card = game.columns[column].at(-1);
    return card === null ? t("say.turning") : t("say.turnedUp", { card: cardLabel(card) }); // null: the server tells it
  }

  undo() {
    this.dropSelection();
    const refusal = this.session.undo();
    if (refusal) {
      this.notices.show(refusalText(refusal), { code: refusal.code });
      return;
    }
    this.#changed();
    this.say(t("say.undone"));
    // The counter staying put looks like a fault: said once a visit, where it happens.
    if (!undoExplained) {
      undoExplained = true;
      this.notices.show(t("bar.undoNote"), { link: { href: `/help#${UNDO_RULE}`, text: t("bar.help") } });
    }
    this.moved(null);
  }

  // After a move or an undo: drawn, timed, kept, and the card it turned up asked of the server.
  #changed(started = null) {
    this.notices.clear();
    this.render();
    if (started !== null) this.#measure(started);
    this.save();
    this.revealer.ask();
  }

  // Move → drawn: one measure per move, read by bench/frontend_weight.py; a long session
  // keeps the last thousand or so.
  #measure(started) {
    if (performance.getEntriesByName("yukon:move").length >= MEASURES_KEPT) {
      performance.clearMeasures("yukon:move");
      performance.clearMeasures("yukon:move-frame");
    }
    performance.measure("yukon:move", { start: started, end: performance.now() });
    requestAnimationFrame(() => performance.measure("yukon:move-frame", { start: started, end: performance.now() }));
  }

  refuse(refusal) {
    if (this.settings.interactiveRules) this.notices.show(refusalText(refusal), { kind: "rule", code: refusal.code });
    else this.say(t("say.refused"));
  }

  /** The selection put down, a drag given up. */
  dropSelection() {
    this.input.cancelDrag();
    this.input.clearSelection();
  }

  say(text) {
    this.notices.say(text);
  }

  hint(text) {
    if (this.settings.interactiveRules) this.notices.show(text);
    else this.say(text);
  }

  render() {
    const game = this.session.game;
    this.table.render(game);
    this.bar.update(game);
    this.bar.showTime(this.session.clock.elapsed());
    this.table.root.dataset.turning = String(this.session.awaitingReveal !== null);
    this.undoButton.disabled = !game.canUndo || game.isWon();
    this.keys.refresh();
  }

  applySettings() {
    document.documentElement.classList.toggle("four-colour", this.settings.fourColour);
    if (!this.settings.placementHelp) this.table.markTargets([]);
  }

  // ---- cards the server turns up (hidden-card games) ----------------------------------------

  #revealed(session, place, card) {
    try {
      session.reveal(place, card);
    } catch (error) {
      this.notices.show(t("reveal.refused", { reason: error.message }));
      return;
    }
    this.notices.clear();
    this.render();
    this.save();
    if (session.game.columns[place.column].length === place.depth + 1 && session.game.faceDown[place.column] === place.depth) {
      this.say(t("say.turnedUp", { card: cardLabel(parseCard(card)) }));
    }
  }

  #waitingForCard(session, why) {
    const column = session.awaitingReveal?.column;
    if (column === undefined) return;
    this.notices.show(t(why === "offline" ? "reveal.offline" : "reveal.busy", { column: column + 1 }));
  }

  // ---- the win -------------------------------------------------------------------------

  /**
   * The game on the table is won: the clock stops and its result goes to the outbox once, then
   * to the server. Returns the win's time.
   */
  settleWin() {
    const { session } = this;
    session.clock.stop();
    const win = { durationMs: session.clock.elapsed(), finishedAt: new Date().toISOString() };
    if (!session.resultId) {
      this.dealer.submit(session, win.durationMs, win.finishedAt);
      this.save();
      this.sync.kick();
    }
    this.say(t("say.won", { count: session.game.movesMade }));
    return win;
  }

  // ---- the page's ----------------------------------------------------------------------

  /** Keep the game in progress, so that a reload resumes it. */
  save() {
    throw new Error("a table's page says where its game is kept");
  }

  /** After a move (`move`) or an undo (null) was drawn, kept and said. */
  moved(move) {}

  /** The move just played won the game. */
  won() {}

  /** The server holds this game further than the page (played on in another tab or device). */
  recordedElsewhere(session) {}

  /** The server takes no more play of this game (over, or gone). */
  revealsOver(session, answer) {}
}
