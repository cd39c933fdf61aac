// The table page's pure helpers: the move buttons, the clock, the socket's
// gap rule and waits, the buy-in check, and the centre's words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { actMessage, actionChoices } from "../../static/js/table/actions.js";
import { moveFor } from "../../static/js/table/advance.js";
import { TICK_MS, barTo, clockAt, clockPlan } from "../../static/js/table/clock.js";
import { OUT_OF_CHIPS, centreWords, seatTags } from "../../static/js/table/render.js";
import { amountProblem, stoodUp } from "../../static/js/table/seat-controls.js";
import { LONGEST_WAIT_MS, messagesOf, missedOne, nextWait } from "../../static/js/table/socket.js";

test("a call and a bring-in are labelled with their cost, a bet with its amount", () => {
  const choices = actionChoices([
    { kind: "fold" },
    { kind: "call", min: 1500 },
    { kind: "raise", amounts: [3000] },
  ]);
  assert.deepEqual(choices, [
    { kind: "fold", amount: null, label: "Fold", key: "F" },
    { kind: "call", amount: null, label: "Call 1,500", key: "C" },
    { kind: "raise", amount: 3000, label: "Raise to 3,000", key: "R" },
  ]);
  assert.equal(actionChoices([{ kind: "bring_in", min: 2 }])[0].label, "Bring in 2");
});

test("a kind with several amounts has a button for each; the first takes the key", () => {
  const choices = actionChoices([{ kind: "bet", amounts: [10, 20] }]);
  assert.deepEqual(
    choices.map((c) => [c.label, c.key]),
    [
      ["Bet 10", "B"],
      ["Bet 20", null],
    ],
  );
});

test("a wager open to any amount is one choice with its bounds, keyed, for the bet-size control", () => {
  const choices = actionChoices([
    { kind: "fold", min: null, max: null, amounts: null },
    { kind: "call", min: 40, max: 40, amounts: null },
    { kind: "raise", min: 100, max: 1250, amounts: null },
  ]);
  assert.deepEqual(choices, [
    { kind: "fold", amount: null, label: "Fold", key: "F" },
    { kind: "call", amount: null, label: "Call 40", key: "C" },
    { kind: "raise", amount: null, label: "Raise to", key: "R", range: { min: 100, max: 1250 } },
  ]);
  const complete = actionChoices([{ kind: "complete", min: 5, max: 5, amounts: null }])[0];
  assert.deepEqual([complete.label, complete.key, complete.range], ["Complete to", "B", { min: 5, max: 5 }]);
});

test("the amount chosen on the bet-size control goes in the act message", () => {
  const snap = { hand: { turn: 3 }, hand_info: { id: 8 } };
  assert.deepEqual(actMessage(snap, { kind: "raise", amount: 1250 }), {
    type: "act",
    action: "raise",
    turn: 3,
    hand: 8,
    amount: 1250,
  });
});

test("advance actions play the same against an open-sized raise", () => {
  const legal = [
    { kind: "fold", min: null, max: null, amounts: null },
    { kind: "call", min: 40, max: 40, amounts: null },
    { kind: "raise", min: 100, max: 1250, amounts: null },
  ];
  assert.equal(moveFor({ kind: "call", amount: 40 }, legal), "call");
  assert.equal(moveFor({ kind: "call_any" }, legal), "call");
  assert.equal(moveFor({ kind: "check_fold" }, legal), "fold");
});

test("a move is sent with its hand and turn, and an amount only when it has one", () => {
  const snap = { hand: { turn: 9 }, hand_info: { id: 4 } };
  assert.deepEqual(actMessage(snap, { kind: "check", amount: null }), {
    type: "act",
    action: "check",
    turn: 9,
    hand: 4,
  });
  assert.equal(actMessage(snap, { kind: "bet", amount: 10 }).amount, 10);
});

const TIMER = {
  seat: 2,
  deadline: "2026-01-01T00:00:10Z",
  expires_at: "2026-01-01T00:00:40Z",
  clock: "countdown",
};
const at = (seconds) => Date.parse("2026-01-01T00:00:00Z") + seconds * 1000;

