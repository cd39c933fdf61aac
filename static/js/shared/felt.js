// Drawing on the felt, shared by the live table and the replayer: elements,
// cards (the history's templates/history/_card.html draws the same markup on
// the server) and seats. One module rather than several, so a page fetches
// few files before its keys work. Text goes in with textContent only: names
// and chat are other people's words.
import { cardFace, chips } from "./format.js";

export function byId(id) {
  return document.getElementById(id);
}

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

// One card; null is a card this viewer can't see, drawn as its back. A down
// card the viewer can see is marked as a hole card.
export function card(code, down = false) {
  const face = cardFace(code);
  if (!face) return el("span", "card card-back", "");
  const node = el("span", "card " + (face.red ? "card-red" : "card-black") + (down ? " card-hole" : ""));
  node.appendChild(el("span", "card-rank", face.rank));
  node.appendChild(el("span", "card-suit", face.suit));
  node.setAttribute("aria-label", face.label);
  node.dataset.card = code;
  return node;
}

// A stud hand in dealing order: the two first down cards, the up cards, then
// the last down card.
export function studCards(player) {
  const row = el("div", "cards cards-small");
  player.down.slice(0, 2).forEach((c) => row.appendChild(card(c, true)));
  player.up.forEach((c) => row.appendChild(card(c)));
  player.down.slice(2).forEach((c) => row.appendChild(card(c, true)));
  return row;
}

// A row of cards in the order given, all face up.
export function cardRow(codes, className) {
  const row = el("span", className);
  codes.forEach((c) => row.appendChild(card(c)));
  return row;
}

// A seat around the felt; the caller says what it shows. seat: {number, name,
// stack, mine, turn, folded, winner, tags: [..], player: the hand's {down,
// up, bet} or null when not dealt in, words}.
export function seatBox(seat) {
  const box = el("div", "seat");
  box.classList.toggle("seat-mine", Boolean(seat.mine));
  box.classList.toggle("seat-turn", Boolean(seat.turn));
  box.classList.toggle("seat-folded", Boolean(seat.folded));
  box.classList.toggle("seat-winner", Boolean(seat.winner));
  const head = el("div", "seat-head");
  head.appendChild(el("span", "seat-name", seat.name));
  head.appendChild(el("span", "seat-no", "#" + seat.number));
  box.appendChild(head);
  box.appendChild(el("div", "seat-stack", chips(seat.stack) + " chips"));
  if (seat.tags.length) box.appendChild(el("div", "seat-tags", seat.tags.join(" · ")));
  if (seat.player) {
    box.appendChild(studCards(seat.player));
    if (seat.player.bet) box.appendChild(el("div", "seat-bet", "bet " + chips(seat.player.bet)));
    if (seat.words) box.appendChild(el("div", "seat-hand", seat.words));
  }
  box.dataset.seat = String(seat.number);
  return box;
}

// Seat `bottom` sits at 6 o'clock; the others follow clockwise.
export function placeSeat(box, number, bottom, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * (number - bottom)) / count;
  box.style.left = 50 + 46 * Math.cos(angle) + "%";
  box.style.top = 50 + 44 * Math.sin(angle) + "%";
}

// Takes away the seats drawn before, leaving the felt's centre.
export function clearSeats(felt) {
  felt.querySelectorAll(".seat").forEach((n) => felt.removeChild(n));
}
