// Where games come from and what they leave behind. A signed-in player's new deal online is a
// hidden-card ranked game issued by the server (taken from the pool kept on the device: pool.js),
// whose face-down cards the server tells as they turn up (reveals.js). Offline — or signed out —
// it is an open deal: its code, and so every card, known to the page; signed in, its win still
// goes to the server on reconnect and counts on the deal's board and the open-deal board, never
// on the global ones. A typed or shared code is an open deal too. Leaving a ranked game submits
// it as it stands (a game played, honestly counted); a ranked game left before its first move
// goes back to the pool. With "Winnable deals only" on, new deals are unranked winnable deals
// (winnable.js), a random one when none is at hand.
// The pool may hold games played on another device (or expired): once a visit, before the page
// deals from it, it is squared with the server's list of the games that still accept a result
// (pool.js). A ranked game started on another device is resumed here when the table is untouched.

import { CLASSIC, randomCode } from "./engine.js";
import { t } from "./i18n.js";
import { gamesInUse, giveBack, poolSize, refillPool, takeIssued } from "./pool.js";
import { recordedGame } from "./reveals.js";
import { ORIGINS, Session } from "./session.js";
import { loadGame } from "./store.js";
import { enqueueResult } from "./sync.js";

export class Dealer {
  /**
   * `accountOf()`: the signed-in account or null; `clientVersion`: the build sent with results;
   * `winnable`: the WinnableDeals of the option (winnable.js).
   */
  constructor({ accountOf, clientVersion, winnable = null }) {
    this.accountOf = accountOf;
    this.clientVersion = clientVersion;
    this.winnable = winnable;
  }

  #checked = null; // the visit's first refill of the pool (squared with the server's list first)
  #checkedFor = null; // the player it was for
  #gone = new Set(); // issued games the server's list no longer holds: never given back to the pool
  wonAtLoad = null; // the code of the won game the page found saved (firstSession)

  /**
   * The pool squared with the server's list, once a visit (and filled): resolves the refill's
   * `{ok, reason, held}` — at once offline, the pool then used as it is.
   */
  poolChecked() {
    const account = this.accountOf();
    if (!account) return Promise.resolve({ ok: false, reason: "signed_out", held: null });
    if (this.#checkedFor !== account.id) {
      this.#checkedFor = account.id;
      this.#checked = this.refill();
    }
    return this.#checked;
  }

