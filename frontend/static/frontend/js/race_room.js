// /race/<id>: one race as it goes (docs/races.md). The page reads the race from the API, then
// follows it over the race's WebSocket (signed out, it asks the API again now and then): the
// lobby (join, leave, start, the link to share), the countdown against the server's clock, the
// seat's table (race_table.js) with the other players' figures beside it, and the results
// (race_results.js), which every page in the room follows. A challenge (race_challenge.js) goes
// from its invitation to the table, then the wait, then the results.

import { api, refusalText } from "./api.js";
import { $, formatDuration } from "./dom.js";
import { t } from "./i18n.js";
import { startPage } from "./page.js";
import { challengeView, drawChallengeLobby, isChallenge, offersLink, stripLine } from "./race_challenge.js";
import { RaceResults } from "./race_results.js";
import { RaceSocket, raceSocketUrl } from "./race_socket.js";
import { RaceTable } from "./race_table.js";
import { lobbyPlayer, opponentChip, raceSummary, refusal } from "./race_views.js";
import { confirmDialog } from "./dialogs.js";

const CLIENT_VERSION = $('meta[name="yukon-build"]')?.content || "dev";
const TICK_MS = 250;
const ASK_AGAIN_MS = 1_000; // the server's clock has passed a moment the race waits for: ask again
const POLL_MS = 4_000; // signed out: no socket, the API now and then

export class RaceRoom {
  race = null;
  view = "loading";
  #offsetMs = 0; // the server's clock minus this one
  #askedAt = 0;
  #firstSeen = null; // the race as the page first found it
  #leavingFor = null; // the race this page is opening instead

