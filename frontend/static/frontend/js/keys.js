// Keyboard play on the focused table: a cursor over the columns' face-up cards (or an empty
// column) and the foundations. Arrows move it, Enter/Space picks up and puts down, F sends to
// the foundation; U undoes, H asks for a hint and Escape cancels anywhere on the page
// (controls.js). The cursor is announced with aria-activedescendant, so screen readers read
// the card under it.

import { COLUMN_COUNT, FOUNDATION, Move } from "./engine.js";
import { cardOfElement } from "./table.js";

const FOUNDATION_COUNT = 4;
const FIRST_COLUMN_UNDER_FOUNDATIONS = 3; // the foundations sit above columns 4–7

export class Keys {
  #area = "column"; // "column" or "foundation"
  #index = 0; // column 0 … 6, or suit 0 … 3
  #depth = 0; // the card's place in its column

  constructor(table, input, app) {
    this.table = table;
    this.input = input;
    this.app = app;
    table.root.addEventListener("keydown", (event) => this.#key(event));
    table.root.addEventListener("focus", () => this.refresh());
  }

  #key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    switch (event.key) {
      case "ArrowLeft":
        this.#sideways(-1);
        break;
      case "ArrowRight":
        this.#sideways(1);
        break;
      case "ArrowUp":
        this.#up();
        break;
      case "ArrowDown":
        this.#down();
        break;
      case "Enter":
      case " ":
        this.#activate();
        break;
      case "f":
      case "F":
        this.#toFoundation();
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  get #game() {
    return this.app.session.game;
  }

  #lastDepth(column) {
    return Math.max(0, this.#game.columns[column].length - 1);
  }

  #sideways(step) {
    const count = this.#area === "column" ? COLUMN_COUNT : FOUNDATION_COUNT;
    this.#index = (this.#index + step + count) % count;
    if (this.#area === "column") this.#depth = this.#lastDepth(this.#index);
    this.refresh();
  }

  #up() {
    if (this.#area === "foundation") return;
    if (this.#depth > this.#game.faceDown[this.#index]) {
      this.#depth--;
    } else {
      this.#area = "foundation";
      this.#index = Math.max(0, this.#index - FIRST_COLUMN_UNDER_FOUNDATIONS);
    }
    this.refresh();
  }

  #down() {
    if (this.#area === "foundation") {
      this.#area = "column";
      this.#index += FIRST_COLUMN_UNDER_FOUNDATIONS;
      this.#depth = this.#lastDepth(this.#index);
    } else if (this.#depth < this.#lastDepth(this.#index)) {
      this.#depth++;
    }
    this.refresh();
  }

  /** The element under the cursor: a face-up card, an empty column or a foundation. */
  #element() {
    if (this.#area === "foundation") return this.table.foundationElements[this.#index];
    const column = this.table.columnElements[this.#index];
    return column.children[this.#depth] ?? column;
  }

  /** What a tap on the cursor's place would hit. */
  #hit() {
    const element = this.#element();
    return {
      card: cardOfElement(element),
      faceDown: false,
      column: this.#area === "column" ? this.#index : -1,
      foundation: this.#area === "foundation" ? this.#index : -1,
      onFoundations: this.#area === "foundation",
    };
  }

  #activate() {
    const hit = this.#hit();
    const selected = this.input.selected;
    if (selected < 0) {
      if (hit.card >= 0) this.input.select(hit.card);
      return;
    }
    if (hit.card === selected) {
      this.input.clearSelection();
      return;
    }
    const move = this.input.destinationMove(selected, hit);
    if (!move) {
      this.input.tap(hit, -Infinity); // same column: choose another card, or put it down
      return;
    }
    if (this.input.attempt(move) === null && move.dest !== FOUNDATION) this.follow(selected);
  }

  #toFoundation() {
    const card = this.input.selected >= 0 ? this.input.selected : this.#hit().card;
    if (card < 0) return;
    this.input.attempt(Move.of(card, FOUNDATION));
  }

  /** The cursor onto `card` (it goes with a card moved by keyboard; onto a hint's card). */
  follow(card) {
    const { column, depth } = this.#game.locate(card);
    if (column === FOUNDATION) {
      this.#area = "foundation";
      this.#index = Math.floor(card / 13); // the foundations are in suit order
    } else {
      this.#area = "column";
      this.#index = column;
      this.#depth = depth;
    }
    this.refresh();
  }

  /** Keep the cursor on a face-up card of its column (after a move) and show it. */
  refresh() {
    if (this.#area === "column") {
      const hidden = this.#game.faceDown[this.#index];
      this.#depth = Math.min(Math.max(this.#depth, hidden), this.#lastDepth(this.#index));
    }
    this.table.setCursor(this.#element());
  }

  /** Back to the first column (a new deal). */
  reset() {
    this.#area = "column";
    this.#index = 0;
    this.#depth = 0;
    this.refresh();
  }
}
