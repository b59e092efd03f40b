// Taps and drags on the table (pointer events: touch, pen and mouse alike) turned into
// moves, following the gesture table of docs/ui.md. The keyboard (keys.js) shares the
// selection kept here. Nothing here changes the game directly: moves go through `app.play`.

import { FOUNDATION, Move, cardLabel } from "./engine.js";
import { t } from "./i18n.js";

export const DOUBLE_TAP_MS = 300;
const DRAG_THRESHOLD_PX = 8; // a finger wobbles: less than this is still a tap
const RETURN_MS = 140;

/**
 * `app` gives: `session` (session.js), `settings`, `play(move)` → refusal | null (it renders,
 * saves and explains a refusal), `say(text)` for a screen-reader announcement, and
 * `hint(text)` for a short visible hint.
 */
export class Input {
  selected = -1; // the card whose group is lifted, or -1
  #selectedAt = 0;
  #sentHome = { card: -1, at: -Infinity }; // the last card a single tap sent to its foundation
  #press = null; // the pointer held down: where, on what, and its drag once it moves

  constructor(table, app) {
    this.table = table;
    this.app = app;
    const root = table.root;
    root.addEventListener("pointerdown", (event) => this.#down(event));
    root.addEventListener("pointermove", (event) => this.#move(event));
    root.addEventListener("pointerup", (event) => this.#up(event));
    root.addEventListener("pointercancel", (event) => this.#cancel(event));
    root.addEventListener("contextmenu", (event) => event.preventDefault());
  }

  get #game() {
    return this.app.session.game;
  }

  // ---- selection -----------------------------------------------------------------------

  select(card, at = performance.now()) {
    this.selected = card;
    this.#selectedAt = at;
    this.table.lift(this.#game, card);
    this.table.markTargets(this.app.settings.placementHelp ? this.app.session.movesOf(card) : []);
    this.app.say(t("say.selected", { card: cardLabel(card) }));
  }

  clearSelection() {
    if (this.selected < 0) return;
    this.selected = -1;
    this.table.lift(this.#game, -1);
    this.table.markTargets([]);
  }

  /** Play a move chosen by a gesture; the selection goes either way. */
  attempt(move) {
    this.clearSelection();
    return this.app.play(move);
  }

  /** A double tap: the longest column that takes the group, else an empty column for a King. */
  place(card) {
    this.clearSelection();
    const move = this.app.session.placementFor(card);
    if (move) return this.app.play(move);
    this.app.hint(t("notice.noPlace", { card: cardLabel(card) }));
    return null;
  }

  /** The move a tap on `hit` makes while `from` (a card) is selected: null to just deselect. */
  destinationMove(card, hit) {
    const from = this.#game.locate(card).column;
    if (hit.onFoundations) return from === FOUNDATION ? null : Move.of(card, FOUNDATION);
    if (hit.column < 0 || hit.column === from) return null;
    return Move.of(card, hit.column);
  }

  // ---- taps ----------------------------------------------------------------------------

  /** A tap on `hit` (what table.hit found, or null) at time `at`. */
  tap(hit, at) {
    const sentHome = this.#sentHome; // only the very next tap can be the second half of that double tap
    this.#sentHome = { card: -1, at: -Infinity };
    if (this.selected >= 0) {
      const card = this.selected;
      if (hit && hit.card === card) {
        const quick = at - this.#selectedAt <= DOUBLE_TAP_MS;
        this.clearSelection();
        if (quick && this.app.settings.doubleClick) this.place(card);
        return;
      }
      const move = hit ? this.destinationMove(card, hit) : null;
      if (move) {
        this.attempt(move);
      } else if (hit && hit.card >= 0 && hit.column >= 0 && hit.column === this.#game.locate(card).column) {
        this.clearSelection(); // another card of the same column: take that one instead
        this.select(hit.card, at);
      } else {
        this.clearSelection();
      }
      return;
    }
    if (!hit || hit.card < 0) return;
    const card = hit.card;
    // The second tap of a double tap on a card that the first tap already sent home.
    if (card === sentHome.card && at - sentHome.at <= DOUBLE_TAP_MS) return;
    if (hit.column >= 0) {
      const home = this.app.session.foundationMove(card);
      if (home) {
        this.#sentHome = { card, at };
        this.app.play(home);
        return;
      }
    }
    this.select(card, at);
  }

  // ---- pointers: a press becomes a tap, or a drag once it moves far enough -------------

  #down(event) {
    if (!event.isPrimary || event.button > 0 || this.#press) return;
    this.#press = { id: event.pointerId, x: event.clientX, y: event.clientY, hit: this.table.hit(event.target), drag: null };
  }

  #move(event) {
    const press = this.#press;
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.drag) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD_PX || !press.hit || press.hit.card < 0) return;
      press.drag = this.#startDrag(press.hit.card, press.id);
    }
    const transform = `translate(${dx}px, ${dy}px)`;
    for (const element of press.drag.elements) element.style.transform = transform;
  }

  #startDrag(card, pointerId) {
    this.clearSelection();
    const elements = this.table.groupElements(this.#game, card);
    for (const element of elements) element.classList.add("dragging");
    this.table.root.setPointerCapture(pointerId);
    if (this.app.settings.placementHelp) this.table.markTargets(this.app.session.movesOf(card));
    return { card, elements };
  }

  #up(event) {
    const press = this.#press;
    if (!press || event.pointerId !== press.id) return;
    this.#press = null;
    if (press.drag) this.#drop(press.drag, event.clientX, event.clientY);
    else this.tap(press.hit, event.timeStamp);
  }

  #cancel(event) {
    const press = this.#press;
    if (!press || event.pointerId !== press.id) return;
    this.#press = null;
    if (press.drag) {
      this.table.markTargets([]);
      this.#putBack(press.drag.elements);
    }
  }

  /** Cancel a drag in progress (Escape): the cards go back. */
  cancelDrag() {
    const press = this.#press;
    this.#press = null;
    if (press?.drag) {
      this.table.markTargets([]);
      this.#putBack(press.drag.elements);
    }
  }

  #drop({ card, elements }, x, y) {
    this.table.markTargets([]);
    const hit = this.table.hitAt(x, y) ?? this.#hitUnder(elements[0]);
    let move = hit ? this.destinationMove(card, hit) : null;
    if (!move && this.app.settings.autoPlacement) move = this.app.session.placementFor(card);
    if (move) this.app.play(move); // a drawn column drops its drag offsets itself
    this.#putBack(elements);
  }

  // The pointer is in no place (a gap between columns): the place under the dragged card.
  #hitUnder(element) {
    const card = element.getBoundingClientRect();
    for (const share of [0.5, 0.2, 0.8]) {
      const hit = this.table.hitAt(card.left + card.width * share, card.top + card.height / 4);
      if (hit) return hit;
    }
    return null;
  }

  // Cards not redrawn by a move glide back from where they were dropped.
  #putBack(elements) {
    for (const element of elements) {
      const transform = element.style.transform;
      element.style.transform = "";
      element.classList.remove("dragging");
      if (transform && element.isConnected) {
        element.animate([{ transform }, { transform: "none" }], { duration: RETURN_MS, easing: "ease-out" });
      }
    }
  }
}
