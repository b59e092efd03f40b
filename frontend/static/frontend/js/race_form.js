// /race: the form that creates a race (live, 2–6 players) or a challenge (two players, each in
// turn before a deadline), then opens it (docs/races.md). `?kind=challenge` picks the challenge.

import { api, refusalText } from "./api.js";
import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { startPage } from "./page.js";
import { refusal } from "./race_views.js";

/** /race: the form that creates a race or a challenge (its kind), then opens it. */
export class RaceForm {
  constructor(form) {
    this.form = form;
    this.error = $("[data-race-error]", form);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.#create();
    });
    form.addEventListener("change", (event) => {
      if (event.target.name === "kind") this.#showKind();
    });
    $("[data-race-create]", form).disabled = false; // disabled in the page until this script takes the form
    startPage().then(() => this.#showKind());
  }

  get kind() {
    return new FormData(this.form).get("kind") === "challenge" ? "challenge" : "race";
  }

  // A challenge has two seats and no time limit: only a race asks for them.
  #showKind() {
    const kind = this.kind;
    this.form.dataset.kind = kind;
    for (const part of this.form.querySelectorAll("[data-kind-only]")) part.hidden = part.dataset.kindOnly !== kind;
    $("[data-race-create]", this.form).textContent = t(kind === "challenge" ? "race.challenge.create" : "race.create");
  }

  async #create() {
    const data = new FormData(this.form);
    const minutes = data.get("time_limit_minutes");
    const body =
      this.kind === "challenge"
        ? { kind: "challenge", rules: data.get("rules") }
        : { kind: "race", rules: data.get("rules"), seats: Number(data.get("seats")), time_limit_minutes: minutes ? Number(minutes) : null };
    const button = $("[data-race-create]", this.form);
    button.disabled = true;
    this.error.textContent = "";
    const answer = await api("/api/races/", { method: "POST", body });
    if (answer.ok && answer.data?.url) {
      location.assign(answer.data.url);
      return;
    }
    button.disabled = false;
    const signIn = `/accounts/login/?next=${encodeURIComponent(location.pathname + location.search)}`;
    this.error.replaceChildren(
      answer.status === 0 ? t("race.offline") : refusal(answer.data?.code, refusalText(answer.data, answer.status)),
      ...(answer.status === 403 || answer.status === 401 ? [" ", el("a", { href: signIn }, t("race.signIn"))] : []),
    );
  }
}
