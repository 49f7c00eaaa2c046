// The table client: one WebSocket to /ws/tables/{id} for one seat (or a spectator), speaking docs/protocol.md.
//
//   const client = new TableClient({ tableId, token });   // token null/undefined: a spectator
//   client.on("state", (state) => render(state));        // after welcome and every update
//   client.on("error", (msg) => toast(msg.message));
//   client.connect();
//   client.act(client.state.legal[0].notation);
//   const answer = await client.check("c Y3");             // {legal, reason, rule}: "why not?", nothing played
//
// Events: "status" (connecting | open | reconnecting | closed | failed), "welcome", "update", "state", "ack",
// "error", "rematch", "pong", "table" (only the public table changed), "busy" (true while an action waits for
// its answer). Unknown message types are ignored, so a newer server's additions do not break an older page.
// The latest state is `client.state`: {table, seat, version, static, view, legal, log, outcome}, where `legal` is
// the server's action records ({notation, kind, cards, target, label}) and every log event carries its `parts`.
// A fresh `welcome` replaces it entirely. An action that was sent but never acknowledged is sent again, with the SAME client_id,
// after a reconnect, so the server applies it at most once.

import { uniqueId } from "./util.js";

export const PROTOCOL = 3;
const PING_EVERY_MS = 25_000;
const PONG_WAIT_MS = 10_000;
const LOG_LIMIT = 200;
const CHECK_WAIT_MS = 10_000;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
// Closes after which reconnecting cannot help: the server said who we are is wrong.
const FATAL_CLOSE = new Set([4400, 4401, 4404]);
const FATAL_CODES = new Set(["bad_token", "not_found", "bad_protocol"]);

export function socketUrl(tableId) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}

export class Emitter {
  constructor() {
    this._handlers = new Map();
  }

  on(type, handler) {
    if (!this._handlers.has(type)) this._handlers.set(type, new Set());
    this._handlers.get(type).add(handler);
    return () => this.off(type, handler);
  }

  off(type, handler) {
    this._handlers.get(type)?.delete(handler);
  }

  emit(type, payload) {
    for (const handler of [...(this._handlers.get(type) || [])]) {
      try {
        handler(payload, this);
      } catch (error) {
        console.error(`divedeck: a "${type}" handler failed`, error);
      }
    }
  }
}

export class TableClient extends Emitter {
  /**
   * @param {{tableId: string, token?: string|null, name?: string|null, url?: string, WebSocketImpl?: typeof WebSocket}} options
   * `name`: the name the player typed on joining, sent with the hello.
   */
  constructor({ tableId, token = null, name = null, url = null, WebSocketImpl = null }) {
    super();
    this.tableId = tableId;
    this.token = token || null;
    this.name = name || null;
    this.url = url || socketUrl(tableId);
    this.WebSocketImpl = WebSocketImpl || globalThis.WebSocket;
    this.state = null; // {table, seat, version, static, view, legal, log, outcome}
    this.status = "idle";
    this.pending = null; // the action sent and not yet answered: {client_id, action, version}
    this.awaitVersion = 0; // after an ack: the version the matching update will bring
    this.fatal = null; // the error that made reconnecting pointless
    this.checks = new Map(); // notation -> the settle functions of the "why not?" questions waiting for it
    this._socket = null;
    this._attempt = 0;
    this._retryTimer = null;
    this._pingTimer = null;
    this._pongTimer = null;
    this._stopped = false;
    this._clock = null; // a real-time table's clock: {paused, at, offset} (tableNow)
  }

  get isSpectator() {
    return !this.token;
  }

  get seat() {
    return this.state ? this.state.seat : null;
  }

  /** True while an action of ours is on its way: the page should not offer another choice yet. */
  get busy() {
    return Boolean(this.pending) || (this.state !== null && this.state.version < this.awaitVersion);
  }

  connect() {
    this._stopped = false;
    this._open();
    return this;
  }

