// A race seat's table: its own hidden-card game played as the game page plays a ranked one —
// the same Session, table, gestures, keys and reveals (reveals.js), and the win queued in the
// outbox with its game id (dealer.js's submit, sync.js). Apart from the game page's: the game is
// kept under a key of its own (never the page's current game), and never touches the pool of
// ranked deals. After every move the page's log goes to the race (onProgress).

import { installSuitSymbols } from "./art.js";
import { Dealer } from "./dealer.js";
import { FOUNDATION, cardLabel, parseCard } from "./engine.js";
import { refusalText, t } from "./i18n.js";
import { Input } from "./input.js";
import { Keys } from "./keys.js";
import { Revealer, recordedGame } from "./reveals.js";
import { Session } from "./session.js";
import { loadSettings } from "./store.js";
import { Table } from "./table.js";
import { $, Bar, Notices, describeMove } from "./ui.js";

const SAVED_KEY = "yukon.race.v1"; // the race game in progress on this device (one at a time)
const TICK_MS = 500;

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

export class RaceTable {
  session = null;
  locked = false; // the race is over, or this seat out: the table takes no more moves

  /**
   * `accountOf()`: the signed-in account; `clientVersion`: the build sent with results; `sync`:
   * the page's ResultsSync; `onProgress(progress)` after every move; `onWon()` once won.
   */
  constructor({ accountOf, clientVersion, sync, onProgress, onWon }) {
    this.settings = loadSettings(); // the aids chosen on the game page
    document.documentElement.classList.toggle("four-colour", this.settings.fourColour);
    this.sync = sync;
    this.onProgress = onProgress;
    this.onWon = onWon;
    this.dealer = new Dealer({ accountOf, clientVersion });
    installSuitSymbols(); // the pips of every card refer to them
    this.table = new Table($("[data-table]"));
    this.bar = new Bar($("[data-bar]"));
    this.notices = new Notices();
    this.undoButton = $('[data-action="undo"]');
    this.input = new Input(this.table, this);
    this.keys = new Keys(this.table, this.input, this);
    this.revealer = new Revealer(() => this.session, {
      revealed: (session, place, card) => this.#revealed(session, place, card),
      waiting: (session, why) => this.notices.show(t(why === "offline" ? "reveal.offline" : "reveal.busy", { column: (session.awaitingReveal?.column ?? 0) + 1 })),
      conflict: (session) => this.#recordedElsewhere(session),
      over: () => {}, // the race says when it is over
      refused: (session, answer) => this.notices.show(t("reveal.refused", { reason: refusalText(answer.data, answer.status) })),
    });
    this.undoButton.addEventListener("click", () => this.undo());
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
    if (session.won) this.#finish();
  }

  /** The progress message of the game as it stands (null before the first move). */
  progress() {
    if (!this.session?.started) return null;
    return { log: this.session.log.join(" "), move_times_ms: this.session.moveTimes.slice() };
  }

  /** No more moves: the race is over, or this seat is out. */
  lock() {
    this.locked = true;
    this.input.cancelDrag();
    this.input.clearSelection();
    this.session?.clock.stop();
    this.table.root.dataset.locked = "true";
    if (this.session) this.render(); // a player watching has no game to draw
  }

  // ---- moves (input.js and keys.js call these, as they call the game page's) ----------------

  play(move) {
    if (this.locked) return { code: "race_over", message: "", params: {} };
    const game = this.session.game;
    const from = game.locate(move.card).column;
    const hiddenBefore = from === FOUNDATION ? 0 : game.faceDown[from];
    const group = from === FOUNDATION ? 1 : game.columns[from].length - game.locate(move.card).depth;
    const refusal = this.session.play(move);
    if (refusal) {
      this.refuse(refusal);
      return refusal;
    }
    this.#moved();
    let text = describeMove(move, from, group);
    if (from !== FOUNDATION && game.faceDown[from] < hiddenBefore) {
      const turned = game.columns[from].at(-1);
      text += `; ${turned === null ? t("say.turning") : t("say.turnedUp", { card: cardLabel(turned) })}`;
    }
    this.say(text);
    if (game.isWon()) this.#finish();
    return null;
  }

  undo() {
    if (this.locked || !this.session) return;
    this.input.cancelDrag();
    this.input.clearSelection();
    const refusal = this.session.undo();
    if (refusal) {
      this.notices.show(refusalText(refusal), { code: refusal.code });
      return;
    }
    this.#moved();
    this.say(t("say.undone"));
  }

  // After a move or an undo: drawn, kept, the card it turned up asked for, the race told.
  #moved() {
    this.notices.clear();
    this.render();
    this.save();
    this.revealer.ask();
    this.onProgress(this.progress());
  }

  refuse(refusal) {
    if (this.settings.interactiveRules) this.notices.show(refusalText(refusal), { kind: "rule", code: refusal.code });
    else this.say(t("say.refused"));
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
    this.undoButton.disabled = this.locked || !game.canUndo || game.isWon();
    this.keys.refresh();
  }

  save() {
    if (!this.session) return;
    try {
      localStorage.setItem(SAVED_KEY, JSON.stringify({ ...this.savedAs, game: this.session.toSaved() }));
    } catch {
      // storage blocked: a reload takes the game up as the server recorded it
    }
  }

  // ---- the server's cards, the win --------------------------------------------------------

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

  // Played on in another tab: only the game as the server recorded it can go on.
  async #recordedElsewhere(session) {
    this.notices.show(t("race.refusals.prefix_conflict"));
    await this.takeRecorded(session);
  }

  /** Go on from the game as the server recorded it (another tab played it further). */
  async takeRecorded(session = this.session) {
    if (!session?.issued) return;
    const recorded = await recordedGame(session.issued.id, session.issued.owner);
    if (recorded && this.session === session) this.#begin(new Session(null, recorded), this.savedAs);
  }

  // Won: the clock stops and the result goes to the outbox (once), then to the server.
  #finish() {
    const session = this.session;
    session.clock.stop();
    if (!session.resultId) {
      this.dealer.submit(session);
      this.save();
      this.sync.kick();
    }
    this.say(t("say.won", { count: session.game.movesMade }));
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
    } else if (event.key === "Escape") {
      this.input.cancelDrag();
      this.input.clearSelection();
    }
  }
}
