// The move buttons and their keys. Every amount on a button comes from the
// server's legal_actions, never from arithmetic here; an open-sized wager's
// amount is the player's, within the server's bounds (bet-size.js).
import { byId, el } from "../shared/felt.js";
import { chips } from "../shared/format.js";
import { advanceChoices, betweenBets, facingOf, keep, moveFor, myTurn, situation } from "./advance.js";
import { betSizeControl, isOpenSized } from "./bet-size.js";
import { decisionKey, decisionMessage, decisionOptions, drawDecision } from "./decisions.js";
import { callMessage, callOf, drawCallPanel, myCall } from "./games.js";

// One key per kind of move: fold, the passive move, the aggressive one.
export const KEYS = { fold: "F", check: "C", call: "C", bring_in: "C", complete: "B", bet: "B", raise: "R" };
const VERBS = {
  fold: "Fold",
  check: "Check",
  call: "Call",
  bring_in: "Bring in",
  complete: "Complete to",
  bet: "Bet",
  raise: "Raise to",
};

// The buttons for `legalActions`, in order: {kind, amount, label, key}. A
// kind with several amounts (fixed limit) has a button for each; the first
// takes the key. A call or bring-in is labelled with what it costs. A wager
// open to any amount from min to max (`amounts` null: spread, pot and no
// limit) is one choice with amount null, its verb as label and a `range`
// {min, max}: the bet-size control picks the amount.
export function actionChoices(legalActions) {
  const choices = [];
  legalActions.forEach((option) => {
    if (isOpenSized(option)) {
      const range = { min: option.min, max: option.max };
      choices.push({ kind: option.kind, amount: null, label: VERBS[option.kind], key: KEYS[option.kind], range });
      return;
    }
    const amounts = option.amounts && option.amounts.length ? option.amounts : [null];
    amounts.forEach((amount, i) => {
      let label = VERBS[option.kind] || option.kind;
      if (option.kind === "call" || option.kind === "bring_in") label += " " + chips(option.min);
      else if (amount !== null) label += " " + chips(amount);
      const key = i === 0 ? KEYS[option.kind] || null : null;
      choices.push({ kind: option.kind, amount, label, key });
    });
  });
  return choices;
}

// The `act` message for a choice, tied to the hand and turn it was made for.
export function actMessage(snap, choice) {
  const message = { type: "act", action: choice.kind, turn: snap.hand.turn, hand: snap.hand_info.id };
  if (choice.amount !== null) message.amount = choice.amount;
  return message;
}

export function renderActions(table) {
  const box = byId("actions");
  const snap = table.state.snap;
  const deciding = Boolean(snap.hand && snap.hand.phase === "deciding");
  const calling = myCall(snap);
  byId("keys").hidden = !table.mySeat();
  byId("keys-bets").hidden = deciding || calling;
  byId("keys-decide").hidden = !deciding || calling;
  byId("keys-call").hidden = !calling;
  document.querySelectorAll("#keys-decide [data-decisions]").forEach((span) => {
    span.hidden = !deciding || !span.dataset.decisions.split(" ").includes(snap.hand.decision);
  });
  if (calling) {
    renderCall(table, box);
    return;
  }
  table.called = null; // the call was made, or is another's
  // A snapshot that leaves the move as it was (someone sat down, say) keeps
  // a bet-size control as it stands: the amount chosen, and the focus.
  const moves = movesKey(snap);
  if (moves && box.dataset.moves === moves && box.querySelector(".bet-size")) return;
  box.dataset.moves = moves;
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.kind : null;
  box.textContent = "";
  if (deciding) {
    drawDecision(box, snap, table.mySeat(), openDecision(table), (kind, card) => decide(table, kind, card));
    // Another player's choice redraws the buttons: the one in focus keeps it.
    const again = focused && box.querySelector('[data-kind="' + focused + '"]');
    if (again) again.focus();
    return;
  }
  if (!snap.hand || !snap.hand.legal_actions.length) return;
  actionChoices(snap.hand.legal_actions).forEach((choice) => {
    box.appendChild(choice.range ? betSize(table, choice) : actionButton(table, choice));
  });
}

// The dealer's panel of games. A snapshot that leaves the call as it was (a
// seat changed, say) leaves the panel alone, and the focus where it was.
function renderCall(table, box) {
  const call = callOf(table.state.snap);
  if (table.called && table.called.number !== call.number) table.called = null;
  const moves = JSON.stringify(["call", call.number, call.games, table.called]);
  if (box.dataset.moves === moves) return;
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.game : null;
  box.dataset.moves = moves;
  box.textContent = "";
  drawCallPanel(box, call, table.called, (position) => callGame(table, position));
  const again = focused && box.querySelector('[data-game="' + focused + '"]:not(:disabled)');
  if (again) again.focus();
}

// One click, one call: the buttons wait for the hand it deals (or a refusal).
function callGame(table, position) {
  const call = callOf(table.state.snap);
  if (!call || table.called) return;
  table.send(callMessage(position));
  table.called = { number: call.number, position };
  renderCall(table, byId("actions"));
}