  /** Close for good (leaving the page, following a rematch): no reconnect. */
  close() {
    this._stopped = true;
    clearTimeout(this._retryTimer);
    this._stopPing();
    if (this._socket) {
      try {
        this._socket.close(1000, "bye");
      } catch {
        // already closed
      }
    }
    this._setStatus("closed");
  }

  /**
   * Send an action in the game's notation, exactly as it appears in `legal`. Returns the client_id, or null when
   * another action is still waiting for its answer (the caller should wait for the next state).
   */
  act(notation) {
    if (this.isSpectator || this.busy) return null;
    const message = {
      type: "act",
      client_id: uniqueId("c-"),
      action: String(notation),
      version: this.state ? this.state.version : undefined,
    };
    this.pending = message;
    this.emit("busy", true);
    this._send(message); // if the socket is down, the welcome after the reconnect sends it
    return message.client_id;
  }

  /** Pause the table's clock, or let it go on (a real-time table whose one person plays against bots: the public
   * table says `pausable`). The server answers everyone with a `table` message saying `paused`, or this seat with
   * an error. */
  pause() {
    return !this.isSpectator && this._send({ type: "pause" });
  }

  resume() {
    return !this.isSpectator && this._send({ type: "resume" });
  }

  /** The table's clock now (ms), as the server's last word on it said, counted on by this page while it runs and
   * standing still while it is paused; null at a table that is not real-time. The games' countdowns read it. */
  tableNow() {
    const clock = this._clock;
    if (!clock) return null;
    return clock.paused ? clock.at : Date.now() + clock.offset;
  }

  /** Keep what a welcome, update or table message says of the table's clock. Running, the offset to this page's
   * clock is the largest seen (a message is late by its trip, never early); a pause or a resume starts afresh. */
  _readClock(message, fresh = false) {
    if (!Number.isFinite(message.clock)) return;
    const paused = Boolean(message.paused);
    const estimate = message.clock - Date.now();
    const before = this._clock;
    const offset = fresh || !before || before.paused !== paused ? estimate : Math.max(before.offset, estimate);
    this._clock = { paused, at: message.clock, offset };
  }

  /**
   * Ask whether `notation` is legal for this seat now, without playing it: a Promise of {legal, reason, rule}.
   * The server's answer names the action it checked, which is how it finds its question; asking the same action
   * twice before the answer comes gets the one answer twice. Rejects when no answer comes (socket down, dropped).
   */
  check(notation) {
    const action = String(notation);
    if (this.isSpectator) return Promise.resolve({ legal: false, reason: "a spectator has no seat to play", rule: null });
    return new Promise((resolve, reject) => {
      const waiting = this.checks.get(action) || [];
      const timer = setTimeout(() => this._settleCheck(action, null, new Error("the server did not answer")), CHECK_WAIT_MS);
      waiting.push({ resolve, reject, timer });
      this.checks.set(action, waiting);
      if (waiting.length === 1 && !this._send({ type: "check", action })) {
        this._settleCheck(action, null, new Error("not connected"));
      }
    });
  }

  /** Ask for a rematch or accept it (`{}`), decline it (`{accept: false}`), or, the asker, start it now
   * with those who accepted (`{start: true}`). */
  rematch(answer = {}) {
    return this._send({ type: "rematch", ...answer });
  }

  rename(name) {
    this.name = String(name); // and the next hello says it again
    return this._send({ type: "name", name: this.name });
  }

  leave() {
    return this._send({ type: "leave" });
  }

  /** Take this seat back from the bot that plays it (its time per move ran out, or it left): see "The clock". */
  back() {
    return this._send({ type: "back" });
  }

  // -- internals ---------------------------------------------------------------------------------------------

  _settleCheck(action, answer, failure) {
    const waiting = this.checks.get(action);
    if (!waiting) return;
    this.checks.delete(action);
    for (const { resolve, reject, timer } of waiting) {
      clearTimeout(timer);
      if (failure) reject(failure);
      else resolve(answer);
    }
  }

