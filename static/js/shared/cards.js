// Cards on the felt, as the table and the replayer draw them (the history's
// templates/history/_card.html draws the same markup on the server).
import { el } from "./dom.js";
import { cardFace } from "./format.js";

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