test("the action time runs down first", () => {
  const now = clockAt(clockPlan(TIMER), at(4), 10000, "Your");
  assert.deepEqual(now, { left: 6000, share: 0.6, extra: false, text: "Your time: 6s" });
});

test("then the countdown, in the bar's other colour", () => {
  const now = clockAt(clockPlan(TIMER), at(25), 10000, "alice’s");
  assert.deepEqual(now, { left: 15000, share: 0.5, extra: true, text: "alice’s countdown: 15s" });
});

test("a time bank is named so, and measured against the bank", () => {
  const plan = clockPlan({ ...TIMER, clock: "time_bank", time_bank_ms: 60000 });
  assert.equal(clockAt(plan, at(25), 10000, "Your").text, "Your time bank: 15s");
  assert.equal(clockAt(plan, at(25), 10000, "Your").share, 0.25);
});

test("the clock stops at nothing left", () => {
  const now = clockAt(clockPlan(TIMER), at(50), 10000, "Your");
  assert.equal(now.left, 0);
  assert.equal(now.share, 0);
});

test("a timer without a deadline is not shown", () => {
  assert.equal(clockPlan(null), null);
  assert.equal(clockPlan({ seat: 2, deadline: "soon" }), null);
});

// A bar as render.js draws it, and where barTo leaves it at `seconds`.
const bar = () => ({ dataset: {}, style: {} });
const barAt = (b, seconds) => {
  const plan = clockPlan(TIMER);
  const ms = at(seconds);
  barTo(b, clockAt(plan, ms, 10000, "Your"), clockAt(plan, ms + TICK_MS, 10000, "Your"));
  return [b.style.transform, b.style.transition];
};

test("a bar glides down to where the next update puts it, after being set where it is", () => {
  const b = bar();
  assert.deepEqual(barAt(b, 4), ["scaleX(0.6)", "none"]); // just drawn: no glide from full
  assert.deepEqual(barAt(b, 4.25), ["scaleX(0.55)", `transform ${TICK_MS}ms linear`]);
});

test("a bar never glides up: a new turn's, or the extra time's, is set full at once", () => {
  const b = bar();
  barAt(b, 8);
  barAt(b, 8.25);
  assert.deepEqual(barAt(b, 1), ["scaleX(0.9)", "none"]); // a new turn began
  barAt(b, 9.5);
  assert.deepEqual(barAt(b, 9.8), ["scaleX(0.02)", "none"]); // the extra time is next
  assert.deepEqual(barAt(b, 10), ["scaleX(1)", "none"]); // and here, full
  assert.deepEqual(barAt(b, 10.25), [`scaleX(${29.5 / 30})`, `transform ${TICK_MS}ms linear`]);
});

test("a message out of sequence calls for a snapshot, unless it is one", () => {
  assert.equal(missedOne(3, { seq: 4, type: "event" }), false);
  assert.equal(missedOne(3, { seq: 5, type: "event" }), true);
  assert.equal(missedOne(3, { seq: 5, type: "snapshot" }), false);
});

test("a frame holds one message, or one change's messages in order", () => {
  const snapshot = { seq: 7, type: "snapshot" };
  assert.deepEqual(messagesOf(snapshot), [snapshot]);
  const change = [{ seq: 5, type: "event" }, { seq: 6, type: "event" }, snapshot];
  assert.deepEqual(messagesOf(change), change);
});

test("the wait before reconnecting doubles, up to a limit", () => {
  assert.equal(nextWait(500), 1000);
  assert.equal(nextWait(LONGEST_WAIT_MS), LONGEST_WAIT_MS);
  assert.equal(nextWait(12000), LONGEST_WAIT_MS);
});

