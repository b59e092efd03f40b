// The game bar: the figures above the table (moves, points, ranked score, time), the game's
// kind and code, and the same figures as data-* attributes for tools and tests. The game page,
// a race seat and the replay draw it.

import { $, formatDuration, formatNumber } from "./dom.js";
import { t } from "./i18n.js";

// On a phone the actions are a bar at the bottom of the screen, one or two rows tall (table.css):
// the page keeps that much room under the table, so that no card lies under the bar.
function keepRoomForActions(actions) {
  if (!actions) return;
  const style = document.documentElement.style;
  new ResizeObserver(() => style.setProperty("--actions-height", `${actions.offsetHeight}px`)).observe(actions);
}

/** The figures above the table; the same figures as data-* attributes for tools and tests. */
export class Bar {
  #shown = {};
  #counts = false; // the game counts on a board (ranked, or an open deal signed in)
  #scoreMeant = { won: false, foundationCards: 0 };

  constructor(root) {
    this.root = root;
    this.time = $("[data-time]", root);
    this.fields = {
      moves: $('[data-stat="moves"]', root),
      points: $('[data-stat="points"]', root),
      score: $('[data-stat="score"]', root),
    };
    this.codeText = $("[data-code-text]");
    this.rulesText = $("[data-rules-text]");
    this.shareLink = $("[data-share-link]");
    this.codeActions = $(".code-actions");
    this.kind = $("[data-kind]", root);
    this.assisted = $("[data-assisted]", root);
    keepRoomForActions(root.querySelector(".actions"));
  }

  /**
   * The Ranked / Open deal / Unranked badge, and why a game is not ranked; a hidden-card game's
   * name in the code box, or its code once the server has `published` it (with the verdict).
   */
  showKind(session, { signedIn, published = null }) {
    const daily = session.issued?.daily ?? null; // a daily-deal game: its UTC day
    const why = t(
      daily
        ? "ranked.whyDaily"
        : session.ranked
        ? "ranked.whyRanked"
        : session.origin === "code"
          ? "ranked.whyCode"
          : session.origin === "winnable"
            ? "ranked.whyWinnable"
            : signedIn
            ? "ranked.whyOffline"
            : "ranked.whySignIn",
      { date: daily },
    );
    // Signed in, a game that is not ranked is an open deal: it counts on the open-deal boards.
    const kind = session.ranked ? "ranked" : signedIn ? "open" : "unranked";
    this.root.dataset.ranked = String(session.ranked);
    this.root.dataset.hidden = String(session.hidden);
    this.root.dataset.gameId = session.issued ? String(session.issued.id) : "";
    this.root.dataset.daily = daily ?? "";
    if (session.hidden) {
      const name = published ?? (daily ? t("table.dailyDeal", { date: daily }) : t("table.hiddenDeal"));
      if (this.codeText.textContent !== name) this.codeText.textContent = name;
    }
    this.kind.textContent = t(`ranked.${kind}`);
    this.kind.dataset.kind = kind;
    this.#counts = kind !== "unranked";
    this.#drawScoreShown();
    this.kind.title = why;
    this.kind.setAttribute("aria-label", why);
  }

  /** One clear score: points always; the ranked score only where it means something, a win, or
   * the standing of a game that counts on a board once a card is on a foundation (at 0 moves it
   * is a puzzling 1). Hidden, its cell keeps its room, so the bar never shifts. */
  #drawScoreShown() {
    const { won, foundationCards } = this.#scoreMeant;
    const shown = won || (this.#counts && foundationCards > 0);
    if (this.root.dataset.scoreShown !== String(shown)) this.root.dataset.scoreShown = String(shown);
  }

  /** "Assisted": a hint was used in this game, which therefore enters no board. */
  showAssisted(assisted) {
    this.root.dataset.assisted = String(assisted);
    this.assisted.hidden = !assisted;
  }

  update(game) {
    const figures = { moves: game.movesMade, points: game.points, score: game.rankedScore() };
    for (const [name, value] of Object.entries(figures)) {
      if (this.#shown[name] === value) continue;
      this.#shown[name] = value;
      this.root.dataset[name] = String(value);
      this.fields[name].textContent = formatNumber(value);
    }
    this.#scoreMeant = { won: game.isWon(), foundationCards: game.foundationCards };
    this.#drawScoreShown();
    if (this.#shown.code !== game.code || this.#shown.rules !== game.rules) {
      // A hidden-card game has no code to show, copy or share until it is finished.
      this.#shown.code = game.code;
      this.#shown.rules = game.rules;
      this.root.dataset.code = game.code ?? "";
      this.codeText.textContent = game.code ?? t("table.hiddenDeal");
      this.codeText.classList.toggle("hidden-deal", !game.code);
      this.codeText.classList.toggle("whole-code", Boolean(game.code?.startsWith("YU2")));
      this.rulesText.textContent = t(`rules.${game.rules}`);
      this.shareLink.href = game.code ? `/play/${game.code}` : "/";
      this.codeActions.style.visibility = game.code ? "" : "hidden";
    }
  }

  showTime(ms) {
    const text = formatDuration(ms);
    if (this.time.textContent !== text) this.time.textContent = text;
  }
}

