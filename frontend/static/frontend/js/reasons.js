// Why the server refused a result, in the page's language: worded from the reason's stable code
// and its figures (`reason.params`, docs/api.md "Rejected"), never from the server's English
// sentence — which is kept for a reason this page cannot word (a code newer than the page, or
// a result refused before the figures were kept).

import { REFUSAL_CODES, formatRefusal } from "./engine.js";
import { formatNumber } from "./dom.js";
import { refusalText, t } from "./i18n.js";

// Codes whose words depend on a variant of their figures (the catalog has one entry each).
const VARIANTS = Object.freeze({
  suspended: (params) => (params.note ? "note" : "none"),
  prefix_conflict: (params) => params.variant,
});
const UNFILLED = /\{\w+\}/;

// The figures as the player reads them: numbers in the language's digits and separators.
function figures(params) {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === "number" ? formatNumber(value) : (value ?? "?")]));
}

// A move of the log refused by the rules: the engine's own refusal, worded like the table's.
function refusedMove(code, params) {
  try {
    const refusal = refusalText({ code, params, message: formatRefusal(code, params) });
    return t("submissionReasons.move", { ...figures({ move: params.move }), token: params.token, refusal });
  } catch {
    return null; // figures that do not fit the refusal (a variant this page does not know)
  }
}

// The reveals clock's two marks: the game's issue, a reveal at a move, or the result.
function mark(move, ending) {
  if (move === null || move === undefined) return t(ending);
  return t("submissionReasons.markReveal", { move: formatNumber(move) });
}

function serverCheck(code, params) {
  const variant = VARIANTS[code]?.(params);
  const key = variant ? `submissionReasons.${code}.${variant}` : `submissionReasons.${code}`;
  const extra =
    code === "timing_reveals"
      ? { since: mark(params.since_move, "submissionReasons.markIssue"), until: mark(params.until_move, "submissionReasons.markResult") }
      : {};
  const text = t(key, { ...figures(params), ...extra });
  return text === key ? null : text; // a code this page has no words for
}

/** `reason` (`{code, message, params}` from the API) in the page's language. */
export function rejectionText(reason) {
  const { code, message, params } = reason ?? {};
  if (!code || !params || typeof params !== "object") return message || t("results.refused");
  const text = REFUSAL_CODES.includes(code) ? refusedMove(code, params) : serverCheck(code, params);
  return text && !UNFILLED.test(text) ? text : message || t("results.refused");
}
