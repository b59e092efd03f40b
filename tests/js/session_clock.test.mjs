// The clock of a hidden-card game stops while the server turns a card up: the server refuses a
// result whose page time between two reveals is longer than its own (docs/security.md,
// "Hidden-card games"), and a card that took long to come (a retry after a network failure)
// must not count as play.
import assert from "node:assert/strict";
import { test } from "node:test";

import { visibleDeal } from "../../frontend/static/frontend/js/engine.js";
import { Session } from "../../frontend/static/frontend/js/session.js";

const CODE = "YU1-C-AAAAAAB";
const TURN_UP = "TC>4"; // turns up column index 2, depth 1 (6S)

const hiddenSession = () =>
  new Session(null, {
    issued: { id: 7, hidden: true, rules: "classic", commitment: "0".repeat(64), deal: visibleDeal(CODE), issued_at: "2026-12-02T00:00:00Z", owner: 1 },
  });

test("the clock stops from the move that turns a card up to the card's arrival", () => {
  const session = hiddenSession();
  assert.equal(session.hidden, true);
  assert.equal(session.clock.running, false); // not started before the first move
  assert.equal(session.play(TURN_UP), null);
  assert.deepEqual(session.awaitingReveal, { column: 2, depth: 1 });
  assert.equal(session.clock.running, false);
  session.setVisible(true); // the page shown again while it waits: still stopped
  assert.equal(session.clock.running, false);
  session.reveal({ column: 2, depth: 1 }, "6S");
  assert.equal(session.awaitingReveal, null);
  assert.equal(session.clock.running, true);
  session.setVisible(false);
  assert.equal(session.clock.running, false);
  session.reveal({ column: 2, depth: 1 }, "6S"); // told again while hidden: stays stopped
  assert.equal(session.clock.running, false);
  session.setVisible(true);
  assert.equal(session.clock.running, true);
});

test("a move that turns nothing up keeps the clock running", () => {
  const session = hiddenSession();
  session.play(TURN_UP);
  session.reveal({ column: 2, depth: 1 }, "6S");
  const before = session.game.faceDown.slice();
  const move = session.game.legalMoves().map(String).find((token) => {
    const probe = hiddenSession();
    probe.play(TURN_UP);
    probe.reveal({ column: 2, depth: 1 }, "6S");
    probe.play(token);
    return probe.awaitingReveal === null;
  });
  assert.ok(move, `no quiet move among ${session.game.legalMoves().map(String)}`);
  assert.equal(session.play(move), null);
  assert.deepEqual(session.game.faceDown, before);
  assert.equal(session.clock.running, true);
});
