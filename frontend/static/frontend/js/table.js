// The table: seven columns and four foundations drawn from a Game. A render touches only
// the columns and foundations whose cards changed; overlap shrinks so long columns fit.

import { COLUMN_COUNT, FOUNDATION, SUITS, cardLabel, parseCard } from "./engine.js";
import { CardPool, faceDownCard, faceUpCard, suitIcon } from "./art.js";
import { t } from "./i18n.js";
// The steps between the cards of a column: how much of a face-down / face-up card shows.
const DOWN_SHARE = 0.11;
const UP_SHARE = 0.28;
const COMFORTABLE_UP_STEP = 28; // a strip a finger finds at once, even on a phone's small cards
const MAX_UP_STEP = 36; // the corner's height on large cards (table.css caps it at 34px)
const MIN_DOWN_STEP = 3;
// A long column's strips shrink to fit the screen; below the corner's height its rank and suit
// shrink with them (--corner-fit), down to a rank of MIN_CORNER_FONT px.
const MIN_CORNER_FONT = 10;
const MIN_UP_STEP = 8; // past that (beyond some 36 face-up cards in a column of a 740-px phone), ranks are cut
const MOVE_MS = 160;

/** The card index a card element shows, or -1 for a face-down card or no card. */
export function cardOfElement(element) {
  const name = element?.dataset?.card;
  return name && name !== "EMPTY" ? parseCard(name) : -1;
}

// Marks are a class for the style and a data attribute for tools and tests:
// lifted → data-selected, target → data-target.
const MARK_ATTRIBUTES = { lifted: "selected", target: "target" };

function mark(element, name, on) {
  element.classList.toggle(name, on);
  if (on) element.dataset[MARK_ATTRIBUTES[name]] = "true";
  else delete element.dataset[MARK_ATTRIBUTES[name]];
}

// A card put down: no longer lifted or dragged (FLIP has measured where it was dropped).
function settle(element) {
  mark(element, "lifted", false);
  element.classList.remove("dragging");
  element.style.transform = "";
}

export class Table {
  #pool = new CardPool();
  #signatures = new Array(COLUMN_COUNT).fill(null);
  #foundationTops = [null, null, null, null];
  #metrics = null;
  #lifted = [];
  #targets = [];
  #cursor = null;
  #reduceMotion = matchMedia("(prefers-reduced-motion: reduce)");

  constructor(root) {
    this.root = root;
    this.columnElements = Array.from({ length: COLUMN_COUNT }, (_, i) => root.querySelector(`[data-column="${i + 1}"]`));
    this.foundationArea = root.querySelector("[data-foundations]");
    this.foundationElements = [...SUITS].map((letter) => root.querySelector(`[data-foundation="${letter}"]`));
    this.foundationElements.forEach((slot, suit) => {
      slot.id = `foundation-${SUITS[suit]}`;
      slot.replaceChildren(suitIcon(SUITS[suit], "slot-pip"));
    });
    this.columnElements.forEach((column, i) => (column.id = `column-${i + 1}`));
    new ResizeObserver(() => this.relayout()).observe(this.columnElements[0].parentElement);
  }

