// A table whose game changes hand by hand (static/js/table/games.js and what
// the page draws from it): the game's name and the dealer's call in words,
// the log's lines and the felt's notice when the game changes, the mix line,
// the dealer's choices, the centre and the clock while the dealer calls.
import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, installFakeDocument } from "./fake_dom.mjs";

const page = installFakeDocument();

const games = await import("../../static/js/table/games.js");
const { callChoices, callLines, callMessage, callWords, gameLines, gameName, gameNotice, mixWords, myCall } = games;
const { clockOwner } = await import("../../static/js/table/clock.js");
const { HandLog, logSnapshot } = await import("../../static/js/table/log.js");
const { centreWords } = await import("../../static/js/table/render.js");
const { TableState } = await import("../../static/js/table/state.js");

const SEATS = [
  { number: 1, player: "alice", state: "playing" },
  { number: 2, player: "bob", state: "playing" },
];
const LIST = [
  { position: 0, name: "Seven-card stud" },
  { position: 1, name: "Seven-card stud hi-lo, eight or better" },
  { position: 2, name: "Razz" },
  { position: 3, name: "Baseball" },
];
const STUD = "Seven-card stud, 5/10, ante 1, bring-in 2";
const STUD8 = "Seven-card stud hi-lo, eight or better, 5/10, ante 1, bring-in 2";
const RAZZ = "Razz, 5/10, ante 1, bring-in 2";
const BASEBALL = "Baseball, 5/10, ante 1, bring-in 2";
const CLOCK = {
  seat: 1,
  seats: [1],
  deadline: "2026-11-21T10:00:10.000000+00:00",
  expires_at: "2026-11-21T10:00:30.000000+00:00",
  time_bank_ms: 20000,
  clock: "per_turn",
};

// A snapshot at a mixed table (`mix` null: one game) of hand `id` dealing
// `game`, chosen by `handCall`, with the dealer's call `call` under way
// after it, for the viewer at `mine`.
const CHOICE = { policy: "dealers_choice", words: "", games: LIST };

function snap({ id = 7, game = STUD, handCall = null, mix = CHOICE, call = null, mine = 2 } = {}) {
  const over = { phase: "over", street: "7th street", to_act: null, legal_actions: [] };
  const info = { id, number: id - 4, seats: [1, 2], names: ["alice", "bob"], game, call: handCall };
  return {
    type: "snapshot",
    table: { stakes: game, mix, call, seats: SEATS, waiting: call ? "call" : null },
    hand: id === null ? null : over,
    hand_info: id === null ? null : info,
    you: { seat: mine },
  };
}

function calling(number = 3, player = "alice", seat = 1) {
  return {
    number,
    seat,
    player,
    games: [
      { position: 2, name: "Razz", game: RAZZ },
      { position: 3, name: "Baseball", game: BASEBALL },
    ],
    timer: CLOCK,
  };
}

test("a hand's game is named by the longest name on the list that its words begin with", () => {
  assert.equal(gameName(snap({ game: STUD8 })), "Seven-card stud hi-lo, eight or better");
  assert.equal(gameName(snap({ game: STUD })), "Seven-card stud");
  assert.equal(gameName(snap({ game: RAZZ })), "Razz");
  // Not on the list (the list was changed since), or no list: the words whole.
  assert.equal(gameName(snap({ game: "Chicago, 5/10" })), "Chicago, 5/10");
  assert.equal(gameName(snap({ game: RAZZ, mix: null })), RAZZ);
});

test("the call that chose a game says who chose it and how", () => {
  assert.equal(callWords({ by: "alice", how: "called" }, "Baseball"), "alice calls Baseball");
  assert.equal(callWords({ by: "alice", how: "timed_out" }, "Razz"), "alice’s time ran out: Razz");
  assert.equal(callWords({ by: "bob", how: "away" }, "Razz"), "bob is away: Razz");
});

test("under a new hand's heading the log says the call, or the game when it changed", () => {
  const called = snap({ game: BASEBALL, handCall: { by: "alice", how: "called" } });
  assert.deepEqual(gameLines(STUD, called), ["alice calls " + BASEBALL]);
  // Called again, the same game: still the call.
  assert.deepEqual(gameLines(BASEBALL, called), ["alice calls " + BASEBALL]);
  const rotation = { policy: "rotation", words: "Razz · 1 more hand, then Baseball", games: LIST };
  assert.deepEqual(gameLines(STUD, snap({ game: RAZZ, mix: rotation })), ["The game is now " + RAZZ]);
  assert.deepEqual(gameLines(RAZZ, snap({ game: RAZZ, mix: rotation })), []);
  // The first hand a page logs: its game at a mixed table; nothing at a table of one game.
  assert.deepEqual(gameLines(null, snap({ game: RAZZ, mix: rotation })), ["The game is " + RAZZ]);
  assert.deepEqual(gameLines(null, snap({ game: STUD, mix: null })), []);
  // A table of one game whose stakes staff changed between hands says so too.
  assert.deepEqual(gameLines(STUD, snap({ game: RAZZ, mix: null })), ["The game is now " + RAZZ]);
});

test("the felt's notice comes with a new hand of another game or a call, never on opening the page", () => {
  const before = snap({ id: 7, game: STUD });
  assert.equal(gameNotice(before, snap({ id: 8, game: RAZZ })), "Now playing Razz");
  assert.equal(gameNotice(before, snap({ id: 8, game: STUD })), "");
  assert.equal(gameNotice(before, snap({ id: 7, game: STUD })), "");
  const called = snap({ id: 8, game: STUD, handCall: { by: "bob", how: "timed_out" } });
  assert.equal(gameNotice(before, called), "bob’s time ran out: Seven-card stud");
  // The table's first hand, called while the page watched.
  assert.equal(gameNotice(snap({ id: null, call: calling() }), called), "bob’s time ran out: Seven-card stud");
  assert.equal(gameNotice(null, snap({ id: 8, game: RAZZ })), "");
});

