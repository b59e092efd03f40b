// /replay/<id>: a verified win, move by move, on the same table as the game (read-only). The
// moves come from GET /api/replays/<id>/ and are played by the browser's engine; each waits as
// long as the player took (`move_times_ms`), shortened to MAX_PAUSE_MS for a long think and
// divided by the speed. Play / pause, one move back or forward, to either end, or drag the slider.

import { api } from "./api.js";
import { installSuitSymbols } from "./art.js";
import { Bar } from "./bar.js";
import { $, $$, RULE_NAMES, formatDuration, formatNumber, formatWhen, replayEarlyPresses } from "./dom.js";
import { Game } from "./engine.js";
import { t } from "./i18n.js";
import { isOffline, showOffline, startPage, whenOnline } from "./page.js";
import { offerAnalysis } from "./replay_analysis.js";
import { offerReport } from "./report.js";
import { Table } from "./table.js";

const MAX_PAUSE_MS = 5000;
const REPLAY_PATH = /^\/replay\/(\d+)\/?$/;

class Replay {
  #timer = 0;

  constructor(data) {
    this.data = data;
    this.log = data.log;
    this.times = data.move_times_ms;
    this.steps = this.log.length;
    this.speed = 1;
    this.playing = false;
    this.root = $("[data-replay]");
    this.table = new Table($("[data-table]"));
    this.bar = new Bar(this.root);
    this.seek = $("[data-replay-seek]");
    this.position = $("[data-replay-position]");
    this.seek.max = String(this.steps);
    this.root.dataset.steps = String(this.steps);
    this.#bind();
    this.show(0);
  }

  /** The game after `step` tokens: one more token is pushed, any other step is replayed from the deal. */
  #gameAt(step) {
    if (this.game && step === this.step + 1) {
      this.game.push(this.log[this.step]);
      return this.game;
    }
    // A daily-deal win watched by its player during the day has no code yet: the cards they saw.
    const game = this.data.code ? Game.fromCode(this.data.code) : Game.fromVisible(this.data.deal);
    for (const token of this.log.slice(0, step)) game.push(token);
    return game;
  }

  show(step) {
    step = Math.max(0, Math.min(this.steps, step));
    this.game = this.#gameAt(step);
    this.step = step;
    this.table.render(this.game);
    this.bar.update(this.game);
    this.bar.showTime(step ? this.times[step - 1] : 0);
    this.seek.value = String(step);
    this.position.textContent = `${step} / ${this.steps}`;
    this.root.dataset.step = String(step);
    if (step === this.steps) this.pause(true);
    else if (!this.playing) this.#status("paused");
  }

  #status(status) {
    this.root.dataset.replayStatus = status;
    const playing = status === "playing";
    const button = $('[data-replay-action="play"]');
    button.classList.toggle("playing", playing);
    button.setAttribute("aria-label", t(playing ? "replay.pause" : "replay.play"));
    $("[data-play-label]", button).textContent = t(playing ? "replay.pause" : status === "ended" ? "replay.again" : "replay.play");
  }

  play() {
    if (this.step >= this.steps) this.show(0);
    this.playing = true;
    this.#status("playing");
    this.#next();
  }

  pause(ended = false) {
    clearTimeout(this.#timer);
    this.playing = false;
    this.#status(ended ? "ended" : "paused");
  }

  // Wait as the player did before the next token, then play it.
  #next() {
    if (!this.playing || this.step >= this.steps) return;
    const gap = this.times[this.step] - (this.step ? this.times[this.step - 1] : 0);
    const wait = Math.min(Math.max(gap, 0), MAX_PAUSE_MS) / this.speed;
    this.#timer = setTimeout(() => {
      this.show(this.step + 1);
      this.#next();
    }, wait);
  }

  #step(to) {
    if (this.playing) this.pause();
    this.show(to);
  }

  /** Paused at the table after `step` tokens (the analysis's "show the move that lost it"). */
  goTo(step) {
    this.#step(step);
  }

  #bind() {
    const actions = {
      start: () => this.#step(0),
      back: () => this.#step(this.step - 1),
      forward: () => this.#step(this.step + 1),
      end: () => this.#step(this.steps),
      play: () => (this.playing ? this.pause() : this.play()),
    };
    for (const button of $$("[data-replay-action]")) button.addEventListener("click", () => actions[button.dataset.replayAction]());
    for (const button of $$("[data-speed]")) {
      button.addEventListener("click", () => {
        this.speed = Number(button.dataset.speed);
        for (const other of $$("[data-speed]")) other.setAttribute("aria-pressed", String(other === button));
        if (this.playing) {
          clearTimeout(this.#timer);
          this.#next();
        }
      });
    }
    this.seek.addEventListener("input", () => this.#step(Number(this.seek.value)));
    document.addEventListener("keydown", (event) => {
      if (event.target.closest?.("input, select, textarea")) return; // the slider has its own keys
      if (event.target.closest?.("dialog")) return; // the report dialog's keys are its own
      if (event.target.closest?.("button, a") && (event.key === " " || event.key === "Enter")) return;
      const key = { " ": actions.play, ArrowLeft: actions.back, ArrowRight: actions.forward, Home: actions.start, End: actions.end }[event.key];
      if (key) {
        event.preventDefault();
        key();
      }
    });
  }
}

