// The hand log (static/js/table/narrate.js): hand headings, the server's line
// for each event, and the seat changes between snapshots. The words of each
// event are the server's narrator's, tested in tests/rules/test_narration.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Narration, seatChanges, seatName } from "../../static/js/table/narrate.js";

// alice in seat 2 is the engine's player 0, bob in seat 5 player 1; hand 7 is
// the table's hand #3.
const SNAP = {
  table: {
    seats: [
      { number: 2, player: "alice", state: "playing" },
      { number: 5, player: "bob", state: "playing" },
    ],
  },
  hand_info: { id: 7, number: 3, seats: [2, 5] },
};

test("a hand's first event is headed with its number, and each event has the server's line", () => {
  const log = new Narration();
  const first = log.next({ hand_id: 7, event: { type: "ante" }, text: "Seat 2 (alice) antes 1" }, SNAP);
  const second = log.next({ hand_id: 7, event: { type: "ante" }, text: "Seat 5 (bob) antes 1" }, SNAP);
  assert.deepEqual(first, { heading: "Hand #3", text: "Seat 2 (alice) antes 1" });
  assert.deepEqual(second, { heading: null, text: "Seat 5 (bob) antes 1" });
});

test("a hand the snapshot doesn't show is headed without a number", () => {
  const log = new Narration();
  assert.equal(log.next({ hand_id: 6, event: { type: "fold" }, text: "x" }, SNAP).heading, "Hand");
});

test("an event with no line of its own (a street's later cards) adds none", () => {
  const log = new Narration();
  log.next({ hand_id: 7, event: { type: "deal" }, text: "Seat 2 (alice) is dealt 2 down cards and 3♦ up" }, SNAP);
  assert.deepEqual(log.next({ hand_id: 7, event: { type: "deal" }, text: null }, SNAP), {
    heading: null,
    text: null,
  });
});

test("a new hand is headed again", () => {
  const log = new Narration();
  log.next({ hand_id: 7, event: { type: "result" }, text: "Pot of 9: Seat 2 (alice) wins 9" }, SNAP);
  assert.equal(log.next({ hand_id: 8, event: { type: "ante" }, text: "y" }, SNAP).heading, "Hand");
});

test("seat changes tell who sat down, left, or was sat out for timeouts", () => {
  const after = {
    table: {
      seats: [
        { number: 2, player: "alice", state: "sitting_out", sat_out_for: "timeouts" },
        { number: 6, player: "carol", state: "playing" },
      ],
    },
  };
  assert.deepEqual(seatChanges(SNAP, after), [
    "alice sat out: two turns timed out",
    "carol sits down in seat 6",
    "bob leaves the table",
  ]);
});

test("a seat taken by someone else tells both the leaving and the sitting down", () => {
  const after = { table: { seats: [SNAP.table.seats[0], { number: 5, player: "dave", state: "playing" }] } };
  assert.deepEqual(seatChanges(SNAP, after), ["dave sits down in seat 5", "bob leaves the table"]);
});

test("no seat change, no line", () => {
  assert.deepEqual(seatChanges(SNAP, SNAP), []);
});

test("a seat in the hand is named as the hand keeps it, after its player has left", () => {
  const snap = { ...SNAP, table: { seats: [{ number: 5, player: "carol", state: "playing" }] } };
  snap.hand_info = { ...SNAP.hand_info, names: ["alice", "bob"] };
  assert.equal(seatName(snap, 2), "alice"); // gone from the table
  assert.equal(seatName(snap, 5), "bob"); // carol sits there now
  assert.equal(seatName(snap, 3), "Seat 3"); // nobody, in no hand
  assert.equal(seatName(SNAP, 5), "bob"); // a hand kept before names were: whoever sits there
});
