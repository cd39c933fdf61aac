// What the table page knows: the last snapshot (the whole truth), the events
// waiting for the snapshot that follows them, the clock, and the summary of
// the last finished hand. Pure: no page, no socket, so node tests it.
import { chips, halfWon, potTitle, winningSpade, wordsOf } from "../shared/format.js";
import { seatName } from "./narrate.js";

// The seat number of the engine's player `player` in `snap`'s hand.
export function seatOf(snap, player) {
  return snap.hand_info ? snap.hand_info.seats[player] : player + 1;
}

// The engine's index of the player at seat `number`, or -1 when not dealt in.
export function engineIndex(snap, number) {
  return snap.hand_info ? snap.hand_info.seats.indexOf(number) : -1;
}

export function mySeat(snap) {
  return snap.you ? snap.you.seat : null;
}

export function handId(snap) {
  return snap && snap.hand_info ? snap.hand_info.id : null;
}

// Whether the snapshot's viewer was dealt into its hand (the view names them).
export function dealtIn(snap) {
  return Boolean(snap.hand && snap.hand.viewer !== null && snap.hand.viewer !== undefined);
}

// What a finished hand came to, from its last snapshot (hands in words) or,
// if the next hand came first, from its show, muck and result events (no
// words). A row for every player who reached the showdown or won: a hand
// mucked unshown is `mucked`, with cards and words for its own player only.
// The players are named as the hand keeps them, whoever sits there now.
// `review`: whether this viewer may open it in the hand history.
export function summarize(snap, events, allHands) {
  const info = snap.hand_info;
  if (!info) return null;
  const nameOf = (seat) => seatName(snap, seat);
  const result = snap.hand && snap.hand.result;
  const shown = result ? shownInResult(snap.hand) : shownInEvents(info.id, events);
  if (!shown) return null;
  const rows = [];
  info.seats.forEach((seat, p) => {
    const hand = shown.hands[p];
    const mucked = Boolean(shown.mucked[p]);
    if (!hand && !mucked && !shown.payouts[p]) return;
    // Chicago: the card that won a spade half, in the shown hand's cards.
    const spade = winningSpade(result, p);
    rows.push({
      seat,
      name: nameOf(seat),
      cards: hand ? hand.cards : null,
      wild: hand && hand.wild ? hand.wild : [],
      words: hand ? hand.words : "",
      won: shown.payouts[p] || 0,
      mucked,
      ...(spade ? { spade } : {}),
    });
  });
  return {
    id: info.id,
    number: info.number,
    words: Boolean(result),
    rows,
    pots: result ? potLines(result, info.seats, nameOf) : [],
    rake: result ? result.rake : 0,
    // Dealt in: still true once the player has left the table.
    review: Boolean(allHands) || dealtIn(snap),
  };
}

// The shown hands of a finished hand's view, and the viewer's own if it was
// mucked (the view tells only its owner what that hand was).
function shownInResult(view) {
  const result = view.result;
  const hands = {};
  const told = (hand) => ({ cards: hand.cards, words: wordsOf(hand), wild: hand.wild || [] });
  Object.keys(result.hands).forEach((p) => (hands[p] = told(result.hands[p])));
  if (view.your_hand && typeof view.viewer === "number") hands[view.viewer] = told(view.your_hand);
  const mucked = {};
  (view.players || []).forEach((player, p) => (mucked[p] = Boolean(player.mucked)));
  return { hands, mucked, payouts: result.payouts };
}

function shownInEvents(id, events) {
  const hands = {};
  const mucked = {};
  let payouts = null;
  events.forEach((m) => {
    if (m.hand_id !== id) return;
    if (m.event.type === "show") hands[m.event.player] = { cards: m.event.cards, words: "" };
    if (m.event.type === "muck") mucked[m.event.player] = true;
    if (m.event.type === "result") payouts = m.event.payouts;
  });
  return payouts ? { hands, mucked, payouts } : null;
}

// "Main pot 40: alice 20 (high), bob 20 (low)": one line a pot, when the
// chips went more than one way.
export function potLines(result, seats, nameOf) {
  const split = result.pots.length > 1 || result.pots.some((pot) => pot.shares.length > 1);
  if (!split) return [];
  return result.pots.map((pot, i) => {
    const shares = pot.shares.map(([player, amount]) => {
      const half = halfWon(result, pot, player);
      return nameOf(seats[player]) + " " + chips(amount) + (half ? " (" + half + ")" : "");
    });
    return potTitle(i, result.pots.length) + " " + chips(pot.amount) + ": " + shares.join(", ");
  });
}

