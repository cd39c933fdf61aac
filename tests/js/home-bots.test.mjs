// A home game's bots on the table page (static/js/table/home-bots.js): which
// seats are tagged as bots, and what the host's section offers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDocument } from "./fake_dom.mjs";

installFakeDocument();

const { botTags, botsMode } = await import("../../static/js/table/home-bots.js");

// Alice hosts; bob is her friend; bot-4 is the bot she added, seated; bot-5 is
// added and not yet seated.
function snap({ host = true, open = true, seats = 3, held = [] } = {}) {
  const taken = [
    { number: 1, player: "alice", leaving: false },
    { number: 2, player: "bob", leaving: false },
    { number: 3, player: "bot-4", leaving: false },
  ].slice(0, seats);
  return {
    table: {
      is_open: open,
      seats: taken,
      held_seats: held,
      home: { host: "alice", paused: false, bots: ["bot-4", "bot-5"] },
    },
    you: { host },
  };
}

test("a bot's seat is tagged as a bot, a person's is not", () => {
  const s = snap();
  assert.deepEqual(botTags(s, s.table.seats[2]), ["bot"]);
  assert.deepEqual(botTags(s, s.table.seats[1]), []);
});

test("a table of the room tags no seat", () => {
  const s = snap();
  delete s.table.home;
  assert.deepEqual(botTags(s, s.table.seats[2]), []);
});

test("the host sees each bot, seated or sitting down, and may add one while a seat is free", () => {
  assert.deepEqual(botsMode(snap(), 6), {
    kind: "host",
    free: true,
    bots: [
      { name: "bot-4", seated: true, leaving: false },
      { name: "bot-5", seated: false, leaving: false },
    ],
  });
});

test("no bot is offered when every seat is taken or held for the waiting list", () => {
  assert.equal(botsMode(snap(), 3).free, false);
  assert.equal(botsMode(snap({ seats: 2, held: [3] }), 3).free, false);
});

test("nobody but the host of an open game gets the section", () => {
  assert.deepEqual(botsMode(snap({ host: false }), 6), { kind: "none" });
  assert.deepEqual(botsMode(snap({ open: false }), 6), { kind: "none" });
});
