// A replayed game that was not won (a race's): where it was lost, and a move that would have kept
// it, from the server's analysis (GET /api/replays/<id>/analysis/, asked for by POST when no one
// has yet: docs/fairplay.md, "On the replay"). Said under the controls, with a button that shows
// the table just before the move that lost it.

import { api } from "./api.js";
import { $, formatNumber } from "./dom.js";
import { Game, Move } from "./engine.js";
import { t } from "./i18n.js";
import { moveWords } from "./move_words.js";

const POLL_MS = 4000;
const POLLS = 15; // about a minute: the analysis runs on a worker of its own, at low priority

/** Say what the analysis of `replay`'s game found, once it is there. */
export async function offerAnalysis(replay) {
  if (replay.data.won || !replay.data.code) return;
  const url = `/api/replays/${replay.data.id}/analysis/`;
  let answer = await api(url);
  if (answer.ok && answer.data.state === "none") answer = await api(url, { method: "POST" });
  if (answer.ok && answer.data.state === "queued") say(t("replay.analysis.asking"));
  for (let poll = 0; answer.ok && answer.data.state === "queued" && poll < POLLS; poll++) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    answer = await api(url);
  }
  if (!answer.ok || answer.data.state === "none" || answer.data.state === "unavailable") return say(null);
  if (answer.data.state === "queued") return say(t("replay.analysis.later"));
  const { text, step } = found(replay, answer.data);
  say(text, step === undefined ? null : { label: t("replay.analysis.show", { number: formatNumber(step + 1) }), go: () => replay.goTo(step) });
}

function found(replay, analysis) {
  const { deal, ended_winnable: ended, first_lost_move: lostAt, keeping_move: keeping } = analysis;
  if (lostAt !== null) {
    const game = Game.fromCode(replay.data.code);
    for (const token of replay.log.slice(0, lostAt)) game.push(token);
    const played = moveWords(game, Move.parse(replay.log[lostAt]));
    const number = formatNumber(lostAt + 1);
    const lost = t("replay.analysis.lostAt", { number, played });
    const text = keeping ? `${lost} ${t("replay.analysis.keepBy", { keeping: moveWords(game, Move.parse(keeping)) })}` : lost;
    return { text, step: lostAt };
  }
  if (deal === "unwinnable") return { text: t("replay.analysis.neverWinnable") };
  if (deal === "won" && ended === true) return { text: t("replay.analysis.stillWinnable") };
  return { text: t("replay.analysis.unknown") };
}

function say(text, show = null) {
  const box = $("[data-replay-analysis]");
  box.hidden = text === null;
  $("[data-replay-analysis-text]", box).textContent = text ?? "";
  const button = $("[data-replay-analysis-show]", box);
  button.hidden = show === null;
  if (show) {
    button.textContent = show.label;
    button.onclick = show.go;
  }
}
