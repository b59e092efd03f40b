// The race's WebSocket (docs/races.md, "The WebSocket"): the room's messages in, the seat's
// progress out. A dropped connection comes back by itself after a growing pause (at once when
// the browser is back online), and so does one that hears nothing, not even the room's
// heartbeat; every connection begins with the whole race, so nothing said meanwhile is missed. Progress carries the whole log, so only the latest one waiting is sent.

const PING_MS = 15_000;
const RETRY_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000];
// The room sends a heartbeat every 4 s (races/consumers.py): a connection that hears nothing
// for this long is deaf (the server's channel layer broke) and is closed, to come back.
const HEARD_WITHIN_MS = 12_000;
const SILENT = 4000; // this page's own closing code for a deaf connection
// The server's closing codes that no retry changes: not signed in, no such race. (A page of another
// origin is refused at the handshake: it sees the connection fail.)
export const CLOSED_FOR_GOOD = Object.freeze({ 4401: "signed_out", 4404: "race_not_found" });

/**
 * The socket's address: `origin` (the site's WEBSOCKET_ORIGIN, http(s) or ws(s); "" for the
 * page's own origin) and the race's path.
 */
export function raceSocketUrl(raceId, origin = "", here = location) {
  const path = `/ws/races/${encodeURIComponent(raceId)}/`;
  if (!origin) return `${here.protocol === "https:" ? "wss:" : "ws:"}//${here.host}${path}`;
  const base = new URL(origin);
  const scheme = { "http:": "ws:", "https:": "wss:" }[base.protocol] ?? base.protocol;
  return `${scheme}//${base.host}${path}`;
}

export class RaceSocket {
  #socket = null;
  #try = 0;
  #retryTimer = 0;
  #pingTimer = 0;
  #watchTimer = 0;
  #heardAt = 0;
  #waiting = null; // the latest progress not sent yet
  #stopped = false;

  /**
   * `on`: `message(data)` for each message of the server, `opened()` once a connection is up,
   * `state(name, detail)` as the connection goes: "connecting", "open", "retrying" (detail: the
   * pause in ms), "closed" (detail: CLOSED_FOR_GOOD's reason).
   */
  constructor(url, on) {
    this.url = url;
    this.on = on;
    addEventListener("online", () => this.#retryNow());
  }

  get open() {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.#stopped || this.#socket) return;
    clearTimeout(this.#retryTimer);
    this.on.state("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.#again();
      return;
    }
    this.#socket = socket;
    socket.addEventListener("open", () => {
      this.on.state("open");
      this.#heardAt = Date.now();
      this.#pingTimer = setInterval(() => this.#send({ type: "ping" }), PING_MS);
      this.#watchTimer = setInterval(() => {
        if (Date.now() - this.#heardAt > HEARD_WITHIN_MS) socket.close(SILENT);
      }, 2_000);
      this.on.opened();
      this.#flush();
    });
    socket.addEventListener("message", (event) => {
      this.#heardAt = Date.now();
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return; // not a message of ours
      }
      if (data?.type === "race") this.#try = 0; // the server took us in: the next drop starts the pauses afresh
      this.on.message(data);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.#pingTimer);
      clearInterval(this.#watchTimer);
      this.#socket = null;
      const reason = CLOSED_FOR_GOOD[event.code];
      if (reason) {
        this.#stopped = true;
        this.on.state("closed", reason);
      } else {
        this.#again();
      }
    });
  }

  /** Send the seat's progress `{log, move_times_ms}` now, or once connected. */
  sendProgress(progress) {
    this.#waiting = { type: "progress", ...progress };
    this.#flush();
  }

  /** Close for good (the page leaves the race). */
  stop() {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#pingTimer);
    clearInterval(this.#watchTimer);
    this.#socket?.close(1000);
    this.#socket = null;
  }

  #flush() {
    if (this.#waiting && this.#send(this.#waiting)) this.#waiting = null;
  }

  #send(message) {
    if (!this.open) return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  #again() {
    if (this.#stopped) return;
    const wait = RETRY_MS[Math.min(this.#try++, RETRY_MS.length - 1)];
    this.on.state("retrying", wait);
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => this.connect(), wait);
  }

  #retryNow() {
    if (this.#stopped || this.#socket) return;
    this.#try = 0;
    this.connect();
  }
}
