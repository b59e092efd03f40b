// The outbox of results (sync.js) against a fake server: a ranked win whose game was already
// used (409 game_used: played on another device, or expired) is sent again as an unranked result
// of its code under a new client_id; no other refusal is.
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import {
  enqueueResult,
  findResult,
  listResults,
  sendableBy,
  unrankedClientId,
  unrankedFallback,
  uploadPending,
} from "../../frontend/static/frontend/js/sync.js";
import { MemoryStorage } from "./page_globals.mjs";

const PLAYER = { id: 7, name: "ada" };
const CODE = "YU1-C-AAAAAAC";
const GAME_USED = { detail: "game 3 is finished: it accepts no result", code: "game_used" };

function rankedWin(changes = {}) {
  return enqueueResult({
    game: 3, code: CODE, log: "TD>5 KH>F", move_times_ms: [400, 900], duration_ms: 1000,
    finished_at: "2026-11-29T20:00:00.000Z", client_version: "test", owner: PLAYER.id,
    rules: "classic", won: true, moves: 2, score: 100, assisted: false, ...changes,
  });
}

/** A fetch that answers each POST with the next of `answers` ({status, data}) and keeps the bodies. */
function fakeServer(answers) {
  const bodies = [];
  const fetchImpl = async (url, init) => {
    assert.equal(url, "/api/submissions/");
    bodies.push(JSON.parse(init.body));
    const { status, data } = answers.shift();
    return new Response(JSON.stringify(data), { status, headers: { "Content-Type": "application/json" } });
  };
  return { bodies, fetchImpl };
}

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
});

describe("a ranked win refused because its game accepts no result", () => {
  test("is sent again as an unranked result of its code, under a new client_id", async () => {
    const queued = rankedWin();
    const server = fakeServer([{ status: 409, data: GAME_USED }, { status: 202, data: { id: 11, status: "pending" } }]);
    const upload = await uploadPending({ account: PLAYER, fetchImpl: server.fetchImpl });
    assert.deepEqual(upload, { sent: 1, pending: 1, reason: null });

    const [ranked, unranked] = server.bodies;
    assert.equal(ranked.game, 3);
    assert.equal(ranked.code, undefined);
    assert.equal(unranked.game, undefined);
    assert.equal(unranked.code, CODE);
    assert.equal(unranked.client_id, unrankedClientId(queued.client_id));
    for (const field of ["log", "move_times_ms", "duration_ms", "finished_at", "client_version", "assisted"]) {
      assert.deepEqual(unranked[field], ranked[field], field);
    }

    const [entry] = listResults();
    assert.equal(entry.state, "sent");
    assert.equal(entry.submission, 11);
    assert.equal(entry.client_id, unranked.client_id);
    assert.equal(entry.game, null);
    assert.deepEqual(entry.fallback, { client_id: queued.client_id, game: 3, reason: GAME_USED.detail });
    assert.equal(findResult(queued.client_id).client_id, entry.client_id); // the win banner still finds it
  });

  test("no answer to the unranked result: it waits, unranked, for its owner only", async () => {
    rankedWin();
    const server = fakeServer([{ status: 409, data: GAME_USED }, { status: 503, data: {} }]);
    const upload = await uploadPending({ account: PLAYER, fetchImpl: server.fetchImpl });
    assert.equal(upload.reason, "http_503");
    const [entry] = listResults();
    assert.equal(entry.state, "waiting");
    assert.equal(entry.game, null);
    assert.ok(entry.fallback);
    assert.equal(sendableBy(entry, PLAYER), true);
    assert.equal(sendableBy(entry, { id: 8, name: "bob" }), false);

    const again = fakeServer([{ status: 200, data: { id: 12, status: "pending" } }]);
    await uploadPending({ account: PLAYER, fetchImpl: again.fetchImpl });
    assert.equal(again.bodies.length, 1);
    assert.equal(again.bodies[0].code, CODE);
    assert.equal(listResults()[0].state, "sent");
  });

  test("a refusal of the session (signed out, no CSRF token) keeps the result waiting", async () => {
    const refusals = [
      { status: 403, data: { detail: "Authentication credentials were not provided.", code: "not_authenticated" } },
      { status: 403, data: { detail: "CSRF Failed: CSRF token missing.", code: "permission_denied" } },
    ];
    for (const refusal of refusals) {
      globalThis.localStorage = new MemoryStorage();
      rankedWin();
      const server = fakeServer([refusal]);
      const upload = await uploadPending({ account: PLAYER, fetchImpl: server.fetchImpl });
      assert.equal(upload.reason, "signed_out", refusal.data.code);
      const [entry] = listResults();
      assert.equal(entry.state, "waiting", refusal.data.code);
      assert.equal(entry.game, 3);
    }
  });

  test("any other refusal ends the result as rejected, sent once", async () => {
    const refusals = [
      { status: 409, data: { detail: "this client_id was already used for another submission", code: "client_id_conflict" } },
      { status: 403, data: { detail: "game 3 was issued to another player", code: "game_not_yours" } },
      { status: 404, data: { detail: "no game 3 was issued", code: "game_not_found" } },
      { status: 400, data: { finished_at: ["finished_at is before the game was issued"] } },
    ];
    for (const refusal of refusals) {
      globalThis.localStorage = new MemoryStorage();
      rankedWin();
      const server = fakeServer([refusal]);
      await uploadPending({ account: PLAYER, fetchImpl: server.fetchImpl });
      assert.equal(server.bodies.length, 1, refusal.data.code);
      const [entry] = listResults();
      assert.equal(entry.state, "rejected");
      assert.equal(entry.game, 3);
      assert.equal(entry.fallback, undefined);
    }
  });
});

