// What the table page knows (static/js/table/state.js): the snapshot and the
// events before it, the last hand's summary, and what a reconnect replays.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ChatLedger,
  EventLedger,
  TableState,
  mayReview,
  nextLastHand,
  potLines,
  summarize,
} from "../../static/js/table/state.js";

const SEATS = [
  { number: 1, player: "alice", state: "playing" },
  { number: 4, player: "bob", state: "playing" },
];

// A snapshot of hand `id` (the table's hand #`id`), alice and bob dealt in;
// `viewer` is alice's engine index when the viewer is alice.
function snapshot(id, { result = null, viewer = 0 } = {}) {
  return {
    type: "snapshot",
    table: { seats: SEATS },
    hand_info: { id, number: id, seats: [1, 4], finished: Boolean(result) },
    hand: { viewer, result, phase: result ? "over" : "betting" },
  };
}

const event = (id, e) => ({ type: "event", hand_id: id, event: e });

// bob wins 30 uncontested, alice shows nothing.
const BOB_WINS = {
  uncontested: true,
  rake: 1,
  payouts: [0, 30],
  hands: {},
  pots: [{ amount: 31, shares: [[1, 30]] }],
};

test("a finished hand's summary lists the winners and the shown hands, in words", () => {
  const result = {
    ...BOB_WINS,
    uncontested: false,
    hands: { 0: { cards: ["As", "Ad"], high: "a pair of aces" }, 1: { cards: ["Kc", "Kd"], high: "kings" } },
  };
  const summary = summarize(snapshot(3, { result }), [], false);
  assert.equal(summary.words, true);
  assert.equal(summary.rake, 1);
  assert.deepEqual(summary.rows, [
    { seat: 1, name: "alice", cards: ["As", "Ad"], wild: [], words: "a pair of aces", won: 0, mucked: false },
    { seat: 4, name: "bob", cards: ["Kc", "Kd"], wild: [], words: "kings", won: 30, mucked: false },
  ]);
  assert.deepEqual(summary.pots, []); // one pot, one winner: nothing more to say
});

// bob shows kings and wins; alice's hand was mucked unshown at the showdown.
const ALICE_MUCKED = {
  ...BOB_WINS,
  uncontested: false,
  hands: { 1: { cards: ["Kc", "Kd"], high: "a pair of kings" } },
};

function muckedSnapshot(viewer, yourHand) {
  const snap = snapshot(3, { result: ALICE_MUCKED, viewer });
  snap.hand.players = [{ mucked: true }, { mucked: false }];
  snap.hand.your_hand = yourHand;
  return snap;
}

test("a hand mucked at the showdown is listed, with its words for its own player only", () => {
  const mine = { cards: ["8s", "8d"], high: "a pair of eights" };
  const forAlice = summarize(muckedSnapshot(0, mine), [], false).rows;
  assert.deepEqual(forAlice[0], {
    seat: 1, name: "alice", cards: ["8s", "8d"], wild: [], words: "a pair of eights", won: 0, mucked: true,
  });
  const forBob = summarize(muckedSnapshot(1, null), [], false).rows;
  assert.deepEqual(forBob.map((row) => [row.name, row.cards, row.words, row.mucked]), [
    ["alice", null, "", true],
    ["bob", ["Kc", "Kd"], "a pair of kings", false],
  ]);
});

test("a hand mucked unseen is listed from its muck event too", () => {
  const events = [
    event(3, { type: "muck", player: 0 }),
    event(3, { type: "show", player: 1, cards: ["Kc", "Kd"] }),
    event(3, { type: "result", payouts: [0, 30], rake: 0 }),
  ];
  const rows = summarize(snapshot(3), events, false).rows;
  assert.deepEqual(rows.map((row) => [row.name, row.mucked, row.won]), [
    ["alice", true, 0],
    ["bob", false, 30],
  ]);
});