  /** Draw `game`; only what changed since the last render is touched. Returns the changed columns. */
  render(game) {
    const columns = game.columns;
    const faceDown = game.faceDown;
    const changed = [];
    for (let i = 0; i < COLUMN_COUNT; i++) {
      const signature = `${faceDown[i]}:${columns[i].map((card) => card ?? "?").join(",")}`;
      if (signature !== this.#signatures[i]) changed.push([i, signature]);
    }
    const tops = game.foundations.map((count, suit) => (count > 0 ? suit * 13 + count - 1 : -1));
    const suits = [0, 1, 2, 3].filter((suit) => tops[suit] !== this.#foundationTops[suit]);
    // Where the cards that may move are now: only in what is about to be redrawn.
    const before = this.#animating() ? this.#positions(changed.map(([i]) => i), suits) : null;
    for (const [i, signature] of changed) {
      this.#signatures[i] = signature;
      this.#drawColumn(i, columns[i], faceDown[i]);
    }
    for (const suit of suits) {
      this.#foundationTops[suit] = tops[suit];
      this.#drawFoundation(suit, tops[suit]);
    }
    if (before) this.#slide(before);
    return changed.map(([i]) => i);
  }

  /** Forget what is drawn (a new deal): the next render redraws everything. */
  reset() {
    this.#signatures.fill(null);
    this.#foundationTops.fill(null);
    this.#lifted = [];
    this.#targets = [];
  }

  // A card turned up and not known yet (a hidden-card game waits for the server to tell it:
  // `null` in the column) is drawn face down, marked as turning, until it is told.
  #drawColumn(index, cards, hidden) {
    const column = this.columnElements[index];
    const turning = cards.length > hidden && cards[cards.length - 1] === null;
    const elements = cards.map((card, depth) => (depth < hidden ? this.#faceDown() : card === null ? this.#turning() : this.#pool.face(card)));
    for (const element of elements) settle(element);
    column.replaceChildren(...elements);
    const drawnDown = hidden + (turning ? 1 : 0);
    const top = cards[cards.length - 1];
    column.setAttribute(
      "aria-label",
      cards.length === 0
        ? t("table.columnEmpty", { column: index + 1 })
        : t("table.column", { column: index + 1, down: hidden, up: cards.length - hidden, card: top === null ? t("table.turning") : cardLabel(top) }),
    );
    this.#layoutColumn(index, drawnDown);
  }

  // A face-down card, named in the page's language (it never names the card itself).
  #faceDown() {
    const element = faceDownCard();
    element.setAttribute("aria-label", t("table.faceDown"));
    return element;
  }

  #turning() {
    const element = faceDownCard();
    element.classList.add("turning");
    element.dataset.turning = "true";
    element.setAttribute("aria-label", t("table.turning"));
    return element;
  }

  #drawFoundation(suit, top) {
    const slot = this.foundationElements[suit];
    const pip = slot.firstElementChild;
    if (top < 0) {
      slot.replaceChildren(pip);
      slot.setAttribute("aria-label", t("table.foundationEmpty", { suit: t(`suits.${SUITS[suit]}`) }));
      return;
    }
    const element = this.#pool.face(top);
    settle(element);
    element.style.top = "";
    slot.replaceChildren(pip, element);
    slot.setAttribute("aria-label", t("table.foundation", { suit: t(`suits.${SUITS[suit]}`), card: cardLabel(top) }));
  }

  // ---- layout: card offsets in a column ------------------------------------------------

