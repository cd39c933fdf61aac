// Draws a snapshot: the seats, the centre (stage, turn, board, pots), the
// last hand's summary and the header's balance.
import { byId, card, cardRow, chipStack, drawSeats, el, jokerCard, seatBox, showWilds } from "../shared/felt.js";
import {
  chips,
  decidingAtOnce,
  decisionBadges,
  handTags,
  handWords,
  potsInPlay,
  wildsText,
  winningSpade,
  winsByPlayer,
} from "../shared/format.js";
import { decide, openDecision } from "./actions.js";
import { botTags } from "./home-bots.js";
import { timerBar } from "./clock.js";
import { cardPicks, decisionTurn, makePickable, markChosen } from "./decisions.js";
import { callOf, choosingWords } from "./games.js";
import { SAT_OUT_FOR_TIMEOUTS, seatName } from "./narrate.js";
import { asksForSeats, seatAsked } from "./seat-requests.js";
import { engineIndex, seatOf } from "./state.js";

// A seat with no chips behind it and no hand: dealt out until its player rebuys.
export const OUT_OF_CHIPS = "out of chips";

// Seat number -> "wins 24 (main pot)" for the finished hand's winners.
export function winnersBySeat(snap) {
  const out = {};
  const byPlayer = winsByPlayer(snap.hand && snap.hand.result);
  Object.keys(byPlayer).forEach((p) => (out[seatOf(snap, Number(p))] = byPlayer[p]));
  return out;
}

export function renderSeats(table) {
  const snap = table.state.snap;
  const bySeat = new Map(snap.table.seats.map((s) => [s.number, s]));
  const winners = winnersBySeat(snap);
  const seats = [];
  for (let n = 1; n <= table.config.seatCount; n++) {
    if (bySeat.has(n)) seats.push(occupiedSeat(table, bySeat.get(n), winners));
    else seats.push({ number: n, box: emptySeat(table, n), bet: 0 });
  }
  // A card to pick in focus keeps it when the felt is drawn again.
  const focused = document.activeElement && document.activeElement.closest(".card-pick");
  drawSeats(byId("felt"), seats, table.mySeat() || 1, table.config.seatCount);
  const again = focused && document.querySelector('#felt .card-pick[data-card="' + focused.dataset.card + '"]');
  if (again) again.focus();
}

// A taken seat as drawSeats takes it: {number, box, bet}.
function occupiedSeat(table, seat, winners) {
  const snap = table.state.snap;
  const p = engineIndex(snap, seat.number);
  const hp = p >= 0 && snap.hand ? snap.hand.players[p] : null;
  const info = snap.hand_info;
  const live = Boolean(hp) && snap.hand.phase !== "over";
  // The dealer calling the next game is on the clock, as a player to act is.
  const call = callOf(snap);
  const calling = Boolean(call) && call.seat === seat.number;
  const turn = (live && snap.hand.to_act === p) || calling;
  // A choice everyone makes at once: each still choosing is on the clock.
  const deciding = live && decidingAtOnce(snap.hand) && (snap.hand.deciding || []).includes(p);
  const result = snap.hand && snap.hand.result;
  const mine = seat.number === table.mySeat();
  const box = seatBox({
    number: seat.number,
    name: seat.player,
    stack: hp && !info.finished ? hp.stack : seat.stack,
    mine,
    turn,
    deciding,
    folded: hp && hp.folded,
    winner: winners[seat.number],
    tags: [...botTags(snap, seat), ...seatTags(seat, hp, info, winners[seat.number], mine && snap.you.sitting_out_next, call)],
    badges: hp ? decisionBadges(snap.hand, p) : [],
    player: hp,
    words: hp && result ? handWords(snap.hand, p) : "",
    spade: hp ? winningSpade(result, p) : null,
  });
  if ((turn || deciding) && table.state.timer) box.querySelector(".seat-plate").appendChild(timerBar("seat-timer"));
  if (mine && live && snap.hand.phase === "deciding") {
    makePickable(box, cardPicks(snap.hand, openDecision(table)), (kind, code) => decide(table, kind, code));
    markChosen(box, snap.hand.your_choice);
  }
  return { number: seat.number, box, bet: live ? hp.bet : 0 };
}

// Everything a taken seat's tags say, in order: the seat's state, the hand's
// (folded, all in, mucked), leaving, dealer, and what it won. `sittingOutNext`:
// the viewer's own seat sits out when its hand ends, which only they are told.
// While the next hand's dealer calls its game (`call`), the button is theirs.
export function seatTags(seat, hp, info, won, sittingOutNext, call) {
  const tags = [];
  if (seat.state === "sitting_out" && seat.sat_out_for === "timeouts") tags.push(SAT_OUT_FOR_TIMEOUTS);
  else if (seat.state !== "playing") tags.push(seat.state.replace("_", " "));
  // Busted: dealt out until they buy back in.
  else if (!hp && seat.stack === 0) tags.push(OUT_OF_CHIPS);
  // Sat down during a hand: dealt in from the next one.
  else if (!hp && info && !info.finished) tags.push("next hand");
  if (sittingOutNext) tags.push("sitting out next hand");
  if (hp) tags.push(...handTags(hp));
  if (seat.leaving) tags.push("leaving after this hand");
  const dealer = call ? call.seat : info && info.dealer;
  if (dealer === seat.number) tags.push("dealer");
  if (won) tags.push(won);
  return tags;
}

