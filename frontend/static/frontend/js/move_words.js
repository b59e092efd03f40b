// A move in the player's words, from the engine's facts: for the table (a move said aloud), a
// hint, and a replay's analysis. One literal key each, so that the catalogs' test finds them.

import { describeMove } from "./engine.js";
import { t } from "./i18n.js";

const MOVE_WORDS = {
  toFoundation: (facts) => t("say.toFoundation", facts),
  backToColumn: (facts) => t("say.backToColumn", facts),
  groupToColumn: (facts) => t("say.groupToColumn", facts),
  toColumn: (facts) => t("say.toColumn", facts),
};

/** `move` in `game`, before it is played, in words: "7♥ and 2 cards on it to column 4". */
export function moveWords(game, move) {
  const facts = describeMove(game, move);
  return MOVE_WORDS[facts.kind](facts);
}