  // The card's height, the room of a column, and the corner of a face-up card (a probe drawn
  // for a moment, out of sight): the strip that shows its rank and suit whole.
  #measure() {
    const probe = faceUpCard(48); // 10♣: the widest rank
    probe.removeAttribute("id");
    probe.style.visibility = "hidden";
    this.root.append(probe);
    const card = probe.getBoundingClientRect();
    const rank = probe.querySelector(".rank").getBoundingClientRect();
    const pip = probe.querySelector(".pip").getBoundingClientRect();
    probe.remove();
    this.#metrics = {
      cardHeight: card.height,
      height: this.columnElements[0].getBoundingClientRect().height,
      cornerTop: rank.top - card.top,
      cornerStep: Math.ceil(Math.max(rank.bottom, pip.bottom) - card.top) + 1,
    };
    return this.#metrics;
  }

  /** Recompute every column's overlap (after a resize or a font change). */
  relayout() {
    this.#metrics = null;
    this.columnElements.forEach((column, i) => {
      const hidden = column.querySelectorAll('[data-face="down"]').length;
      this.#layoutColumn(i, hidden);
    });
  }

  // Comfortable steps while the column fits the screen; a longer column takes its face-down
  // cards closer first, then its face-up ones, down to the smallest strip that still shows
  // rank and suit (their size then fitted to the strip).
  #layoutColumn(index, hidden) {
    const column = this.columnElements[index];
    const cards = column.children;
    if (cards.length === 0) return;
    const { cardHeight, height, cornerTop, cornerStep } = this.#metrics ?? this.#measure();
    const shown = cards.length - hidden;
    let down = Math.round(cardHeight * DOWN_SHARE);
    let up = Math.min(Math.max(Math.round(cardHeight * UP_SHARE), COMFORTABLE_UP_STEP), MAX_UP_STEP);
    const room = height - cardHeight - 4;
    const need = () => hidden * down + (shown - 1) * up;
    if (need() > room && hidden > 0) down = Math.max(MIN_DOWN_STEP, Math.floor((room - (shown - 1) * up) / hidden));
    if (need() > room && shown > 1) up = Math.max(MIN_UP_STEP, Math.floor((room - hidden * down) / (shown - 1)));
    if (up < cornerStep) column.style.setProperty("--corner-fit", `${Math.max(MIN_CORNER_FONT, up - 1 - Math.ceil(cornerTop))}px`);
    else column.style.removeProperty("--corner-fit");
    let top = 0;
    for (let i = 0; i < cards.length; i++) {
      cards[i].style.top = `${top}px`;
      top += i < hidden ? down : up;
    }
  }

  // ---- motion: cards slide from where they were to where they are now (FLIP) -------------

  #animating() {
    return !this.#reduceMotion.matches && !document.hidden;
  }

  #positions(columns, suits) {
    const positions = new Map();
    const places = [...columns.map((i) => this.columnElements[i]), ...suits.map((suit) => this.foundationElements[suit])];
    for (const place of places) {
      for (const element of place.querySelectorAll('[data-face="up"]')) positions.set(element, element.getBoundingClientRect());
    }
    return positions;
  }

  #slide(before) {
    for (const [element, was] of before) {
      if (!element.isConnected) continue;
      const now = element.getBoundingClientRect();
      const dx = was.left - now.left;
      const dy = was.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      element.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
        duration: MOVE_MS,
        easing: "ease-out",
      });
    }
  }

  // ---- marks: selection, legal destinations, keyboard cursor ---------------------------

  /** The elements of a card and every card on it (a foundation card alone). */
  groupElements(game, card) {
    const { column, depth } = game.locate(card);
    if (column === FOUNDATION) return [this.#pool.face(card)];
    return [...this.columnElements[column].children].slice(depth);
  }

  /** Lift and light the group that starts at `card` (or nothing, with -1). */
  lift(game, card) {
    for (const element of this.#lifted) mark(element, "lifted", false);
    this.#lifted = card >= 0 ? this.groupElements(game, card) : [];
    for (const element of this.#lifted) mark(element, "lifted", true);
  }

  /** Mark the destinations of the legal moves `moves` (Move objects) as targets. */
  markTargets(moves) {
    for (const element of this.#targets) mark(element, "target", false);
    this.#targets = moves.map(({ card, dest }) =>
      dest === FOUNDATION ? this.foundationElements[Math.floor(card / 13)] : this.columnElements[dest],
    );
    for (const element of this.#targets) mark(element, "target", true);
  }

  /** The keyboard cursor: an element with an id, announced through aria-activedescendant. */
  setCursor(element) {
    this.#cursor?.classList.remove("cursor");
    this.#cursor = element;
    if (element) {
      element.classList.add("cursor");
      this.root.setAttribute("aria-activedescendant", element.id);
    } else {
      this.root.removeAttribute("aria-activedescendant");
    }
  }

  /** What lies under an element of the table: a card, its column or foundation, the foundation row. */
  hit(element) {
    if (!(element instanceof Element)) return null;
    const cardElement = element.closest("[data-card]");
    const column = element.closest("[data-column]");
    const foundation = element.closest("[data-foundation]");
    const row = element.closest("[data-foundations]");
    if (!column && !row) return null;
    return {
      card: cardOfElement(cardElement),
      faceDown: cardElement?.dataset.face === "down",
      column: column ? Number(column.dataset.column) - 1 : -1,
      foundation: foundation ? SUITS.indexOf(foundation.dataset.foundation) : -1,
      onFoundations: Boolean(row),
    };
  }

  /** What lies at a point of the screen, looking through the cards being dragged. */
  hitAt(x, y) {
    for (const element of document.elementsFromPoint(x, y)) {
      if (element.classList.contains("dragging")) continue;
      const hit = this.hit(element);
      if (hit) return hit;
    }
    return null;
  }

  cardElement(card) {
    return this.#pool.face(card);
  }
}