function emptySeat(table, number) {
  const box = el("div", "seat seat-empty");
  box.appendChild(el("div", "seat-no", "Seat " + number));
  const snap = table.state.snap;
  // A seat held for the next player on the waiting list is theirs alone to take.
  const held = (snap.table.held_seats || []).includes(number);
  const mine = Boolean(snap.you && snap.you.offer && snap.you.offer.seat === number);
  // At a home game whose host approves each seat: who asked for it, and a
  // member asks for one seat at a time (seat-requests.js).
  const asked = seatAsked(snap, number);
  if (held && !mine) box.appendChild(el("div", "seat-held", "held for the waiting list"));
  else if (asked) box.appendChild(el("div", "seat-held seat-asked", asked));
  if ((!held || mine) && table.config.loggedIn && !table.mySeat() && snap.table.is_open && !(snap.you && snap.you.seat_request)) {
    const b = el("button", "button button-small", asksForSeats(snap) ? "Ask for seat" : "Sit here");
    b.type = "button";
    b.addEventListener("click", () => table.sit(number));
    box.appendChild(b);
  }
  box.dataset.seat = String(number);
  return box;
}

// "Hand #3 · 5th street", "Waiting for players", …, and whose turn it is;
// while the dealer calls the next game, who is choosing it. `wilds`: what
// is wild, said only while the centre speaks of the hand: the last hand's
// wild cards may not be the next's.
export function centreWords(snap, mine) {
  const idle = idleWords(snap, mine);
  if (idle) return { ...idle, wilds: "" };
  const hand = snap.hand;
  let stage = hand.street;
  if (hand.phase === "over") stage = hand.result && !hand.result.uncontested ? "showdown" : "over";
  let turn = "";
  if (hand.phase === "deciding") turn = decisionTurn(snap, mine);
  else if (hand.phase !== "over" && hand.to_act !== null) {
    const seat = seatOf(snap, hand.to_act);
    turn = seat === mine ? "Your turn" : seatName(snap, seat) + " to act";
  }
  return { heading: "Hand #" + snap.hand_info.number + " · " + stage, turn, wilds: wildsText(hand) };
}

// The centre's words when it speaks of no hand: the game being called, a
// table waiting for players, paused or closed; null when there is a hand.
function idleWords(snap, mine) {
  const waiting = snap.table.waiting;
  const call = callOf(snap);
  if (call) {
    const turn = call.seat === mine ? "Your call: choose the game" : choosingWords(call);
    return { heading: "Dealer’s choice", turn };
  }
  if (waiting === "players") {
    return { heading: "Waiting for players", turn: "A hand starts once two players with chips are sitting in." };
  }
  if (waiting === "closed") return { heading: "The table is closed", turn: "No new hands start here." };
  if (waiting === "paused") {
    return { heading: "Paused by the host", turn: "No new hand starts until the host resumes the game." };
  }
  if (!snap.hand) return { heading: "Waiting for players", turn: "" };
  return null;
}

export function renderCentre(table) {
  const snap = table.state.snap;
  const words = centreWords(snap, table.mySeat());
  byId("street").textContent = words.heading;
  byId("turn").textContent = words.turn;
  showWilds(byId("wilds"), words.wilds);
  const community = byId("community");
  community.textContent = "";
  const pots = byId("pots");
  pots.textContent = "";
  if (!snap.hand) return;
  snap.hand.community.forEach((c) => community.appendChild(card(c)));
  if (snap.hand.bug) community.appendChild(jokerCard());
  // The chips already in the middle; the street's bets lie before their seats.
  const collected = snap.hand.pots.reduce((sum, pot) => sum + pot.amount, 0);
  if (collected && snap.hand.phase !== "over") pots.appendChild(chipStack(collected, "pot-chips", false));
  potsInPlay(snap.hand).forEach((text) => pots.appendChild(el("div", "pot", text)));
}

export function renderLastHand(table) {
  const lastHand = table.state.lastHand;
  const box = byId("last-hand");
  if (!lastHand) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  byId("last-hand-number").textContent = "#" + lastHand.number;
  const link = byId("last-hand-link");
  link.hidden = !lastHand.review;
  if (lastHand.review) link.href = table.reviewUrl(lastHand.id);
  const list = byId("last-hand-rows");
  list.textContent = "";
  lastHand.rows.forEach((row) => {
    const line = el("li", "last-row" + (row.won ? " last-winner" : ""));
    const name = el("span", "last-name", row.name);
    name.title = row.name; // whole, where a long one is cut short
    line.appendChild(name);
    if (row.cards) line.appendChild(cardRow(row.cards, "cards cards-small last-cards", row.wild, row.spade));
    if (row.words) line.appendChild(el("span", "last-words", row.words));
    if (row.mucked) line.appendChild(el("span", "last-mucked", "mucked"));
    if (row.won) line.appendChild(el("span", "last-won", "wins " + chips(row.won)));
    list.appendChild(line);
  });
  lastHand.pots.forEach((text) => list.appendChild(el("li", "last-pot", text)));
  if (lastHand.rake) list.appendChild(el("li", "last-rake", "Rake taken: " + chips(lastHand.rake)));
}

// The header's balance was rendered with the page; buy-ins and cash-outs move it.
export function renderBalance(table) {
  const shown = document.querySelector(".site-header .balance-count");
  const you = table.state.snap.you;
  if (shown && you && typeof you.balance === "number") shown.textContent = chips(you.balance);
}
