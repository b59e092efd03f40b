// The race's socket (race_socket.js) against a fake WebSocket and fake timers: a connection that
// hears nothing, not even the room's heartbeat, is closed by the page and comes back; one that
// hears the heartbeat stays; the server's final closing codes are not retried.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";

globalThis.addEventListener ??= () => {};

class FakeSocket {
  static OPEN = 1;
  static made = [];
  readyState = 0;
  #listeners = {};
  constructor(url) {
    this.url = url;
    FakeSocket.made.push(this);
  }
  addEventListener(kind, listener) {
    (this.#listeners[kind] ??= []).push(listener);
  }
  emit(kind, event = {}) {
    for (const listener of this.#listeners[kind] ?? []) listener(event);
  }
  opened() {
    this.readyState = FakeSocket.OPEN;
    this.emit("open");
  }
  message(data) {
    this.emit("message", { data: JSON.stringify(data) });
  }
  send() {}
  close(code = 1000) {
    if (this.readyState === 3) return; // as a browser's: one close event
    this.closedWith = code;
    this.readyState = 3;
    this.emit("close", { code });
  }
}

const { RaceSocket } = await import("../../frontend/static/frontend/js/race_socket.js");

/** Let `ms` pass a second at a time (the mocked clock jumps to the end of each tick). */
function pass(ms) {
  for (let left = ms; left > 0; left -= 1_000) mock.timers.tick(Math.min(1_000, left));
}

describe("RaceSocket", () => {
  beforeEach(() => {
    FakeSocket.made = [];
    globalThis.WebSocket = FakeSocket;
    mock.timers.enable({ apis: ["setInterval", "setTimeout", "Date"] });
  });
  afterEach(() => mock.timers.reset());

  const quiet = { message() {}, opened() {}, state() {} };

  test("a connection that hears nothing for 12 s is closed by the page and comes back", () => {
    new RaceSocket("ws://test/ws/races/R/", quiet).connect();
    const first = FakeSocket.made[0];
    first.opened();
    pass(10_000);
    assert.equal(first.closedWith, undefined);
    pass(4_000);
    assert.equal(first.closedWith, 4000);
    pass(600); // the first pause
    assert.equal(FakeSocket.made.length, 2);
  });

  test("the room's heartbeat keeps a connection open", () => {
    new RaceSocket("ws://test/ws/races/R/", quiet).connect();
    const socket = FakeSocket.made[0];
    socket.opened();
    for (let second = 0; second < 60; second += 4) {
      pass(4_000);
      socket.message({ type: "heartbeat" });
    }
    assert.equal(socket.closedWith, undefined);
    assert.equal(FakeSocket.made.length, 1);
  });

  test("a server's final code is not retried, a silent room's 4408 is", () => {
    const states = [];
    new RaceSocket("ws://test/ws/races/R/", { ...quiet, state: (name) => states.push(name) }).connect();
    FakeSocket.made[0].opened();
    FakeSocket.made[0].close(4408);
    pass(600);
    assert.equal(FakeSocket.made.length, 2);
    FakeSocket.made[1].opened();
    FakeSocket.made[1].close(4404);
    pass(60_000);
    assert.equal(FakeSocket.made.length, 2);
    assert.equal(states.at(-1), "closed");
  });
});
