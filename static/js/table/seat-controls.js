// The viewer's own seat: the buy-in dialog to sit down, and the choices to
// sit out or in, leave or stay.
import { byId, el } from "../shared/felt.js";
import { chips } from "../shared/format.js";

// Why `text` is not a whole number of chips from `min` to `max`, or "" when it
// is: the buy-in's check, and the top-up's and rebuy's (chip-controls.js).
export function amountProblem(text, min, max) {
  const amount = Number(text);
  if (!/^[0-9]+$/.test(text) || amount < min || amount > max) {
    return "Enter a whole number of chips from " + chips(min) + " to " + chips(max) + ".";
  }
  return "";
}

// The buy-in dialog. `waiting` is the seat it waits to see us in once the
// message is sent, else null. Its elements are `<id>`, `<id>-form`,
// `<id>-seat`, `<id>-amount`, `<id>-error`, `<id>-submit` and
// `<id>-cancel`; it sends `message` (`sit`) with the seat and the buy-in,
// its button saying `words` ([idle, busy]). A home game's seat request is
// its subclass (`SeatAsk`, in seat-requests.js).
export class BuyIn {
  constructor(table, { id = "buy-in", message = "sit", words = ["Sit down", "Sitting down…"] } = {}) {
    this.table = table;
    this.id = id;
    this.message = message;
    this.words = words;
    this.dialog = byId(id);
    this.seat = null;
    this.waiting = null;
    const form = byId(id + "-form");
    if (!form) return;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    byId(id + "-cancel").addEventListener("click", () => this.close());
    this.dialog.addEventListener("close", () => (this.waiting = null));
  }

  part(name) {
    return byId(this.id + "-" + name);
  }

  get isOpen() {
    return Boolean(this.dialog && this.dialog.open);
  }

  open(number) {
    if (!this.dialog) return;
    this.seat = number;
    this.waiting = null;
    this.part("seat").textContent = String(number);
    this.error("");
    this.busy(false);
    this.dialog.showModal();
    this.part("amount").select();
  }

  // Sends the message once the amount is right and the socket is open; true if sent.
  submit() {
    const { minBuyIn, maxBuyIn } = this.table.config;
    const text = this.part("amount").value.trim();
    const problem = amountProblem(text, minBuyIn, maxBuyIn);
    if (problem) {
      this.error(problem);
      return false;
    }
    if (!this.table.socket.isOpen) {
      this.error("Not connected to the table yet; try again in a moment.");
      return false;
    }
    this.error("");
    this.busy(true);
    this.waiting = this.seat;
    this.table.send({ type: this.message, seat: this.seat, buy_in: Number(text) });
    return true;
  }

  // Closes the dialog once a snapshot shows us in the seat asked for.
  seated(mine) {
    if (this.waiting !== null && mine === this.waiting) this.close();
  }

  // Shows the server's refusal in the dialog, if it is waiting for one.
  refused(text) {
    if (this.waiting === null || !this.isOpen) return false;
    this.error(text);
    this.waiting = null;
    return true;
  }

  error(text) {
    const box = this.part("error");
    box.textContent = text;
    box.hidden = !text;
    this.part("amount").setAttribute("aria-invalid", text ? "true" : "false");
    if (text) this.busy(false);
  }

  busy(busy) {
    const submit = this.part("submit");
    submit.disabled = busy;
    submit.textContent = busy ? this.words[1] : this.words[0];
  }

  close() {
    this.waiting = null;
    if (this.isOpen) this.dialog.close();
  }
}

export const STOOD_UP =
  "You were stood up, your chips back in your balance: your seat sat out, or had no chips, for too long.";

// Whether snapshot `after` finds the viewer stood up by the table, not at
// their asking (`asked`, or their seat's "leave after this hand" in `before`):
// seated in `before`, not in `after`, at a table still open (a table closed
// stands everyone up, and says so).
export function stoodUp(before, after, asked) {
  const was = before.you && before.you.seat;
  if (!was || (after.you && after.you.seat) || !after.table.is_open || asked) return false;
  const seat = before.table.seats.find((s) => s.number === was);
  return !(seat && seat.leaving);
}

// The viewer's seat: "sit out next hand" and, while they are dealt into a
// hand, "leave after this hand" are boxes to tick and untick; between their
// hands, leaving is a button that leaves at once.
export function renderSeatControls(table) {
  const box = byId("seat-controls");
  if (!table.config.loggedIn) return;
  box.textContent = "";
  const snap = table.state.snap;
  const mine = snap.table.seats.find((s) => s.number === table.mySeat());
  if (!mine) {
    if (table.stoodUp && snap.table.is_open) box.appendChild(el("p", "help", STOOD_UP));
    const words = snap.table.is_open ? "Pick an empty seat to sit down." : "The table is closed: nobody sits down here.";
    box.appendChild(el("p", "help", words));
    return;
  }
  const info = snap.hand_info;
  const inHand = Boolean(info && !info.finished && info.seats.includes(mine.number));
  // Ticked during your hand, it waits for the hand's end (`sitting_out_next`).
  const sittingOut = mine.state === "sitting_out" || Boolean(snap.you.sitting_out_next);
  box.appendChild(tickBox(table, "Sit out next hand", "sit-out", sittingOut, "sit_out", "sit_in"));
  if (inHand) box.appendChild(tickBox(table, "Leave after this hand", "leave", mine.leaving, "leave", "stay"));
  else {
    const leave = el("button", "button button-quiet", "Leave table");
    leave.type = "button";
    leave.addEventListener("click", () => table.send({ type: "leave" }));
    box.appendChild(leave);
  }
  if (mine.state === "sitting_out" && mine.sat_out_for === "timeouts") {
    box.appendChild(el("p", "help", "You were sat out: two turns timed out. Untick “Sit out next hand” to be dealt in again."));
  }
  if (!snap.table.is_open) {
    box.appendChild(el("p", "help", "The table is closed: every seat is cashed out, chips back in the balance, when its last hand ends."));
  } else if (mine.leaving) {
    box.appendChild(el("p", "help", "You’ll leave the table, with your chips, when this hand ends."));
  } else if (snap.you.sitting_out_next) {
    box.appendChild(el("p", "help", "You’ll sit out when this hand ends; until then you play it as dealt."));
  }
}

// A box that sends `on` when ticked and `off` when unticked; the next
// snapshot redraws it as the server has it.
function tickBox(table, text, name, ticked, on, off) {
  const label = el("label", "seat-choice");
  const tick = el("input");
  tick.type = "checkbox";
  tick.name = name;
  tick.checked = Boolean(ticked);
  tick.addEventListener("change", () => table.send({ type: tick.checked ? on : off }));
  label.appendChild(tick);
  label.appendChild(document.createTextNode(" " + text));
  return label;
}
