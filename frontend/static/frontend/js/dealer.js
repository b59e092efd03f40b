// Where games come from and what they leave behind. A signed-in player's new deal is a ranked
// deal issued by the server, taken from the pool kept on the device; signed out, or with the
// pool empty and no network, it is a local (unranked) deal. A typed or shared code is never
// ranked. Leaving a ranked game submits it as it stands (a game played, honestly counted); a
// ranked deal left before its first move goes back to the pool. With "Winnable deals only" on,
// new deals are unranked winnable deals (winnable.js), a random one when none is at hand.

import { CLASSIC } from "./engine.js";
import { t } from "./i18n.js";
import { giveBack, poolSize, refillPool, takeIssued } from "./pool.js";
import { ORIGINS, Session } from "./session.js";
import { loadGame } from "./store.js";
import { enqueueResult } from "./sync.js";
import { randomCode } from "./ui.js";

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

  get #wantsWinnable() {
    return Boolean(this.winnable?.enabled());
  }

  /**
   * The game the page opens with: the one in progress (saved), else the `linked` code of a
   * /play/<code> address (unranked), else a new Classic deal.
   */
  firstSession(linked) {
    const saved = loadGame();
    if (saved) {
      try {
        const session = new Session(saved.code, saved);
        if (!linked || saved.code === linked || (session.started && !session.won)) return session;
        this.leave(session);
      } catch {
        // a saved code this version cannot read: start afresh
      }
    }
    if (linked) return new Session(linked, { origin: ORIGINS.code });
    const deal = this.dealNow(CLASSIC);
    return new Session(deal.code, deal);
  }

  /** A deal to play now without waiting: winnable or ranked if one is kept, else local. */
  dealNow(rules = CLASSIC) {
    const winnable = this.#wantsWinnable ? this.winnable.take(rules) : null;
    if (winnable) return winnable;
    const account = this.accountOf();
    const issued = takeIssued(account, rules);
    if (issued) {
      this.refill();
      return { code: issued.code, issued: { ...issued, owner: account.id }, origin: ORIGINS.ranked };
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
    if (account && poolSize(account, rules) === 0) refill = await refillPool(account, rules);
    const deal = this.dealNow(rules);
    if (account && !deal.issued) {
      deal.why =
        refill?.reason === "offline"
          ? t("ranked.noneOffline")
          : t("ranked.notIssued", { reason: refill?.reason ?? t("ranked.unknown") });
    }
    return deal;
  }

  /**
   * The server has just said who plays (`fresh`: for certain). The deal to switch the
   * untouched game `session` to, or null: a ranked deal of someone else (or of a player now
   * signed out) gives way; a local deal becomes a ranked one once the pool is filled.
   * `untouched()` is asked again after the pool's refill (the player may have moved).
   */
  async afterSignIn(session, { fresh, untouched }) {
    const account = this.accountOf();
    const notTheirs = fresh && session.ranked && session.issued.owner !== account?.id;
    const becomesRanked = account && session.origin === ORIGINS.deal && !this.#wantsWinnable;
    if (!untouched() || !(notTheirs || becomesRanked)) return null;
    if (account) await this.refill();
    if (!untouched()) return null;
    const deal = this.dealNow(session.rules);
    return deal.issued || notTheirs ? deal : null;
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
      giveBack(session.issued, session.issued.owner);
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
