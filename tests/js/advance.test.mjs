// Advance actions: what is offered, when a choice is dropped, and the move it makes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { advanceChoices, facingOf, keep, moveFor, myTurn, situation } from "../../static/js/table/advance.js";

function snap({ bet = 0, currentBet = 0, street = "4th street", legal = [], phase = "betting", id = 17 } = {}) {
  return {
    hand_info: { id },
    hand: {
      phase,
      street,
      viewer: 1,
      current_bet: currentBet,
      legal_actions: legal,
      players: [{ bet: currentBet }, { bet, folded: false, all_in: false }],
    },
  };
}

const choose = (kind, facing, amount = null) => ({ kind, amount, facing });

test("while another player acts, the viewer gets check or call, check/fold, call any and fold to any", () => {
  assert.deepEqual(advanceChoices(situation(snap())).map((c) => c.label), [
    "Check/Fold", "Check", "Call any", "Fold to any bet",
  ]);
  assert.deepEqual(advanceChoices(situation(snap({ currentBet: 1500, bet: 500 }))).map((c) => c.label), [
    "Check/Fold", "Call 1,000", "Call any", "Fold to any bet",
  ]);
});

test("no advance actions on your turn, after folding, all in, or outside the betting", () => {
  assert.equal(situation(snap({ legal: [{ kind: "check" }] })), null);
  assert.equal(myTurn(snap({ legal: [{ kind: "check" }] })), true);
  const folded = snap();
  folded.hand.players[1].folded = true;
  assert.equal(situation(folded), null);
  const allIn = snap();
  allIn.hand.players[1].all_in = true;
  assert.equal(situation(allIn), null);
  assert.equal(situation(snap({ phase: "over" })), null);
  const observer = snap();
  observer.hand.viewer = null;
  assert.deepEqual(advanceChoices(situation(observer)), []);
});

test("a raise drops 'call 10' and a bet drops 'check'; check/fold and call any stay", () => {
  const before = facingOf(snap({ currentBet: 10 }));
  const raised = facingOf(snap({ currentBet: 20 }));
  assert.equal(keep(choose("call", before, 10), raised), null);
  assert.notEqual(keep(choose("call", before, 10), before), null);
  const quiet = facingOf(snap());
  const bet = facingOf(snap({ currentBet: 10 }));
  assert.equal(keep(choose("check", quiet), bet), null);
  assert.notEqual(keep(choose("check_fold", quiet), bet), null);
  assert.notEqual(keep(choose("call_any", quiet), raised), null);
});

test("a new street or a new hand drops every choice but fold to any bet, which lasts the hand", () => {
  const fourth = facingOf(snap());
  const fifth = facingOf(snap({ street: "5th street" }));
  for (const kind of ["check_fold", "check", "call_any"]) assert.equal(keep(choose(kind, fourth), fifth), null, kind);
  assert.notEqual(keep(choose("fold_any", fourth), fifth), null);
  assert.equal(keep(choose("fold_any", fourth), facingOf(snap({ id: 18 }))), null);
  assert.equal(keep(choose("check", fourth), null), null);
});

test("the move made on the turn: check/fold folds to a bet, call any calls it, call N only N", () => {
  const facingBet = [{ kind: "fold" }, { kind: "call", min: 10 }, { kind: "raise", amounts: [20] }];
  const free = [{ kind: "check" }, { kind: "bet", amounts: [10] }];
  assert.equal(moveFor({ kind: "check_fold" }, facingBet), "fold");
  assert.equal(moveFor({ kind: "check_fold" }, free), "check");
  assert.equal(moveFor({ kind: "fold_any" }, facingBet), "fold");
  assert.equal(moveFor({ kind: "call_any" }, facingBet), "call");
  assert.equal(moveFor({ kind: "call_any" }, free), "check");
  assert.equal(moveFor({ kind: "call", amount: 10 }, facingBet), "call");
  assert.equal(moveFor({ kind: "call", amount: 5 }, facingBet), null);
  assert.equal(moveFor({ kind: "check" }, facingBet), null);
});

test("a forced bring-in is never made for the player", () => {
  const bringIn = [{ kind: "bring_in", min: 2 }, { kind: "complete", amounts: [5] }];
  for (const kind of ["check_fold", "fold_any", "call_any"]) assert.equal(moveFor({ kind }, bringIn), null, kind);
});
