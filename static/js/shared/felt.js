// Drawing on the felt, shared by the live table and the replayer: elements,
// cards (the history's templates/history/_card.html draws the same markup on
// the server) and seats. One module rather than several, so a page fetches
// few files before its keys work. Text goes in with textContent only: names
// and chat are other people's words.
import { cardFace, chips } from "./format.js";
import { BET_SHARES, betSpots, boxAt, chipPile, firstClear, seatSpot, towardsCentre } from "./layout.js";

export function byId(id) {
  return document.getElementById(id);
}

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

// A button that does `click`, and never submits a form.
export function button(label, className, click) {
  const b = el("button", className, label);
  b.type = "button";
  b.addEventListener("click", click);
  return b;
}

// One card; null is a card this viewer can't see, drawn as its back. A down
// card the viewer can see is marked as a hole card, and a wild card as wild.
// `spade` ("high" or "low"): Chicago's spade in the hole that won half the pot.
export function card(code, down = false, wild = false, spade = "") {
  const face = cardFace(code);
  if (!face) return el("span", "card card-back", "");
  const look = (face.red ? "card-red" : "card-black") + (down ? " card-hole" : "") + (wild ? " card-wild" : "");
  const node = el("span", "card " + look + (spade ? " card-spade" : ""));
  node.appendChild(el("span", "card-rank", face.rank));
  node.appendChild(el("span", "card-suit", face.suit));
  node.setAttribute("aria-label", face.label + (wild ? ", wild" : "") + (spade ? ", " + spade + " spade" : ""));
  if (spade) node.title = "The " + spade + " spade in the hole: it wins half the pot";
  node.dataset.card = code;
  return node;
}

// A seat's cards as the felt groups them. `cards` is the view's one list in
// dealing order, each {card, up} (card null: a down card this viewer can't
// see). The down cards go together, then the up cards, each group in dealing
// order, whatever order the game dealt them in; a card turned face up moves
// to the up group.
export function cardGroups(cards) {
  return {
    down: cards.filter((c) => !c.up).map((c) => c.card),
    up: cards.filter((c) => c.up).map((c) => c.card),
  };
}

// Where cardGroups puts the card at `position` in `cards`: {group, index},
// the group "down" or "up" and the card's place within it.
export function cardPlace(cards, position) {
  const up = Boolean(cards[position].up);
  const index = cards.slice(0, position).filter((c) => Boolean(c.up) === up).length;
  return { group: up ? "up" : "down", index };
}

// A seat's hand as the felt shows it: the down cards together (faces, tinted
// as hole cards, where this viewer may see them; backs where not), then the
// up cards everyone sees, each group fanned so every card's corner shows.
// A card the view marks wild ({card, up, wild: true}) is drawn as wild, and
// Chicago's winning spade (format.js's winningSpade, {card, half}) as that.
export function studCards(player, spade = null) {
  const row = el("div", "cards seat-cards");
  const down = el("span", "hand-down");
  const up = el("span", "hand-up");
  // In dealing order, each into its group, as cardGroups splits them.
  player.cards.forEach((held) => {
    const half = spade && held.card === spade.card ? spade.half : "";
    if (held.up) up.appendChild(card(held.card, false, Boolean(held.wild), half));
    else down.appendChild(card(held.card, true, Boolean(held.wild), half));
  });
  if (down.children.length) row.appendChild(down);
  if (up.children.length) row.appendChild(up);
  return row;
}

// The line under the street that says what is wild (format.js's
// wildsText), hidden when nothing is.
export function showWilds(node, text) {
  node.textContent = text;
  node.hidden = !text;
}

// A row of cards in the order given, all face up; those in `wild` drawn wild,
// and Chicago's winning spade ({card, half}) as that.
export function cardRow(codes, className, wild = [], spade = null) {
  const row = el("span", className);
  codes.forEach((c) => {
    const half = spade && c === spade.card ? spade.half : "";
    row.appendChild(card(c, false, wild.includes(c), half));
  });
  return row;
}

// The bug of Aces, Straights and Flushes: the joker in the centre of the
// felt, every hand's seventh card.
export function jokerCard() {
  const node = el("span", "card card-joker");
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", "the bug: a joker, every hand's seventh card");
  node.appendChild(el("span", "card-rank", "★"));
  node.appendChild(el("span", "joker-word", "JOKER"));
  node.dataset.card = "joker";
  return node;
}

// A seat around the felt; the caller says what it shows. seat: {number, name,
// stack, mine, turn, deciding, folded, winner, tags: [..], badges, player:
// the view's player ({cards, bet, ...}) or null when not dealt in, words,
// spade: Chicago's winning spade in its cards, {card, half}, or none}.
// `deciding`: still to make a choice everyone makes at once; `badges`:
// format.js's decisionBadges. Its cards sit above its name plate; its bet is
// drawn on the felt by drawSeats.
export function seatBox(seat) {
  const box = el("div", "seat");
  box.classList.toggle("seat-mine", Boolean(seat.mine));
  box.classList.toggle("seat-turn", Boolean(seat.turn));
  box.classList.toggle("seat-deciding", Boolean(seat.deciding));
  box.classList.toggle("seat-folded", Boolean(seat.folded));
  box.classList.toggle("seat-winner", Boolean(seat.winner));
  if (seat.player && seat.player.cards.length) box.appendChild(studCards(seat.player, seat.spade));
  const plate = el("div", "seat-plate");
  const head = el("div", "seat-head");
  const name = el("span", "seat-name", seat.name);
  name.title = seat.name; // whole, where a long one is cut short
  head.appendChild(name);
  head.appendChild(el("span", "seat-no", "#" + seat.number));
  plate.appendChild(head);
  plate.appendChild(el("div", "seat-stack", chips(seat.stack) + " chips"));
  if (seat.badges && seat.badges.length) plate.appendChild(badgeRow(seat.badges));
  if (seat.tags.length) plate.appendChild(el("div", "seat-tags", seat.tags.join(" · ")));
  if (seat.words) plate.appendChild(el("div", "seat-hand", seat.words));
  box.appendChild(plate);
  box.dataset.seat = String(seat.number);
  return box;
}

