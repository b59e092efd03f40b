// Personal bests (bests.js) follow the server's verdicts: a win is a provisional best until it is
// verified, a refused win never becomes a best (one kept by an older build is dropped), and a
// result refused for a reason judged again since (timing_move) is asked for once more (sync.js).
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { confirmBests, mergeServerBests, shownBest, winRecord } from "../../frontend/static/frontend/js/bests.js";
import { loadBests, saveBests } from "../../frontend/static/frontend/js/store.js";
import { enqueueResult, findResult, pollSent, uploadPending } from "../../frontend/static/frontend/js/sync.js";
import { MemoryStorage } from "./page_globals.mjs";

const PLAYER = { id: 7, name: "ada" };

function win({ score = 7100, duration = 60_000, code = "YU1-C-AAAAAAC", ...changes } = {}) {
  return enqueueResult({
    code, log: "TD>5 KH>F", move_times_ms: [0, 900], duration_ms: duration,
    finished_at: new Date(Date.now() + Math.random() * 1e6).toISOString(), client_version: "test",
    rules: "classic", won: true, moves: 7200 - score, score, assisted: false, ...changes,
  });
}

/** A server that stores every POST (202, ids from 1) and answers each GET with `verdicts[id]`. */
function fakeServer(verdicts = {}) {
  let next = 1;
  const asked = [];
  const fetchImpl = async (url, init) => {
    let data;
    if (init?.method === "POST") data = { id: next++, status: "pending" };
    else {
      const id = Number(url.split("/").at(-2));
      asked.push(id);
      data = { id, ...verdicts[id] };
    }
    return new Response(JSON.stringify(data), { status: init?.method === "POST" ? 202 : 200, headers: { "Content-Type": "application/json" } });
  };
  return { fetchImpl, asked, verdicts };
}

const verified = (score) => ({ status: "verified", won: true, moves: 7200 - score, score, points: 600, assisted: false, ranks: { "classic:all": 1 } });
const refused = (code, message) => ({ status: "rejected", won: false, reason: { code, message } });

async function settle(server) {
  await uploadPending({ account: PLAYER, fetchImpl: server.fetchImpl });
  await pollSent({ account: PLAYER, fetchImpl: server.fetchImpl });
}

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
});

describe("a win and the player's record", () => {
  test("is a provisional best until verified, then the best", async () => {
    const entry = win({ score: 7100 });
    assert.equal(winRecord("classic", entry.client_id), "provisional");
    assert.deepEqual(shownBest("classic"), { best: { score: 7100, moves: 100, points: null, durationMs: 60_000, code: entry.code, finishedAt: entry.finished_at, resultId: entry.client_id }, provisional: true });
    assert.equal(loadBests().classic, null); // nothing kept before the verdict

    await settle(fakeServer({ 1: verified(7100) }));

    assert.equal(winRecord("classic", entry.client_id), "new");
    assert.equal(shownBest("classic").provisional, false);
    assert.equal(loadBests().classic.score, 7100);
    assert.equal(loadBests().classic.points, 600); // the server's figures
  });

  test("a refused win never replaces the best, and the banner says it is refused", async () => {
    const server = fakeServer({ 1: verified(7000), 2: refused("wrong_colour", "move 3 `7S>5`: 7♠ needs a red 8") });
    const first = win({ score: 7000 });
    await settle(server);
    const better = win({ score: 7150 });
    assert.equal(winRecord("classic", better.client_id), "provisional");

    await settle(server);

    assert.equal(findResult(better.client_id).state, "rejected");
    assert.equal(winRecord("classic", better.client_id), "refused");
    assert.deepEqual(shownBest("classic"), { best: loadBests().classic, provisional: false });
    assert.equal(loadBests().classic.resultId, first.client_id);
  });

  test("a worse win is no record; an equal score is better only in less time", async () => {
    win({ score: 7100, duration: 60_000 });
    await settle(fakeServer({ 1: verified(7100) }));
    assert.equal(winRecord("classic", win({ score: 7000 }).client_id), "none");
    assert.equal(winRecord("classic", win({ score: 7100, duration: 70_000 }).client_id), "none");
    assert.equal(winRecord("classic", win({ score: 7100, duration: 50_000 }).client_id), "provisional");
  });

  test("a win with a hint is no record", () => {
    assert.equal(winRecord("classic", win({ score: 7199, assisted: true }).client_id), "assisted");
    assert.equal(shownBest("classic").best, null);
  });

  test("a best kept at once by an older build is dropped when its result is refused", async () => {
    const entry = win({ score: 7100 });
    saveBests({ classic: { score: 7100, moves: 100, points: 625, durationMs: 60_000, code: entry.code, finishedAt: entry.finished_at }, relaxed: null });
    await settle(fakeServer({ 1: refused("wrong_colour", "move 3 `7S>5`: 7♠ needs a red 8") }));

    assert.equal(confirmBests().classic, null);
    assert.equal(shownBest("classic").best, null);
  });

  test("the server's best from another device is kept; a refused result does not remove it", async () => {
    mergeServerBests({ classic: { best_score: 7050 } });
    win({ score: 7100 });
    await settle(fakeServer({ 1: refused("wrong_colour", "move 3 `7S>5`: 7♠ needs a red 8") }));
    assert.equal(shownBest("classic").best.score, 7050);
  });
});

describe("a result refused for move 1's timing, judged again by the server", () => {
  const MOVE_ONE = "move 1 `JH>7` came 0 ms after the previous one; no one plays faster than 40 ms";

  test("is asked for once more, and its new verdict makes it the best", async () => {
    const entry = win({ score: 7100 });
    const server = fakeServer({ 1: refused("timing_move", MOVE_ONE) });
    await settle(server);
    assert.equal(findResult(entry.client_id).state, "rejected");
    assert.deepEqual(server.asked, [1]);

    server.verdicts[1] = verified(7100); // the server judged it again (reverify --reason timing_move)
    await pollSent({ account: PLAYER, fetchImpl: server.fetchImpl });

    assert.deepEqual(server.asked, [1, 1]);
    assert.equal(findResult(entry.client_id).state, "verified");
    assert.equal(winRecord("classic", entry.client_id), "new");
  });

  test("is asked for once only, and the same refusal is not news again", async () => {
    const entry = win();
    const server = fakeServer({ 1: refused("timing_move", MOVE_ONE) });
    await settle(server);
    findResult(entry.client_id); // seen by the player:
    localStorage.setItem("yukon.outbox.v1", localStorage.getItem("yukon.outbox.v1").replace('"seen":false', '"seen":true'));

    await pollSent({ account: PLAYER, fetchImpl: server.fetchImpl });
    await pollSent({ account: PLAYER, fetchImpl: server.fetchImpl });

    assert.deepEqual(server.asked, [1, 1]);
    assert.equal(findResult(entry.client_id).state, "rejected");
    assert.equal(findResult(entry.client_id).seen, true);
  });

  test("other refusals are not asked for again", async () => {
    win();
    const server = fakeServer({ 1: refused("wrong_colour", "move 3 `7S>5`: 7♠ needs a red 8") });
    await settle(server);
    await pollSent({ account: PLAYER, fetchImpl: server.fetchImpl });
    assert.deepEqual(server.asked, [1]);
  });
});
