// Refusal codes and the messages players read. One catalog per language, keyed by refusal
// code; an entry is a template with named parameters, or a set of templates picked by
// `params.variant` (rule set, colour needed, …). Other languages add catalogs with the same keys.

/** The closed list of refusal codes, in the order they are checked (docs/rules.md). */
export const REFUSAL_CODES = Object.freeze([
  "bad_token",
  "game_over",
  "nothing_to_undo",
  "face_down",
  "not_foundation_top",
  "same_column",
  "not_last_card",
  "foundation_order",
  "group_too_large",
  "empty_needs_king",
  "wrong_rank",
  "wrong_colour",
]);

export const MESSAGES_EN = Object.freeze({
  bad_token: "`{token}` is not a move: write a card and a destination like TD>5, or U to undo",
  game_over: "the game is won: no more moves",
  nothing_to_undo: "there is nothing to undo",
  face_down: "that card is face down",
  not_foundation_top: "only the top card of a foundation can be taken back",
  same_column: {
    column: "{card} is already in column {column}",
    foundation: "{card} is already on its foundation",
  },
  not_last_card: "only the last card of a column can go to a foundation",
  foundation_order: "the {suit} foundation needs {needs} next",
  group_too_large: "the group has {size} cards; at most {limit} move at once",
  empty_needs_king: "an empty column takes only a King",
  wrong_rank: {
    red: "{card} needs a red {rank}", // Classic
    black: "{card} needs a black {rank}", // Classic
    any: "{card} needs a {rank}", // Relaxed
    any_an: "{card} needs an {rank}", // Relaxed, English article before "8"
    king: "{card} can only go to an empty column",
  },
  wrong_colour: {
    red: "{card} needs a red {rank}",
    black: "{card} needs a black {rank}",
  },
});

// A game from a visible deal (docs/rules.md, "Positions with unknown face-down cards") refuses
// every move with this code while a card it turned up is not known. Never in a log's verdict.
export const UNKNOWN_CARD = "unknown_card";

/** Why a reveal is refused, in the order they are checked. */
export const REVEAL_REFUSAL_CODES = Object.freeze(["not_face_down_place", "bad_card", "reveal_conflict", "card_elsewhere"]);

// Kept apart from MESSAGES_EN, whose keys are the closed list of a log's refusals.
export const HIDDEN_CARD_MESSAGES_EN = Object.freeze({
  unknown_card: "the card turned up in column {column} is not known yet",
  not_face_down_place: {
    malformed: "a face-down place is a column index (0–6) and a depth from the bottom",
    place: "no card was dealt face down at column index {column}, depth {depth}",
  },
  bad_card: "`{card}` is not a card: expected a rank (A23456789TJQK) then a suit (SHDC)",
  reveal_conflict: "column index {column}, depth {depth} is already known to hold {known}",
  card_elsewhere: "{card} is already elsewhere on the table",
});

// A catalog may leave out a variant that only one language needs.
const VARIANT_FALLBACK = Object.freeze({ any_an: "any" });

/**
 * The message for a refusal: `formatRefusal("group_too_large", {size: 23, limit: 20})`; also
 * for the refusals of HIDDEN_CARD_MESSAGES_EN. Unknown keys fall back to English; unknown
 * parameters stay as `{name}`.
 */
export function formatRefusal(code, params = {}, catalog = MESSAGES_EN) {
  const english = MESSAGES_EN[code] ?? HIDDEN_CARD_MESSAGES_EN[code];
  let entry = catalog[code] ?? english;
  if (entry === undefined) throw new RangeError(`unknown refusal code ${JSON.stringify(code)}`);
  if (typeof entry === "object") {
    const variant = params.variant;
    entry = entry[variant] ?? entry[VARIANT_FALLBACK[variant]] ?? english[variant];
    if (entry === undefined) throw new RangeError(`refusal ${code} has no variant ${JSON.stringify(variant)}`);
  }
  return entry.replace(/\{(\w+)\}/g, (placeholder, name) => (name in params ? String(params[name]) : placeholder));
}
