// A home game's host (static/js/table/host.js): what everyone is told of a
// pause and of the host's change for the next hand, the log's lines when a
// change is stored, when it is made and when the host role moves, and who
// the host's panel offers the role to.
import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDocument } from "./fake_dom.mjs";

installFakeDocument();

const { homeLines, homeNotice, homeStatus, hostMode, roleMoved, termsFollowed } = await import(
  "../../static/js/table/host.js"
);

function snap(home, you = { host: false }, seats = []) {
  return { table: { is_open: true, home: { host: "alice", paused: false, change: null, ...home }, seats }, you };
}

const WAITING = { number: 1, by: "alice", words: "Razz, every hand", applied: false };
const MADE = { ...WAITING, applied: true };

test("everyone is told the change waiting for the next hand, and no longer once it is made", () => {
  assert.equal(homeStatus(snap({ change: WAITING })), "From the next hand: Razz, every hand (alice’s change).");
  assert.equal(homeStatus(snap({ change: MADE })), "");
  assert.equal(
    homeStatus(snap({ paused: true, change: WAITING }, { host: true })),
    "You paused the game: no new hand starts until you resume it. From the next hand: Razz, every hand (alice’s change).",
  );
});

test("the log says a change once when stored and once when made", () => {
  const before = { change: null, host: "alice" };
  assert.deepEqual(homeLines(before, snap({ change: WAITING })), ["alice changed the game: Razz, every hand, from the next hand"]);
  assert.deepEqual(homeLines({ change: WAITING, host: "alice" }, snap({ change: WAITING })), []);
  assert.deepEqual(homeLines({ change: WAITING, host: "alice" }, snap({ change: MADE })), [
    "The game is changed from this hand: Razz, every hand",
  ]);
  // Made at once, with no hand in play: told once, as stored.
  assert.deepEqual(homeLines(before, snap({ change: MADE })), ["alice changed the game: Razz, every hand, from the next hand"]);
});

test("a page just opened logs a change still waiting, not one made before", () => {
  assert.deepEqual(homeLines(null, snap({ change: WAITING })), ["alice changed the game: Razz, every hand, from the next hand"]);
  assert.deepEqual(homeLines(null, snap({ change: MADE })), []);
});

test("the log says when the host role moves", () => {
  assert.deepEqual(homeLines({ change: null, host: "alice" }, snap({ host: "bob" })), ["bob hosts the game now"]);
});

test("the host's panel offers the role to the people seated, not to bots", () => {
  const seats = [
    { number: 1, player: "alice", leaving: false },
    { number: 2, player: "bob", leaving: false },
    { number: 3, player: "bot-2", leaving: false },
  ];
  const mode = hostMode(snap({}, { host: true }, seats), { action: "hand_over", player: "bob" });
  assert.deepEqual(mode.players, [
    { name: "bob", leaving: false, bot: false },
    { name: "bot-2", leaving: false, bot: true },
  ]);
  assert.deepEqual(mode.confirming, { action: "hand_over", player: "bob" });
  assert.equal(hostMode(snap({}, { host: false }, seats), null).kind, "none");
});

test("a closed game's host may only deal it again; its players get no panel", () => {
  const closed = (you) => ({ ...snap({}, you), table: { ...snap({}).table, is_open: false } });
  assert.deepEqual(hostMode(closed({ host: true }), { action: "close" }), { kind: "closed" });
  assert.equal(hostMode(closed({ host: false }), null).kind, "none");
  assert.equal(hostMode(closed(null), null).kind, "none");
});

test("the felt's notice is brief, and a page just opened shows none", () => {
  const before = { change: null, host: "alice" };
  assert.equal(homeNotice(before, snap({ change: WAITING })), "alice changed the game from the next hand");
  assert.equal(homeNotice({ change: WAITING, host: "alice" }, snap({ change: MADE })), "The host’s change is made from this hand");
  assert.equal(homeNotice({ change: MADE, host: "alice" }, snap({ change: MADE })), "");
  assert.equal(homeNotice(null, snap({ change: WAITING })), "");
});

test("the page takes the seats, buy-ins and action time the host's change set", () => {
  const config = { seatCount: 7, actionMs: 20000, minBuyIn: 100, maxBuyIn: 1000, loggedIn: true };
  const terms = (seats, seconds, buyIn) => {
    const s = snap({ terms: { seats, action_seconds: seconds } });
    s.table.buy_in = buyIn;
    return s;
  };
  assert.equal(termsFollowed(config, terms(7, 20, [100, 1000])), null);
  assert.deepEqual(termsFollowed(config, terms(6, 30, [200, 2000])), {
    seatCount: 6,
    actionMs: 30000,
    minBuyIn: 200,
    maxBuyIn: 2000,
    loggedIn: true,
  });
  assert.equal(termsFollowed(config, { table: { seats: [] } }), null); // a table of the room
});

test("the page is drawn again when the host role comes or goes, and only then", () => {
  const home = (host, extra = {}) => ({
    table: { home: { host: "alice" }, is_open: true, ...extra },
    you: { player: 1, host },
  });
  assert.equal(roleMoved(false, home(true)), true, "the role came to this viewer");
  assert.equal(roleMoved(true, home(false)), true, "the role left this viewer");
  assert.equal(roleMoved(true, home(true)), false);
  assert.equal(roleMoved(true, home(false, { is_open: false })), false, "a closed game stays as it is");
  // A snapshot that says nothing of hosting (a table of the room) never reloads.
  assert.equal(roleMoved(true, { table: { home: null, is_open: true }, you: { player: 1 } }), false);
  assert.equal(roleMoved(true, { table: { home: { host: "alice" }, is_open: true }, you: { player: 1 } }), false);
  assert.equal(roleMoved(true, { table: { home: { host: "alice" }, is_open: true }, you: null }), false);
});
