// The hand log in words. The server tells each hand event (the same narrator
// writes the hand page, the text export and PHH's commentary, in
// tables/rules/narration.py); this adds the hand headings and the seat changes
// that no hand event tells. Pure: it returns text, and log.js puts it on the
// page, so node's tests read every line.
export const SAT_OUT_FOR_TIMEOUTS = "sat out: two turns timed out";

// The player at seat `number` in `snap`: for a seat dealt into its hand, the
// name the hand keeps (they may have left since, and another sat there);
// else whoever sits there now; else "Seat 3".
export function seatName(snap, number) {
  const info = snap.hand_info;
  const p = info ? info.seats.indexOf(number) : -1;
  if (p >= 0 && info.names && info.names[p]) return info.names[p];
  const seat = snap.table.seats.find((s) => s.number === number);
  return seat ? seat.player : "Seat " + number;
}

// The log's lines for one hand after another: a heading when a new hand's
// events begin, then the line the server told for each event.
export class Narration {
  constructor() {
    this.hand = null;
  }

  // {heading, text} for `message` (an `event` message), with `snap`'s hand
  // number for the heading; either may be null (an event with no line of its own).
  next(message, snap) {
    let heading = null;
    if (message.hand_id !== this.hand) {
      this.hand = message.hand_id;
      const info = snap.hand_info;
      heading = "Hand" + (info && info.id === message.hand_id ? " #" + info.number : "");
    }
    return { heading, text: message.text || null };
  }
}

// What changed at the seats between two snapshots that no hand event tells.
export function seatChanges(before, after) {
  const lines = [];
  const old = new Map(before.table.seats.map((s) => [s.number, s]));
  const now = new Map(after.table.seats.map((s) => [s.number, s]));
  after.table.seats.forEach((s) => {
    const was = old.get(s.number);
    if (!was || was.player !== s.player) lines.push(s.player + " sits down in seat " + s.number);
    else if (s.sat_out_for === "timeouts" && was.sat_out_for !== "timeouts") {
      lines.push(s.player + " " + SAT_OUT_FOR_TIMEOUTS);
    }
  });
  before.table.seats.forEach((s) => {
    const still = now.get(s.number);
    if (!still || still.player !== s.player) lines.push(s.player + " leaves the table");
  });
  return lines;
}
