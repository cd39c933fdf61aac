// The hand log in words (static/js/table/narrate.js): every kind of event,
// what each call costs, and the seat changes between snapshots.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Narration, StreetBets, seatChanges, tell, who } from "../../static/js/table/narrate.js";

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

const say = (e, extra = {}) => tell(e, { snap: SNAP, ...extra });

test("a player is named by seat and name, or by seat once gone", () => {
  assert.equal(who(SNAP, 1), "Seat 5 (bob)");
  const gone = { ...SNAP, table: { seats: [SNAP.table.seats[0]] } };
  assert.equal(who(gone, 1), "Seat 5");
});

test("antes, bring-ins, completions, bets and raises say their totals", () => {
  assert.equal(say({ type: "ante", player: 0, amount: 1000 }), "Seat 2 (alice) antes 1,000");
  assert.equal(say({ type: "bring_in", player: 1, total: 2 }), "Seat 5 (bob) brings in 2");
  assert.equal(say({ type: "complete", player: 0, total: 5 }), "Seat 2 (alice) completes to 5");
  assert.equal(say({ type: "bet", player: 0, total: 10 }), "Seat 2 (alice) bets 10");
  assert.equal(say({ type: "raise", player: 1, total: 20, all_in: true }), "Seat 5 (bob) raises to 20, all in");
});

test("a call says the chips it cost", () => {
  assert.equal(say({ type: "call", player: 1, total: 10 }, { chipsIn: 8 }), "Seat 5 (bob) calls 8");
});

test("checks, folds and mucks", () => {
  assert.equal(say({ type: "check", player: 0 }), "Seat 2 (alice) checks");
  assert.equal(say({ type: "fold", player: 1 }), "Seat 5 (bob) folds");
  assert.equal(say({ type: "muck", player: 1 }), "Seat 5 (bob) mucks");
});

test("a protected player's line says what they put in", () => {
  assert.equal(
    say({ type: "protect", player: 1, put_in: 14 }),
    "Seat 5 (bob) ran out of time: all in for the 14 put in so far",
  );
});

test("up cards, board cards and shown hands are told; down cards are not", () => {
  assert.equal(say({ type: "deal", player: 0, card: "Td", up: true }), "Seat 2 (alice) is dealt 10♦");
  assert.equal(say({ type: "deal", player: 0, card: null, up: false }), null);
  assert.equal(say({ type: "board", card: "Ah" }), "Community card: A♥");
  assert.equal(say({ type: "show", player: 1, cards: ["As", "Ks", "2c"] }), "Seat 5 (bob) shows A♠ K♠ 2♣");
});

test("an uncalled bet taken back", () => {
  assert.equal(say({ type: "return", player: 0, amount: 5 }), "Seat 2 (alice) takes back 5 uncalled");
});

test("a result without the hand's result says the payouts and the rake", () => {
  const e = { type: "result", payouts: [0, 1200], rake: 3 };
  assert.equal(say(e), "Seat 5 (bob) wins 1,200 (rake 3)");
});

test("a result with the hand's result names each pot's half", () => {
  const result = {
    uncontested: false,
    hands: { 0: { high: "a pair", low: "8-7-5-3-2 low" }, 1: { high: "a flush", low: null } },
    pots: [{ amount: 40, shares: [[0, 20], [1, 20]], high_winners: [1], low_winners: [0] }],
  };
  const e = { type: "result", payouts: [20, 20], rake: 0 };
  assert.equal(say(e, { result }), "Seat 2 (alice) wins 20 (low), Seat 5 (bob) wins 20 (high)");
});

test("an event kind the log doesn't know is not told", () => {
  assert.equal(say({ type: "shuffle" }), null);
});

test("a call costs its total less what the player had in on the street", () => {
  const bets = new StreetBets();
  bets.putIn({ type: "bring_in", player: 0, total: 2, street: 0 });
  bets.putIn({ type: "complete", player: 1, total: 5, street: 0 });
  assert.equal(bets.putIn({ type: "call", player: 0, total: 5, street: 0 }), 3);
});

test("a new street starts every player's bets again", () => {
  const bets = new StreetBets();
  bets.putIn({ type: "bet", player: 0, total: 10, street: 1 });
  assert.equal(bets.putIn({ type: "call", player: 0, total: 10, street: 2 }), 10);
});

test("chips taken back no longer count as put in", () => {
  const bets = new StreetBets();
  bets.putIn({ type: "bet", player: 0, total: 10, street: 1 });
  bets.putIn({ type: "return", player: 0, amount: 4, street: 1 });
  assert.equal(bets.putIn({ type: "call", player: 0, total: 10, street: 1 }), 4);
});

test("a hand's first event is headed with its number", () => {
  const log = new Narration();
  const first = log.next({ hand_id: 7, event: { type: "ante", player: 0, amount: 1 } }, SNAP);
  const second = log.next({ hand_id: 7, event: { type: "ante", player: 1, amount: 1 } }, SNAP);
  assert.deepEqual(first, { heading: "Hand #3", text: "Seat 2 (alice) antes 1" });
  assert.equal(second.heading, null);
});

test("a hand the snapshot doesn't show is headed without a number", () => {
  const log = new Narration();
  assert.equal(log.next({ hand_id: 6, event: { type: "fold", player: 0 } }, SNAP).heading, "Hand");
});

test("a timed-out move says so", () => {
  const log = new Narration();
  const line = log.next({ hand_id: 7, event: { type: "fold", player: 1, timed_out: true } }, SNAP);
  assert.equal(line.text, "Seat 5 (bob) folds (out of time)");
});

test("the narration counts each call's cost across events, and starts again each hand", () => {
  const log = new Narration();
  const text = (hand, e) => log.next({ hand_id: hand, event: e }, SNAP).text;
  text(7, { type: "bet", player: 0, total: 10, street: 3 });
  text(7, { type: "raise", player: 1, total: 20, street: 3 });
  assert.equal(text(7, { type: "call", player: 0, total: 20, street: 3 }), "Seat 2 (alice) calls 10");
  // Hand 8 may start on the same street number: nothing carries over.
  assert.equal(text(8, { type: "call", player: 0, total: 20, street: 3 }), "Seat 2 (alice) calls 20");
});

test("the result is told with the ended hand's result only for that hand", () => {
  const log = new Narration();
  const result = { uncontested: true, hands: {}, pots: [{ amount: 9, shares: [[0, 9]] }] };
  const e = { type: "result", payouts: [7, 0], rake: 0 };
  const other = log.next({ hand_id: 7, event: e }, SNAP, { id: 8, result });
  assert.equal(other.text, "Seat 2 (alice) wins 7");
  const own = log.next({ hand_id: 7, event: e }, SNAP, { id: 7, result });
  assert.equal(own.text, "Seat 2 (alice) wins 9");
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
