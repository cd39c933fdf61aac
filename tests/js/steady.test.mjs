// The move area's room: the most it has taken, kept while seated at one width.
import assert from "node:assert/strict";
import { test } from "node:test";

import { roomToKeep } from "../../static/js/table/steady.js";

const at = (height, more = {}) => ({ seated: true, calling: false, width: 1280, height, ...more });

test("the room grows to the tallest the area has been, and never shrinks", () => {
  let kept = roomToKeep(null, at(65)); // another player's turn: the advance actions
  assert.deepEqual(kept, { width: 1280, height: 65 });
  kept = roomToKeep(kept, at(112)); // our turn, with a bet's size to choose
  assert.deepEqual(kept, { width: 1280, height: 112 });
  kept = roomToKeep(kept, at(42)); // the hand over: nothing to click
  assert.deepEqual(kept, { width: 1280, height: 112 });
});

test("the dealer's call is let past: its height is not kept", () => {
  const kept = roomToKeep({ width: 1280, height: 112 }, at(226, { calling: true }));
  assert.deepEqual(kept, { width: 1280, height: 112 });
  assert.deepEqual(roomToKeep(null, at(226, { calling: true })), { width: 1280, height: 0 });
});

test("a new width measures again, and a player standing keeps nothing", () => {
  const kept = { width: 1280, height: 112 };
  assert.deepEqual(roomToKeep(kept, at(90, { width: 390 })), { width: 390, height: 90 });
  assert.equal(roomToKeep(kept, at(42, { seated: false })), null);
});
