// Decisions that are not bets (static/js/table/decisions.js and the helpers
// around it): what the viewer may choose, which of their cards they may pick
// and with which key, the words for who is still choosing, and the seat
// badges, which say that a player has chosen but never what.
import assert from "node:assert/strict";
import { test } from "node:test";

import { betweenBets, myTurn } from "../../static/js/table/advance.js";
import { clockOwner } from "../../static/js/table/clock.js";
import {
  cardPicks,
  decisionButtons,
  decisionKey,
  decisionMessage,
  decisionOptions,
  decisionPrompt,
  decisionTurn,
  exchangePrice,
  viewerDeciding,
  waitingWords,
} from "../../static/js/table/decisions.js";
import { replaced, movesBetween } from "../../static/js/table/motion.js";
import { centreWords } from "../../static/js/table/render.js";
import { turnBegins } from "../../static/js/table/sounds.js";
import { TableState } from "../../static/js/table/state.js";
import { decidingAtOnce, decisionBadges, namesList, wordsOf } from "../../static/js/shared/format.js";

const d = (card) => ({ card, up: false });
const u = (card) => ({ card, up: true });

// A heads-up hand at seats 1 (alice, engine player 1, the viewer by default)
// and 2 (bob, engine player 0), waiting on `decision`. `deciding` lists the
// engine players still to choose; `toAct` is null when they choose at once.
function snap({
  decision = "roll",
  deciding = [0, 1],
  toAct = null,
  viewer = 1,
  legal = [],
  yourChoice = null,
  cards = [d("9s"), d("9h")],
  turn = 4,
  street = "1st round",
} = {}) {
  return {
    table: {
      waiting: null,
      seats: [
        { number: 1, player: "alice" },
        { number: 2, player: "bob" },
      ],
    },
    hand_info: { id: 17, number: 3, seats: [2, 1] },
    hand: {
      street,
      phase: "deciding",
      decision,
      deciding,
      to_act: toAct,
      turn,
      viewer,
      your_choice: yourChoice,
      legal_actions: legal,
      players: [
        { player: 0, folded: false, declared: null, cards: [d(null), d(null)] },
        { player: 1, folded: false, declared: null, cards },
      ],
    },
  };
}

const ROLL = { kind: "roll", min: null, max: null, amounts: null, cards: ["9s", "9h"] };
const DECLARES = ["declare_high", "declare_low", "declare_both"].map((kind) => ({ kind, min: null, max: null }));

// --------------------------------------------------------------- options

test("the viewer's options are the server's legal actions, while they are still to decide", () => {
  assert.equal(viewerDeciding(snap({ legal: [ROLL] }).hand), true);
  assert.deepEqual(decisionOptions(snap({ legal: [ROLL] }).hand), [ROLL]);
  assert.deepEqual(decisionOptions(snap({ decision: "declare", legal: DECLARES }).hand), DECLARES);
});

test("nothing to choose for a viewer who has chosen, is not dealt in, or waits on another's turn", () => {
  assert.deepEqual(decisionOptions(snap({ deciding: [0] }).hand), []);
  assert.deepEqual(decisionOptions(snap({ viewer: null }).hand), []);
  assert.deepEqual(decisionOptions(snap({ decision: "exchange", deciding: [0], toAct: 0 }).hand), []);
  const betting = snap({ legal: [{ kind: "check" }] });
  betting.hand.phase = "betting";
  assert.deepEqual(decisionOptions(betting.hand), []);
});

test("it is the viewer's turn while they are still to choose, and an advance action waits", () => {
  assert.equal(myTurn(snap({ legal: [ROLL] })), true);
  assert.equal(myTurn(snap({ deciding: [0] })), false);
  assert.equal(betweenBets(snap()), true);
  const betting = snap();
  betting.hand.phase = "betting";
  assert.equal(betweenBets(betting), false);
});

// ----------------------------------------------------------- cards to pick

test("a roll picks among the down cards, numbered as the felt draws them", () => {
  const hand = snap({ cards: [d("9s"), u("Kd"), d("9h")] }).hand;
  const option = { ...ROLL, cards: ["9s", "9h"] };
  assert.deepEqual(cardPicks(hand, [option]), [
    { card: "9s", kind: "roll", key: "1", label: "Roll the 9♠" },
    { card: "9h", kind: "roll", key: "2", label: "Roll the 9♥" },
  ]);
});

test("an exchange picks any card: the down ones first, then the up ones, as drawn", () => {
  // A down card dealt after the up cards is drawn with the other down cards.
  const cards = [d("Ah"), d("Kd"), u("2c"), u("Ks"), u("Qh"), d("7h")];
  const hand = snap({ decision: "exchange", toAct: 1, deciding: [1], cards }).hand;
  const exchange = { kind: "exchange", min: 10, max: 10, cards: ["Ah", "Kd", "2c", "Ks", "Qh", "7h"] };
  const picks = cardPicks(hand, [exchange, { kind: "stand_pat" }]);
  assert.deepEqual(
    picks.map((p) => [p.key, p.card]),
    [
      ["1", "Ah"],
      ["2", "Kd"],
      ["3", "7h"],
      ["4", "2c"],
      ["5", "Ks"],
      ["6", "Qh"],
    ],
  );
  assert.equal(picks[2].label, "Exchange the 7♥");
  assert.equal(picks[0].kind, "exchange");
});

