// Chips at the seat, and the way to one: top up or rebuy between your hands,
// auto-rebuy, and the waiting list of a full table. The server checks every
// amount again; these forms only save a round trip for the obvious mistakes.
import { button, byId, el } from "../shared/felt.js";
import { chips } from "../shared/format.js";
import { amountProblem } from "./seat-controls.js";

// What the controls are for, as a key: they are built again only when it
// changes, so a snapshot arriving mid-typing keeps what the player typed.
export function chipMode(snap, limits) {
  const you = snap.you;
  if (!you) return { kind: "none" };
  // A closed table takes no more chips, and nobody new: its seats are cashed out.
  if (!snap.table.is_open) return { kind: "none" };
  const mine = snap.table.seats.find((s) => s.number === you.seat);
  if (!mine) {
    if (you.offer) return { kind: "offer", seat: you.offer.seat, until: you.offer.expires_at };
    if (you.waiting_position) return { kind: "waiting", position: you.waiting_position };
    const full = snap.table.seats.length + (snap.table.held_seats || []).length >= limits.seatCount;
    if (!full) return { kind: "none" };
    // Where the host approves each seat there is no list: a seat that frees is asked for.
    const approval = Boolean(snap.table.home && snap.table.home.approval);
    return { kind: "full", waitingList: !approval };
  }
  const info = snap.hand_info;
  const inHand = Boolean(info && !info.finished && info.seats.includes(mine.number));
  const autoRebuy = you.auto_rebuy_to === undefined ? null : you.auto_rebuy_to;
  // The form is there whenever the player sits, shut (`shut` says why)
  // while they can add nothing: what lies below it keeps its place.
  if (mine.stack === 0 && !inHand) {
    return { kind: "seated", add: { verb: "rebuy", min: limits.minBuyIn, max: limits.maxBuyIn, shut: null }, autoRebuy };
  }
  // During the hand no amount is offered: one that followed the stack would
  // redraw the controls at every bet, and wipe an auto-rebuy being typed.
  if (inHand) return { kind: "seated", add: { verb: "top_up", min: 1, max: null, shut: "hand" }, autoRebuy };
  const room = Math.max(limits.maxBuyIn - mine.stack, 0);
  return { kind: "seated", add: { verb: "top_up", min: 1, max: room, shut: room === 0 ? "most" : null }, autoRebuy };
}

export function renderChipControls(table) {
  const box = byId("chip-controls");
  if (!box || !table.config.loggedIn) return;
  const mode = chipMode(table.state.snap, table.config);
  const key = JSON.stringify(mode);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.textContent = "";
  if (mode.kind === "offer") {
    const until = new Date(mode.until).toLocaleTimeString();
    box.appendChild(el("p", "notice", "Seat " + mode.seat + " is held for you until " + until + ": sit there before then."));
    box.appendChild(sending(table, "Leave the waiting list", { type: "unwait" }));
  } else if (mode.kind === "waiting") {
    const place = mode.position === 1 ? "next" : "number " + mode.position;
    box.appendChild(el("p", "help", "You are " + place + " on the waiting list; a seat that frees is held for you in turn."));
    box.appendChild(sending(table, "Leave the waiting list", { type: "unwait" }));
  } else if (mode.kind === "full") {
    if (!mode.waitingList) {
      const words = table.state.snap.you.host ? "take one when it frees." : "ask the host for one when it frees.";
      box.appendChild(el("p", "help", "Every seat is taken: " + words));
    } else {
      box.appendChild(el("p", "help", "Every seat is taken."));
      box.appendChild(sending(table, "Join the waiting list", { type: "wait" }));
    }
  } else if (mode.kind === "seated") {
    box.appendChild(addChipsForm(table, mode.add));
    box.appendChild(autoRebuyForm(table, mode.autoRebuy));
  }
}

function sending(table, label, message) {
  return button(label, "button button-quiet", () => table.send(message));
}

// What the add-chips form says under its button.
export function addChipsHelp(add, maxBuyIn) {
  if (add.verb === "rebuy") return chips(add.min) + " to " + chips(add.max);
  if (add.shut === "most") return "Your stack is the table’s most, " + chips(maxBuyIn) + ".";
  if (add.shut === "hand") return "Top up between your hands.";
  return chips(add.min) + " to " + chips(add.max) + " more, between your hands";
}

// "Add chips" (a top-up) or "Rebuy": an amount and a button; shut, both
// greyed, during the player's hand or with nothing to add.
function addChipsForm(table, add) {
  const rebuy = add.verb === "rebuy";
  const form = el("form", "chip-form");
  form.id = "add-chips";
  const label = el("label", "", rebuy ? "Rebuy for " : "Add ");
  const input = el("input", "chip-amount");
  input.inputMode = "numeric";
  input.autocomplete = "off";
  input.value = add.max ? String(add.max) : "";
  input.setAttribute("aria-describedby", "add-chips-help");
  label.appendChild(input);
  label.appendChild(document.createTextNode(" chips"));
  form.appendChild(label);
  const submit = el("button", "button button-quiet", rebuy ? "Rebuy" : "Top up");
  submit.type = "submit";
  form.appendChild(submit);
  input.disabled = submit.disabled = add.shut !== null;
  const help = el("span", "help", addChipsHelp(add, table.config.maxBuyIn));
  help.id = "add-chips-help";
  form.appendChild(help);
  const problem = el("span", "errors");
  problem.hidden = true;
  form.appendChild(problem);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    problem.textContent = amountProblem(text, add.min, add.max);
    problem.hidden = !problem.textContent;
    input.setAttribute("aria-invalid", problem.hidden ? "false" : "true");
    if (problem.hidden) table.send({ type: add.verb, amount: Number(text) });
  });
  return form;
}

// "Auto-rebuy to [amount]": on, the server tops the stack up to it after each hand.
function autoRebuyForm(table, current) {
  const { minBuyIn, maxBuyIn } = table.config;
  const form = el("form", "chip-form");
  form.id = "auto-rebuy";
  const label = el("label", "");
  const box = el("input", "");
  box.type = "checkbox";
  box.checked = current !== null;
  label.appendChild(box);
  label.appendChild(document.createTextNode(" Auto-rebuy to "));
  const input = el("input", "chip-amount");
  input.inputMode = "numeric";
  input.autocomplete = "off";
  input.value = String(current === null ? maxBuyIn : current);
  input.setAttribute("aria-label", "Auto-rebuy amount");
  label.appendChild(input);
  form.appendChild(label);
  const problem = el("span", "errors");
  problem.hidden = true;
  form.appendChild(problem);
  const send = () => {
    if (!box.checked) {
      problem.hidden = true;
      table.send({ type: "auto_rebuy", amount: null });
      return;
    }
    const text = input.value.trim();
    problem.textContent = amountProblem(text, minBuyIn, maxBuyIn);
    problem.hidden = !problem.textContent;
    if (problem.hidden) table.send({ type: "auto_rebuy", amount: Number(text) });
  };
  box.addEventListener("change", send);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    box.checked = true;
    send();
  });
  return form;
}
