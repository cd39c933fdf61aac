// The hand log in words: each event of a hand told as a line, and the seat
// changes that no hand event tells. Pure: it returns text, and log.js puts
// it on the page, so node's tests read every line.
import { cardText, chips, winnings } from "../shared/format.js";
import { seatOf } from "./state.js";

export const SAT_OUT_FOR_TIMEOUTS = "sat out: two turns timed out";

// The player sitting at seat `number` in `snap`, or "Seat 3" once gone.
export function seatName(snap, number) {
  const seat = snap.table.seats.find((s) => s.number === number);
  return seat ? seat.player : "Seat " + number;
}

// "Seat 3 (alice)": the engine's player `player` in `snap`'s hand.
export function who(snap, player) {
  const number = seatOf(snap, player);
  const seat = snap.table.seats.find((s) => s.number === number);
  return "Seat " + number + (seat ? " (" + seat.player + ")" : "");
}

// The chips each player has put in on this street, to say what a call costs.
export class StreetBets {
  constructor() {
    this.reset();
  }

  reset() {
    this.street = null;
    this.bets = {};
  }

  // The chips `e` puts in, beyond what its player had in on this street; null
  // for an event without a `total`.
  putIn(e) {
    if (typeof e.street === "number" && e.street !== this.street) {
      this.street = e.street;
      this.bets = {};
    }
    if (e.type === "return") this.bets[e.player] = (this.bets[e.player] || 0) - e.amount;
    if (typeof e.total !== "number") return null;
    const chipsIn = e.total - (this.bets[e.player] || 0);
    this.bets[e.player] = e.total;
    return chipsIn;
  }
}

// One event as a sentence, or null for one the log doesn't tell (a down
// card). `result` is the hand's result when the snapshot after it has one:
// it names the pots and halves the result event's payouts don't.
export function tell(e, { snap, chipsIn = null, result = null }) {
  const name = () => who(snap, e.player);
  const allIn = e.all_in ? ", all in" : "";
  switch (e.type) {
    case "ante":
      return name() + " antes " + chips(e.amount);
    case "bring_in":
      return name() + " brings in " + chips(e.total) + allIn;
    case "complete":
      return name() + " completes to " + chips(e.total) + allIn;
    case "bet":
      return name() + " bets " + chips(e.total) + allIn;
    case "raise":
      return name() + " raises to " + chips(e.total) + allIn;
    case "call":
      return name() + " calls " + chips(chipsIn) + allIn;
    case "check":
      return name() + " checks";
    case "fold":
      return name() + " folds";
    case "protect":
      return name() + " ran out of time: all in for the " + e.put_in + " put in so far";
    case "deal":
      return e.up ? name() + " is dealt " + cardText(e.card) : null;
    case "board":
      return "Community card: " + cardText(e.card);
    case "return":
      return name() + " takes back " + chips(e.amount) + " uncalled";
    case "show":
      return name() + " shows " + e.cards.map(cardText).join(" ");
    case "muck":
      return name() + " mucks";
    case "result":
      return tellResult(e, snap, result);
    default:
      return null;
  }
}

function tellResult(e, snap, result) {
  const won = [];
  if (result) {
    winnings(result).forEach((win) => won.push(who(snap, win.player) + " " + win.text));
  } else {
    e.payouts.forEach((n, p) => {
      if (n) won.push(who(snap, p) + " wins " + chips(n));
    });
  }
  return won.join(", ") + (e.rake ? " (rake " + chips(e.rake) + ")" : "");
}

// The log's lines for one hand after another: a heading when a new hand's
// events begin, then each event, with what each call cost on its street.
export class Narration {
  constructor() {
    this.hand = null;
    this.bets = new StreetBets();
  }

  // {heading, text} for `message` (an `event` message), told with `snap`'s
  // seating; either may be null. `ended` is {id, result} of a finished hand.
  next(message, snap, ended = null) {
    let heading = null;
    if (message.hand_id !== this.hand) {
      this.hand = message.hand_id;
      this.bets.reset();
      const info = snap.hand_info;
      heading = "Hand" + (info && info.id === message.hand_id ? " #" + info.number : "");
    }
    const e = message.event;
    const chipsIn = this.bets.putIn(e);
    const result = ended && ended.id === message.hand_id ? ended.result : null;
    let text = tell(e, { snap, chipsIn, result });
    if (text && e.timed_out) text += " (out of time)";
    return { heading, text };
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