  constructor(root) {
    this.root = root;
    this.id = root.dataset.raceId;
    this.notices = null;
    this.results = new RaceResults(root);
    for (const button of root.querySelectorAll("[data-race-action]")) {
      button.addEventListener("click", () => this.#action(button.dataset.raceAction, button));
    }
  }

  async start() {
    const [{ account, sync }, answer] = await Promise.all([startPage(), api(this.#endpoint())]);
    this.account = account;
    this.table = account
      ? new RaceTable({
          accountOf: () => this.account,
          clientVersion: CLIENT_VERSION,
          sync,
          onProgress: (progress) => progress && this.socket?.sendProgress(progress),
          onWon: () => (isChallenge(this.race) ? this.show(this.race) : this.#showNote()),
        })
      : null;
    this.notices = this.table?.notices ?? null;
    if (answer.status === 404) {
      this.#setView("missing");
      return;
    }
    if (answer.ok) this.show(answer.data);
    else this.#connection(answer.status === 0 ? "offline" : "failed", answer);
    if (account) {
      this.#connect();
      // The room's messages are sent once (Redis pub/sub): a race over whose places wait for
      // their verdicts also asks the API now and then, so one missed message never leaves them
      // pending on the page.
      setInterval(() => {
        if (this.race?.state === "finished" && !this.race.places_final) this.#poll();
      }, POLL_MS);
    } else setInterval(() => this.#poll(), POLL_MS);
    setInterval(() => this.#tick(), TICK_MS);
  }

  #endpoint(action = "") {
    return `/api/races/${encodeURIComponent(this.id)}/${action ? `${action}/` : ""}`;
  }

  #connect() {
    const url = raceSocketUrl(this.id, this.root.dataset.websocketOrigin);
    this.socket = new RaceSocket(url, {
      message: (data) => this.#message(data),
      opened: () => {
        // The seat's game as it stands: a move made while away reaches the race now.
        const progress = this.table?.progress();
        if (progress && this.view === "table") this.socket.sendProgress(progress);
      },
      state: (name, detail) => {
        if (name === "open") this.#connection(null);
        else if (name === "retrying" && this.race) this.#connection("reconnecting");
        else if (name === "closed") this.#closed(detail);
      },
    });
    this.socket.connect();
  }

  // The socket was closed for good: signed out meanwhile, or the race is gone.
  #closed(reason) {
    if (reason === "race_not_found") this.#setView("missing");
    else setInterval(() => this.#poll(), POLL_MS);
  }

  async #poll() {
    if (this.race?.state === "finished" && this.race.places_final) return;
    const answer = await api(this.#endpoint());
    if (answer.ok) {
      this.#connection(null);
      this.show(answer.data);
    } else if (answer.status === 0) {
      this.#connection("offline");
    }
  }

  #message(data) {
    if (data?.type === "race" && data.race) this.show(data.race);
    else if (data?.type === "progress") this.#progress(data);
    else if (data?.type === "refused") this.#refused(data);
  }

  #refused({ code, message, index, params }) {
    // The race's own message says what it is now (over, or this seat out: its game settled).
    if (code === "race_not_running" || code === "game_used") return;
    this.notices?.show(refusal(code, message ?? code, { index: index ?? params?.index ?? "?" }));
    if (code === "prefix_conflict") this.table?.takeRecorded();
  }

  // One seat's figures, as the server replayed its log.
  #progress({ player, foundation_cards, moves, time_ms, status }) {
    const seat = this.race?.players.find((each) => each.name === player);
    if (!seat) return;
    Object.assign(seat, { foundation_cards, moves, time_ms }, status ? { status } : {});
    this.#drawPlayers();
  }

  // ---- the race as the server says it is ------------------------------------------------------

  show(race) {
    const first = this.#firstSeen === null;
    this.#firstSeen ??= race;
    const now = race === this.race ? NaN : Date.parse(race.now); // drawn again (a win): its clock is old
    this.race = race;
    if (!Number.isNaN(now)) this.#offsetMs = now - Date.now();
    // A challenge's rematch asked for while the page is open is followed (its invitation is the
    // offer); a race's is offered on the results, and seats only the players who accept it.
    if (isChallenge(race) && race.rematch_id && !first && !this.#firstSeen.rematch_id) {
      this.#goTo(race.rematch_id);
      return;
    }
    this.root.dataset.raceState = race.state;
    $("[data-race-summary]", this.root).textContent = raceSummary(race);
    $("[data-race-results-summary]", this.root).textContent = raceSummary(race);
    $("#race-play-title", this.root).textContent = t(isChallenge(race) ? "race.challenge.heading" : "race.heading");
    this.#setView(this.#viewOf(race));
    this.#drawPlayers();
    this.#drawLobby();
    if (this.view === "table") this.#takeUpTable();
    if (this.view === "results") this.#drawResults();
    this.#tick();
  }

  get me() {
    return this.race?.players.find((player) => player.you) ?? null;
  }

  #viewOf(race) {
    if (race.state === "finished") return "results";
    if (isChallenge(race)) {
      const session = this.table?.session;
      const doneHere = Boolean(session?.won && session.issued?.id === race.your_game_id);
      return challengeView(race, this.me, { canPlay: Boolean(this.table), doneHere });
    }
    if (race.state !== "running") return race.state; // lobby, countdown
    const me = this.me;
    const seated = this.table && me && race.your_game_id && me.status !== "out";
    return seated ? "table" : "lobby"; // out, or watching: the list with everyone's figures
  }

  #setView(view) {
    this.view = view;
    this.root.dataset.raceView = view;
    const lobby = "[data-race-lobby]"; // a challenge's invitation and wait too
    const shown = { loading: "[data-race-loading]", lobby, countdown: lobby, invite: lobby, waiting: lobby, table: "[data-race-play]", results: "[data-race-results]", missing: "[data-race-missing]" }[view];
    for (const part of ["[data-race-loading]", "[data-race-lobby]", "[data-race-play]", "[data-race-results]", "[data-race-missing]"]) {
      $(part, this.root).hidden = part !== shown;
    }
    // The table takes the whole screen, as on the game page; the other views scroll.
    document.body.classList.toggle("play-page", view === "table");
    document.body.classList.toggle("info-page", view !== "table");
    $("main").classList.toggle("game", view === "table");
    if (view !== "table" && view !== "missing" && view !== "loading") document.title = `${raceSummary(this.race)} · ${t(isChallenge(this.race) ? "race.challenge.title" : "race.title")}`;
  }

