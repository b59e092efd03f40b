// The browser game: the table (table_controller.js: moves, undo, the cards the server reveals,
// a win queued) with what only the game page has: the saved game, the account, the ranked and
// winnable deals, the walkthrough, hints, Finish, the win banner, the outbox and the service
// worker. Each of those lives in its own module (the buttons and page events: controls.js);
// this one decides what the page adds after a move (the walkthrough, the win banner) and when a
// game starts or is left.

import { knownAccount, refreshAccount, renderAccountNav } from "./account.js";
import { api } from "./api.js";
import { bindControls } from "./controls.js";
import { mergeServerBests, shownBest, winRecord } from "./bests.js";
import { Dealer } from "./dealer.js";
import { NewGameDialog, SettingsDialog, confirmDialog } from "./dialogs.js";
import { $, replayEarlyPresses } from "./dom.js";
import { parseCode } from "./engine.js";
import { checkDeal } from "./fairness.js";
import { Finisher } from "./finish.js";
import { Hints } from "./hints.js";
import { codeErrorText, refusalText, reloadedForLanguage, t, translatePage } from "./i18n.js";
import { ResultsView } from "./results.js";
import { dailyGame, recordedGame } from "./reveals.js";
import { ORIGINS, Session } from "./session.js";
import { countGame } from "./stats.js";
import * as store from "./store.js";
import { ResultsSync, findResult, onResultsChange } from "./sync.js";
import { TableController } from "./table_controller.js";
import { claimTable, tableLost } from "./table_lock.js";
import { WALKTHROUGH, Walkthrough } from "./walkthrough.js";
import { WinBanner } from "./win_banner.js";
import { WinnableDeals } from "./winnable.js";

const CLIENT_VERSION = $('meta[name="yukon-build"]')?.content || "dev";
const PLAY_PATH = /^\/play\/([^/]+)\/?$/;

// The questions before leaving or rewinding a game, in the page's language.
const LEAVE_UNRANKED = { title: "confirm.title", text: "confirm.text", yes: "confirm.leave" };
const LEAVE_RANKED = { title: "confirm.rankedTitle", text: "confirm.rankedText", yes: "confirm.rankedYes" };
const REWIND_RANKED = { title: "confirm.rewindTitle", text: "confirm.rewindText", yes: "confirm.rewindYes" };
const REDEAL_UNRANKED = { title: "redealAsk.title", text: "redealAsk.text", yes: "redealAsk.yes" };
const RECORDED_ELSEWHERE = { title: "reveal.conflictTitle", text: "reveal.conflictText", yes: "reveal.conflictYes" };
const asked = (keys) => Object.fromEntries(Object.entries(keys).map(([part, key]) => [part, t(key)]));
const TOUR_PARAMETER = "tour"; // /?tour=1: Help's link to the walkthrough
const DAILY_PARAMETER = "daily"; // /?daily=classic: the leaderboard's Play of a daily deal
const DAILY_REFUSALS = { daily_played: "daily.played", offline: "daily.offline" };

