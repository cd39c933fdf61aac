// A home game whose host approves each seat. A member's pick of a free seat
// is a request (the "ask" dialog, as the buy-in dialog for a sit), which they
// see waiting and may withdraw; the host sees each request live, approves or
// refuses it, and turns approval on or off. The server checks every message
// again. The pure helpers come first and touch no page.
import { button, byId, el } from "../shared/felt.js";
import { chips } from "../shared/format.js";
import { BuyIn } from "./seat-controls.js";

// Whether the viewer asks the host for a seat rather than taking it.
export function asksForSeats(snap) {
  const home = snap.table.home;
  return Boolean(home && home.approval && snap.you && !snap.you.host && snap.table.is_open);
}

// What an empty seat says of the requests for it: to the host, who asked
// for it; to a member, that they did. "" when nothing.
export function seatAsked(snap, number) {
  const you = snap.you;
  if (!you || !snap.table.is_open) return "";
  if (you.seat_request && you.seat_request.seat === number) return "you asked for this seat";
  const askers = (you.seat_requests || []).filter((r) => r.seat === number).map((r) => r.player);
  return askers.length ? "asked for by " + askers.join(", ") : "";
}

// What became of the viewer's request between snapshots `before` and `after`,
// in words, or "" for nothing to say: seated means approved (the felt shows
// it), and a request they withdrew themselves needs no telling.
export function requestAnswer(before, after, withdrew) {
  const was = before && before.you && before.you.seat_request;
  if (!was || (after.you && (after.you.seat_request || after.you.seat))) return "";
  if (withdrew || !after.table.is_open) return "";
  if (after.table.home && !after.table.home.approval) {
    return "The host no longer approves each seat: pick an empty seat to sit down.";
  }
  return "The host didn’t seat you in seat " + was.seat + ". Pick a seat to ask again.";
}

// The member's line under the felt, as {text, withdraw}; null for none.
export function memberLine(snap, answer) {
  if (!snap.you || snap.you.seat || snap.you.host || !snap.table.is_open) return null;
  const mine = snap.you.seat_request;
  if (mine && asksForSeats(snap)) {
    return {
      text: "You asked for seat " + mine.seat + " with " + chips(mine.buy_in) + " chips: waiting for the host, " + snap.table.home.host + ", to approve it.",
      withdraw: true,
    };
  }
  if (answer) return { text: answer, withdraw: false };
  if (asksForSeats(snap)) {
    return { text: "The host, " + snap.table.home.host + ", approves each seat: pick an empty seat to ask for it.", withdraw: false };
  }
  return null;
}

// The host's panel as a key: drawn again only when this changes.
export function hostRequests(snap) {
  const home = snap.table.home;
  if (!home || !snap.you || !snap.you.host || !snap.table.is_open) return null;
  return { approval: home.approval, requests: home.approval ? snap.you.seat_requests || [] : [] };
}

// ---------------------------------------------------------------- the page

// The ask dialog: the buy-in dialog sending `seat_request`, which closes
// once the request shows. It keeps what became of the last request
// (`answer`), until the viewer asks again or sits.
export class SeatAsk extends BuyIn {
  constructor(table) {
    super(table, { id: "seat-ask", message: "seat_request", words: ["Ask the host", "Asking…"] });
    this.withdrew = false; // the viewer took back their request: no answer to tell
    this.answer = ""; // what became of the last request, until they ask again
    this.before = null;
  }

  submit() {
    const sent = super.submit();
    if (sent) this.withdrew = false;
    return sent;
  }

  withdraw() {
    this.withdrew = true;
    this.table.send({ type: "seat_request_withdraw" });
  }

  // Each snapshot: close once our request shows, and note what became of it.
  follow(snap) {
    const mine = snap.you && snap.you.seat_request;
    if (this.waiting !== null && mine && mine.seat === this.waiting) this.close();
    const answer = requestAnswer(this.before, snap, this.withdrew);
    if (answer) this.answer = answer;
    if (mine || (snap.you && snap.you.seat)) this.answer = "";
    if (!mine) this.withdrew = false;
    this.before = snap;
  }
}

export function renderSeatRequests(table) {
  const snap = table.state.snap;
  table.seatAsk.follow(snap);
  renderMember(table, snap);
  renderHostList(table, snap);
}

function renderMember(table, snap) {
  const box = byId("seat-request");
  if (!box) return; // a table of the room, or a visitor
  const line = memberLine(snap, table.seatAsk.answer);
  box.hidden = !line;
  // This line says how to sit here: the seat controls' "pick a seat to sit
  // down" (seat-controls.js, drawn just before) would say otherwise.
  byId("seat-controls").hidden = Boolean(line);
  box.textContent = "";
  if (!line) return;
  box.appendChild(el("p", "seat-request-words", line.text));
  if (line.withdraw) box.appendChild(button("Withdraw request", "button button-quiet button-small", () => table.seatAsk.withdraw()));
}

function renderHostList(table, snap) {
  const panel = byId("seat-requests");
  if (!panel) return;
  const mode = hostRequests(snap);
  const key = JSON.stringify(mode);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  panel.hidden = !mode;
  const box = byId("seat-requests-body");
  box.textContent = "";
  if (!mode) return;
  box.appendChild(approvalSwitch(table, mode.approval));
  if (!mode.approval) return;
  const list = el("ul", "seat-request-list");
  if (!mode.requests.length) list.appendChild(el("li", "help", "No requests waiting."));
  for (const request of mode.requests) list.appendChild(requestRow(table, request));
  box.appendChild(list);
}

// Forgets the host's list as drawn, so it is drawn afresh (buttons enabled
// again) after a refusal of one of its commands.
export function redrawSeatRequests(table) {
  const panel = byId("seat-requests");
  if (panel) delete panel.dataset.key;
  if (table.state.snap) renderHostList(table, table.state.snap);
}

function approvalSwitch(table, on) {
  const label = el("label", "seat-choice");
  const tick = el("input");
  tick.type = "checkbox";
  tick.name = "seat-approval";
  tick.checked = on;
  tick.addEventListener("change", () => table.send({ type: "home_approval", on: tick.checked }));
  label.appendChild(tick);
  label.appendChild(document.createTextNode(" I approve each seat"));
  const row = el("div", "host-row");
  row.appendChild(label);
  const help = on ? "A friend who picks a seat asks you for it." : "Anyone with the link may sit.";
  row.appendChild(el("span", "help", help));
  return row;
}

function requestRow(table, request) {
  const row = el("li", "seat-request-row");
  row.dataset.player = request.player;
  const words = el("span", "seat-request-ask");
  words.appendChild(el("strong", "host-name", request.player));
  words.appendChild(document.createTextNode(" asks for seat " + request.seat + " with " + chips(request.buy_in) + " chips"));
  row.appendChild(words);
  const answer = (type) => () => {
    row.querySelectorAll("button").forEach((b) => (b.disabled = true));
    table.send({ type, player: request.player });
  };
  row.appendChild(button("Approve", "button button-small", answer("home_approve")));
  row.appendChild(button("Refuse", "button button-quiet button-small", answer("home_refuse")));
  return row;
}
