// A challenge on the race page (docs/races.md, "Challenges"): two players play one hidden-card
// deal one after the other, before a deadline, and neither sees the other's figures before both
// are done. The page shows it with the race's parts: the lobby's panel says who challenges whom
// and until when (the invitation, or the wait once the player is done), the table's strip says
// only whether the other is playing or done, and the results are a race's. Plain functions of
// the server's race; race_room.js decides when.

import { $, formatWhen } from "./dom.js";
import { t } from "./i18n.js";

export const isChallenge = (race) => race?.kind === "challenge";

/** The deadline in the page's language and the device's time zone. */
export const deadlineText = (race) => formatWhen(race.deadline);

const other = (race) => race.players.find((player) => !player.you) ?? null;
const freeSeat = (race) => race.players.length < race.seats;

/**
 * The view of a running challenge: the table while the player's seat plays (`canPlay`: signed
 * in, the page has a table; `doneHere`: its game won on this page, before the server says so),
 * the wait once done, else the invitation (signed out, not seated, or the seats taken).
 */
export function challengeView(race, me, { canPlay, doneHere }) {
  if (!me) return "invite";
  if (me.status === "playing" && race.your_game_id && canPlay && !doneHere) return "table";
  return "waiting";
}

/** The line of a player who is not the viewer: playing, or done (finished or out). */
function otherLine(player) {
  return t(player.status === "playing" ? "race.challenge.playing" : "race.challenge.finished", { name: player.name });
}

/** The strip above the table: the other player's state, or the link to send while no one has taken it up. */
export function stripLine(race) {
  const them = other(race);
  return them ? otherLine(them) : t("race.challenge.share", { when: deadlineText(race) });
}

/** Whether the link is offered: the challenger's, while the second seat is free. */
export const offersLink = (race, me) => Boolean(me) && freeSeat(race) && race.state === "running";

// The lobby's status line: what the viewer waits for.
function statusLine(race, me) {
  const them = other(race);
  if (me) {
    if (!them) return t("race.challenge.waitingForAnyone", { when: deadlineText(race) });
    if (them.status !== "playing") return otherLine(them);
    return t("race.challenge.waitingFor", { name: them.name, when: deadlineText(race) });
  }
  if (!freeSeat(race)) return t("race.challenge.full");
  const host = race.players.find((player) => player.host) ?? race.players[0];
  return host ? otherLine(host) : "";
}

/**
 * The lobby's panel for a running challenge (`root`: the race's element): the heading (who
 * challenges the viewer), the rules and deadline in the summary, what a challenge is, the
 * other's state, the players, the link to send, Accept (or Sign in to accept).
 */
export function drawChallengeLobby(root, race, { me, signedIn }) {
  const invited = !me && freeSeat(race);
  const host = race.players.find((player) => player.host)?.name ?? race.host;
  $("#race-lobby-title", root).textContent = invited ? t("race.challenge.invite", { name: host }) : t("race.challenge.heading");
  $("[data-challenge-about]", root).hidden = !invited;
  $("[data-race-countdown]", root).hidden = true;
  $("[data-race-players-title]", root).textContent = t("race.players");
  $("[data-race-seats-free]", root).textContent = "";
  $("[data-race-share]", root).hidden = !offersLink(race, me);
  $("#race-share-title", root).textContent = t("race.challenge.shareLabel");
  const buttons = { join: invited && signedIn, start: false, leave: false };
  for (const [action, shown] of Object.entries(buttons)) $(`[data-race-action="${action}"]`, root).hidden = !shown;
  $('[data-race-action="join"]', root).textContent = t("race.challenge.accept");
  const signIn = $("[data-race-sign-in]", root);
  signIn.hidden = !(invited && !signedIn);
  signIn.textContent = t("race.challenge.signInToAccept");
  signIn.href = `/accounts/login/?next=${encodeURIComponent(`/race/${race.id}`)}`;
  $("[data-race-start-rule]", root).hidden = true;
  $("[data-race-grace]", root).textContent = ""; // no one is away from a challenge
  $("[data-race-status]", root).textContent = statusLine(race, me);
}
