// The part of the page under the felt stays put while a seated player plays:
// the move area (the move buttons, or the advance actions while another
// acts) keeps the most room it has taken, so the seat's controls and a host's
// panel below it don't jump as turns come and go, and a click meant for one
// of them lands on it. The room is measured again when the window's width
// changes (a phone turned), and given up when the player stands. The
// dealer's call of a game, taller than any move and over in seconds, is let
// past without being kept.
import { byId } from "../shared/felt.js";
import { myCall } from "./games.js";

// The room to keep: the most kept so far (`kept`, {width, height}, or null)
// and the area's own height now, at window width `width`; null when nothing
// is kept (not seated). A call's height is not kept, nor one from a width
// the window no longer has.
export function roomToKeep(kept, { seated, calling, width, height }) {
  if (!seated) return null;
  const before = kept && kept.width === width ? kept.height : 0;
  return { width, height: calling ? before : Math.max(before, height) };
}

export function keepMoveRoom(table) {
  const area = byId("move-area");
  if (!area) return;
  const seated = Boolean(table.mySeat());
  // Seated, the area starts with room for a row of moves and the advance
  // actions (table.css): the first turns move nothing either.
  area.classList.toggle("move-area-seated", seated);
  area.style.minHeight = ""; // its own height, to measure
  table.moveRoom = roomToKeep(table.moveRoom, {
    seated,
    calling: myCall(table.state.snap),
    width: window.innerWidth,
    height: area.offsetHeight,
  });
  if (table.moveRoom && table.moveRoom.height) area.style.minHeight = table.moveRoom.height + "px";
}