class App extends TableController {
  constructor() {
    super();
    this.account = knownAccount(); // until the server says (settle)
    this.winnable = new WinnableDeals({ enabled: () => this.settings.winnableOnly, origins: ORIGINS });
    this.dealer = new Dealer({ accountOf: () => this.account, clientVersion: CLIENT_VERSION, winnable: this.winnable });
    this.sync = new ResultsSync(() => this.account);
    this.newGameDialog = new NewGameDialog($('[data-dialog="new-game"]'), (on) => this.changeSetting("winnableOnly", on));
    this.settingsDialog = new SettingsDialog($('[data-dialog="settings"]'), (name, on) => this.changeSetting(name, on));
    this.winBanner = new WinBanner($('[data-dialog="win"]'));
    this.results = new ResultsView({
      dialog: $('[data-dialog="results"]'),
      chip: $("[data-results-chip]"),
      banner: this.winBanner.dialog,
      accountOf: () => this.account,
      resultIdOf: () => this.session.resultId,
      send: () => this.sync.kick(),
    });
    onResultsChange(() => {
      if (this.session.won) this.#showKind(); // the verdict may publish the deal's code
      if (this.winBanner.dialog.open && this.session.won) {
        this.#showRecord(); // a verdict came
        this.#showDealCheck();
      }
    });
    this.walkthrough = new Walkthrough(this);
    this.hints = new Hints(this);
    this.finisher = new Finisher(this);
    let linked = this.#linkedCode();
    this.session = this.dealer.firstSession(linked, { keepWon: reloadedForLanguage() });
    if (linked !== null && linked === this.dealer.wonAtLoad) {
      linked = null; // back at the address of the deal just won: the next game instead
      history.replaceState(null, "", "/");
    }
    bindControls(this);
    this.render();
    this.keys.reset();
    this.session.setVisible(!document.hidden);
    $("[data-app-status]").dataset.appStatus = "ready"; // the page is playable
    performance.mark("yukon:ready");
    if (this.session.won) this.#showWin(); // its banner, in the language just chosen
    this.revealer.ask(); // a card turned up before the reload waits for its answer
    // A link to another deal while a game is under way: that game stays until the player agrees.
    if (linked && linked !== this.session.code) this.#openLinked(linked);
    else if (!this.#dailyAsked) this.#walkthroughAtStart(linked);
    this.settle();
    this.winnable.topUpAll();
    // A page the back-forward cache brings back is as it was left: after a win, the next game.
    addEventListener("pageshow", (event) => {
      if (event.persisted && this.session.won) this.#nextAfterWin();
    });
  }

  #nextAfterWin() {
    if (this.winBanner.dialog.open) this.winBanner.dialog.close();
    this.startGame(this.dealer.dealNow(this.session.rules));
  }

