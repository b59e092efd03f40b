// A race's results (docs/races.md): the places with each verdict, the rematch, and the deal
// checked against the commitment once the server publishes its code and secret (fairness.js).
// race_room.js draws them whenever the finished race changes.

import { $ } from "./dom.js";
import { checkDeal, commitmentHolds } from "./fairness.js";
import { t } from "./i18n.js";
import { isChallenge } from "./race_challenge.js";
import { byPlace, placeRow } from "./race_views.js";
import { offerReportLinks } from "./report.js";

export class RaceResults {
  #check = null; // the deal check shown: "<code>:<secret>"

  constructor(root) {
    this.root = root;
  }

  /**
   * The finished `race`; `me`: this page's seat (null watching); `knownDeal()`: the cards the
   * seat's table was shown, or null.
   */
  draw(race, { me, signedIn, knownDeal }) {
    $("[data-race-places]", this.root).replaceChildren(...byPlace(race.players).map(placeRow));
    offerReportLinks($("[data-race-places]", this.root), { signedIn }); // report.js: rows with a replay
    $("[data-race-places-note]", this.root).textContent = t(race.places_final ? "race.placesFinal" : "race.placesPending");
    this.#drawRematch(race, { me, signedIn });
    if (isChallenge(race)) {
      const again = $("[data-race-new]", this.root);
      again.href = "/race?kind=challenge";
      again.textContent = t("race.challenge.newChallenge");
    }
    this.#drawDeal(race, knownDeal);
  }

  // Before anyone asks, Rematch; once asked, the players it seats go to it, the others are
  // offered it (join or decline) until it starts.
  #drawRematch(race, { me, signedIn }) {
    const answer = signedIn && me ? race.your_rematch : null;
    const rematch = $('[data-race-action="rematch"]', this.root);
    rematch.hidden = !me || !signedIn || (Boolean(race.rematch_id) && answer !== "seated");
    rematch.textContent = t(race.rematch_id ? "race.rematchGo" : "race.rematch");
    if (race.rematch_id) rematch.dataset.rematchId = race.rematch_id;
    const offer = $("[data-race-rematch-offer]", this.root);
    offer.hidden = answer !== "offered" && answer !== "declined";
    const host = race.players.find((player) => player.rematch === "host")?.name ?? race.host;
    $("[data-race-rematch-text]", offer).textContent = answer === "declined" ? t("race.rematchDeclined") : t("race.rematchOffer", { host });
    for (const button of offer.querySelectorAll("[data-race-action]")) button.hidden = answer !== "offered";
  }

  async #drawDeal({ code, secret, commitment }, knownDealOf) {
    const box = $("[data-race-deal]", this.root);
    box.hidden = !(code && secret && commitment);
    if (box.hidden || this.#check === `${code}:${secret}`) return;
    this.#check = `${code}:${secret}`;
    $("[data-race-code]", box).textContent = code;
    $("[data-race-secret]", box).textContent = secret;
    $("[data-race-commitment]", box).textContent = commitment;
    // A seat checks its own table's cards too (the page holds no other game); a player watching,
    // the commitment only.
    const knownDeal = knownDealOf();
    let state;
    if (knownDeal) {
      state = (await checkDeal({ code, secret, commitment, knownDeal })).state;
    } else {
      const holds = await commitmentHolds({ code, secret, commitment });
      state = holds === null ? "unchecked" : holds ? "hashOnly" : "unfair";
    }
    const line = $("[data-race-check]", box);
    line.dataset.state = state;
    line.textContent = t(`race.check.${state}`);
  }
}