function describe(data) {
  const said = t("replay.describe", {
    player: data.player.name,
    rules: RULE_NAMES[data.rules],
    code: data.code ?? t("replay.codeLater"),
    kind: t(data.ranked ? "replay.ranked" : "replay.unranked"),
    count: data.moves,
    moves: formatNumber(data.moves),
    time: formatDuration(data.duration_ms),
    when: formatWhen(data.achieved_at),
  });
  return data.par ? `${said} · ${againstPar(data.moves, data.par)}` : said;
}

// The win's moves against the deal's par: the shortest win the solver has found (it can be beaten).
function againstPar(moves, par) {
  const values = { par: formatNumber(par), more: formatNumber(moves - par), fewer: formatNumber(par - moves) };
  return t(moves > par ? "replay.parMore" : moves < par ? "replay.parFewer" : "replay.parSame", values);
}

function fail(text, status = "error") {
  const message = $("[data-replay-message]");
  message.textContent = text;
  message.hidden = false;
  $("[data-replay-info]").textContent = "";
  $("[data-replay]").dataset.replayStatus = status;
  for (const control of $$("[data-replay-controls] button, [data-replay-controls] input")) control.disabled = true;
}

async function load(id, started) {
  const answer = await api(`/api/replays/${id}/`);
  showOffline(isOffline(answer));
  if (!answer.ok) {
    if (isOffline(answer)) fail(t("replay.offline"), "offline");
    else if (answer.status === 403 && answer.data?.available_at) fail(t("replay.notYet", { when: formatWhen(answer.data.available_at) }));
    else fail(t("replay.missing"));
    return false;
  }
  $("[data-replay-message]").hidden = true;
  for (const control of $$("[data-replay-controls] button, [data-replay-controls] input")) control.disabled = false;
  $("[data-replay-info]").textContent = describe(answer.data);
  document.title = t("replay.title", { player: answer.data.player.name, code: answer.data.code ?? t("replay.codeLater") });
  const replay = new Replay(answer.data);
  replayEarlyPresses(); // its controls listen now
  offerAnalysis(replay);
  // Who watches decides whether a report is offered: the server has said once the page started.
  started.then(({ account }) => offerReport({ resultId: answer.data.id, player: answer.data.player.name, account }));
  return true;
}

installSuitSymbols();
const started = startPage();
const id = REPLAY_PATH.exec(location.pathname)?.[1];
if (!id) {
  fail(t("replay.choose"));
} else {
  load(id, started).then((loaded) => {
    if (!loaded) whenOnline(() => load(id, started));
  });
}
