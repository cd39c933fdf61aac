// What moves on the felt between one snapshot and the next.
import assert from "node:assert/strict";
import { test } from "node:test";

import { movesBetween } from "../../static/js/table/motion.js";

// A hand at seats 3 and 5 (engine players 0 and 1); `players` as the snapshot has them.
function snap(id, players, { phase = "betting", result = null } = {}) {
  return { hand_info: { id, seats: [3, 5] }, hand: { phase, result, players } };
}

const player = (down, up, bet = 0) => ({ down, up, bet });

test("a new hand deals round the table, two down then one up, card by card", () => {
  const before = snap(1, [player([], []), player([], [])], { phase: "over" });
  const after = snap(2, [player(["As", "Kd"], ["2c"], 1), player([null, null], ["9h"], 1)]);
  const deals = movesBetween(before, after).filter((m) => m.kind === "deal");
  assert.deepEqual(
    deals.map((m) => [m.seat, m.group, m.index]),
    [[3, "down", 0], [5, "down", 0], [3, "down", 1], [5, "down", 1], [3, "up", 0], [5, "up", 0]],
  );
});

test("the next street deals only the new card, after those the seat had", () => {
  const before = snap(1, [player(["As", "Kd"], ["2c"]), player([null, null], ["9h"])]);
  const after = snap(1, [player(["As", "Kd"], ["2c", "7s"]), player([null, null], ["9h", "Qd"])]);
  assert.deepEqual(movesBetween(before, after), [
    { kind: "deal", seat: 3, group: "up", index: 1 },
    { kind: "deal", seat: 5, group: "up", index: 1 },
  ]);
});

test("a bet slides out, and when the street ends the bets go to the pot", () => {
  const start = snap(1, [player([], ["2c"], 2), player([], ["9h"], 0)]);
  const raised = snap(1, [player([], ["2c"], 2), player([], ["9h"], 5)]);
  assert.deepEqual(movesBetween(start, raised), [{ kind: "bet", seat: 5 }]);
  const next = snap(1, [player([], ["2c", "3c"], 0), player([], ["9h", "4h"], 0)]);
  const moves = movesBetween(raised, next).filter((m) => m.kind === "collect");
  assert.deepEqual(moves, [
    { kind: "collect", seat: 3, amount: 2 },
    { kind: "collect", seat: 5, amount: 5 },
  ]);
});

test("the pot goes to the winners when the result comes, and only then", () => {
  const betting = snap(1, [player([], ["2c"], 10), player([], ["9h"], 10)]);
  const result = { payouts: { 0: 0, 1: 44 } };
  const over = snap(1, [player([], ["2c"], 10), player([], ["9h"], 10)], { phase: "over", result });
  assert.deepEqual(movesBetween(betting, over), [
    { kind: "collect", seat: 3, amount: 10 },
    { kind: "collect", seat: 5, amount: 10 },
    { kind: "award", seat: 5, amount: 44 },
  ]);
  assert.deepEqual(movesBetween(over, over), []); // the same result again moves nothing
});

test("no hand, or a snapshot with nothing new, moves nothing", () => {
  assert.deepEqual(movesBetween(null, { hand: null, hand_info: null }), []);
  const same = snap(1, [player(["As"], ["2c"], 2), player([null], ["9h"], 2)]);
  assert.deepEqual(movesBetween(same, same), []);
});
