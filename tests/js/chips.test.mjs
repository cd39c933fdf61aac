// The chip controls' pure rules: which form the player gets, and the amount check.
import assert from "node:assert/strict";
import { test } from "node:test";

import { addChipsHelp, chipMode } from "../../static/js/table/chip-controls.js";
import { amountProblem } from "../../static/js/table/seat-controls.js";

const LIMITS = { seatCount: 2, minBuyIn: 100, maxBuyIn: 1000 };

function snap({ you, seats = [], held = [], hand = null, open = true }) {
  return {
    table: { is_open: open, seats, held_seats: held },
    hand_info: hand,
    you,
  };
}

const ME = { player: 7, seat: 1, balance: 5000, auto_rebuy_to: null, waiting_position: null, offer: null };
const seat = (number, stack) => ({ number, stack, player: "p" + number });

test("between hands a stack below the maximum may be topped up to it", () => {
  const mode = chipMode(snap({ you: ME, seats: [seat(1, 400)] }), LIMITS);
  assert.deepEqual(mode, {
    kind: "seated", add: { verb: "top_up", min: 1, max: 600, shut: null }, autoRebuy: null,
  });
  assert.equal(addChipsHelp(mode.add, 1000), "1 to 600 more, between your hands");
});

test("a stack at the maximum has the form shut; a stack of 0 rebuys within the buy-in", () => {
  const most = chipMode(snap({ you: ME, seats: [seat(1, 1000)] }), LIMITS).add;
  assert.deepEqual(most, { verb: "top_up", min: 1, max: 0, shut: "most" });
  assert.equal(addChipsHelp(most, 1000), "Your stack is the table’s most, 1,000.");
  // Above it (a pot won): still nothing to add, and no amount below nothing.
  assert.deepEqual(chipMode(snap({ you: ME, seats: [seat(1, 1400)] }), LIMITS).add.max, 0);
  const rebuy = chipMode(snap({ you: ME, seats: [seat(1, 0)] }), LIMITS).add;
  assert.deepEqual(rebuy, { verb: "rebuy", min: 100, max: 1000, shut: null });
  assert.equal(addChipsHelp(rebuy, 1000), "100 to 1,000");
});

test("during a hand the player is dealt into, the form stays, shut, whatever the stack", () => {
  const hand = { finished: false, seats: [1, 2] };
  const mode = chipMode(snap({ you: { ...ME, auto_rebuy_to: 500 }, seats: [seat(1, 0)], hand }), LIMITS);
  const shut = { verb: "top_up", min: 1, max: null, shut: "hand" };
  assert.deepEqual(mode, { kind: "seated", add: shut, autoRebuy: 500 });
  // A bet changes the stack, not the controls: they aren't drawn again.
  for (const stack of [300, 295, 1000]) {
    assert.deepEqual(chipMode(snap({ you: ME, seats: [seat(1, stack)], hand }), LIMITS).add, shut);
  }
  assert.equal(addChipsHelp(shut, 1000), "Top up between your hands.");
  const other = { finished: false, seats: [2, 3] }; // a hand without us
  assert.equal(chipMode(snap({ you: ME, seats: [seat(1, 0)], hand: other }), LIMITS).add.verb, "rebuy");
  const over = { finished: true, seats: [1, 2] }; // ours, and over
  assert.equal(chipMode(snap({ you: ME, seats: [seat(1, 300)], hand: over }), LIMITS).add.shut, null);
});

test("standing at a full table offers the waiting list; on it, the place; with an offer, the seat", () => {
  const standing = { ...ME, seat: null };
  const full = [seat(1, 100), seat(2, 100)];
  assert.deepEqual(chipMode(snap({ you: standing, seats: full }), LIMITS), { kind: "full", waitingList: true });
  assert.deepEqual(chipMode(snap({ you: standing, seats: [seat(1, 100)], held: [2] }), LIMITS), {
    kind: "full", waitingList: true,
  });
  assert.deepEqual(chipMode(snap({ you: { ...standing, waiting_position: 2 }, seats: full }), LIMITS), {
    kind: "waiting", position: 2,
  });
  const offer = { seat: 2, expires_at: "2026-11-24T10:00:30+00:00" };
  assert.deepEqual(
    chipMode(snap({ you: { ...standing, offer, waiting_position: 1 }, seats: [seat(1, 1)], held: [2] }), LIMITS),
    { kind: "offer", seat: 2, until: offer.expires_at },
  );
});

test("a full home game whose host approves each seat keeps no waiting list", () => {
  const full = [seat(1, 100), seat(2, 100)];
  const friend = snap({ you: { ...ME, seat: null, host: false }, seats: full });
  friend.table.home = { host: "alice", approval: true };
  assert.deepEqual(chipMode(friend, LIMITS), { kind: "full", waitingList: false });
  friend.table.home.approval = false;
  assert.deepEqual(chipMode(friend, LIMITS), { kind: "full", waitingList: true });
});

test("a free seat, a closed table or an anonymous visitor need no chip controls", () => {
  const standing = { ...ME, seat: null };
  assert.deepEqual(chipMode(snap({ you: standing, seats: [seat(1, 100)] }), LIMITS), { kind: "none" });
  assert.deepEqual(chipMode(snap({ you: standing, seats: [], open: false }), LIMITS), { kind: "none" });
  assert.deepEqual(chipMode(snap({ you: null }), LIMITS), { kind: "none" });
});

test("a seat at a closed table is offered no top-up, rebuy or auto-rebuy", () => {
  for (const stack of [0, 400]) {
    assert.deepEqual(chipMode(snap({ you: ME, seats: [seat(1, stack)], open: false }), LIMITS), { kind: "none" });
  }
});

test("an amount must be a whole number of chips within the limits", () => {
  assert.equal(amountProblem("250", 1, 600), "");
  for (const text of ["", "0", "601", "2.5", "-3", "1e2", "ten"]) {
    assert.equal(amountProblem(text, 1, 600), "Enter a whole number of chips from 1 to 600.", text);
  }
  assert.equal(amountProblem("99", 100, 1500), "Enter a whole number of chips from 100 to 1,500.");
});