function badgeRow(badges) {
  const row = el("div", "seat-badges");
  badges.forEach((badge) => {
    const node = el("span", "seat-badge seat-badge-" + badge.kind);
    if (badge.hidden) node.appendChild(el("span", "visually-hidden", badge.hidden));
    node.appendChild(document.createTextNode(badge.text));
    row.appendChild(node);
  });
  return row;
}

// A pile of chips, with its amount beside it unless `counted` is false (the
// pot, whose amounts are written out under it): a bet in front of a seat.
export function chipStack(amount, className, counted = true) {
  const stack = el("div", "chip-stack " + className);
  const pile = el("span", "chip-pile");
  pile.setAttribute("aria-hidden", "true");
  chipPile(amount).forEach((value) => pile.appendChild(el("span", "chip chip-" + value)));
  stack.appendChild(pile);
  if (counted) stack.appendChild(el("span", "chip-count", chips(amount)));
  return stack;
}

// How tall the felt is for its width, as drawn now (a phone's stands up).
function feltAspect(felt) {
  return felt.clientWidth ? felt.clientHeight / felt.clientWidth : 0.5;
}

export const BET_SHARE = BET_SHARES[0]; // how far out from the centre a bet lies, towards its seat

// Draws the seats (replacing those drawn before): each of `seats` is
// {number, box, bet}, the box from seatBox or the caller's own. Seat `bottom`
// sits at 6 o'clock and the rest clockwise; a bet lies in front of its seat.
export function drawSeats(felt, seats, bottom, count) {
  const aspect = feltAspect(felt);
  // Everything is placed before the old seats go, so the felt is never left bare.
  const drawn = document.createDocumentFragment();
  seats.forEach(({ number, box, bet }) => {
    const spot = seatSpot(number, bottom, count, aspect);
    place(box, spot);
    drawn.appendChild(box);
    if (bet) {
      const pile = chipStack(bet, "seat-bet");
      pile.dataset.seat = String(number);
      pile.setAttribute("aria-label", "Seat " + number + " bets " + chips(bet));
      place(pile, towardsCentre(spot, BET_SHARE));
      drawn.appendChild(pile);
    }
  });
  clearSeats(felt);
  felt.appendChild(drawn);
  settleBets(felt);
}

// Each felt's seats' bets where settleBets last drew them, by seat number.
const settled = new WeakMap();

// Moves each bet that lies on a seat, the centre's words or another bet to
// the first clear spot of layout.js's betSpots, measured as drawn; one with
// no clear spot stays in front of its seat. Called again once the centre
// has changed, which it may have after the seats were drawn.
export function settleBets(felt) {
  const frame = felt.getBoundingClientRect();
  if (!frame.width || !frame.height) return;
  if (!settled.has(felt)) settled.set(felt, new Map());
  const inFelt = (r) => ({
    left: (100 * (r.left - frame.left)) / frame.width,
    top: (100 * (r.top - frame.top)) / frame.height,
    right: (100 * (r.right - frame.left)) / frame.width,
    bottom: (100 * (r.bottom - frame.top)) / frame.height,
  });
  const drawn = [...felt.querySelectorAll(".seat, .centre > *")].map((n) => n.getBoundingClientRect());
  const taken = drawn.filter((r) => r.width && r.height).map(inFelt);
  felt.querySelectorAll(".seat-bet:not(.chip-ghost)").forEach((pile) => {
    const seat = felt.querySelector(`.seat[data-seat="${pile.dataset.seat}"]`);
    const r = pile.getBoundingClientRect();
    if (!seat || !r.width) return;
    const spot = { x: parseFloat(seat.style.left), y: parseFloat(seat.style.top) };
    const size = { width: (100 * r.width) / frame.width, height: (100 * r.height) / frame.height };
    const spots = betSpots(spot, inFelt(seat.getBoundingClientRect()), size);
    const clear = firstClear(spots, size, taken) || spots[0];
    place(pile, clear);
    taken.push(boxAt(clear, size));
    settled.get(felt).set(Number(pile.dataset.seat), clear);
  });
}

// Where seat `number`'s bet was last drawn (on the felt, in percent), or
// null: the spot its chips leave from when they go to the pot.
export function betDrawnAt(felt, number) {
  const spots = settled.get(felt);
  return (spots && spots.get(number)) || null;
}

function place(node, spot) {
  node.style.left = spot.x + "%";
  node.style.top = spot.y + "%";
}

// Takes away the seats and bets drawn before, leaving the felt's centre.
export function clearSeats(felt) {
  felt.querySelectorAll(".seat, .seat-bet").forEach((n) => felt.removeChild(n));
}