test("a buy-in is a whole number within the table's limits", () => {
  assert.equal(amountProblem("500", 100, 1000), "");
  for (const text of ["99", "1001", "1e3", "12.5", ""]) {
    assert.equal(amountProblem(text, 100, 1000), "Enter a whole number of chips from 100 to 1,000.", text);
  }
});

test("the centre names the hand and street, and whose turn it is", () => {
  const snap = {
    table: { waiting: null, seats: [{ number: 3, player: "bob" }] },
    hand_info: { number: 12, seats: [1, 3] },
    hand: { street: "4th street", phase: "betting", to_act: 1 },
  };
  assert.deepEqual(centreWords(snap, 1), { heading: "Hand #12 · 4th street", turn: "bob to act", wilds: "" });
  assert.equal(centreWords(snap, 3).turn, "Your turn");
  snap.hand.wilds = "queens and nines";
  assert.equal(centreWords(snap, 1).wilds, "Wild: queens and nines");
});

test("a finished hand's stage is its showdown, or over when uncontested", () => {
  const hand = { phase: "over", to_act: null, result: { uncontested: false } };
  const snap = { table: { waiting: null, seats: [] }, hand_info: { number: 2, seats: [] }, hand };
  assert.equal(centreWords(snap, null).heading, "Hand #2 · showdown");
  hand.result.uncontested = true;
  assert.equal(centreWords(snap, null).heading, "Hand #2 · over");
});

test("a table waiting for players, paused or closed says so, and not what its last hand had wild", () => {
  const hand = { street: "7th street", phase: "over", to_act: null, result: {}, wilds: "queens and nines" };
  const snap = { table: { waiting: "players", seats: [] }, hand_info: { number: 3, seats: [] }, hand };
  assert.equal(centreWords(snap, null).heading, "Waiting for players");
  assert.equal(centreWords(snap, null).wilds, "");
  snap.table.waiting = "paused";
  assert.deepEqual(centreWords(snap, null), {
    heading: "Paused by the host",
    turn: "No new hand starts until the host resumes the game.",
    wilds: "",
  });
  snap.table.waiting = "closed";
  assert.deepEqual(centreWords(snap, null), { heading: "The table is closed", turn: "No new hands start here.", wilds: "" });
  snap.table.waiting = null; // the hand over, the next not yet dealt
  assert.deepEqual(centreWords(snap, null), { heading: "Hand #3 · showdown", turn: "", wilds: "Wild: queens and nines" });
});

test("a busted seat says it is out of chips, not that it plays the next hand", () => {
  const running = { finished: false, dealer: 3 };
  const seat = (stack) => ({ number: 2, state: "playing", stack, leaving: false });
  assert.deepEqual(seatTags(seat(0), null, running, null, false, null), [OUT_OF_CHIPS]);
  assert.deepEqual(seatTags(seat(0), null, null, null, false, null), [OUT_OF_CHIPS]);
  // Sat down during the hand with chips: dealt in from the next one.
  assert.deepEqual(seatTags(seat(500), null, running, null, false, null), ["next hand"]);
  const sittingOut = { ...seat(0), state: "sitting_out" };
  assert.deepEqual(seatTags(sittingOut, null, running, null, false, null), ["sitting out"]);
});

test("a seat gone unasked at an open table was stood up; one the viewer left was not", () => {
  const snap = (seat, { open = true, leaving = false } = {}) => ({
    you: { seat },
    table: { is_open: open, seats: seat ? [{ number: seat, leaving }] : [] },
  });
  assert.equal(stoodUp(snap(3), snap(null), false), true);
  assert.equal(stoodUp(snap(3), snap(null), true), false); // Leave table, clicked
  assert.equal(stoodUp(snap(3, { leaving: true }), snap(null), false), false); // after this hand
  assert.equal(stoodUp(snap(3), snap(null, { open: false }), false), false); // the table closed
  assert.equal(stoodUp(snap(3), snap(3), false), false);
  assert.equal(stoodUp(snap(null), snap(null), false), false);
  assert.equal(stoodUp({ you: null, table: { is_open: true, seats: [] } }, snap(null), false), false);
});