  get #wantsWinnable() {
    return Boolean(this.winnable?.enabled());
  }

  /**
   * The game the page opens with: the one in progress (saved), else the `linked` code of a
   * /play/<code> address (unranked), else a new deal of the saved game's rules (Classic at
   * first): local, as the pool is not squared with the server's list yet (afterSignIn makes it
   * ranked then, or at once offline). A won game is never taken up again: its banner was shown
   * when it was won, its result is in Results, and the player comes back to their next game —
   * at its deal's address too (`wonAtLoad`: that code, whose link the page then drops) — unless
   * `keepWon`: the same view in another language.
   */
  firstSession(linked, { keepWon = false } = {}) {
    const saved = loadGame();
    let rules = CLASSIC;
    if (saved) {
      try {
        const session = new Session(saved.code, saved);
        rules = session.rules;
        if (session.won && keepWon && (!linked || saved.code === linked)) return session;
        if (session.won) {
          this.#keepWin(session);
          this.wonAtLoad = session.code;
        } else if (!linked || saved.code === linked || session.started) return session;
        else this.leave(session);
      } catch {
        // a saved code this version cannot read: start afresh
      }
    }
    if (linked && linked !== this.wonAtLoad) return new Session(linked, { origin: ORIGINS.code });
    const deal = this.dealNow(rules, { ranked: false });
    return new Session(deal.code, deal);
  }

  // A won game saved before its result was queued (the page closed at the very moment of the
  // win) still sends it.
  #keepWin(session) {
    if (!session.resultId) this.submit(session);
  }

  /**
   * A deal to play now without waiting: winnable, or ranked if one is kept and the browser is
   * online (a hidden-card game cannot turn a card up offline; not with `ranked: false`), else an
   * open deal.
   */
  dealNow(rules = CLASSIC, { ranked = true } = {}) {
    const winnable = this.#wantsWinnable ? this.winnable.take(rules) : null;
    if (winnable) return winnable;
    const account = this.accountOf();
    const issued = ranked && navigator.onLine ? takeIssued(account, rules) : null;
    if (issued) {
      this.refill();
      return { code: null, issued: { ...issued, owner: account.id }, origin: ORIGINS.ranked };
    }
    return { code: randomCode(rules), issued: null, origin: ORIGINS.deal };
  }

  /**
   * The next deal of `rules`: ranked when signed in (issuing more deals first if the pool is
   * empty), else local. `why` says why a signed-in player gets an unranked deal.
   */
  async next(rules) {
    if (this.#wantsWinnable) {
      const deal = await this.winnable.next(rules);
      if (deal.code) return deal;
      const why = t(deal.why === "offline" ? "winnable.noneOffline" : "winnable.noneServer");
      return { code: randomCode(rules), issued: null, origin: ORIGINS.deal, why };
    }
    const account = this.accountOf();
    let refill = null;
    if (account && navigator.onLine) await this.poolChecked();
    if (account && navigator.onLine && poolSize(account, rules) === 0) refill = await refillPool(account, rules);
    const deal = this.dealNow(rules);
    if (account && !deal.issued) {
      const offline = !navigator.onLine || refill?.reason === "offline";
      deal.why = offline ? t("ranked.noneOffline") : t("ranked.notIssued", { reason: refill?.reason ?? t("ranked.unknown") });
    }
    return deal;
  }

  /**
   * The server has just said who plays (`fresh`: for certain). Squares the pool with the
   * server's list (once a visit), then gives the deal to switch the untouched game `session`
   * to, or null: a ranked deal of someone else (or of a player now signed out), or one the list
   * no longer holds (played elsewhere, expired), gives way; a ranked game started on another
   * device (and not on this one) is resumed as the server recorded it; else a local deal becomes
   * a ranked one. `untouched()` is asked again after each wait (the player may have moved).
   */
  async afterSignIn(session, { fresh, untouched }) {
    const account = this.accountOf();
    const checked = this.poolChecked(); // whatever the table holds: New deal waits for it too
    if (!untouched()) return null;
    const { held, started } = await checked;
    if (!untouched()) return null;
    const resumed = account ? await this.#startedElsewhere(started, session, account) : null;
    if (resumed && untouched()) return resumed;
    const notTheirs = fresh && session.ranked && session.issued.owner !== account?.id;
    const becomesRanked = account && session.origin === ORIGINS.deal && !this.#wantsWinnable;
    const mine = session.ranked && session.issued.owner === account?.id; // played elsewhere since?
    const gone = mine && held instanceof Set && !held.has(session.issued.id);
    if (!(notTheirs || becomesRanked || gone)) return null;
    if (gone) this.#gone.add(session.issued.id);
    const deal = this.dealNow(session.rules);
    return deal.issued || notTheirs || gone ? deal : null;
  }

  // A hidden-card game of the player started on another device and not in use on this one (of
  // `rules` first), as the server recorded it; or null.
  async #startedElsewhere(started, session, account) {
    const inUse = gamesInUse();
    const here = session.ranked && !session.started && session.issued.owner === account.id ? session.issued.id : null; // untouched here
    if (here !== null) inUse.delete(here);
    const free = (started ?? []).filter((game) => !inUse.has(game.id));
    const game = free.find((candidate) => candidate.id === here) ?? free.find((candidate) => candidate.rules === session.rules) ?? free[0];
    const resumed = game ? await recordedGame(game.id, account.id) : null;
    // The game on the table itself goes on as recorded: it is not left (nor given back to the pool).
    return resumed ? { ...resumed, why: t("reveal.resumed"), replaces: game.id === here } : null;
  }

  /** Keep the pool full in the background (signed in and online). */
  refill() {
    const account = this.accountOf();
    return account ? refillPool(account).catch(() => ({ ok: false })) : Promise.resolve({ ok: false });
  }

  /** The game `session` is being left: give its issued deal back, or submit it as it stands. */
  leave(session) {
    if (!session.ranked || session.resultId) return null;
    if (!session.started) {
      // A daily-deal game is never pooled: the daily deal takes it up again (dailyGame).
      if (!this.#gone.has(session.issued.id) && !session.issued.daily) giveBack(session.issued, session.issued.owner);
      return null;
    }
    return session.won ? null : this.submit(session);
  }

  /** Queue the result of `session` (won or, for a ranked game left, not): its log as it stands. */
  submit(session, durationMs = session.clock.elapsed(), finishedAt = new Date().toISOString()) {
    const game = session.game;
    const entry = enqueueResult({
      game: session.issued?.id ?? null,
      code: session.code,
      log: session.log.join(" "),
      move_times_ms: session.moveTimes.slice(),
      duration_ms: Math.max(durationMs, session.moveTimes.at(-1) ?? 0),
      finished_at: finishedAt,
      client_version: this.clientVersion,
      owner: session.issued?.owner ?? null,
      rules: game.rules,
      won: game.isWon(),
      moves: game.movesMade,
      score: game.rankedScore(),
      assisted: session.assisted, // a hint was used: the result enters no board
    });
    session.resultId = entry.client_id;
    return entry;
  }
}
