// The bet-size control's arithmetic (static/js/table/bet-size.js): the
// presets for an open-sized wager, and the check on a typed amount.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  betPresets,
  checkAmount,
  clamp,
  isOpenSized,
  parseAmount,
  potSize,
  potTotals,
} from "../../static/js/table/bet-size.js";

// A pot-limit street, seen by alice (player 0), who is to act: 35 collected
// from earlier streets; alice bet 20, bob raised to 60 and carol called.
// alice has 500 behind her 20.
function hand({ stack = 500 } = {}) {
  return {
    viewer: 0,
    current_bet: 60,
    pots: [{ amount: 35, eligible: [0, 1, 2] }],
    players: [
      { player: 0, bet: 20, stack },
      { player: 1, bet: 60, stack: 900 },
      { player: 2, bet: 60, stack: 900 },
    ],
  };
}

const raise = (min, max) => ({ kind: "raise", min, max, amounts: null });

test("the pot counts the chips collected and every bet on this street", () => {
  assert.equal(potSize(hand()), 35 + 20 + 60 + 60);
});

test("a pot-limit raise's presets: half the pot and the pot, after calling", () => {
  // pot = 35 collected + 20 + 60 + 60 bet = 175; to call, alice puts in
  // 60 - 20 = 40, leaving 175 + 40 = 215 in the middle.
  // Pot:   60 (the bet to match) + 215 = 275.
  // ½ pot: 60 + floor(215 / 2) = 60 + 107 = 167.
  // The least raise is to 100 (60 plus bob's raise of 40); pot limit caps it at 275.
  assert.deepEqual(potTotals(hand()), { half: 167, pot: 275 });
  assert.deepEqual(betPresets(hand(), raise(100, 275)), [
    { name: "half", label: "½ pot", amount: 167 },
    { name: "pot", label: "Pot", amount: 275 },
  ]);
});

test("all in is offered when the whole stack may go in", () => {
  // No limit: alice may raise to 20 + 500 = 520, every chip she has.
  assert.deepEqual(betPresets(hand(), raise(100, 520)), [
    { name: "half", label: "½ pot", amount: 167 },
    { name: "pot", label: "Pot", amount: 275 },
    { name: "all-in", label: "All in", amount: 520 },
  ]);
});

test("all in is not offered when the cap falls short of the stack", () => {
  const labels = betPresets(hand(), raise(100, 275)).map((p) => p.label);
  assert.ok(!labels.includes("All in"), labels.join(", "));
});

test("a pot bigger than the stack is the all-in, shown once", () => {
  // alice has 200 behind: all in is a raise to 220, short of the pot's 275.
  assert.deepEqual(betPresets(hand({ stack: 200 }), raise(100, 220)), [
    { name: "half", label: "½ pot", amount: 167 },
    { name: "all-in", label: "All in", amount: 220 },
  ]);
});

test("presets are brought into the bounds, and one amount is offered once", () => {
  // Spread limit, 10 to 40 a street: half the pot and the pot both lie
  // above 40, so both come down to it, and show once as "Pot".
  assert.deepEqual(betPresets(hand(), raise(10, 40)), [{ name: "pot", label: "Pot", amount: 40 }]);
  // The least raise lies above half the pot: "½ pot" makes the least raise.
  assert.deepEqual(
    betPresets(hand(), raise(200, 275)).map((p) => p.amount),
    [200, 275],
  );
  assert.equal(clamp(5, { min: 10, max: 40 }), 10);
  assert.equal(clamp(50, { min: 10, max: 40 }), 40);
  assert.equal(clamp(25, { min: 10, max: 40 }), 25);
});

test("all in for less than a full raise: one amount, the all-in", () => {
  // alice has 70 behind: 20 + 70 = 90, short of the least full raise to 100.
  assert.deepEqual(betPresets(hand({ stack: 70 }), raise(90, 90)), [
    { name: "all-in", label: "All in", amount: 90 },
  ]);
});

test("a first bet with nothing to call is sized on the pot alone", () => {
  const quiet = { viewer: 1, current_bet: 0, pots: [{ amount: 45 }], players: [{ bet: 0 }, { bet: 0, stack: 300 }] };
  // pot = 45, nothing to call: Pot = 0 + 45, ½ pot = 0 + floor(45 / 2) = 22.
  assert.deepEqual(betPresets(quiet, { kind: "bet", min: 10, max: 45, amounts: null }), [
    { name: "half", label: "½ pot", amount: 22 },
    { name: "pot", label: "Pot", amount: 45 },
  ]);
});

test("only a bet, raise or completion without a list of amounts is open-sized", () => {
  assert.equal(isOpenSized(raise(100, 275)), true);
  assert.equal(isOpenSized({ kind: "complete", min: 5, max: 5, amounts: null }), true);
  assert.equal(isOpenSized({ kind: "raise", min: 20, max: 20, amounts: [20] }), false);
  assert.equal(isOpenSized({ kind: "call", min: 40, max: 40, amounts: null }), false);
  assert.equal(isOpenSized({ kind: "fold", min: null, max: null, amounts: null }), false);
});

test("a typed amount is a whole number of chips, commas allowed", () => {
  assert.equal(parseAmount("1250"), 1250);
  assert.equal(parseAmount(" 1,250 "), 1250);
  for (const text of ["", "12.5", "1e3", "-5", "1,25", "12,50", "ten"]) assert.equal(parseAmount(text), null, text);
});

test("checkAmount says why an amount can't be sent, and nothing when it can", () => {
  const option = raise(100, 1250);
  assert.equal(checkAmount("100", option), "");
  assert.equal(checkAmount("1,250", option), "");
  assert.equal(checkAmount("99", option), "The least you may make it is 100.");
  assert.equal(checkAmount("1251", option), "The most you may make it is 1,250.");
  for (const text of ["", "12.5", "abc", "-100"]) {
    assert.equal(checkAmount(text, option), "Enter a whole number of chips from 100 to 1,250.", text);
  }
});

test("with one amount allowed, checkAmount asks for that one", () => {
  const option = raise(90, 90);
  assert.equal(checkAmount("90", option), "");
  for (const text of ["89", "91", ""]) assert.equal(checkAmount(text, option), "Enter 90: the only amount allowed.", text);
});