describe("the client_id of a result sent again as unranked", () => {
  test("is another version 4 UUID, the same for the same result", () => {
    const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const seen = new Set();
    for (let i = 0; i < 200; i++) {
      const first = crypto.randomUUID();
      const derived = unrankedClientId(first);
      assert.match(derived, UUID4);
      assert.notEqual(derived, first);
      assert.equal(unrankedClientId(first), derived);
      seen.add(derived);
    }
    assert.equal(seen.size, 200);
    assert.equal(unrankedClientId("00000000-0000-4000-8000-000000000000"), "aaaaaaaa-aaaa-4aaa-aaaa-aaaaaaaaaaaa");
  });

  test("two tabs sending it at once send the same body under the same client_id (stored once)", async () => {
    const queued = rankedWin();
    const answers = [{ status: 409, data: GAME_USED }, { status: 202, data: { id: 11, status: "pending" } }];
    const first = fakeServer(answers.slice());
    const second = fakeServer(answers.slice());
    // Both tabs read the waiting entry before either has an answer.
    await Promise.all([uploadPending({ account: PLAYER, fetchImpl: first.fetchImpl }), uploadPending({ account: PLAYER, fetchImpl: second.fetchImpl })]);
    assert.deepEqual(first.bodies[1], second.bodies[1]);
    assert.equal(first.bodies[1].client_id, unrankedClientId(queued.client_id));
    assert.equal(listResults().length, 1);
    assert.equal(listResults()[0].state, "sent");
  });
});

describe("unrankedFallback", () => {
  const used = { status: 409, data: GAME_USED };
  const entry = { client_id: "a", game: 3, code: CODE, won: true };

  test("only a ranked win refused with game_used", () => {
    const changes = unrankedFallback(entry, used);
    assert.equal(changes.game, null);
    assert.equal(changes.client_id.length, 36);
    assert.notEqual(changes.client_id, "a");
    assert.deepEqual(changes.fallback, { client_id: "a", game: 3, reason: GAME_USED.detail });
  });

  test("not an unranked result, a game left unwon, or another refusal", () => {
    assert.equal(unrankedFallback({ ...entry, game: null }, used), null);
    assert.equal(unrankedFallback({ ...entry, won: false }, used), null);
    assert.equal(unrankedFallback(entry, { status: 409, data: { code: "client_id_conflict" } }), null);
    assert.equal(unrankedFallback(entry, { status: 400, data: { code: "game_used" } }), null);
    assert.equal(unrankedFallback(entry, { status: 0, data: null }), null);
  });
});

describe("answers that are not a verdict on the result", () => {
  const TOO_LARGE = { detail: "The request body is over 2621440 bytes.", code: "request_too_large" };
  const DATABASE_DOWN = { detail: "The database is not answering; try again shortly.", code: "database_unavailable" };

  test("a body over the size limit (413) is refused for good, never sent again", async () => {
    rankedWin();
    const server = fakeServer([{ status: 413, data: TOO_LARGE }]);
    const upload = await uploadPending({ account: PLAYER, fetchImpl: server.fetchImpl });
    assert.deepEqual(upload, { sent: 0, pending: 0, reason: null });
    assert.equal(listResults()[0].state, "rejected");
    assert.equal(listResults()[0].reason, TOO_LARGE.detail);
  });

  test("the database down (503) keeps the result waiting for a later try", async () => {
    rankedWin();
    const server = fakeServer([{ status: 503, data: DATABASE_DOWN }]);
    const upload = await uploadPending({ account: PLAYER, fetchImpl: server.fetchImpl });
    assert.equal(upload.reason, "http_503");
    assert.equal(listResults()[0].state, "waiting");
  });
});
