// The live hand log (static/js/table/log.js) as the page keeps it: each change
// appends the lines of the events it hadn't shown, by their index in the hand,
// and never tells a hand again, so what it reads after any run of changes
// (reconnects, a resync, lost messages, a new hand) is the hand's full narration, once. Node has no DOM: the few
// element methods log.js uses are faked (fake_dom.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, installFakeDocument } from "./fake_dom.mjs";

const page = installFakeDocument(); // the page's elements by id

const { HandLog, logSnapshot } = await import("../../static/js/table/log.js");
const { TableState } = await import("../../static/js/table/state.js");

const SEATS = [
  { number: 2, player: "alice", state: "playing" },
  { number: 5, player: "bob", state: "playing" },
];

// The server's messages for hand `id` (the table's hand #`number`): each
// event with its place in the hand and its line, or null for an event with no
// line of its own.
function hand(id, number, lines) {
  const snap = { type: "snapshot", table: { seats: SEATS }, hand_info: { id, number, seats: [2, 5] }, hand: {} };
  const events = lines.map(([type, text], index) => ({ type: "event", hand_id: id, index, event: { type }, text }));
  return { id, number, snap, events };
}

// Hand 7 (#3): alice and bob to a showdown; hand 8 (#4) begun.
const FIRST = hand(7, 3, [
  ["ante", "Seat 2 (alice) antes 1"],
  ["ante", "Seat 5 (bob) antes 1"],
  ["deal", "Seat 2 (alice) is dealt 2 down cards and 3♦ up"],
  ["deal", null],
  ["deal", null],
  ["deal", "Seat 5 (bob) is dealt 2 down cards and K♣ up"],
  ["deal", null],
  ["deal", null],
  ["bring_in", "Seat 2 (alice) brings in for 2"],
  ["complete", "Seat 5 (bob) completes to 5"],
  ["call", "Seat 2 (alice) calls 3"],
  ["deal", "Seat 2 (alice) is dealt 7♠ up"],
  ["deal", "Seat 5 (bob) is dealt 2♥ up"],
  ["check", "Seat 5 (bob) checks"],
  ["check", "Seat 2 (alice) checks"],
  ["show", "Seat 5 (bob) shows K♣ K♦ 2♥: pair of kings"],
  ["show", "Seat 2 (alice) shows 3♦ 4♦ 7♠: seven high"],
  ["result", "Pot of 12: Seat 5 (bob) wins 12"],
]);
const SECOND = hand(8, 4, [
  ["ante", "Seat 2 (alice) antes 1"],
  ["ante", "Seat 5 (bob) antes 1"],
  ["deal", "Seat 2 (alice) is dealt 2 down cards and Q♥ up"],
  ["deal", null],
  ["bring_in", "Seat 5 (bob) brings in for 2"],
  ["fold", "Seat 2 (alice) folds"],
]);

// The full narration of hands, as one page told all at once would read it:
// each hand's heading, then each line the server told.
function narrated(...hands) {
  return hands.flatMap((h) => ["Hand #" + h.number, ...h.events.map((m) => m.text).filter(Boolean)]);
}

// The table page's log, fed as main.js feeds it: events wait for the snapshot
// that ends their frame; then the old hand's are told with the snapshot
// before, a new hand's with the new one.
class Page {
  constructor() {
    this.list = new FakeElement("ol");
    page.log = this.list;
    this.resyncs = 0; // the snapshots the socket was told to ask for
    const socket = { resync: () => this.resyncs++ };
    this.table = { state: new TableState(), config: { allHands: false }, reviewUrl: () => "", socket };
    this.table.log = new HandLog(this.table);
  }

  frame(events, snap) {
    events.forEach((m) => this.table.state.event(m));
    logSnapshot(this.table, snap);
  }

  // What a new connection is sent: the latest hand's events from its first.
  reconnect(latest, upTo) {
    this.table.state.reconnect();
    this.frame(latest.events.slice(0, upTo), latest.snap);
  }

  // The reply to a snapshot the page asked for on the same connection: the
  // hand it was following from its first event, then the latest from its first.
  resync(...hands) {
    const events = hands.flatMap(([h, upTo]) => h.events.slice(0, upTo));
    this.frame(events, hands[hands.length - 1][0].snap);
  }

  get lines() {
    return this.list.children.map((li) => li.textContent);
  }
}

// A log that only grows: the lines there before are the very same nodes after.
function appendsOnly(page, change) {
  const before = [...page.list.children];
  change();
  assert.ok(page.list.children.length >= before.length);
  before.forEach((node, i) => assert.equal(page.list.children[i], node, "line " + i + " was rebuilt"));
}

test("a hand told change by change reads as its full narration, each line added once", () => {
  const p = new Page();
  p.frame(FIRST.events.slice(0, 3), FIRST.snap);
  [
    [3, 9],
    [9, 11],
    [11, 18],
  ].forEach(([from, to]) => appendsOnly(p, () => p.frame(FIRST.events.slice(from, to), FIRST.snap)));
  assert.deepEqual(p.lines, narrated(FIRST));
});