  #drawLobby() {
    const race = this.race;
    const me = this.me;
    const link = $("[data-race-link]", this.root);
    link.value = new URL(race.url ?? `/race/${this.id}`, location.href).href;
    if (isChallenge(race)) {
      if (race.state === "running") drawChallengeLobby(this.root, race, { me, signedIn: Boolean(this.account) });
      return;
    }
    const seated = race.players.length;
    const lobby = race.state === "lobby";
    $("[data-race-countdown]", this.root).hidden = race.state !== "countdown";
    $("[data-race-players-title]", this.root).textContent = t(lobby || race.state === "countdown" ? "race.players" : "race.standings");
    const free = Math.max(0, race.seats - seated);
    $("[data-race-seats-free]", this.root).textContent = lobby ? (free ? t("race.seatsFree", { count: free }) : t("race.full")) : "";
    $("[data-race-share]", this.root).hidden = !lobby;
    const signedIn = Boolean(this.account);
    const buttons = {
      join: lobby && signedIn && !me && free > 0,
      start: lobby && Boolean(me?.host) && seated >= 2,
      leave: lobby && Boolean(me),
    };
    for (const [action, shown] of Object.entries(buttons)) $(`[data-race-action="${action}"]`, this.root).hidden = !shown;
    const signIn = $("[data-race-sign-in]", this.root);
    signIn.hidden = !(lobby && !signedIn);
    signIn.href = `/accounts/login/?next=${encodeURIComponent(`/race/${this.id}`)}`;
    $("[data-race-start-rule]", this.root).hidden = !lobby;
    $("[data-race-grace]", this.root).textContent = t("race.grace", { seconds: race.grace_seconds ?? 60 });
    $("[data-race-status]", this.root).textContent = this.#lobbyStatus();
  }

  #lobbyStatus() {
    const race = this.race;
    const me = this.me;
    if (race.state === "lobby") return me && !me.host ? t("race.waitingHost", { host: race.host }) : "";
    if (race.state === "running") return me?.status === "out" ? t("race.youOut") : this.view === "table" ? "" : t("race.watching");
    return "";
  }

  #drawPlayers() {
    const race = this.race;
    if (!race) return;
    $("[data-race-players]", this.root).replaceChildren(...race.players.map((player) => lobbyPlayer(player, race)));
    const challenge = isChallenge(race);
    $("[data-race-opponents]", this.root).replaceChildren(...(challenge ? [] : race.players.filter((player) => !player.you).map(opponentChip)));
    const line = $("[data-challenge-line]", this.root);
    line.hidden = !challenge;
    if (challenge) line.textContent = stripLine(race);
    $('[data-race-action="copy-challenge"]', this.root).hidden = !(challenge && offersLink(race, this.me));
    this.#showNote();
  }

  // The line beside the table: the seat's own state.
  #showNote() {
    const me = this.me;
    const won = this.table?.session?.won;
    const text = me?.status === "out" ? t("race.youOut") : won || me?.status === "finished" ? t("race.youFinished") : "";
    const note = $("[data-race-note]", this.root);
    if (note.textContent !== text) note.textContent = text;
  }

  async #takeUpTable() {
    const race = this.race;
    if (this.table.session?.issued?.id === race.your_game_id) {
      if (this.me?.status === "out") this.table.lock();
      return;
    }
    if (this.#takingUp) return;
    this.#takingUp = true;
    try {
      const ready = await this.table.takeUp(race.your_game_id, this.account.id);
      if (!ready) this.notices?.show(t("race.failed", { reason: t("ranked.unknown") }));
      else if (this.socket?.open && this.table.progress()) this.socket.sendProgress(this.table.progress());
    } finally {
      this.#takingUp = false;
    }
    if (this.me?.status === "out") this.table.lock();
    this.#showNote();
  }

  #takingUp = false;

  // ---- the clock: the countdown, the time limit ------------------------------------------------

  #serverNow() {
    return Date.now() + this.#offsetMs;
  }

  #tick() {
    const race = this.race;
    if (!race) return;
    if (race.state === "countdown" && race.starts_at) {
      const left = Date.parse(race.starts_at) - this.#serverNow();
      const count = String(Math.max(0, Math.ceil(left / 1000)));
      const shown = $("[data-race-count]", this.root);
      if (shown.textContent !== count) shown.textContent = count;
      if (left <= 0) this.#askAgain();
    }
    const clock = $("[data-race-clock]", this.root);
    let text = "";
    if (race.state === "running" && isChallenge(race) && race.deadline && Date.parse(race.deadline) <= this.#serverNow()) this.#askAgain();
    if (race.state === "running" && race.ends_at) {
      const left = Date.parse(race.ends_at) - this.#serverNow();
      text = t("race.endsIn", { time: formatDuration(Math.max(0, left)) });
      if (left <= 0) this.#askAgain();
    }
    if (clock.textContent !== text) clock.textContent = text;
  }

  // A moment the race waited for has passed on the server's clock: ask for the race, in case its
  // message is slow to come.
  async #askAgain() {
    if (Date.now() - this.#askedAt < ASK_AGAIN_MS) return;
    this.#askedAt = Date.now();
    const answer = await api(this.#endpoint());
    if (answer.ok && answer.data.state !== this.race.state) this.show(answer.data);
  }

  // ---- the results (race_results.js) ------------------------------------------------------------

  #drawResults() {
    this.table?.lock();
    this.results.draw(this.race, {
      me: this.me,
      signedIn: Boolean(this.account),
      knownDeal: () => this.table?.session?.game.knownDeal() ?? null,
    });
  }

  // ---- the buttons -----------------------------------------------------------------------------

  async #action(action, button) {
    if (action === "copy") return this.#copyLink();
    if (action === "copy-challenge") return this.#copyLink({ toNotice: true });
    if (action === "rematch" && button.dataset.rematchId) return this.#goTo(button.dataset.rematchId);
    if (action === "leave-race" && !(await this.#confirmLeave())) return;
    const endpoint = { join: "join", leave: "leave", "leave-race": "leave", start: "start", rematch: "rematch", "rematch-accept": "rematch", "rematch-decline": "rematch/decline" }[action];
    if (!endpoint) return;
    button.disabled = true;
    const answer = await api(this.#endpoint(endpoint), { method: "POST", body: {} });
    button.disabled = false;
    if (!answer.ok) {
      this.#say(refusal(answer.data?.code, refusalText(answer.data, answer.status), {}, { challenge: isChallenge(this.race) }));
      if (answer.status === 409) this.#poll(); // the race moved on meanwhile: show it as it is
      return;
    }
    if (action === "rematch" || action === "rematch-accept") this.#goTo(answer.data.id);
    else this.show(answer.data);
  }

  /** Open another race once: the button's answer and the room's message both name the rematch,
   *  and a second navigation would abort the first. */
  #goTo(raceId) {
    if (this.#leavingFor) return;
    this.#leavingFor = raceId;
    location.assign(`/race/${encodeURIComponent(raceId)}`);
  }

  // Leave the race, or give up the challenge: asked first.
  #confirmLeave() {
    const words = isChallenge(this.race) ? "race.challenge" : "race";
    $('[data-dialog="confirm"] [data-close="stay"]').textContent = t(`${words}.stay`);
    return confirmDialog({ title: t(`${words}.leaveTitle`), text: t(`${words}.leaveText`), yes: t(`${words}.leaveYes`) });
  }

  // The race's link to the clipboard; said under the share panel's link, or (from the table's
  // strip) in the table's notice.
  async #copyLink({ toNotice = false } = {}) {
    const link = $("[data-race-link]", this.root);
    const said = $("[data-race-copied]", this.root);
    try {
      await navigator.clipboard.writeText(link.value);
      if (toNotice && this.notices) this.notices.show(t("race.challenge.linkCopied"));
      else said.textContent = t(isChallenge(this.race) ? "race.challenge.linkCopied" : "race.linkCopied");
    } catch {
      if (toNotice && this.notices) this.notices.show(link.value); // no clipboard access: the link to copy by hand
      else link.select(); // no clipboard access: selected, to copy by hand
    }
  }

  // A message for the player: under the table while playing, else in the view's status line.
  #say(text) {
    if (this.view === "table" && this.notices) this.notices.show(text);
    else $(this.view === "results" ? "[data-race-places-note]" : "[data-race-status]", this.root).textContent = text;
  }

  #connection(problem, answer = null) {
    const note = $("[data-race-connection]", this.root);
    note.hidden = problem === null;
    if (problem === null) return;
    note.textContent =
      problem === "offline" ? t("race.offline") : problem === "reconnecting" ? t("race.reconnecting") : t("race.failed", { reason: refusalText(answer?.data, answer?.status) });
    if (!this.race && problem !== "reconnecting") setTimeout(() => this.#poll(), POLL_MS);
  }
}
