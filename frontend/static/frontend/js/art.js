// The cards, drawn by the page itself: a rounded rectangle in CSS, the suits as SVG symbols
// defined once in the document, ranks in the system font. No image or font is downloaded.
// A face-down card carries no trace of its identity (data-card="EMPTY").

import { KING, SUITS, cardLabel, cardName, rankLabel, rankOf, suitOf } from "./engine.js";

const SVG = "http://www.w3.org/2000/svg";
const JACK = 11;

// Suits on a 100 × 100 grid, in the order S H D C.
const SUIT_SHAPES = {
  S: [["path", { d: "M50 4C38 22 8 38 8 60c0 14 11 23 23 23 8 0 14-4 17-9-1 10-5 16-14 21h32c-9-5-13-11-14-21 3 5 9 9 17 9 12 0 23-9 23-23C92 38 62 22 50 4Z" }]],
  H: [["path", { d: "M50 90C22 68 5 52 5 31 5 16 16 6 29 6c10 0 17 6 21 14 4-8 11-14 21-14 13 0 24 10 24 25 0 21-17 37-45 59Z" }]],
  D: [["path", { d: "M50 3 87 50 50 97 13 50Z" }]],
  C: [
    ["circle", { cx: "50", cy: "27", r: "20" }],
    ["circle", { cx: "26", cy: "58", r: "20" }],
    ["circle", { cx: "74", cy: "58", r: "20" }],
    ["path", { d: "M44 40h12v14c1 18 5 28 14 40H30c9-12 13-22 14-40Z" }],
  ],
};

function svgElement(name, attributes = {}) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

/** Put the suit symbols into the document once; every pip refers to them with <use>. */
export function installSuitSymbols(parent = document.body) {
  if (document.getElementById("suit-S")) return;
  const sprite = svgElement("svg", { class: "sprite", "aria-hidden": "true", focusable: "false" });
  for (const [letter, shapes] of Object.entries(SUIT_SHAPES)) {
    const symbol = svgElement("symbol", { id: `suit-${letter}`, viewBox: "0 0 100 100" });
    for (const [name, attributes] of shapes) symbol.append(svgElement(name, attributes));
    sprite.append(symbol);
  }
  parent.prepend(sprite);
}

/** An inline SVG showing one suit; `className` sizes it. */
export function suitIcon(letter, className) {
  const svg = svgElement("svg", { class: className, "aria-hidden": "true", focusable: "false" });
  svg.append(svgElement("use", { href: `#suit-${letter}` }));
  return svg;
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** A face-up card: corner (rank + suit, readable when overlapped) and a large centre. */
export function faceUpCard(card) {
  const letter = SUITS[suitOf(card)];
  const rank = rankOf(card);
  const element = document.createElement("div");
  element.className = `card suit-${letter}`;
  element.dataset.card = cardName(card);
  element.dataset.face = "up";
  element.id = `card-${cardName(card)}`;
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", cardLabel(card));
  const corner = span("corner");
  corner.append(span("rank", rankLabel(rank)), suitIcon(letter, "pip"));
  const centre = span("centre");
  if (rank >= JACK && rank <= KING) centre.append(span("court", rankLabel(rank)));
  centre.append(suitIcon(letter, "big"));
  element.append(corner, centre);
  return element;
}

/** A face-down card: the back only. */
export function faceDownCard() {
  const element = document.createElement("div");
  element.className = "card back";
  element.dataset.card = "EMPTY";
  element.dataset.face = "down";
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", "face-down card");
  return element;
}

/** The face-up element of each card, made on first use and then reused, so moving a card keeps its node. */
export class CardPool {
  #faces = new Map();

  face(card) {
    let element = this.#faces.get(card);
    if (element === undefined) {
      element = faceUpCard(card);
      this.#faces.set(card, element);
    }
    return element;
  }
}