  // The walkthrough: asked for by Help's link, carried on after a reload, or offered once.
  #walkthroughAtStart(linked) {
    const params = new URLSearchParams(location.search);
    if (params.has(TOUR_PARAMETER)) {
      history.replaceState(null, "", location.pathname);
      this.startWalkthrough();
    } else if (!this.walkthrough.resume() && !linked && location.pathname === "/") {
      this.walkthrough.offerOnce();
    }
  }

  /** Leave the game in progress (if the player agrees) for the walkthrough's deal, and begin. */
  async startWalkthrough() {
    if (!(await this.#mayLeave())) return;
    this.startGame({ code: WALKTHROUGH.code, origin: ORIGINS.code });
    this.walkthrough.begin();
  }

  /**
   * Learn who is playing from the server, then: send waiting results, fill the pool of ranked
   * deals, turn an untouched local deal into a ranked one, and merge the server's bests.
   */
  #settling = null;
  #bestsMerged = false;

  settle() {
    this.#settling ??= this.#settleOnce().finally(() => (this.#settling = null));
    return this.#settling;
  }

  async #settleOnce() {
    const { account, fresh } = await refreshAccount();
    this.account = account;
    renderAccountNav(account);
    this.render();
    this.sync.kick();
    const session = this.session;
    const untouched = () => this.session === session && !session.started && !document.querySelector("dialog[open]");
    const deal = await this.dealer.afterSignIn(session, { fresh, untouched });
    if (deal) this.startGame(deal);
    if (this.#dailyAsked) await this.#playDaily(this.#dailyAsked);
    if (!account || this.#bestsMerged) return;
    const me = await api("/api/me/");
    if (me.ok) {
      mergeServerBests(me.data?.rules);
      this.#bestsMerged = true;
    }
  }

  // The rules of a daily deal asked for by the address (/?daily=classic), once: the address is
  // put back to "/" at once, so that a reload does not ask again.
  #dailyAsked = (() => {
    const rules = new URLSearchParams(location.search).get(DAILY_PARAMETER);
    if (rules === null) return null;
    history.replaceState(null, "", "/");
    return ["classic", "relaxed"].includes(rules) ? rules : null;
  })();

  // Today's daily deal: the player's hidden-card game of it (issued, or taken up where it was
  // left); said so when there is none to play (signed out, played today already, offline).
  async #playDaily(rules) {
    this.#dailyAsked = null;
    if (!this.account) {
      this.notices.show(t("daily.signIn"));
      return;
    }
    const game = await dailyGame(rules, this.account.id);
    if (game.refused) {
      this.notices.show(t(DAILY_REFUSALS[game.refused] ?? "daily.unavailable", { rules: t(`rules.${rules}`) }));
      return;
    }
    if (this.session.issued?.id === game.issued.id) return; // on the table already
    if (await this.#mayLeave()) this.startGame({ ...game, why: t("daily.started", { rules: t(`rules.${rules}`) }) });
  }

  // The code of a /play/<code> address, canonical; null (and a note) when it is not a code.
  #linkedCode() {
    const linked = PLAY_PATH.exec(location.pathname);
    if (!linked) return null;
    try {
      return parseCode(decodeURIComponent(linked[1])).code;
    } catch (error) {
      this.notices.show(codeErrorText(error), { kind: "rule" });
      history.replaceState(null, "", "/");
      return null;
    }
  }

  async #openLinked(code) {
    if (await this.#mayLeave()) this.startGame({ code, origin: ORIGINS.code });
    else history.replaceState(null, "", this.session.code ? `/play/${this.session.code}` : "/");
  }

  // ---- moves (the table's: table_controller.js) ----------------------------------------

  play(move) {
    if (!this.walkthrough.allows(move) && this.session.game.check(move) === null) {
      this.walkthrough.nudge(); // a legal move, but not the one the walkthrough shows
      return { code: "walkthrough", message: t("tour.notNow"), params: {} };
    }
    return super.play(move);
  }

  moved(move) {
    if (move) this.walkthrough.moved(move);
  }

  won() {
    const { session } = this;
    countGame({ rules: session.rules, won: true, moves: session.game.movesMade, durationMs: session.clock.elapsed() });
    this.#showWin();
  }

  undo() {
    if (!this.walkthrough.active) super.undo();
    else {
      this.dropSelection();
      this.hint(t("tour.noUndo"));
    }
  }

  revealsOver(session, answer) {
    this.notices.show(t("reveal.over", { reason: refusalText(answer.data, answer.status) }));
  }

  // The server recorded this game further than the page holds it (played on in another tab or
  // device): the page cannot go on from here, and offers the recorded game.
  async recordedElsewhere(session) {
    const recorded = await recordedGame(session.issued.id, session.issued.owner);
    if (this.session !== session) return;
    if (!recorded) {
      this.notices.show(t("reveal.over", { reason: t("ranked.unknown") }));
      return;
    }
    if (await confirmDialog(asked(RECORDED_ELSEWHERE))) {
      if (this.session === session) this.startGame({ ...recorded, replaces: true });
    }
  }

  render() {
    super.render();
    this.#showKind(); // after bar.update: a daily deal's name over its code
    this.walkthrough.refresh();
    this.hints.refresh();
    this.finisher.refresh();
  }

  #showKind() {
    const published = this.session.hidden ? this.#publishedCode() : null;
    this.bar.showKind(this.session, { signedIn: Boolean(this.account), published });
  }

  save() {
    if (!tableLost()) store.saveGame(this.session.toSaved()); // else another tab's game is newer
  }

  // ---- games ---------------------------------------------------------------------------

  /**
   * Leave the game in progress only if the player agrees (nothing to lose: no question);
   * `unranked` is the question for an unranked game (leaving it, or dealing it again).
   */
  async #mayLeave(unranked = LEAVE_UNRANKED) {
    if (!this.session.started || this.session.won) return true;
    return confirmDialog(asked(this.session.ranked ? LEAVE_RANKED : unranked));
  }

  /**
   * Play `{code, issued, origin}` (a hidden-card game: code null; resumed: with its `log`,
   * `moveTimes`, `elapsedMs`, `revealed`); the game being left is given back or submitted first
   * — unless the new one `replaces` it (the same game as the server recorded it).
   */
  startGame({ code, issued = null, origin = ORIGINS.deal, why = "", replaces = false, ...resumed }) {
    this.dropSelection();
    this.session.clock.stop();
    if (!replaces) this.#countLeft(this.session);
    this.walkthrough.end(); // any other game ends the walkthrough (startWalkthrough begins it after)
    if (!replaces && this.dealer.leave(this.session)) this.sync.kick();
    this.session = new Session(code, { ...resumed, issued, origin }); // assisted if hinted before (hints.refresh)
    this.table.reset();
    this.notices.clear();
    if (PLAY_PATH.test(location.pathname)) history.replaceState(null, "", code ? `/play/${code}` : "/");
    this.render();
    this.keys.reset();
    this.save();
    const said = this.session.hidden ? "say.newHidden" : this.session.ranked ? "say.newRanked" : "say.newUnranked";
    this.say(t(said, { code }));
    if (why) this.notices.show(why);
    this.revealer.ask();
  }

  /** The device's stats (stats.js): a game left with a move made and not won counts as played. */
  #countLeft(session) {
    if (!session.started || session.won || this.walkthrough.active) return;
    countGame({ rules: session.rules, won: false, moves: session.game.movesMade, durationMs: session.clock.elapsed() });
  }

  async newDeal(rules = this.session.rules) {
    if (await this.#mayLeave()) this.startGame(await this.dealer.next(rules));
  }

  /**
   * The same deal from the start. A ranked game under way is not restarted: every move is
   * taken back, and the undos stay in its log.
   */
  async redeal() {
    const { session } = this;
    if (session.ranked && !session.won) {
      if (session.started && (await confirmDialog(asked(REWIND_RANKED)))) this.#rewind();
      return;
    }
    if (!(await this.#mayLeave(REDEAL_UNRANKED))) return;
    // A won ranked deal is played again as its code: unranked (a hidden-card game's code is
    // published with the server's verdict).
    const code = session.code ?? this.#publishedCode();
    if (!code) {
      this.notices.show(t(session.issued?.daily ? "win.deal.pendingDaily" : "reveal.codeLater"));
      return;
    }
    this.startGame({ code, origin: session.ranked ? ORIGINS.code : session.origin });
  }

  #rewind() {
    this.dropSelection();
    const undone = this.session.undoAll();
    this.render();
    this.save();
    this.say(t("say.rewound", { count: undone }));
  }

  async newGame() {
    const choice = await this.newGameDialog.open(this.session.rules, { ...this.settings, signedIn: Boolean(this.account) });
    if (choice?.results) this.results.open();
    else if (choice?.code && (await this.#mayLeave())) this.startGame({ code: choice.code, origin: ORIGINS.code });
    else if (choice?.rules) await this.newDeal(choice.rules);
  }

  async #showWin() {
    const { session } = this;
    const game = session.game;
    const { durationMs } = this.settleWin();
    const result = { moves: game.movesMade, points: game.points, score: game.rankedScore(), durationMs, assisted: session.assisted };
    this.winBanner.setLinks(game.code ?? this.#publishedCode());
    const closed = this.winBanner.open(result);
    this.#showRecord();
    this.#showDealCheck();
    this.results.showVerdict();
    const choice = await closed;
    if (choice === "new-deal") this.newDeal();
    else if (choice === "redeal") this.redeal();
  }

  // The code of the game on the table: its own, or a finished hidden-card game's as the server
  // published it with the verdict (null until then).
  #publishedCode() {
    return this.session.code ?? (this.session.resultId ? findResult(this.session.resultId)?.code ?? null : null);
  }

  // The win banner's check of a hidden-card game's deal, once the server has published its code
  // and secret (fairness.js): until then, a line saying when it comes.
  async #showDealCheck() {
    const { session } = this;
    if (!session.hidden) {
      this.winBanner.showDealCheck(null);
      return;
    }
    const entry = session.resultId ? findResult(session.resultId) : null;
    if (!entry?.code || !entry.secret) {
      // A daily deal's are published when its day is over, not with the verdict.
      this.winBanner.showDealCheck({ state: session.issued.daily ? "pendingDaily" : "pending" });
      return;
    }
    const check = await checkDeal({ code: entry.code, secret: entry.secret, commitment: session.issued.commitment, knownDeal: session.game.knownDeal() });
    if (this.session !== session) return;
    this.winBanner.setLinks(entry.code);
    this.winBanner.showDealCheck({ ...check, secret: entry.secret, commitment: session.issued.commitment });
  }

  // The win banner's line on the record: provisional until the server's verdict (bests.js).
  #showRecord() {
    const { rules, resultId } = this.session;
    const { best, provisional } = shownBest(rules);
    this.winBanner.showRecord(rules, winRecord(rules, resultId), best, provisional, { signedIn: Boolean(this.account) });
  }

  // ---- settings ------------------------------------------------------------------------

  changeSetting(name, on) {
    this.settings[name] = on;
    store.saveSettings(this.settings);
    this.applySettings();
    if (name === "winnableOnly") this.winnable.topUpAll();
  }
}

// The page may come from the offline cache in another language (i18n.js has loaded the words).
translatePage();
await claimTable(); // one table a browser: another tab may be playing this game

export const app = new App();
replayEarlyPresses(); // the table listens now