test("a summary names the hand's players as the hand keeps them, whoever sits there now", () => {
  const snap = snapshot(3, { result: { ...BOB_WINS, uncontested: false, hands: { 0: { cards: ["As"], high: "ace high" } } } });
  snap.hand_info.names = ["alice", "bob"];
  snap.table = { seats: [{ number: 4, player: "carol", state: "playing" }] }; // alice left, carol took bob's seat
  const summary = summarize(snap, [], false);
  assert.deepEqual(summary.rows.map((row) => row.name), ["alice", "bob"]);
});

test("a summary keeps which shown cards were wild, for the row to mark", () => {
  const result = {
    ...BOB_WINS,
    uncontested: false,
    hands: { 1: { cards: ["Kc", "2d", "2s"], high: "three of a kind, kings (two wild)", wild: ["2d", "2s"] } },
  };
  const [bob] = summarize(snapshot(3, { result }), [], false).rows;
  assert.deepEqual(bob.wild, ["2d", "2s"]);
});

test("a hand whose end was not seen is summed up from its show and result events", () => {
  const events = [
    event(3, { type: "show", player: 0, cards: ["2c", "3c"] }),
    event(3, { type: "result", payouts: [0, 30], rake: 0 }),
    event(4, { type: "ante", player: 0, amount: 1 }),
  ];
  const summary = summarize(snapshot(3), events, false);
  assert.equal(summary.words, false);
  assert.deepEqual(
    summary.rows.map((row) => [row.name, row.cards, row.won]),
    [
      ["alice", ["2c", "3c"], 0],
      ["bob", null, 30],
    ],
  );
});

test("without a result event there is nothing to sum up", () => {
  assert.equal(summarize(snapshot(3), [], false), null);
});

test("only a player dealt in, or staff, may review the hand", () => {
  assert.equal(summarize(snapshot(3, { result: BOB_WINS, viewer: null }), [], false).review, false);
  assert.equal(summarize(snapshot(3, { result: BOB_WINS, viewer: null }), [], true).review, true);
  assert.equal(mayReview(snapshot(3), 3, false), true);
  assert.equal(mayReview(snapshot(3), 2, false), false);
  assert.equal(mayReview(snapshot(3, { viewer: null }), 3, false), false);
});

test("a split pot's lines name each share and its half", () => {
  const result = {
    uncontested: false,
    hands: { 0: { high: "a pair", low: "8 low" }, 1: { high: "a flush", low: null } },
    pots: [{ amount: 2000, shares: [[0, 1000], [1, 1000]], high_winners: [1], low_winners: [0] }],
  };
  const nameOf = (seat) => ({ 1: "alice" })[seat] || "Seat " + seat;
  assert.deepEqual(potLines(result, [1, 4], nameOf), ["Pot 2,000: alice 1,000 (low), Seat 4 1,000 (high)"]);
});

test("several pots get a line each", () => {
  const result = {
    uncontested: false,
    hands: {},
    pots: [
      { amount: 30, shares: [[0, 30]] },
      { amount: 8, shares: [[1, 8]] },
    ],
  };
  const nameOf = (seat) => "Seat " + seat;
  assert.deepEqual(potLines(result, [1, 4], nameOf), ["Main pot 30: Seat 1 30", "Side pot 1 8: Seat 4 8"]);
});

test("the last hand is the one whose snapshot showed its result", () => {
  const ended = snapshot(3, { result: BOB_WINS });
  assert.equal(nextLastHand(null, snapshot(3), ended, [], false).id, 3);
});

test("a hand that ended unseen becomes the last hand when the next one starts", () => {
  const events = [event(3, { type: "result", payouts: [0, 30], rake: 0 })];
  const last = nextLastHand(null, snapshot(3), snapshot(4), events, false);
  assert.equal(last.id, 3);
  assert.equal(last.words, false);
});

test("a summary in words is not replaced by the same hand's from events", () => {
  const inWords = summarize(snapshot(3, { result: BOB_WINS }), [], false);
  const events = [event(3, { type: "result", payouts: [0, 30], rake: 0 })];
  assert.equal(nextLastHand(inWords, snapshot(3), snapshot(4), events, false), inWords);
});

