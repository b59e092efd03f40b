// A race seat's table: its own hidden-card game, played on the same table as the game page's
// ranked games (table_controller.js: the Session, gestures, keys, reveals, and the win queued in
// the outbox with its game id). Apart from the game page's: the game is kept under a key of its
// own (never the page's current game), never touches the pool of ranked deals, and the table
// locks when the race is over. After every move the page's log goes to the race (onProgress).
// Finish (finish.js) as on the game page: the button and E, each move played as a tap.

import { Dealer } from "./dealer.js";
import { Finisher, isFinishKey } from "./finish.js";
import { t } from "./i18n.js";
import { recordedGame } from "./reveals.js";
import { Session } from "./session.js";
import { TableController } from "./table_controller.js";

const SAVED_KEY = "yukon.race.v1"; // the race game in progress on this device (one at a time)
const TICK_MS = 500;
const RACE_OVER = Object.freeze({ code: "race_over", message: "", params: {} });

function readSaved(gameId, owner) {
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED_KEY) ?? "null");
    return saved && saved.gameId === gameId && saved.owner === owner ? saved.game : null;
  } catch {
    return null;
  }
}

// Does the log `longer` extend `shorter` (tokens)?
const extendsLog = (longer, shorter) => longer.length >= shorter.length && shorter.every((token, i) => longer[i] === token);

// The cards revealed to either copy of the game, each place once.
function revealedUnion(...lists) {
  const known = new Map();
  for (const card of lists.flat()) known.set(`${card.column}:${card.depth}`, card);
  return [...known.values()];
}

export class RaceTable extends TableController {
  locked = false; // the race is over, or this seat out: the table takes no more moves

  /**
   * `accountOf()`: the signed-in account; `clientVersion`: the build sent with results; `sync`:
   * the page's ResultsSync; `onProgress(progress)` after every move; `onWon()` once won.
   */
  constructor({ accountOf, clientVersion, sync, onProgress, onWon }) {
    super(); // the aids chosen on the game page
    this.sync = sync;
    this.onProgress = onProgress;
    this.onWon = onWon;
    this.dealer = new Dealer({ accountOf, clientVersion });
    this.finisher = new Finisher(this);
    this.undoButton.addEventListener("click", () => this.undo());
    this.finisher.button.addEventListener("click", () => this.finisher.press());
    document.addEventListener("keydown", (event) => this.#globalKey(event));
    document.addEventListener("visibilitychange", () => {
      this.session?.setVisible(!document.hidden);
      this.save();
    });
    setInterval(() => {
      if (this.session?.clock.running) this.bar.showTime(this.session.clock.elapsed());
    }, TICK_MS);
  }

  /**
   * Take up the seat's game `gameId` of `owner`: as this device kept it when that extends the
   * server's record (moves made since the last card the server turned up), else as the server
   * recorded it (GET /api/games/<id>/). Resolves false when neither can be had.
   */
  async takeUp(gameId, owner) {
    if (this.session?.issued?.id === gameId) return true;
    const recorded = await recordedGame(gameId, owner);
    const saved = readSaved(gameId, owner);
    let options = recorded;
    if (saved && (!recorded || extendsLog(saved.log, recorded.log))) {
      options = { ...saved, issued: saved.issued ?? recorded.issued, revealed: revealedUnion(saved.revealed ?? [], recorded?.revealed ?? []) };
    }
    if (!options) return false;
    this.#begin(new Session(null, options), { gameId, owner });
    return true;
  }

  #begin(session, { gameId, owner }) {
    this.session = session;
    this.savedAs = { gameId, owner };
    this.table.reset();
    this.render();
    this.keys.reset();
    this.save();
    session.setVisible(!document.hidden);
    this.revealer.ask();
    if (session.won) this.won();
  }

  /** The progress message of the game as it stands (null before the first move). */
  progress() {
    if (!this.session?.started) return null;
    return { log: this.session.log.join(" "), move_times_ms: this.session.moveTimes.slice() };
  }

  /** No more moves: the race is over, or this seat is out. */
  lock() {
    this.locked = true;
    this.dropSelection();
    this.session?.clock.stop();
    this.table.root.dataset.locked = "true";
    this.finisher.stop();
    if (this.session) this.render(); // a player watching has no game to draw
  }

  // ---- the table's (table_controller.js), for a seat ---------------------------------------

  play(move) {
    return this.locked ? RACE_OVER : super.play(move);
  }

  undo() {
    if (!this.locked && this.session) super.undo();
  }

  // After a move or an undo: the race is told.
  moved() {
    this.onProgress(this.progress());
  }

  render() {
    super.render();
    if (this.locked) this.undoButton.disabled = true;
    this.finisher.refresh();
  }

  save() {
    if (!this.session) return;
    try {
      localStorage.setItem(SAVED_KEY, JSON.stringify({ ...this.savedAs, game: this.session.toSaved() }));
    } catch {
      // storage blocked: a reload takes the game up as the server recorded it
    }
  }

  revealsOver() {} // the race says when it is over

  // Played on in another tab: only the game as the server recorded it can go on.
  async recordedElsewhere(session) {
    this.notices.show(t("race.refusals.prefix_conflict"));
    await this.takeRecorded(session);
  }

  /** Go on from the game as the server recorded it (another tab played it further). */
  async takeRecorded(session = this.session) {
    if (!session?.issued) return;
    const recorded = await recordedGame(session.issued.id, session.issued.owner);
    if (recorded && this.session === session) this.#begin(new Session(null, recorded), this.savedAs);
  }

  // Won (now, or before a reload): the result goes to the outbox once, then to the server.
  won() {
    this.settleWin();
    this.render();
    this.onWon();
  }

  #globalKey(event) {
    if (!this.session || document.querySelector("dialog[open]")) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    const undo = (event.key === "z" || event.key === "Z") && (event.ctrlKey || event.metaKey);
    if (undo || ((event.key === "u" || event.key === "U") && !event.ctrlKey && !event.metaKey && !event.altKey)) {
      event.preventDefault();
      this.undo();
    } else if (isFinishKey(event)) {
      event.preventDefault();
      this.finisher.press();
    } else if (event.key === "Escape") {
      this.dropSelection();
    }
  }
}