test("a reconnect mid-hand replays the hand from its first event, and the log adds only what is new", () => {
  const p = new Page();
  p.frame(FIRST.events.slice(0, 6), FIRST.snap);
  const shown = p.lines;
  appendsOnly(p, () => p.reconnect(FIRST, 6)); // nothing happened while away
  assert.deepEqual(p.lines, shown);
  appendsOnly(p, () => p.reconnect(FIRST, 11)); // five events happened while away
  appendsOnly(p, () => p.frame(FIRST.events.slice(11), FIRST.snap));
  assert.deepEqual(p.lines, narrated(FIRST));
});

test("a resync's replay of a hand adds only the lines the page lacks, and the hand goes on", () => {
  const p = new Page();
  p.frame(FIRST.events.slice(0, 9), FIRST.snap);
  const shown = p.lines;
  appendsOnly(p, () => p.resync([FIRST, 9])); // nothing happened meanwhile
  assert.deepEqual(p.lines, shown);
  appendsOnly(p, () => p.resync([FIRST, 11])); // a move whose notice had not come yet
  appendsOnly(p, () => p.frame(FIRST.events.slice(11), FIRST.snap));
  assert.deepEqual(p.lines, narrated(FIRST));
  assert.equal(p.resyncs, 0);
});

test("events after lost ones wait for the resync, which tells them all in order", () => {
  const p = new Page();
  p.frame(FIRST.events.slice(0, 9), FIRST.snap);
  const shown = p.lines;
  appendsOnly(p, () => p.frame(FIRST.events.slice(11, 13), FIRST.snap)); // 9 and 10 never came
  assert.deepEqual(p.lines, shown);
  assert.equal(p.resyncs, 1); // the socket asks for a snapshot
  p.frame(FIRST.events.slice(13, 14), FIRST.snap); // before the reply: the same gap
  assert.equal(p.resyncs, 1);
  appendsOnly(p, () => p.resync([FIRST, 14]));
  appendsOnly(p, () => p.frame(FIRST.events.slice(14), FIRST.snap));
  assert.deepEqual(p.lines, narrated(FIRST));
  assert.equal(p.resyncs, 1);
});

test("a resync after the hand ended and the next began tells the rest of one, then the other", () => {
  const p = new Page();
  p.frame(FIRST.events.slice(0, 11), FIRST.snap);
  appendsOnly(p, () => p.resync([FIRST, 18], [SECOND, 4]));
  appendsOnly(p, () => p.frame(SECOND.events.slice(4), SECOND.snap));
  assert.deepEqual(p.lines, narrated(FIRST, SECOND));
});

test("a new hand in the same frame as the old one's end is headed with its own number", () => {
  const p = new Page();
  p.frame(FIRST.events.slice(0, 14), FIRST.snap);
  appendsOnly(p, () => p.frame([...FIRST.events.slice(14), ...SECOND.events.slice(0, 3)], SECOND.snap));
  appendsOnly(p, () => p.frame(SECOND.events.slice(3), SECOND.snap));
  assert.deepEqual(p.lines, narrated(FIRST, SECOND));
});

test("a player who sat down between hands is logged before the deal they join, after the hand before", () => {
  const p = new Page();
  p.frame(FIRST.events.slice(0, 14), FIRST.snap);
  const carol = { number: 4, player: "carol", state: "playing" };
  const dealt = { ...SECOND.snap, table: { seats: [SEATS[0], carol, SEATS[1]] } };
  p.frame([...FIRST.events.slice(14), ...SECOND.events.slice(0, 3)], dealt);
  const told = narrated(FIRST, SECOND);
  const headed = told.indexOf("Hand #4");
  assert.deepEqual(p.lines, [
    ...told.slice(0, headed),
    "carol sits down in seat 4",
    ...narrated({ number: 4, events: SECOND.events.slice(0, 3) }),
  ]);
});

test("a seat change in a frame without a new hand comes after that frame's events", () => {
  const p = new Page();
  p.frame(FIRST.events.slice(0, 9), FIRST.snap);
  const left = { ...FIRST.snap, table: { seats: [SEATS[0]] } };
  p.frame(FIRST.events.slice(9, 11), left);
  assert.deepEqual(p.lines, [
    ...narrated({ number: 3, events: FIRST.events.slice(0, 11) }),
    "bob leaves the table",
  ]);
});

test("a reconnect in the next hand tells only that hand's new events", () => {
  const p = new Page();
  p.frame(FIRST.events, FIRST.snap);
  p.frame(SECOND.events.slice(0, 2), SECOND.snap);
  appendsOnly(p, () => p.reconnect(SECOND, 5));
  appendsOnly(p, () => p.frame(SECOND.events.slice(5), SECOND.snap));
  assert.deepEqual(p.lines, narrated(FIRST, SECOND));
});

test("a page opened mid-hand reads the same as one that watched from the start", () => {
  const watched = new Page();
  watched.frame(FIRST.events.slice(0, 4), FIRST.snap);
  watched.frame(FIRST.events.slice(4, 12), FIRST.snap);
  const opened = new Page();
  opened.reconnect(FIRST, 12);
  assert.deepEqual(opened.lines, watched.lines);
  assert.deepEqual(opened.lines, narrated({ number: 3, events: FIRST.events.slice(0, 12) }));
});
