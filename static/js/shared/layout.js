// Where things sit on the felt, in percent of its box: the seats around its
// edge, each seat's bet between it and the centre, and the chips a stack of a
// given size is drawn with. Pure, so node tests it.

// Seats run along a squarish oval (a superellipse) inset from the felt's box.
// On a wide felt it is nearly an ellipse; on a tall one (a phone) its sides
// are straighter, so seats stack down the long sides instead of crowding the
// short ones.
const SAMPLES = 720;
const INSET_X = 4;
const INSET_Y = 3;

function edgePoint(t, roundness) {
  const c = Math.cos(t);
  const s = Math.sin(t);
  const power = 2 / roundness;
  return {
    x: 0.5 + 0.5 * Math.sign(c) * Math.abs(c) ** power,
    y: 0.5 + 0.5 * Math.sign(s) * Math.abs(s) ** power,
  };
}

// The bottom seat is the viewer's, drawn larger: the gaps either side of it
// are this much wider than the others (more on a tall felt, whose bottom
// edge is short).
const BOTTOM_ROOM = { wide: 1.35, tall: 1.5 };

// The spot of each of `count` seats on a felt `aspect` (height / width) times
// as tall as it is wide: [{x, y}] in percent, the first at the bottom centre
// and the rest clockwise, equally far apart along the edge but for the room
// left either side of the first.
export function seatSpots(count, aspect) {
  const roundness = aspect > 1 ? 4 : 2.2;
  const room = aspect > 1 ? BOTTOM_ROOM.tall : BOTTOM_ROOM.wide;
  // Walk the edge from 6 o'clock towards 9 (clockwise on the screen),
  // measuring in the felt's own proportions so spacing is even in pixels.
  const points = [];
  for (let i = 0; i <= SAMPLES; i++) points.push(edgePoint(Math.PI / 2 + (2 * Math.PI * i) / SAMPLES, roundness));
  const lengths = [0];
  for (let i = 1; i < points.length; i++) {
    const dx = points[i].x - points[i - 1].x;
    const dy = (points[i].y - points[i - 1].y) * aspect;
    lengths.push(lengths[i - 1] + Math.hypot(dx, dy));
  }
  const total = lengths[lengths.length - 1];
  const gap = count > 2 ? total / (count - 2 + 2 * room) : total / 2;
  const spots = [];
  let i = 0;
  for (let k = 0; k < count; k++) {
    const want = k === 0 ? 0 : count > 2 ? gap * (room + k - 1) : gap;
    while (i < SAMPLES - 1 && lengths[i + 1] < want) i++;
    const share = (want - lengths[i]) / (lengths[i + 1] - lengths[i] || 1);
    const x = points[i].x + share * (points[i + 1].x - points[i].x);
    const y = points[i].y + share * (points[i + 1].y - points[i].y);
    spots.push({ x: round(INSET_X + (100 - 2 * INSET_X) * x), y: round(INSET_Y + (100 - 2 * INSET_Y) * y) });
  }
  return spots;
}

// The spot of seat `number` with seat `bottom` at 6 o'clock.
export function seatSpot(number, bottom, count, aspect) {
  return seatSpots(count, aspect)[(((number - bottom) % count) + count) % count];
}

// Where a seat's bet lies: on the line from the centre to the seat, `share`
// of the way out.
export function towardsCentre(spot, share) {
  return { x: round(50 + share * (spot.x - 50)), y: round(50 + share * (spot.y - 50)) };
}

// Where a bet may lie, best first: on the line from the centre to its seat,
// each of BET_SHARES of the way out, then just above or below the seat (its
// side facing the centre first). A phone's narrow felt can leave no room on
// that line between a side seat's cards and the centre. `seat` is the seat's
// box and `pile` the bet's size, in percent of the felt like the spots.
export const BET_SHARES = [0.58, 0.5, 0.66, 0.42];
const BET_GAP = 1; // percent of the felt's height between a seat and a bet above or below it

export function betSpots(spot, seat, pile) {
  const along = BET_SHARES.map((share) => towardsCentre(spot, share));
  const x = round(Math.min(Math.max(spot.x, pile.width / 2), 100 - pile.width / 2));
  const above = { x, y: round(seat.top - BET_GAP - pile.height / 2) };
  const below = { x, y: round(seat.bottom + BET_GAP + pile.height / 2) };
  return [...along, ...(spot.y > 50 ? [above, below] : [below, above])];
}

// The first of `spots` where a box of `size` centred on it lies inside the
// felt and clear of every box in `taken`; null if none is.
export function firstClear(spots, size, taken) {
  return spots.find((spot) => {
    const box = boxAt(spot, size);
    const inside = box.left >= 0 && box.top >= 0 && box.right <= 100 && box.bottom <= 100;
    return inside && !taken.some((other) => overlap(box, other));
  }) ?? null;
}

// The box of `size` centred on `spot`: {left, top, right, bottom}.
export function boxAt(spot, size) {
  const [w, h] = [size.width / 2, size.height / 2];
  return { left: spot.x - w, top: spot.y - h, right: spot.x + w, bottom: spot.y + h };
}

function overlap(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

function round(n) {
  return Math.round(n * 100) / 100;
}

// The chips a pile of `amount` is drawn with, largest first: the fewest of
// the usual denominations, at most `most` of them (the smallest left out).
export const DENOMINATIONS = [5000, 1000, 500, 100, 25, 5, 1];

export function chipPile(amount, most = 5) {
  const pile = [];
  let left = Math.max(0, Math.floor(amount));
  for (const value of DENOMINATIONS) {
    while (left >= value && pile.length < most) {
      pile.push(value);
      left -= value;
    }
  }
  return pile;
}
