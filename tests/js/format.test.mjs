// The words and numbers shared by the table and the replayer (static/js/shared/format.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  cardFace,
  chips,
  halfWon,
  handTags,
  handWords,
  potName,
  potTitle,
  potsInPlay,
  sentence,
  winnings,
  winsByPlayer,
  wildsText,
  wordsOf,
} from "../../static/js/shared/format.js";

// A hi-lo showdown: alice's hand is named both ways, bob's only high, and one
// pot split between alice's low and bob's high.
const HI_LO = {
  uncontested: false,
  hands: {
    0: { high: "pair of twos", low: "8-6-4-2-A low", cards: [] },
    1: { high: "a straight", low: null, cards: [] },
  },
  pots: [{ amount: 40, shares: [[0, 20], [1, 20]], high_winners: [1], low_winners: [0] }],
  payouts: [20, 20],
};

test("chips are written with thousands separators", () => {
  assert.equal(chips(10000), "10,000");
  assert.equal(chips(999), "999");
  assert.equal(chips(0), "0");
});

test("a ten is written 10, with its suit's symbol", () => {
  assert.deepEqual(cardFace("Td"), { rank: "10", suit: "♦", red: true, label: "10♦" });
  assert.equal(cardFace("As").label, "A♠");
  assert.equal(cardFace("Kc").red, false);
});

test("a card nobody may see has no face", () => {
  assert.equal(cardFace(null), null);
  assert.equal(cardFace(undefined), null);
});

test("one pot is the pot; several are the main pot and numbered side pots", () => {
  assert.equal(potName(0, 1), "pot");
  assert.equal(potName(0, 3), "main pot");
  assert.equal(potName(2, 3), "side pot 2");
  assert.equal(potTitle(0, 1), "Pot");
  assert.equal(potTitle(1, 2), "Side pot 1");
});

test("a server message becomes a sentence", () => {
  assert.equal(sentence("seat 3 at Table 1 is taken"), "Seat 3 at Table 1 is taken.");
  assert.equal(sentence("Not your turn!"), "Not your turn!");
  assert.equal(sentence(""), "Something went wrong.");
});

test("hand words name the low, or its absence, in hi-lo only", () => {
  assert.equal(wordsOf({ high: "two pair, kings and nines" }), "two pair, kings and nines");
  assert.equal(wordsOf({ high: "a flush", low: "8-6-4-2-A low" }), "a flush; 8-6-4-2-A low");
  assert.equal(wordsOf({ high: "a flush", low: null }), "a flush; no low");
  assert.equal(wordsOf(undefined), "");
});

test("each half of a hi-lo pot is named for its winner", () => {
  const pot = HI_LO.pots[0];
  assert.equal(halfWon(HI_LO, pot, 0), "low");
  assert.equal(halfWon(HI_LO, pot, 1), "high");
  assert.equal(halfWon(HI_LO, { ...pot, high_winners: [0] }, 0), "high and low");
});

test("no half is named without a hand named both ways, or when uncontested", () => {
  const highOnly = { ...HI_LO, hands: { 0: { high: "a pair" }, 1: { high: "a straight" } } };
  assert.equal(halfWon(highOnly, HI_LO.pots[0], 1), "");
  assert.equal(halfWon({ ...HI_LO, uncontested: true }, HI_LO.pots[0], 1), "");
  assert.equal(halfWon(HI_LO, { shares: [] }, 1), "");
});

test("winnings name the half in a split pot", () => {
  assert.deepEqual(winnings(HI_LO), [
    { player: 0, text: "wins 20 (low)" },
    { player: 1, text: "wins 20 (high)" },
  ]);
});

test("winnings name the pot when there are several, and join per player", () => {
  const result = {
    uncontested: false,
    hands: {},
    pots: [
      { amount: 3000, shares: [[1, 3000]] },
      { amount: 40, shares: [[1, 40]] },
    ],
  };
  assert.deepEqual(winsByPlayer(result), { 1: "wins 3,000 (main pot), wins 40 (side pot 1)" });
  assert.deepEqual(winsByPlayer(null), {});
});

test("a single pot's winnings say only the amount", () => {
  const result = { uncontested: true, hands: {}, pots: [{ amount: 12, shares: [[0, 12]] }] };
  assert.deepEqual(winnings(result), [{ player: 0, text: "wins 12" }]);
});

test("the pots in play skip empty ones and add the bet to match while betting", () => {
  const hand = { pots: [{ amount: 1500 }, { amount: 0 }], current_bet: 10, phase: "betting" };
  assert.deepEqual(potsInPlay(hand), ["Main pot: 1,500", "Bet to match: 10"]);
  assert.deepEqual(potsInPlay({ ...hand, phase: "over" }), ["Main pot: 1,500"]);
});

test("the total pot counts the street's bets, and several pots, while the hand is played", () => {
  const players = [{ bet: 10 }, { bet: 5 }, { bet: 0 }];
  const betting = { pots: [{ amount: 30 }], players, current_bet: 10, phase: "betting" };
  assert.deepEqual(potsInPlay(betting), ["Total pot: 45", "Pot: 30", "Bet to match: 10"]);
  const sides = { pots: [{ amount: 900 }, { amount: 200 }], players: [], current_bet: 0, phase: "betting" };
  assert.deepEqual(potsInPlay(sides), ["Total pot: 1,100", "Main pot: 900", "Side pot 1: 200"]);
  const quiet = { pots: [{ amount: 30 }], players: [{ bet: 0 }], current_bet: 0, phase: "betting" };
  assert.deepEqual(potsInPlay(quiet), ["Pot: 30"]);
});

test("a protected player is all in, protected, rather than all in", () => {
  assert.deepEqual(handTags({ folded: true }), ["folded"]);
  assert.deepEqual(handTags({ all_in: true, protected: true }), ["all in, protected"]);
  assert.deepEqual(handTags({ all_in: true }), ["all in"]);
  assert.deepEqual(handTags({}), []);
});

test("what is wild is said under the street, and nothing in a game without wild cards", () => {
  assert.equal(wildsText({ wilds: "queens and fives" }), "Wild: queens and fives");
  assert.equal(wildsText({ wilds: null }), "");
  assert.equal(wildsText(null), "");
});

test("a Chicago pot names the best hand's half and the spade's", () => {
  const pot = { high_winners: [1], low_winners: [], spade_winners: [0], shares: [[0, 4], [1, 5]] };
  const result = { uncontested: false, spade: "high", hands: {}, pots: [pot] };
  assert.equal(halfWon(result, pot, 0), "high spade");
  assert.equal(halfWon(result, pot, 1), "best hand");
  const both = { ...pot, spade_winners: [1] };
  assert.equal(halfWon({ ...result, spade: "low" }, both, 1), "best hand and low spade");
});

test("a finished hand names shown hands to all and a mucked one to its owner alone", () => {
  // bob (1) showed and won; alice (0) was mucked, and the view is hers.
  const result = { uncontested: false, hands: { 1: { high: "a straight", cards: [] } }, pots: [] };
  const alices = { viewer: 0, result, your_hand: { high: "pair of eights", cards: [] } };
  assert.equal(handWords(alices, 1), "a straight");
  assert.equal(handWords(alices, 0), "pair of eights");
  // In bob's view alice's hand stays unnamed.
  const bobs = { viewer: 1, result, your_hand: null };
  assert.equal(handWords(bobs, 0), "");
  assert.equal(handWords({ ...alices, viewer: 1 }, 0), "");
});