test("a call under way is logged once, when it begins", () => {
  const during = snap({ call: calling(3) });
  assert.deepEqual(callLines(null, during), ["alice is choosing the game"]);
  assert.deepEqual(callLines(snap(), during), ["alice is choosing the game"]);
  assert.deepEqual(callLines(during, snap({ call: calling(3) })), []);
  assert.deepEqual(callLines(during, snap({ call: calling(4, "bob", 2) })), ["bob is choosing the game"]);
  assert.deepEqual(callLines(during, snap()), []);
  // A dealer whose account is gone is named by their seat.
  assert.deepEqual(callLines(null, snap({ call: calling(5, null, 2) })), ["Seat 2 is choosing the game"]);
});

test("the mix line is the server's words, and nothing at a table of one game", () => {
  assert.equal(mixWords(null), "");
  const words = "Razz · 2 more hands, then Seven-card stud hi-lo, eight or better";
  assert.equal(mixWords({ policy: "rotation", words, games: LIST }), words);
});

test("the dealer's choices are the call's games, each with its sizes apart and a number key", () => {
  const call = calling();
  call.games.push({ position: 1, name: "Seven-card stud hi-lo, eight or better", game: STUD8 });
  assert.deepEqual(callChoices(call), [
    { position: 2, name: "Razz", sizes: "5/10, ante 1, bring-in 2", key: "1" },
    { position: 3, name: "Baseball", sizes: "5/10, ante 1, bring-in 2", key: "2" },
    { position: 1, name: "Seven-card stud hi-lo, eight or better", sizes: "5/10, ante 1, bring-in 2", key: "3" },
  ]);
  const many = { games: LIST.concat(LIST, LIST).map((g) => ({ ...g, game: g.name })) };
  const keys = callChoices(many).map((choice) => choice.key);
  assert.deepEqual(keys.slice(8, 10), ["9", null]);
  assert.equal(callChoices(many)[0].sizes, "");
  assert.deepEqual(callMessage(3), { type: "call_game", game: 3 });
});

test("while the dealer calls, the centre says who is choosing and the clock is theirs", () => {
  const during = snap({ call: calling(), mine: 2 });
  assert.ok(myCall(snap({ call: calling(), mine: 1 })));
  assert.ok(!myCall(during));
  assert.ok(!myCall(snap({ mine: 1 })));
  during.hand = { ...during.hand, wilds: "queens and nines" }; // the last hand's, not the next's
  const choosing = { heading: "Dealer’s choice", turn: "alice is choosing the game", wilds: "" };
  assert.deepEqual(centreWords(during, 2), choosing);
  assert.deepEqual(centreWords(during, 1), { ...choosing, turn: "Your call: choose the game" });
  // Before the table's first hand too.
  const first = snap({ id: null, call: calling() });
  assert.equal(centreWords(first, null).turn, "alice is choosing the game");
  assert.deepEqual(clockOwner(during, CLOCK, 2), { whose: "alice’s", mine: false });
  assert.deepEqual(clockOwner(during, CLOCK, 1), { whose: "Your", mine: true });
});

test("a snapshot during a call keeps the dealer's clock, which a later one without it stops", () => {
  const state = new TableState();
  state.snapshot(snap({ call: calling() }));
  assert.deepEqual(state.timer, CLOCK);
  state.snapshot(snap({ call: calling() })); // someone sat down meanwhile
  assert.deepEqual(state.timer, CLOCK);
  state.snapshot(snap({ id: 8, game: RAZZ }));
  assert.equal(state.timer, null);
});

test("the log reads the call as it begins, then the hand it chose under its heading", () => {
  const list = new FakeElement("ol");
  page.log = list;
  const table = { state: new TableState(), config: { allHands: false }, reviewUrl: () => "", socket: { resync() {} } };
  table.log = new HandLog(table);
  const event = (id, index, text) => ({ type: "event", hand_id: id, index, event: { type: "ante" }, text });
  const frame = (events, message) => {
    events.forEach((m) => table.state.event(m));
    const { before } = logSnapshot(table, message);
    table.log.calls(before, message);
  };
  frame([event(7, 0, "Seat 1 (alice) antes 1")], snap({ id: 7, game: STUD }));
  frame([], snap({ id: 7, game: STUD, call: calling(3, "bob", 2) }));
  frame([event(8, 0, "Seat 2 (bob) antes 1")], snap({ id: 8, game: RAZZ, handCall: { by: "bob", how: "called" } }));
  frame([event(9, 0, "Seat 1 (alice) antes 1")], snap({ id: 9, game: RAZZ }));
  frame([event(10, 0, "Seat 1 (alice) antes 1")], snap({ id: 10, game: BASEBALL }));
  assert.deepEqual(
    list.children.map((li) => li.textContent),
    [
      "Hand #3",
      "The game is " + STUD,
      "Seat 1 (alice) antes 1",
      "bob is choosing the game",
      "Hand #4",
      "bob calls " + RAZZ,
      "Seat 2 (bob) antes 1",
      "Hand #5",
      "Seat 1 (alice) antes 1",
      "Hand #6",
      "The game is now " + BASEBALL,
      "Seat 1 (alice) antes 1",
    ],
  );
});
