// What the device remembers, in localStorage: the aids chosen, the game in progress (so a
// reload or a closed tab resumes it), and the personal bests per rule set (bests.js decides
// what they are). Every read survives missing, old or damaged data by falling back to the
// defaults.

const KEYS = Object.freeze({
  settings: "yukon.settings.v1",
  game: "yukon.game.v1",
  bests: "yukon.bests.v1",
  stats: "yukon.stats.v1",
});

export const DEFAULT_SETTINGS = Object.freeze({
  placementHelp: true, // highlight legal destinations while a card is dragged or selected
  interactiveRules: true, // explain a refused move in one sentence
  autoPlacement: false, // a card dropped nowhere finds a column by itself
  doubleClick: true, // a double tap finds a place for a card
  fourColour: false, // ♠ black, ♥ red, ♦ blue, ♣ green
  winnableOnly: false, // new unranked deals from the solver's winnable deals (the New game dialog)
});

function read(key) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : JSON.parse(text);
  } catch {
    return null; // storage blocked or damaged: behave as a first visit
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // private mode or full: the game goes on, only not remembered
  }
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

export function loadSettings() {
  const saved = read(KEYS.settings);
  const settings = { ...DEFAULT_SETTINGS };
  if (isObject(saved)) {
    for (const name of Object.keys(DEFAULT_SETTINGS)) {
      if (typeof saved[name] === "boolean") settings[name] = saved[name];
    }
  }
  return settings;
}

export const saveSettings = (settings) => write(KEYS.settings, settings);

// An issued game as saved: with its code, or a hidden-card game with its visible deal.
const hiddenGame = (issued) => isObject(issued) && issued.hidden === true && isObject(issued.deal);
const issuedGame = (issued) =>
  isObject(issued) && Number.isInteger(issued.id) && (typeof issued.code === "string" || hiddenGame(issued)) ? issued : null;

const revealedCard = (known) => isObject(known) && Number.isInteger(known.column) && Number.isInteger(known.depth) && typeof known.card === "string";

/**
 * The saved game `{code, log, moveTimes, elapsedMs, resultId, issued, origin, assisted,
 * revealed}`, or null. A hidden-card game has no code (null) and keeps the cards revealed to it.
 */
export function loadGame() {
  const saved = read(KEYS.game);
  if (!isObject(saved) || !Array.isArray(saved.log)) return null;
  const issued = issuedGame(saved.issued);
  if (typeof saved.code !== "string" && !hiddenGame(issued)) return null;
  return {
    code: typeof saved.code === "string" ? saved.code : null,
    log: saved.log.filter((token) => typeof token === "string"),
    moveTimes: Array.isArray(saved.moveTimes) ? saved.moveTimes.map(Number) : [],
    elapsedMs: Number(saved.elapsedMs) || 0,
    resultId: typeof saved.resultId === "string" ? saved.resultId : null,
    issued,
    origin: typeof saved.origin === "string" ? saved.origin : null,
    assisted: saved.assisted === true,
    revealed: Array.isArray(saved.revealed) ? saved.revealed.filter(revealedCard) : [],
  };
}

export const saveGame = (saved) => write(KEYS.game, saved);

/** Personal bests: `{classic: best | null, relaxed: best | null}`. */
export function loadBests() {
  const saved = read(KEYS.bests);
  return { classic: null, relaxed: null, ...(isObject(saved) ? saved : {}) };
}

export const saveBests = (bests) => write(KEYS.bests, bests);

/** Every game played on this device (stats.js): `{classic: figures | undefined, relaxed: …}`. */
export function loadStats() {
  const saved = read(KEYS.stats);
  return isObject(saved) ? saved : {};
}

export const saveStats = (stats) => write(KEYS.stats, stats);