test("no card to pick when the only choices are buttons", () => {
  assert.deepEqual(cardPicks(snap().hand, [{ kind: "stand_pat" }]), []);
  assert.deepEqual(cardPicks(snap().hand, DECLARES), []);
});

// --------------------------------------------------------------- buttons

test("stand pat and the declarations are buttons with their keys", () => {
  assert.deepEqual(decisionButtons([{ kind: "exchange", cards: ["2c"] }, { kind: "stand_pat" }]), [
    { kind: "stand_pat", label: "Stand pat", key: "P" },
  ]);
  assert.deepEqual(
    decisionButtons(DECLARES).map((b) => [b.label, b.key]),
    [
      ["High", "H"],
      ["Low", "L"],
      ["Both", "B"],
    ],
  );
});

test("an exchange with a price says it in the prompt's title", () => {
  const hand = snap({ decision: "exchange", toAct: 1, deciding: [1] }).hand;
  const priced = [{ kind: "exchange", min: 10, max: 10, cards: ["9s"] }, { kind: "stand_pat" }];
  assert.equal(exchangePrice(priced), 10);
  assert.equal(decisionPrompt(hand, priced).title, "Exchange (10)");
  assert.match(decisionPrompt(hand, priced).help, /The 10 chips go in the pot/);
  const free = [{ kind: "exchange", min: null, max: null, cards: ["9s"] }, { kind: "stand_pat" }];
  assert.equal(exchangePrice(free), 0);
  assert.equal(decisionPrompt(hand, free).title, "Exchange");
  assert.doesNotMatch(decisionPrompt(hand, free).help, /chips/);
  assert.equal(decisionPrompt(hand, [{ kind: "stand_pat" }]).help, "No exchange is open to you now: stand pat.");
});

test("a declaration made at once is said to stay unseen; one in turn, heard", () => {
  assert.match(decisionPrompt(snap({ decision: "declare" }).hand, DECLARES).help, /Nobody sees yours/);
  const inTurn = snap({ decision: "declare", toAct: 1, deciding: [1] }).hand;
  assert.match(decisionPrompt(inTurn, DECLARES).help, /The players after you hear it/);
});

// ------------------------------------------------------------------- words

test("the viewer's own choice made at once is told back while the others choose", () => {
  const rolled = snap({ deciding: [0], yourChoice: { kind: "roll", card: "9h" } });
  assert.equal(waitingWords(rolled, 1), "You roll the 9♥ — waiting for bob.");
  const declared = snap({ decision: "declare", deciding: [0], yourChoice: { kind: "declare", choice: "low" } });
  assert.equal(waitingWords(declared, 1), "You declared low — waiting for bob.");
  declared.hand.your_choice.choice = "both";
  assert.equal(waitingWords(declared, 1), "You declared both ways — waiting for bob.");
  assert.equal(waitingWords(snap(), 1), "");
});

test("the centre says whose decision it is", () => {
  assert.equal(decisionTurn(snap(), 1), "Your turn: roll");
  assert.equal(decisionTurn(snap({ deciding: [0] }), 1), "bob to roll");
  assert.equal(decisionTurn(snap({ viewer: null }), null), "bob and alice to roll");
  const exchange = snap({ decision: "exchange", toAct: 0, deciding: [0] });
  assert.equal(decisionTurn(exchange, 1), "bob to exchange or stand pat");
  assert.equal(decisionTurn(exchange, 2), "Your turn: exchange or stand pat");
  assert.deepEqual(centreWords(snap({ decision: "declare", deciding: [0] }), 1), {
    heading: "Hand #3 · 1st round",
    turn: "bob to declare",
    wilds: "",
  });
});

test("names are listed as a sentence lists them", () => {
  assert.equal(namesList([]), "");
  assert.equal(namesList(["bob"]), "bob");
  assert.equal(namesList(["bob", "carol"]), "bob and carol");
  assert.equal(namesList(["bob", "carol", "dave"]), "bob, carol and dave");
});

// ----------------------------------------------------------------- badges

test("while everyone chooses at once, a seat says whether it has chosen, never what", () => {
  const hand = snap({ deciding: [1], yourChoice: { kind: "roll", card: "9h" } }).hand;
  assert.equal(decidingAtOnce(hand), true);
  assert.deepEqual(decisionBadges(hand, 0), [{ text: "decided", kind: "decided" }]);
  assert.deepEqual(decisionBadges(hand, 1), [{ text: "choosing…", kind: "choosing" }]);
  hand.players[0].folded = true;
  assert.deepEqual(decisionBadges(hand, 0), []);
});

