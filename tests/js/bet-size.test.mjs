// The bet-size control (static/js/table/bet-size.js): the presets for an
// open-sized wager at each structure, the check on a typed amount, and what
// the control holds. Node has no DOM: the few element methods the control
// uses are faked (fake_dom.mjs, and ControlElement below).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  betPresets,
  betSizeControl,
  checkAmount,
  clamp,
  isOpenSized,
  parseAmount,
  potSize,
  potTotals,
} from "../../static/js/table/bet-size.js";
import { FakeElement, installFakeDocument } from "./fake_dom.mjs";

// A street of the given structure, seen by alice (player 0), who is to act:
// 35 collected from earlier streets; alice bet 20, bob raised to 60 and carol
// called. alice has 500 behind her 20.
function hand({ stack = 500, structure = "pot" } = {}) {
  return {
    structure,
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
const labels = (presets) => presets.map((p) => p.label);

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

test("no limit adds all in, the whole stack, to the pot-sized presets", () => {
  // alice may raise to 20 + 500 = 520, every chip she has.
  assert.deepEqual(betPresets(hand({ structure: "no" }), raise(100, 520)), [
    { name: "half", label: "½ pot", amount: 167 },
    { name: "pot", label: "Pot", amount: 275 },
    { name: "all-in", label: "All in", amount: 520 },
  ]);
});

test("pot limit offers no all in while the pot is short of the stack", () => {
  assert.deepEqual(labels(betPresets(hand(), raise(100, 275))), ["½ pot", "Pot"]);
});

test("a pot bigger than the stack is the all-in, shown once", () => {
  // alice has 200 behind: all in is a raise to 220, short of the pot's 275.
  for (const structure of ["pot", "no"]) {
    assert.deepEqual(betPresets(hand({ stack: 200, structure }), raise(100, 220)), [
      { name: "half", label: "½ pot", amount: 167 },
      { name: "all-in", label: "All in", amount: 220 },
    ]);
  }
});

test("spread limit offers its least and its most, never a pot", () => {
  // A spread of 10 to 40: the least raise is to 70, the most to 100. The
  // pot (275) lies far above, and "Pot" alone would be the most under another name.
  assert.deepEqual(betPresets(hand({ structure: "spread" }), raise(70, 100)), [
    { name: "min", label: "Min", amount: 70 },
    { name: "max", label: "Max", amount: 100 },
  ]);
  // Early in a hand the pot can be the least bet: still the least and the most.
  const early = { structure: "spread", viewer: 0, current_bet: 0, pots: [{ amount: 5 }], players: [{ bet: 0, stack: 300 }] };
  assert.equal(potTotals(early).pot, 5);
  assert.deepEqual(labels(betPresets(early, { kind: "bet", min: 5, max: 20, amounts: null })), ["Min", "Max"]);
});

test("spread limit's most is all in when the stack is short of it", () => {
  // alice has 70 behind: the most she may make it is 20 + 70 = 90.
  assert.deepEqual(betPresets(hand({ stack: 70, structure: "spread" }), raise(80, 90)), [
    { name: "min", label: "Min", amount: 80 },
    { name: "all-in", label: "All in", amount: 90 },
  ]);
});

test("presets are brought into the bounds, and one amount is offered once", () => {
  // Half the pot and the pot both lie above 140, so both come down to it,
  // and show once as "Pot".
  assert.deepEqual(betPresets(hand(), raise(100, 140)), [{ name: "pot", label: "Pot", amount: 140 }]);
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
  for (const structure of ["spread", "pot", "no"]) {
    assert.deepEqual(betPresets(hand({ stack: 70, structure }), raise(90, 90)), [
      { name: "all-in", label: "All in", amount: 90 },
    ]);
  }
});

test("a first bet with nothing to call is sized on the pot alone", () => {
  const quiet = {
    structure: "pot",
    viewer: 1,
    current_bet: 0,
    pots: [{ amount: 45 }],
    players: [{ bet: 0 }, { bet: 0, stack: 300 }],
  };
  // pot = 45, nothing to call: Pot = 0 + 45, ½ pot = 0 + floor(45 / 2) = 22.
  assert.deepEqual(betPresets(quiet, { kind: "bet", min: 10, max: 45, amounts: null }), [
    { name: "half", label: "½ pot", amount: 22 },
    { name: "pot", label: "Pot", amount: 45 },
  ]);
});

test("a structure without open sizes has no presets", () => {
  assert.deepEqual(betPresets(hand({ structure: "fixed" }), raise(100, 275)), []);
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

// An element with the rest of what the control calls on one.
class ControlElement extends FakeElement {
  constructor(tag) {
    super(tag);
    this.listeners = {};
  }

  append(...nodes) {
    nodes.forEach((node) => this.appendChild(node));
  }

  prepend(...nodes) {
    this.children.unshift(...nodes);
  }

  addEventListener(type, listener) {
    (this.listeners[type] ||= []).push(listener);
  }

  click() {
    (this.listeners.click || []).forEach((listener) => listener());
  }
}

installFakeDocument();
document.createElement = (tag) => new ControlElement(tag);

// The control drawn for `option` at alice's turn, and the amounts it sends.
function control(option, structure) {
  const sent = [];
  const box = betSizeControl({
    hand: hand({ stack: 70, structure }),
    option,
    kind: option.kind,
    verb: "Raise to",
    key: "R",
    send: (amount) => sent.push(amount),
  });
  return { box, sent };
}

// The elements under `node` with class `name`, in document order.
function within(node, name) {
  const found = [];
  const visit = (child) => {
    if (child.classList && child.classList.contains(name)) found.push(child);
    (child.children || []).forEach(visit);
  };
  node.children.forEach(visit);
  return found;
}

test("a range of amounts gets the structure's presets, a slider and a field", () => {
  const { box } = control(raise(70, 90), "spread");
  assert.deepEqual(
    within(box, "bet-preset").map((b) => b.textContent),
    ["Min", "All in"],
  );
  assert.equal(within(box, "bet-slider").length, 1);
  assert.equal(within(box, "bet-amount").length, 1);
  assert.equal(within(box, "action-label")[0].textContent, "Raise to 70");
  assert.ok(!box.classList.contains("bet-size-one"), box.className);
});

test("one amount allowed: no presets, slider or field, only the button with that amount", () => {
  for (const structure of ["spread", "pot", "no"]) {
    const { box, sent } = control(raise(90, 90), structure);
    for (const part of ["bet-presets", "bet-slider", "bet-amount"]) assert.deepEqual(within(box, part), [], part);
    assert.ok(box.classList.contains("bet-size-one"), box.className);
    const [wager] = within(box, "bet-wager");
    assert.equal(within(wager, "action-label")[0].textContent, "Raise to 90");
    wager.click();
    assert.deepEqual(sent, [90]);
  }
});