  _setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.emit("status", status);
  }

  _send(message) {
    const socket = this._socket;
    if (!socket || socket.readyState !== 1 || !this._welcomed) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  _open() {
    clearTimeout(this._retryTimer);
    this._welcomed = false;
    this._setStatus(this._attempt ? "reconnecting" : "connecting");
    let socket;
    try {
      socket = new this.WebSocketImpl(this.url);
    } catch (error) {
      console.error("divedeck: cannot open the socket", error);
      this._scheduleReconnect();
      return;
    }
    this._socket = socket;
    socket.addEventListener("open", () => {
      if (this._socket !== socket) return;
      const hello = { type: "hello", protocol: PROTOCOL };
      if (this.token) {
        hello.token = this.token;
        if (this.name) hello.name = this.name;
      } else hello.spectator = true;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      if (this._socket !== socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        console.warn("divedeck: a message that is not JSON", event.data);
        return;
      }
      if (message && typeof message === "object") this._receive(message);
    });
    socket.addEventListener("close", (event) => {
      if (this._socket !== socket) return;
      this._socket = null;
      this._welcomed = false;
      this._stopPing();
      for (const action of [...this.checks.keys()]) this._settleCheck(action, null, new Error("the connection closed"));
      if (this._stopped) return;
      if (FATAL_CLOSE.has(event.code) || this.fatal) {
        this.fatal = this.fatal || { type: "error", code: `closed_${event.code}`, message: event.reason || "" };
        this._setStatus("failed");
        return;
      }
      this._scheduleReconnect();
    });
    // An "error" event is always followed by "close", which does the work.
  }

  _scheduleReconnect() {
    if (this._stopped) return;
    const base = BACKOFF_MS[Math.min(this._attempt, BACKOFF_MS.length - 1)];
    this._attempt += 1;
    const delay = base * (0.75 + Math.random() * 0.5); // jitter: many tabs do not come back at the same instant
    this._setStatus("reconnecting");
    this._retryTimer = setTimeout(() => this._open(), delay);
  }

  _startPing() {
    this._stopPing();
    this._pingTimer = setInterval(() => {
      if (!this._send({ type: "ping" })) return;
      clearTimeout(this._pongTimer);
      // No pong in time: the connection is dead without having said so (a sleeping laptop, a lost Wi-Fi).
      this._pongTimer = setTimeout(() => this._socket?.close(4000, "no pong"), PONG_WAIT_MS);
    }, PING_EVERY_MS);
  }

  _stopPing() {
    clearInterval(this._pingTimer);
    clearTimeout(this._pongTimer);
  }

  _receive(message) {
    switch (message.type) {
      case "welcome":
        return this._onWelcome(message);
      case "update":
        return this._onUpdate(message);
      case "ack":
        if (this.pending && message.client_id === this.pending.client_id) {
          this.pending = null;
          if (Number.isInteger(message.version)) this.awaitVersion = Math.max(this.awaitVersion, message.version);
        }
        this.emit("ack", message);
        this.emit("busy", this.busy);
        return undefined;
      case "check":
        this._settleCheck(String(message.action), {
          legal: Boolean(message.legal), reason: message.reason ?? null, rule: message.rule ?? null,
        });
        return undefined;
      case "error":
        return this._onError(message);
      case "rematch":
        this.emit("rematch", message);
        return undefined;
      case "table":
        // Someone connected, left or was replaced by a bot: only the public table changes.
        if (this.state && message.table) {
          this._readClock(message);
          this.state = { ...this.state, table: message.table, paused: Boolean(message.paused) };
          this.emit("table", message.table);
          this.emit("state", this.state);
        }
        return undefined;
      case "undone":
        return this._onUndone(message);
      case "chat":
      case "reaction":
        this.emit(message.type, message);
        return undefined;
      case "pong":
        clearTimeout(this._pongTimer);
        this.emit("pong", message);
        return undefined;
      default:
        return undefined; // a type this page does not know: additions to the protocol are allowed
    }
  }

  _onWelcome(message) {
    this._readClock(message, true);
    this._welcomed = true;
    this._attempt = 0;
    this.fatal = null;
    this.state = {
      table: message.table || null,
      seat: message.seat ?? null,
      version: message.version ?? 0,
      static: message.static || {},
      view: message.view || null,
      legal: Array.isArray(message.legal) ? message.legal : [],
      log: Array.isArray(message.log) ? message.log.slice(-LOG_LIMIT) : [],
      outcome: message.outcome ?? null,
      canUndo: Boolean(message.can_undo),
      paused: Boolean(message.paused), // a real-time table whose clock stands still
    };
    this.awaitVersion = 0;
    this._setStatus("open");
    this._startPing();
    this.emit("welcome", message);
    this.emit("state", this.state);
    // An action sent before the connection dropped and never answered: the same client_id again, so the server
    // answers with the first ack if it had applied it, and applies it now if it had not.
    if (this.pending) this._send(this.pending);
    this.emit("busy", this.busy);
  }

  _onUpdate(message) {
    if (!this.state) return;
    const events = Array.isArray(message.events) ? message.events : [];
    const log = this.state.log.concat(events);
    this._readClock(message);
    this.state = {
      ...this.state,
      table: message.table || this.state.table,
      version: message.version ?? this.state.version,
      view: message.view || this.state.view,
      legal: Array.isArray(message.legal) ? message.legal : [],
      log: log.length > LOG_LIMIT ? log.slice(-LOG_LIMIT) : log,
      outcome: message.outcome ?? null,
      canUndo: Boolean(message.can_undo),
      paused: message.paused === undefined ? this.state.paused : Boolean(message.paused),
    };
    this.emit("update", { ...message, events });
    this.emit("state", this.state);
    this.emit("busy", this.busy);
  }

  /** A seat took its last move back: the server's whole picture as it was before that move. */
  _onUndone(message) {
    if (!this.state) return;
    const log = Array.isArray(message.log) ? message.log : [];
    this.state = {
      ...this.state,
      version: message.version ?? this.state.version,
      view: message.view || this.state.view,
      legal: Array.isArray(message.legal) ? message.legal : [],
      log: log.slice(-LOG_LIMIT),
      outcome: message.outcome ?? null,
      canUndo: Boolean(message.can_undo),
    };
    this.awaitVersion = 0;
    this.emit("undone", message);
    this.emit("state", this.state);
    this.emit("busy", this.busy);
  }

  /** Take this seat's last move back (the server answers with `undone` to everyone, or an error). */
  undo() {
    if (this.isSpectator || this.busy) return false;
    return this._send({ type: "undo" });
  }

  /** Send a quick reaction (one of the server's emote names) or a line of table chat. */
  react(emote) {
    return !this.isSpectator && this._send({ type: "reaction", emote: String(emote) });
  }

  chat(text) {
    return !this.isSpectator && this._send({ type: "chat", text: String(text) });
  }

  _onError(message) {
    if (FATAL_CODES.has(message.code)) this.fatal = message;
    if (message.check !== undefined) {
      // A check the server could not read (it names the action it was about): no answer will follow.
      this._settleCheck(String(message.check), null, new Error(message.message || message.code));
      return;
    }
    if (this.pending && (!message.client_id || message.client_id === this.pending.client_id)) {
      // A refusal changes nothing: the player may choose again. (An error without client_id that is not about
      // our action, e.g. rate_limited, also frees the page: the server dropped the message.)
      if (message.client_id || ["malformed", "rate_limited", "stale", "not_your_turn", "game_over", "paused"].includes(message.code)) {
        this.pending = null;
      }
    }
    this.emit("error", message);
    this.emit("busy", this.busy);
  }
}