test("a decision in turn has no badges; a revealed declaration has its own", () => {
  const hand = snap({ decision: "exchange", toAct: 0, deciding: [0] }).hand;
  assert.equal(decidingAtOnce(hand), false);
  assert.deepEqual(decisionBadges(hand, 1), []);
  hand.phase = "over";
  hand.players[1].declared = "low";
  assert.deepEqual(decisionBadges(hand, 1), [{ text: "Low", kind: "declared-low", hidden: "declared " }]);
});

test("a declared hand is named only the way it was declared", () => {
  const words = { high: "three of a kind, kings", low: "K-J-9-8-2 low" };
  assert.equal(wordsOf({ ...words, declared: "high" }), "three of a kind, kings");
  assert.equal(wordsOf({ ...words, declared: "low" }), "K-J-9-8-2 low");
  assert.equal(wordsOf({ ...words, declared: "both" }), "three of a kind, kings; K-J-9-8-2 low");
  assert.equal(wordsOf({ high: "a pair of fours", low: null, declared: "low" }), "no low");
});

// ---------------------------------------------------------- the move sent

test("a roll or an exchange names its one card; standing pat and declaring name none", () => {
  const s = snap();
  assert.deepEqual(decisionMessage(s, "roll", "9h"), { type: "act", action: "roll", turn: 4, hand: 17, cards: ["9h"] });
  assert.deepEqual(decisionMessage(s, "declare_low"), { type: "act", action: "declare_low", turn: 4, hand: 17 });
});

test("a choice made at once is the same decision however the turn moves; one in turn is not", () => {
  assert.equal(decisionKey(snap({ turn: 4 })), decisionKey(snap({ turn: 5, deciding: [1] })));
  assert.notEqual(decisionKey(snap({ turn: 4 })), decisionKey(snap({ turn: 4, street: "2nd round" })));
  const exchange = (turn) => snap({ decision: "exchange", toAct: 1, deciding: [1], turn });
  assert.notEqual(decisionKey(exchange(6)), decisionKey(exchange(7)));
});

test("others choosing at once don't make it the viewer's turn again, for the turn cue", () => {
  const before = snap({ turn: 4, legal: [ROLL] });
  const after = snap({ turn: 5, legal: [ROLL], deciding: [1] }); // bob chose; alice still chooses
  assert.equal(turnBegins(before, after), false);
  const betting = snap({ turn: 3 });
  betting.hand.phase = "betting";
  betting.hand.to_act = 0;
  assert.equal(turnBegins(betting, before), true);
});

// ------------------------------------------------------------------ clock

test("a clock for everyone choosing at once is the viewer's while they choose", () => {
  const timer = { seat: null, seats: [2, 1], deadline: "2026-01-01T00:00:10Z" };
  assert.deepEqual(clockOwner(snap(), timer, 1), { whose: "Your", mine: true });
  assert.deepEqual(clockOwner(snap({ viewer: null }), timer, null), { whose: "Everyone’s", mine: false });
  // The last one still to choose has the clock to themselves.
  const last = { seat: 2, seats: [2], deadline: "2026-01-01T00:00:10Z" };
  assert.deepEqual(clockOwner(snap({ deciding: [0] }), last, 1), { whose: "bob’s", mine: false });
  const exchange = snap({ decision: "exchange", toAct: 0, deciding: [0] });
  assert.deepEqual(clockOwner(exchange, { seat: 2, seats: [2] }, 1), { whose: "bob’s", mine: false });
});

test("a timer with a deadline and no seat is kept; one with no deadline stops the clock", () => {
  const state = new TableState();
  state.clock({ type: "timer", seat: null, deadline: "2026-01-01T00:00:10Z", now: "2026-01-01T00:00:00Z" }, 0);
  assert.equal(state.timer.deadline, "2026-01-01T00:00:10Z");
  state.clock({ type: "timer", seat: null, deadline: null, now: "2026-01-01T00:00:01Z" }, 0);
  assert.equal(state.timer, null);
});

// ----------------------------------------------------------------- motion

test("an exchanged card is dealt in the old one's place; a rolled one is no move", () => {
  assert.deepEqual(replaced([d("9s"), u("2c")], [d("9s"), u("As")]), [1]);
  assert.deepEqual(replaced([d("9s"), d("9h")], [d("9s"), u("9h")]), []); // a roll
  assert.deepEqual(replaced([d(null), d(null)], [d(null), u("9h")]), []); // another's roll
  const before = snap({ decision: "exchange", toAct: 1, deciding: [1], cards: [d("9s"), u("2c"), u("4c")] });
  const after = snap({ decision: "exchange", toAct: 0, deciding: [0], cards: [d("9s"), u("As"), u("4c")] });
  assert.deepEqual(movesBetween(before, after), [{ kind: "deal", seat: 1, group: "up", index: 0 }]);
});