test("the snapshot that follows events splits them between the old hand and the new", () => {
  const state = new TableState();
  state.snapshot(snapshot(3));
  state.event(event(3, { type: "result", payouts: [0, 30], rake: 0 }));
  state.event(event(4, { type: "ante", player: 0, amount: 1 }));
  const next = snapshot(4);
  const { before, early, late, ended } = state.snapshot(next);
  assert.equal(before.hand_info.id, 3);
  assert.deepEqual(early.map((m) => m.hand_id), [3]);
  assert.deepEqual(late.map((m) => m.hand_id), [4]);
  assert.deepEqual(ended, { id: 4, result: null });
  assert.equal(state.snap, next);
  assert.deepEqual(state.pending, []);
  assert.equal(state.lastHand.id, 3);
});

test("the first snapshot on a page tells every event with itself", () => {
  const state = new TableState();
  state.event(event(3, { type: "ante", player: 0, amount: 1 }));
  const { before, early, late } = state.snapshot(snapshot(3));
  assert.equal(before, null);
  assert.deepEqual(early, []);
  assert.equal(late.length, 1);
});

test("the turn clock comes with the snapshot and goes with a timer for no seat", () => {
  const state = new TableState();
  const shot = snapshot(3);
  shot.hand_info.timer = { seat: 1, deadline: "2026-01-01T00:00:10Z" };
  state.snapshot(shot);
  assert.equal(state.timer.seat, 1);
  state.clock({ type: "timer", seat: null, now: "2026-01-01T00:00:05Z" }, Date.parse("2026-01-01T00:00:04Z"));
  assert.equal(state.timer, null);
  assert.equal(state.skew, 1000);
});

// Event `index` of hand `id`, as the server numbers each hand's events from 0.
const nth = (id, index) => ({ type: "event", hand_id: id, index, event: { type: "check", player: 0 } });

test("a replay of a hand from its first event logs only the events not logged before", () => {
  const ledger = new EventLedger();
  assert.deepEqual([ledger.isNew(nth(3, 0)), ledger.isNew(nth(3, 1))], [true, true]);
  // A new connection, or a requested snapshot, sends hand 3 from its first event.
  assert.deepEqual([0, 1, 2].map((i) => ledger.isNew(nth(3, i))), [false, false, true]);
  assert.equal(ledger.takeGap(), false);
});

test("each hand's events are counted apart", () => {
  const ledger = new EventLedger();
  ledger.isNew(nth(3, 0));
  assert.equal(ledger.isNew(nth(4, 0)), true);
  assert.equal(ledger.isNew(nth(4, 0)), false);
  assert.equal(ledger.isNew(nth(5, 0)), true);
});

test("an event after a gap in its hand is not logged, and the gap is told once", () => {
  const ledger = new EventLedger();
  ledger.isNew(nth(3, 0));
  assert.equal(ledger.isNew(nth(3, 2)), false); // event 1 never came
  assert.equal(ledger.takeGap(), true);
  assert.equal(ledger.takeGap(), false);
  // The replay brings them in order.
  assert.deepEqual([0, 1, 2].map((i) => ledger.isNew(nth(3, i))), [false, true, true]);
  assert.equal(ledger.takeGap(), false);
});

test("a dropped connection clears the events waiting for their snapshot, and keeps what was logged", () => {
  const state = new TableState();
  state.event(event(3, { type: "ante", player: 0, amount: 1 }));
  state.events.isNew(nth(3, 0));
  state.reconnect();
  assert.deepEqual(state.pending, []);
  assert.equal(state.events.isNew(nth(3, 0)), false);
});

test("chat shown before a reconnect is not shown again", () => {
  const chat = new ChatLedger();
  assert.equal(chat.isNew({ id: 5 }), true);
  assert.equal(chat.isNew({ id: 5 }), false);
  assert.equal(chat.isNew({ id: 4 }), false);
  assert.equal(chat.isNew({ id: 6 }), true);
  assert.equal(chat.isNew({}), true); // a line without an id is always new
});
