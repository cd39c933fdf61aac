// What moves on the felt between one snapshot and the next.
import assert from "node:assert/strict";
import { test } from "node:test";

import { dealMs, movesBetween } from "../../static/js/table/motion.js";

// A hand at seats 3 and 5 (engine players 0 and 1); `players` as the snapshot has them.
function snap(id, players, { phase = "betting", result = null } = {}) {
  return { hand_info: { id, seats: [3, 5] }, hand: { phase, result, players } };
}

// A seat's cards as the view sends them, in dealing order: d("As") a down
// card (d(null) one this viewer can't see), u("2c") an up card.
const d = (card) => ({ card, up: false });
const u = (card) => ({ card, up: true });
const player = (cards, bet = 0) => ({ cards, bet });
const deals = (moves) => moves.filter((m) => m.kind === "deal").map((m) => [m.seat, m.group, m.index]);

test("a new hand deals round the table, two down then one up, card by card", () => {
  const before = snap(1, [player([]), player([])], { phase: "over" });
  const after = snap(2, [player([d("As"), d("Kd"), u("2c")], 1), player([d(null), d(null), u("9h")], 1)]);
  assert.deepEqual(deals(movesBetween(before, after)), [
    [3, "down", 0],
    [5, "down", 0],
    [3, "down", 1],
    [5, "down", 1],
    [3, "up", 0],
    [5, "up", 0],
  ]);
});

test("the next street deals only the new card, after those the seat had", () => {
  const before = snap(1, [player([d("As"), d("Kd"), u("2c")]), player([d(null), d(null), u("9h")])]);
  const after = snap(1, [
    player([d("As"), d("Kd"), u("2c"), u("7s")]),
    player([d(null), d(null), u("9h"), u("Qd")]),
  ]);
  assert.deepEqual(movesBetween(before, after), [
    { kind: "deal", seat: 3, group: "up", index: 1 },
    { kind: "deal", seat: 5, group: "up", index: 1 },
  ]);
});

test("a bet slides out, and when the street ends the bets go to the pot", () => {
  const start = snap(1, [player([u("2c")], 2), player([u("9h")], 0)]);
  const raised = snap(1, [player([u("2c")], 2), player([u("9h")], 5)]);
  assert.deepEqual(movesBetween(start, raised), [{ kind: "bet", seat: 5 }]);
  const next = snap(1, [player([u("2c"), u("3c")], 0), player([u("9h"), u("4h")], 0)]);
  const moves = movesBetween(raised, next).filter((m) => m.kind === "collect");
  assert.deepEqual(moves, [
    { kind: "collect", seat: 3, amount: 2 },
    { kind: "collect", seat: 5, amount: 5 },
  ]);
});

test("the pot goes to the winners when the result comes, and only then", () => {
  const betting = snap(1, [player([u("2c")], 10), player([u("9h")], 10)]);
  const result = { payouts: { 0: 0, 1: 44 } };
  const over = snap(1, [player([u("2c")], 10), player([u("9h")], 10)], { phase: "over", result });
  assert.deepEqual(movesBetween(betting, over), [
    { kind: "collect", seat: 3, amount: 10 },
    { kind: "collect", seat: 5, amount: 10 },
    { kind: "award", seat: 5, amount: 44 },
  ]);
  assert.deepEqual(movesBetween(over, over), []); // the same result again moves nothing
});

test("no hand, or a snapshot with nothing new, moves nothing", () => {
  assert.deepEqual(movesBetween(null, { hand: null, hand_info: null }), []);
  const same = snap(1, [player([d("As"), u("2c")], 2), player([d(null), u("9h")], 2)]);
  assert.deepEqual(movesBetween(same, same), []);
});

test("a card turned face up is not dealt again; a card dealt with it lands after it in the up group", () => {
  // bob's first down card is turned up as alice and bob are each dealt one more up card.
  const before = snap(1, [player([d("As"), d("Kd"), u("2c")]), player([d(null), d(null), u("9h")])]);
  const after = snap(1, [
    player([d("As"), d("Kd"), u("2c"), u("7s")]),
    player([u("Jc"), d(null), u("9h"), u("Qd")]),
  ]);
  // bob's up group is now Jc 9h Qd: the new Qd is its third card.
  assert.deepEqual(deals(movesBetween(before, after)), [
    [3, "up", 1],
    [5, "up", 2],
  ]);
  const turnedOnly = snap(1, [player([d("As"), d("Kd"), u("2c")]), player([u("Jc"), d(null), u("9h")])]);
  assert.deepEqual(movesBetween(before, turnedOnly), []);
});

test("a hand dealt in another order (up, down, up) deals each card into its own group, in dealing order", () => {
  const before = snap(1, [player([]), player([])], { phase: "over" });
  const after = snap(2, [player([u("2c"), d("As"), u("7s")]), player([u("9h"), d(null), u("Qd")])]);
  assert.deepEqual(deals(movesBetween(before, after)), [
    [3, "up", 0],
    [5, "up", 0],
    [3, "down", 0],
    [5, "down", 0],
    [3, "up", 1],
    [5, "up", 1],
  ]);
});

test("seats dealt different numbers of cards are dealt round the table while each has one coming", () => {
  const before = snap(1, [player([d("As"), d("Kd"), u("2c")]), player([d(null), d(null), u("9h")])]);
  const after = snap(1, [
    player([d("As"), d("Kd"), u("2c"), u("7s"), d("3h")]),
    player([d(null), d(null), u("9h"), u("Qd")]),
  ]);
  assert.deepEqual(deals(movesBetween(before, after)), [
    [3, "up", 1],
    [5, "up", 1],
    [3, "down", 2],
  ]);
});

test("the deal lasts until its last card lands; chips alone hold nothing up", () => {
  const before = snap(1, [player([u("2c")], 2), player([u("9h")], 5)]);
  const after = snap(1, [player([u("2c"), u("3c")], 0), player([u("9h"), u("4h")], 0)]);
  // Two cards, the second 45 ms after the first, each 320 ms in the air.
  assert.equal(dealMs(movesBetween(before, after)), 45 + 320);
  const raised = snap(1, [player([u("2c")], 2), player([u("9h")], 10)]);
  assert.equal(dealMs(movesBetween(before, raised)), 0);
});
