// A report's answer in the player's words (report.js, docs/fairplay.md "Reports"): sent, or each
// refusal of POST /api/replays/<id>/reports/; only a refusal that may pass keeps the dialog open.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, test } from "node:test";

import { loadLanguage } from "../../frontend/static/frontend/js/i18n.js";

let reportOutcome;

// The English catalog read from disk, as the page fetches it; then report.js, whose dialogs
// listen on the document (i18n.js, loaded first, reads no page).
before(async () => {
  const fetched = globalThis.fetch;
  globalThis.fetch = async (url) => ({ ok: true, json: async () => JSON.parse(await readFile(url, "utf-8")) });
  try {
    await loadLanguage("en");
  } finally {
    globalThis.fetch = fetched;
  }
  globalThis.document ??= { addEventListener: () => {} };
  ({ reportOutcome } = await import("../../frontend/static/frontend/js/report.js"));
});

const answer = (status, code, retryAfter = null) => ({ ok: status === 201, status, data: code ? { code } : null, retryAfter });

test("a sent report thanks the player and says people decide", () => {
  const { outcome, text, final } = reportOutcome(answer(201));
  assert.equal(outcome, "sent");
  assert.equal(text, "Thank you. The result will be analysed; people decide, never a report alone.");
  assert.equal(final, true);
});

test("each refusal is said in words; only the ones that may pass keep the dialog open", () => {
  const cases = [
    [answer(409, "already_reported"), "already", true, /reported this result already/],
    [answer(403, "own_result"), "own", true, /your own result/],
    [answer(403, "not_authenticated"), "signedOut", true, /sign in again/],
    [answer(401, "not_authenticated"), "signedOut", true, /sign in again/],
    [answer(404, "result_not_found"), "missing", true, /no result to report/],
    [answer(0), "offline", false, /you are offline/],
    [answer(500), "failed", false, /answered 500/],
  ];
  for (const [given, outcome, final, words] of cases) {
    const said = reportOutcome(given);
    assert.equal(said.outcome, outcome);
    assert.equal(said.final, final, outcome);
    assert.match(said.text, words);
  }
});

test("too many reports says the wait in minutes, rounded up", () => {
  assert.match(reportOutcome(answer(429, "throttled", 30)).text, /another in 1 minute\.$/);
  assert.match(reportOutcome(answer(429, "throttled", 1_500)).text, /another in 25 minutes\.$/);
  assert.match(reportOutcome(answer(429, "throttled")).text, /try again later/);
  assert.equal(reportOutcome(answer(429, "throttled", 60)).final, false);
});
