// Where the seats, bets and chips go on the felt.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  betSpots,
  boxAt,
  chipPile,
  firstClear,
  seatSpot,
  seatSpots,
  towardsCentre,
} from "../../static/js/shared/layout.js";

const WIDE = 0.5; // a desktop's felt, twice as wide as tall
const TALL = 4 / 3; // a phone's, standing up

// The distance between two spots in pixels of a felt 1000 wide.
function apart(a, b, aspect) {
  return Math.hypot((a.x - b.x) * 10, (a.y - b.y) * 10 * aspect);
}

test("the first seat is at the bottom centre and the table is mirrored left to right", () => {
  for (const aspect of [WIDE, TALL]) {
    for (let count = 2; count <= 8; count++) {
      const spots = seatSpots(count, aspect);
      assert.equal(spots.length, count);
      assert.deepEqual(spots[0], { x: 50, y: 97 });
      for (let k = 1; k < count; k++) {
        const mirror = spots[count - k];
        assert.ok(Math.abs(spots[k].x - (100 - mirror.x)) < 0.05, `${count} seats: ${k} and ${count - k}`);
        assert.ok(Math.abs(spots[k].y - mirror.y) < 0.05);
      }
    }
  }
});

test("seats go clockwise on the screen: the second is left of the first, heads-up faces across", () => {
  assert.ok(seatSpots(8, WIDE)[1].x < 50);
  assert.ok(seatSpots(8, TALL)[1].x < 50);
  assert.deepEqual(seatSpots(2, WIDE)[1], { x: 50, y: 3 });
});

test("every seat keeps its distance from the others, more so beside the viewer's", () => {
  for (const aspect of [WIDE, TALL]) {
    const spots = seatSpots(8, aspect);
    const gaps = spots.map((spot, k) => apart(spot, spots[(k + 1) % 8], aspect));
    const others = gaps.slice(1, -1);
    assert.ok(Math.min(...others) > 0.8 * Math.max(...others), `${aspect}: ${gaps}`);
    assert.ok(gaps[0] > Math.max(...others) * 1.1, `${aspect}: ${gaps}`);
    spots.forEach((spot) => {
      assert.ok(spot.x >= 4 && spot.x <= 96 && spot.y >= 3 && spot.y <= 97, JSON.stringify(spot));
    });
  }
  // On a phone the seats run down the long sides: three a side, none crowding the top.
  const tall = seatSpots(8, TALL);
  assert.equal(tall.filter((s) => s.x < 25).length, 3);
  assert.equal(tall.filter((s) => s.x > 75).length, 3);
});

test("a seat's spot follows the viewer: whoever sits there is drawn at the bottom", () => {
  assert.deepEqual(seatSpot(5, 5, 8, WIDE), { x: 50, y: 97 });
  assert.deepEqual(seatSpot(6, 5, 8, WIDE), seatSpots(8, WIDE)[1]);
  assert.deepEqual(seatSpot(4, 5, 8, WIDE), seatSpots(8, WIDE)[7]);
});

test("a bet lies on the line from the centre to its seat", () => {
  assert.deepEqual(towardsCentre({ x: 50, y: 97 }, 0.5), { x: 50, y: 73.5 });
  assert.deepEqual(towardsCentre({ x: 4, y: 50 }, 0.58), { x: 23.32, y: 50 });
});

// A right-hand seat of a phone's felt, its box, and a bet's size, in percent.
const SIDE = { x: 85, y: 60 };
const SIDE_BOX = { left: 68, top: 52, right: 98, bottom: 66 };
const PILE = { width: 16, height: 4 };

test("a bet's places, best first: along the line to the centre, then beside its seat", () => {
  const spots = betSpots(SIDE, SIDE_BOX, PILE);
  assert.deepEqual(spots.slice(0, 4), [0.58, 0.5, 0.66, 0.42].map((share) => towardsCentre(SIDE, share)));
  // Below the centre: above the seat first, then below it; its x kept on the felt.
  assert.deepEqual(spots.slice(4), [
    { x: 85, y: 49 },
    { x: 85, y: 69 },
  ]);
  const high = betSpots({ x: 95, y: 30 }, { left: 85, top: 22, right: 100, bottom: 36 }, PILE);
  assert.deepEqual(high.slice(4), [
    { x: 92, y: 39 },
    { x: 92, y: 19 },
  ]);
});

test("a bet takes the first place clear of everything drawn and inside the felt", () => {
  const centre = { left: 35, top: 30, right: 65, bottom: 70 };
  const spots = betSpots(SIDE, SIDE_BOX, PILE);
  // The line to the centre runs through the seat's cards and the centre's words.
  assert.deepEqual(firstClear(spots, PILE, [SIDE_BOX, centre]), { x: 85, y: 49 });
  // With that taken too, below the seat.
  const above = boxAt({ x: 85, y: 49 }, PILE);
  assert.deepEqual(firstClear(spots, PILE, [SIDE_BOX, centre, above]), { x: 85, y: 69 });
  // Where nothing is in the way, the first place: in front of the seat.
  assert.deepEqual(firstClear(spots, PILE, []), spots[0]);
  // Nowhere clear: null, and the caller keeps the first.
  assert.equal(firstClear(spots, PILE, [{ left: 0, top: 0, right: 100, bottom: 100 }]), null);
  // A place partly off the felt is no place.
  assert.equal(firstClear([{ x: 5, y: 50 }], PILE, []), null);
});

test("a pile is the fewest chips of the usual values, at most five", () => {
  assert.deepEqual(chipPile(2), [1, 1]);
  assert.deepEqual(chipPile(130), [100, 25, 5]);
  assert.deepEqual(chipPile(10_000), [5000, 5000]);
  assert.deepEqual(chipPile(99), [25, 25, 25, 5, 5]); // 99 needs more: the small ones are left out
  assert.deepEqual(chipPile(0), []);
});
