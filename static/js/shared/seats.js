// A seat around the felt, as the table and the replayer draw it. The caller
// says what the seat shows; this only lays it out.
import { el } from "./dom.js";
import { studCards } from "./cards.js";
import { chips } from "./format.js";

// seat: {number, name, stack, mine, turn, folded, winner, tags: [..],
// player: the hand's {down, up, bet} or null when not dealt in, words}.
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
