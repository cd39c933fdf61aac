// A gap asks for one snapshot (docs/protocol.md, "Frames and sequence
// numbers"). A lost frame shows twice: as a skipped seq (socket.js) and as
// skipped event indexes in the hand log (state.js, EventLedger); the page asks
// once, not once for each sign, and the frames that come before the reply
// don't ask again. A real TableSocket on a fake WebSocket, wired to the log as
// main.js wires it; node has no DOM, so the log's list is faked (fake_dom.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, installFakeDocument } from "./fake_dom.mjs";

const page = installFakeDocument(); // the page's elements by id

const { HandLog, logSnapshot } = await import("../../static/js/table/log.js");
const { TableSocket } = await import("../../static/js/table/socket.js");
const { TableState } = await import("../../static/js/table/state.js");

// The browser's WebSocket, as far as TableSocket uses it: open at once, and
// keeping what the page sends.
class FakeWebSocket {
  static OPEN = 1;
  static last = null;

  constructor(url) {
    this.url = url;
    this.readyState = FakeWebSocket.OPEN;
    this.sent = [];
    FakeWebSocket.last = this;
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }
}
globalThis.WebSocket = FakeWebSocket;

const SEATS = [
  { number: 2, player: "alice", state: "playing" },
  { number: 5, player: "bob", state: "playing" },
];
const SNAPSHOT = { type: "snapshot", table: { seats: SEATS }, hand_info: { id: 7, number: 3, seats: [2, 5] }, hand: {} };
const LINES = [
  "Seat 2 (alice) antes 1",
  "Seat 5 (bob) antes 1",
  "Seat 2 (alice) brings in for 2",
  "Seat 5 (bob) completes to 5",
  "Seat 2 (alice) calls 3",
  "Seat 5 (bob) checks",
  "Seat 2 (alice) checks",
];
const TYPES = ["ante", "ante", "bring_in", "complete", "call", "check", "check"];
const event = (index) => ({ type: "event", hand_id: 7, index, event: { type: TYPES[index] }, text: LINES[index] });
const events = (from, to) => Array.from({ length: to - from }, (_, i) => event(from + i));

// The server's side of one connection: every message numbered, one frame at
// a time; a lost frame is numbered but never arrives.
class Server {
  constructor(socket) {
    this.socket = socket;
    this.seq = 0;
  }

  frame(messages, { lost = false } = {}) {
    const numbered = messages.map((m) => ({ ...m, seq: ++this.seq }));
    if (!lost) this.socket.onmessage({ data: JSON.stringify(numbered) });
  }

  // A change: its events, then the snapshot.
  change(from, to, options) {
    this.frame([...events(from, to), SNAPSHOT], options);
  }

  // The reply to {"type": "snapshot"}: the hand's events from its first.
  reply(upTo) {
    this.change(0, upTo);
  }
}

// The table page's socket and log, wired as main.js wires them.
function openPage() {
  page.log = new FakeElement("ol");
  const table = { state: new TableState(), config: { allHands: false }, reviewUrl: () => "" };
  table.log = new HandLog(table);
  table.socket = new TableSocket("ws://cardroom.test/ws/tables/1/", {
    connecting: () => table.state.reconnect(),
    open() {},
    closed() {},
    gone() {},
    message(m) {
      if (m.type === "snapshot") logSnapshot(table, m);
      else if (m.type === "event") table.state.event(m);
    },
  });
  table.socket.connect();
  const ws = FakeWebSocket.last;
  ws.onopen();
  return { ws, server: new Server(ws), lines: () => page.log.children.map((li) => li.textContent) };
}

const ASK = { type: "snapshot" };

test("a lost frame of events is asked for once, though its seq and its events' indexes both show it", () => {
  const { ws, server, lines } = openPage();
  server.change(0, 2);
  assert.deepEqual(ws.sent, []);
  server.change(2, 4, { lost: true });
  server.change(4, 5);
  assert.deepEqual(ws.sent, [ASK]);
  server.reply(5);
  assert.deepEqual(ws.sent, [ASK]);
  assert.deepEqual(lines(), ["Hand #3", ...LINES.slice(0, 5)]);
});

test("frames that come before the reply don't ask again for the same gap; a later gap asks anew", () => {
  const { ws, server, lines } = openPage();
  server.change(0, 2);
  server.change(2, 4, { lost: true });
  server.change(4, 5);
  server.change(5, 6); // sent before the server had the request
  assert.deepEqual(ws.sent, [ASK]);
  server.reply(6);
  assert.deepEqual(lines(), ["Hand #3", ...LINES.slice(0, 6)]);
  server.change(6, 7, { lost: true });
  server.frame([{ type: "chat", id: 1, from: "bob", text: "gl" }]);
  assert.deepEqual(ws.sent, [ASK, ASK]);
});

test("a lost message with no events in it is asked for once, by its seq", () => {
  const { ws, server } = openPage();
  server.change(0, 2);
  server.frame([{ type: "timer", seat: 2, deadline: null, now: "2026-01-01T00:00:00Z" }], { lost: true });
  server.change(2, 3);
  assert.deepEqual(ws.sent, [ASK]);
});

test("events missing with no message skipped are asked for once, by their indexes", () => {
  const { ws, server, lines } = openPage();
  server.change(0, 2);
  server.frame([event(3), event(4), SNAPSHOT]); // the server never sent event 2
  assert.deepEqual(ws.sent, [ASK]);
  server.reply(5);
  assert.deepEqual(lines(), ["Hand #3", ...LINES.slice(0, 5)]);
});