// The last hand's summary after the snapshot `after`, which followed `before`
// and `events`. A hand that ended unseen is summed up from its events, unless
// its own last snapshot already told it in words.
export function nextLastHand(lastHand, before, after, events, allHands) {
  const shownId = handId(before);
  if (shownId !== null && after.hand_info && after.hand_info.id !== shownId) {
    const summary = summarize(before, events, allHands);
    if (summary && (!lastHand || lastHand.id !== summary.id || !lastHand.words)) lastHand = summary;
  }
  if (after.hand && after.hand.result) lastHand = summarize(after, [], allHands);
  return lastHand;
}

// The events this page logged, per hand. Each event message says where it
// stands in its hand (`index`, from 0), and the server sends a hand again from
// its first event to a new connection and in reply to a snapshot the page
// asks for: what was logged before is not logged again. Nor is an event that
// comes before some of its hand's earlier ones (a message went missing): the
// page then asks for a snapshot (`takeGap`), whose replay brings them all, in
// order. Events that come after the same missing one, before the replay does,
// are not a new gap: it was asked for once.
export class EventLedger {
  constructor() {
    this.logged = {}; // hand id -> how many of its events, from its first, were logged
    this.gap = false; // an event came before some of its hand's earlier ones
    this.gapAt = {}; // hand id -> the index of its missing event last found
  }

  // Whether `message`, an event message, is the next of its hand to log.
  isNew(message) {
    const hand = message.hand_id;
    const logged = this.logged[hand] || 0;
    if (message.index > logged && this.gapAt[hand] !== logged) {
      this.gap = true;
      this.gapAt[hand] = logged;
    }
    if (message.index !== logged) return false;
    this.logged[hand] = logged + 1;
    return true;
  }

  // Whether events went missing, in a gap not found before, since the last call.
  takeGap() {
    const gap = this.gap;
    this.gap = false;
    return gap;
  }
}

// The chat lines shown; a new connection is sent the recent ones again.
export class ChatLedger {
  constructor() {
    this.lastId = 0;
  }

  isNew(message) {
    if (typeof message.id !== "number") return true;
    if (message.id <= this.lastId) return false;
    this.lastId = message.id;
    return true;
  }
}

export class TableState {
  constructor({ allHands = false } = {}) {
    this.allHands = allHands;
    this.snap = null;
    this.pending = []; // events waiting for the snapshot that follows them
    this.lastHand = null; // kept until the next hand ends
    this.timer = null; // the running turn's clock, or null
    this.skew = 0; // the server's clock minus ours, in ms, from the last `timer`
    this.events = new EventLedger();
    this.chat = new ChatLedger();
  }

  reconnect() {
    this.pending = [];
  }

  event(message) {
    this.pending.push(message);
  }

  // Takes snapshot `message` and returns the events it ends, to log in this
  // order: `early`, of the hand shown until now, told with `before`'s seating;
  // `late`, a new hand's, told with the new one, so every line names the
  // right player. `ended`: the new snapshot's {id, result} when it has both.
  snapshot(message) {
    const events = this.pending;
    this.pending = [];
    const before = this.snap;
    const shownId = handId(before);
    this.lastHand = nextLastHand(this.lastHand, before, message, events, this.allHands);
    this.snap = message;
    // The turn's clock, or between hands the dealer's, calling the next game.
    const call = message.table && message.table.call;
    this.timer = (message.hand_info && message.hand_info.timer) || (call && call.timer) || null;
    const info = message.hand_info;
    return {
      before,
      early: before ? events.filter((m) => m.hand_id === shownId) : [],
      late: events.filter((m) => m.hand_id !== shownId),
      ended: info && message.hand ? { id: info.id, result: message.hand.result } : null,
    };
  }

  // A `timer` message; `now` is our clock in ms. One with no deadline stops
  // the clock; one with a deadline and no seat times a choice everyone
  // still to choose makes at once.
  clock(message, now) {
    const serverNow = Date.parse(message.now);
    if (!isNaN(serverNow)) this.skew = serverNow - now;
    this.timer = message.deadline ? message : null;
  }
}

// Whether the viewer of `snap` may open hand `id` in the history: staff with
// every hand (`allHands`), or a player dealt into it.
export function mayReview(snap, id, allHands) {
  if (allHands) return true;
  return Boolean(handId(snap) === id && dealtIn(snap));
}