function movesKey(snap) {
  const hand = snap.hand;
  if (!hand || !hand.legal_actions.length) return "";
  return JSON.stringify([snap.hand_info.id, hand.turn, hand.legal_actions]);
}

// One click, one move: the buttons go, and the next snapshot brings new ones.
function play(table, choice) {
  table.send(actMessage(table.state.snap, choice));
  byId("actions").textContent = "";
}

// The viewer's options in the decision under way, none once their move is
// on its way: a choice made at once keeps its turn number valid while the
// others choose, so a second click would otherwise be sent too.
export function openDecision(table) {
  const snap = table.state.snap;
  if (table.decided && table.decided === decisionKey(snap)) return [];
  return decisionOptions(snap.hand);
}

// A decision sent: the buttons and the cards to pick go until the next
// snapshot says what became of it (an error lets them come back).
export function decide(table, kind, card) {
  const snap = table.state.snap;
  table.send(decisionMessage(snap, kind, card));
  table.decided = decisionKey(snap);
  byId("actions").textContent = "";
  document.querySelectorAll("#felt .card-pick").forEach((button) => (button.disabled = true));
}

function actionButton(table, choice) {
  const b = el("button", "button action action-" + choice.kind);
  b.type = "button";
  b.appendChild(el("span", "action-label", choice.label));
  if (choice.key) {
    b.appendChild(el("kbd", "", choice.key));
    b.dataset.key = choice.key;
    b.title = "Shortcut: " + choice.key;
  }
  b.addEventListener("click", () => play(table, choice));
  return b;
}

function betSize(table, choice) {
  return betSizeControl({
    hand: table.state.snap.hand,
    option: choice.range,
    kind: choice.kind,
    verb: choice.label,
    key: choice.key,
    send: (amount) => play(table, { kind: choice.kind, amount }),
  });
}

// The advance action chosen, if any, once a snapshot comes: dropped if its
// situation changed, and on the player's turn sent as their move. Whether a
// move was sent (the buttons then stay away until the next snapshot).
export function playAdvance(table) {
  const snap = table.state.snap;
  if (betweenBets(snap)) return false;
  if (!myTurn(snap)) {
    table.advance = keep(table.advance, situation(snap));
    return false;
  }
  const choice = keep(table.advance, facingOf(snap));
  table.advance = null;
  const kind = choice && moveFor(choice, snap.hand.legal_actions);
  if (!kind) return false;
  // "Fold to any bet" that checked goes on to the next street.
  if (choice.kind === "fold_any" && kind === "check") table.advance = choice;
  table.send(actMessage(snap, { kind, amount: null }));
  return true;
}

// The advance actions while another player acts: one may be ticked at a time.
export function renderAdvance(table) {
  const box = byId("advance");
  if (!box) return;
  box.textContent = "";
  const facing = situation(table.state.snap);
  const choices = advanceChoices(facing);
  box.hidden = !choices.length;
  choices.forEach((choice) => {
    const label = el("label", "advance-choice");
    const tick = el("input", "");
    tick.type = "checkbox";
    tick.dataset.advance = choice.kind;
    const chosen = table.advance;
    tick.checked = Boolean(chosen && chosen.kind === choice.kind && chosen.amount === choice.amount);
    tick.addEventListener("change", () => {
      table.advance = tick.checked ? { ...choice, facing } : null;
      renderAdvance(table);
    });
    label.appendChild(tick);
    label.appendChild(document.createTextNode(" " + choice.label));
    box.appendChild(label);
  });
}

// Inputs that take no typing: a key pressed on one of them is the table's.
const KEYLESS_INPUTS = new Set(["button", "checkbox", "color", "file", "image", "radio", "range", "reset", "submit"]);

// Whether `target`, the element a key went to, takes typed text: a text box
// (the chat, a bet's amount), a text area, a list to pick from by letter, or
// an editable element. A key typed there is the player's words, not a move.
export function typesText(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable) return true;
  if (target.tagName === "TEXTAREA" || target.tagName === "SELECT") return true;
  return target.tagName === "INPUT" && !KEYLESS_INPUTS.has(String(target.type || "text").toLowerCase());
}

// The keys press the buttons, unless the player is typing or `isBusy()` (a
// dialog is open). Escape in a text box on the page leaves it, so the keys
// are the table's again (in a dialog it is the dialog's, which closes).
export function listenForKeys(isBusy) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    if (typesText(e.target)) {
      if (e.key === "Escape" && !e.target.closest("dialog")) e.target.blur();
      return;
    }
    if (isBusy()) return;
    const key = e.key.toUpperCase();
    const actions = byId("actions");
    // A move's button, or a card to roll or exchange, numbered on the felt.
    let button = actions.querySelector('[data-key="' + key + '"]');
    if (!button) button = document.querySelector('#felt .card-pick[data-key="' + key + '"]:not(:disabled)');
    // With checking free there is nothing to fold: F checks, as check/fold would.
    if (!button && key === "F") button = actions.querySelector(".action-check");
    if (button) {
      e.preventDefault();
      button.click();
    }
  });
}
