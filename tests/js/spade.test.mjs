// Chicago: the spade in the hole that won half the pot, marked at the showdown
// on the felt (felt.js's studCards, through seatBox) and in the last hand's
// row (cardRow, from state.js's summary), where the card is drawn face up.
import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDocument } from "./fake_dom.mjs";
import { cardRow, seatBox } from "../../static/js/shared/felt.js";
import { winningSpade } from "../../static/js/shared/format.js";
import { summarize } from "../../static/js/table/state.js";

installFakeDocument();

// High Chicago, as the engine's result has it: alice's K♠ in the hole won the
// spade half, bob's nines the best-hand half; bob's 4♠ won nothing.
const RESULT = {
  uncontested: false,
  rake: 0,
  payouts: [4, 5],
  spade: "high",
  pots: [{ amount: 9, high_winners: [1], low_winners: [], spade_winners: [0], shares: [[0, 4], [1, 5]] }],
  hands: {
    0: { cards: ["Ks", "Jd", "7c", "Jh", "5d", "3c", "8h"], high: "pair of jacks", spade: "Ks" },
    1: { cards: ["9c", "4s", "9d", "9h", "Qc", "Ah", "6c"], high: "three of a kind, nines" },
  },
};

// The cards of a drawn group or row that are marked, each with its label.
function marked(node) {
  const cards = node.children.flatMap((child) => (child.dataset.card ? [child] : child.children));
  const spades = cards.filter((c) => c.classList.contains("card-spade"));
  return spades.map((c) => [c.dataset.card, c.attributes["aria-label"]]);
}

test("the result's winning spade is the card and the half it won", () => {
  assert.deepEqual(winningSpade(RESULT, 0), { card: "Ks", half: "high" });
  assert.equal(winningSpade(RESULT, 1), null); // bob's 4♠ took no half
  assert.equal(winningSpade(null, 0), null); // before the result
  assert.equal(winningSpade({ ...RESULT, spade: undefined, hands: {} }, 0), null); // not Chicago
});

test("the felt marks the winning spade among its seat's cards, and no other", () => {
  const cards = [
    { card: "Ks", up: false },
    { card: "Jd", up: false },
    { card: "7c", up: true },
  ];
  const seat = { number: 1, name: "alice", stack: 4, tags: [], player: { cards }, spade: winningSpade(RESULT, 0) };
  const [drawn] = seatBox(seat).children;
  assert.deepEqual(marked(drawn), [["Ks", "K♠, high spade"]]);
  // Bob's seat, whose 4♠ lost: nothing marked.
  const bob = { number: 2, name: "bob", stack: 5, tags: [], player: { cards: [{ card: "4s", up: false }] } };
  assert.deepEqual(marked(seatBox(bob).children[0]), []);
});

test("a card this viewer can't see is never marked, even if named", () => {
  const seat = {
    number: 1,
    name: "alice",
    stack: 4,
    tags: [],
    player: { cards: [{ card: null, up: false }] },
    spade: { card: "Ks", half: "high" },
  };
  const [drawn] = seatBox(seat).children;
  assert.deepEqual(marked(drawn), []);
});

test("the last hand's row marks the winner's spade, a low one as low", () => {
  const snap = {
    table: { seats: [{ number: 1, player: "alice" }, { number: 4, player: "bob" }] },
    hand_info: { id: 3, number: 3, seats: [1, 4] },
    hand: { viewer: null, result: RESULT, phase: "over" },
  };
  const [alice, bob] = summarize(snap, [], false).rows;
  assert.deepEqual(alice.spade, { card: "Ks", half: "high" });
  assert.equal(bob.spade, undefined);
  assert.deepEqual(marked(cardRow(alice.cards, "cards", alice.wild, alice.spade)), [["Ks", "K♠, high spade"]]);
  assert.deepEqual(marked(cardRow(bob.cards, "cards", bob.wild, bob.spade)), []);
  const low = { ...RESULT, spade: "low", hands: { 1: { ...RESULT.hands[1], spade: "4s" } } };
  assert.deepEqual(marked(cardRow(low.hands[1].cards, "cards", [], winningSpade(low, 1))), [["4s", "4♠, low spade"]]);
});
