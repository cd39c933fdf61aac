// Movement on the felt: a card dealt flies in from the middle, a bet slides
// out in front of its seat, the street's bets slide into the pot, and the pot
// slides to whoever won it. What moved is worked out from the snapshot before
// and the one after (`movesBetween`, pure, tested by node); `animate` plays
// it with the Web Animations API after the new snapshot is drawn. Nothing
// moves for a player who turned animations off, or whose device asks for
// reduced motion.
import { BET_SHARE, betDrawnAt, byId, cardPlace, chipStack } from "../shared/felt.js";
import { towardsCentre } from "../shared/layout.js";
import { seatOf } from "./state.js";

const DEAL_MS = 320;
const DEAL_GAP_MS = 45; // between one card and the next, round the table
const CHIPS_MS = 380;

// What moved from snapshot `before` to `after`: a list of
//   {kind: "deal", seat, group: "down" | "up", index} a card new to the seat,
//     drawn at `index` in that group of its cards (felt.js's cardPlace);
//   {kind: "bet", seat} chips put in, out in front of the seat;
//   {kind: "collect", seat, amount} a bet swept into the pot;
//   {kind: "award", seat, amount} chips won, from the pot to the seat.
// Seats are seat numbers. A new hand deals every card it shows. A card
// turned face up is no move: it is simply drawn again among the up cards.
export function movesBetween(before, after) {
  const moves = [];
  const hand = after && after.hand;
  if (!hand || !after.hand_info) return moves;
  const sameHand = Boolean(before && before.hand && before.hand_info && before.hand_info.id === after.hand_info.id);
  const old = sameHand ? before.hand : null;
  // A seat's new cards are those past the end of its list before; one turned
  // face up keeps its place in the list, so it is not dealt again.
  const seats = hand.players.map((p, i) => ({
    seat: seatOf(after, i),
    cards: p.cards,
    had: old ? old.players[i].cards.length : 0,
  }));
  // Round the table for each card, as a dealer does (3rd street: each seat's
  // first card, then each one's second, then third), in the seat's dealing order.
  const rounds = Math.max(0, ...seats.map((s) => s.cards.length - s.had));
  for (let r = 0; r < rounds; r++) {
    seats.forEach(({ seat, cards, had }) => {
      if (had + r < cards.length) moves.push({ kind: "deal", seat, ...cardPlace(cards, had + r) });
    });
  }
  if (!old) return moves;
  // An exchange: the new card is dealt in the old one's place.
  hand.players.forEach((p, i) => {
    replaced(old.players[i].cards, p.cards).forEach((position) => {
      moves.push({ kind: "deal", seat: seatOf(after, i), ...cardPlace(p.cards, position) });
    });
  });
  // A finished hand's bets are in its pots, whatever its players' bets say.
  const betOf = (h, i) => (h.phase === "over" ? 0 : h.players[i].bet || 0);
  hand.players.forEach((p, i) => {
    const seat = seatOf(after, i);
    const was = betOf(old, i);
    const now = betOf(hand, i);
    if (now > was) moves.push({ kind: "bet", seat });
    else if (now < was) moves.push({ kind: "collect", seat, amount: was });
  });
  if (hand.result && !old.result) {
    Object.entries(hand.result.payouts || {}).forEach(([p, amount]) => {
      if (amount > 0) moves.push({ kind: "award", seat: seatOf(after, Number(p)), amount });
    });
  }
  return moves;
}

// The places in a seat's cards where one card seen before is now another
// seen card, face up or down as it was: an exchange's. (A card rolled face
// up is the same card, or one first seen; a hidden one exchanged shows no change.)
export function replaced(before, after) {
  const places = [];
  before.forEach((held, i) => {
    const now = after[i];
    if (now && held.card && now.card && held.card !== now.card && Boolean(held.up) === Boolean(now.up)) places.push(i);
  });
  return places;
}

// Whether this page moves things: the player's choice, and the device's.
export function animationsOn(config) {
  if (!config.animations) return false;
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// How long the cards of `moves` take to land, in ms: the last one dealt
// starts a gap after the one before it.
export function dealMs(moves) {
  const cards = moves.filter((move) => move.kind === "deal").length;
  return cards ? DEAL_GAP_MS * (cards - 1) + DEAL_MS : 0;
}

// Plays `moves` on the freshly drawn felt. A promise that the cards dealt
// have landed, or null when none fly (nothing dealt, or nothing moves here).
export function animate(table, moves) {
  if (!moves.length || !animationsOn(table.config)) return null;
  const felt = byId("felt");
  if (!felt.animate) return null;
  const centre = middleOf(felt);
  const flights = [];
  let collected = false;
  moves.forEach((move) => {
    if (move.kind === "deal") {
      const node = felt.querySelectorAll(`.seat[data-seat="${move.seat}"] .hand-${move.group} .card`)[move.index];
      if (node) flights.push(flyFrom(node, centre, DEAL_MS, DEAL_GAP_MS * flights.length, true));
    } else if (move.kind === "bet") {
      const pile = felt.querySelector(`.seat-bet[data-seat="${move.seat}"]`);
      const seat = felt.querySelector(`.seat[data-seat="${move.seat}"] .seat-plate`);
      if (pile && seat) flyFrom(pile, middleOf(seat), CHIPS_MS, 0, false);
    } else if (move.kind === "collect") {
      const from = betDrawnAt(felt, move.seat) || spotOf(felt, move.seat, BET_SHARE);
      ghost(felt, move.amount, from, { x: 50, y: 50 }, 0);
      collected = true;
    } else if (move.kind === "award") {
      // After the bets have reached the pot, if they had to.
      ghost(felt, move.amount, { x: 50, y: 50 }, spotOf(felt, move.seat, 1), collected ? CHIPS_MS : 0);
    }
  });
  // A flight cut short (its card drawn again) has landed as well as any.
  return flights.length ? Promise.allSettled(flights.map((run) => run.finished)) : null;
}

function middleOf(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

// `node` arrives where it is drawn from `from` (a point on the screen); the Animation.
function flyFrom(node, from, duration, delay, small) {
  const here = middleOf(node);
  const start = { translate: `${from.x - here.x}px ${from.y - here.y}px`, opacity: 0 };
  if (small) start.scale = "0.4";
  return node.animate([start, { translate: "0 0", opacity: 1, scale: "1" }], {
    duration,
    delay,
    easing: "cubic-bezier(0.2, 0.7, 0.3, 1)",
    fill: "backwards",
  });
}

// The spot (in percent of the felt) `share` of the way out to a seat, as
// drawSeats placed it.
function spotOf(felt, seat, share) {
  const box = felt.querySelector(`.seat[data-seat="${seat}"]`);
  if (!box) return { x: 50, y: 50 };
  return towardsCentre({ x: parseFloat(box.style.left), y: parseFloat(box.style.top) }, share);
}

// A pile of `amount` chips that slides from one spot to another and goes.
function ghost(felt, amount, from, to, delay) {
  const pile = chipStack(amount, "seat-bet chip-ghost", false);
  pile.style.left = from.x + "%";
  pile.style.top = from.y + "%";
  felt.appendChild(pile);
  const dx = ((to.x - from.x) / 100) * felt.clientWidth;
  const dy = ((to.y - from.y) / 100) * felt.clientHeight;
  const run = pile.animate([{ translate: "0 0", opacity: 1 }, { translate: `${dx}px ${dy}px`, opacity: 0.2 }], {
    duration: CHIPS_MS,
    delay,
    easing: "ease-in",
    fill: "both",
  });
  run.onfinish = run.oncancel = () => pile.remove();
}
