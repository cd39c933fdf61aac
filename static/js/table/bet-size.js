// The bet-size control. In spread, pot and no limit a bet, raise or
// completion may be any whole number of chips from the option's min to its
// max (`amounts` is null); the amount is a street total, "raise to 16". The
// player picks it with a slider, a number field or a preset and sends it
// with the wager button. The server checks it again: this only saves a round
// trip for the obvious mistakes. The pure helpers come first and touch no
// page, so node's test runner imports this module as it is.
import { el } from "../shared/felt.js";
import { chips } from "../shared/format.js";

const WAGERS = new Set(["complete", "bet", "raise"]);

// Whether `option`, one of the legal actions, leaves its amount to the
// player: a wager without a list of exact amounts. Fixed limit always sends one.
export function isOpenSized(option) {
  return WAGERS.has(option.kind) && !Array.isArray(option.amounts);
}

// Every chip in the middle: the pots collected so far and this street's bets.
export function potSize(hand) {
  const collected = hand.pots.reduce((sum, pot) => sum + pot.amount, 0);
  return collected + hand.players.reduce((sum, player) => sum + (player.bet || 0), 0);
}

// The street totals of a pot-sized wager and of a half-pot one: the viewer
// first calls, then raises by the pot as the call leaves it (or half of it).
export function potTotals(hand) {
  const me = hand.players[hand.viewer];
  const toCall = Math.max(hand.current_bet - (me ? me.bet : 0), 0);
  const after = potSize(hand) + toCall;
  return { half: hand.current_bet + Math.floor(after / 2), pot: hand.current_bet + after };
}

export function clamp(amount, option) {
  return Math.min(Math.max(amount, option.min), option.max);
}

// The presets of each structure, before they are brought into bounds: spread
// limit's least and most, and the pot-sized ones of pot and no limit, where
// no limit may also put every chip in.
const PRESETS = {
  spread: (hand, option) => [
    { name: "min", label: "Min", amount: option.min },
    { name: "max", label: "Max", amount: option.max },
  ],
  pot: (hand) => potPresets(hand),
  no: (hand, option) => [...potPresets(hand), { name: "all-in", label: "All in", amount: option.max }],
};

function potPresets(hand) {
  const { half, pot } = potTotals(hand);
  return [
    { name: "half", label: "½ pot", amount: half },
    { name: "pot", label: "Pot", amount: pot },
  ];
}

// The presets for `option` ({min, max}) at the hand's structure
// (`hand.structure`): [{name, label, amount}] in rising order. A pot size out
// of bounds is brought to the nearest allowed amount: a player pressing "Pot"
// with less than a pot behind means "as near as I may". A preset that puts
// the whole stack in is "All in", whatever the structure. Presets that land
// on one amount show once, under the last name.
export function betPresets(hand, option) {
  const me = hand.players[hand.viewer];
  const everything = me ? me.bet + me.stack : null;
  const make = PRESETS[hand.structure];
  const presets = (make ? make(hand, option) : []).map((preset) => {
    const amount = clamp(preset.amount, option);
    return amount === everything ? { name: "all-in", label: "All in", amount } : { ...preset, amount };
  });
  return presets.filter((preset, i) => presets.slice(i + 1).every((later) => later.amount !== preset.amount));
}

// The whole number of chips `text` says ("1250", " 1,250 "), else null.
export function parseAmount(text) {
  const trimmed = String(text ?? "").trim();
  if (!/^(\d+|\d{1,3}(,\d{3})+)$/.test(trimmed)) return null;
  return Number(trimmed.replace(/,/g, ""));
}

// Why `text` is not a whole number of chips from option.min to option.max,
// or "" when it is.
export function checkAmount(text, option) {
  const amount = parseAmount(text);
  if (option.min === option.max) {
    return amount === option.min ? "" : "Enter " + chips(option.min) + ": the only amount allowed.";
  }
  if (amount === null) {
    return "Enter a whole number of chips from " + chips(option.min) + " to " + chips(option.max) + ".";
  }
  if (amount < option.min) return "The least you may make it is " + chips(option.min) + ".";
  if (amount > option.max) return "The most you may make it is " + chips(option.max) + ".";
  return "";
}

// The control for an open-sized wager, as a div.bet-size: the presets, the
// slider and number field kept in step, the wager button ("Raise to 1,250",
// carrying the kind's key), and the reason a typed amount is refused. It
// starts at option.min. With one amount allowed (an all-in short of the
// least wager, or a spread-limit raise whose least is its most) there is
// nothing to choose: the button alone, with that amount on it. `verb` is the
// wager's words before the amount ("Raise to"); `send(amount)` gets only an
// amount checkAmount passed.
export function betSizeControl({ hand, option, kind, verb, key, send }) {
  const control = new BetSize(option, kind, verb, key, send);
  // The button alone keeps its place in the row of moves (table.css).
  control.box.classList.toggle("bet-size-one", option.min === option.max);
  if (option.min < option.max) {
    const amounts = el("div", "bet-amounts");
    amounts.append(control.slider, control.field);
    control.box.prepend(presetRow(hand, option, verb, (amount) => control.choose(amount)), amounts);
  }
  control.choose(option.min);
  return control.box;
}

class BetSize {
  constructor(option, kind, verb, key, send) {
    Object.assign(this, { option, verb, send });
    this.slider = amountInput("range", "bet-slider", option, verb);
    this.field = amountInput("number", "bet-amount", option, verb + ", in chips");
    this.problem = el("p", "errors bet-error");
    this.problem.id = "bet-error-" + kind;
    this.problem.setAttribute("role", "alert");
    this.field.setAttribute("aria-describedby", this.problem.id);
    this.label = el("span", "action-label");
    this.wager = wagerButton(kind, key, this.label);
    this.box = el("div", "bet-size");
    this.box.dataset.kind = kind;
    this.box.setAttribute("role", "group");
    this.box.setAttribute("aria-label", verb + ", in chips");
    this.box.append(this.wager, this.problem);
    this.listen();
  }

  listen() {
    this.slider.addEventListener("input", () => this.choose(Number(this.slider.value)));
    this.field.addEventListener("input", () => this.typed());
    this.field.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      this.submit();
    });
    this.wager.addEventListener("click", () => this.submit());
  }

  // A preset or the slider sets both inputs and the button.
  choose(amount) {
    this.slider.value = this.field.value = String(amount);
    this.explain("");
    this.show(amount);
  }

  // Typing leaves the field as typed; the slider follows a good amount, and
  // the button drops its amount while there is none.
  typed() {
    const good = !checkAmount(this.field.value, this.option);
    const amount = good ? parseAmount(this.field.value) : null;
    if (good) {
      this.slider.value = String(amount);
      this.explain("");
    }
    this.show(amount);
  }

  show(amount) {
    const label = amount === null ? this.verb : this.verb + " " + chips(amount);
    this.label.textContent = label;
  }

  explain(reason) {
    this.problem.textContent = reason;
    this.problem.hidden = !reason;
    this.field.setAttribute("aria-invalid", reason ? "true" : "false");
  }

  submit() {
    const reason = checkAmount(this.field.value, this.option);
    this.explain(reason);
    if (!reason) this.send(parseAmount(this.field.value));
  }
}

// A range or number input bounded by the option, one chip a step.
function amountInput(type, className, option, name) {
  const input = el("input", className);
  input.type = type;
  input.min = String(option.min);
  input.max = String(option.max);
  input.step = "1";
  input.autocomplete = "off";
  if (type === "number") input.inputMode = "numeric";
  input.setAttribute("aria-label", name);
  return input;
}

// The wager button, dressed as the move buttons are (actions.js), so the
// kind's key presses it; `label` is for its words.
function wagerButton(kind, key, label) {
  const button = el("button", "button action action-" + kind + " bet-wager");
  button.type = "button";
  button.appendChild(label);
  if (key) {
    button.appendChild(el("kbd", "", key));
    button.dataset.key = key;
    button.title = "Shortcut: " + key;
  }
  return button;
}

// The preset buttons: each sets the amount; only the wager button sends.
function presetRow(hand, option, verb, choose) {
  const row = el("div", "bet-presets");
  betPresets(hand, option).forEach((preset) => {
    const button = el("button", "button button-quiet bet-preset", preset.label);
    button.type = "button";
    button.dataset.preset = preset.name;
    button.dataset.amount = String(preset.amount);
    button.title = verb + " " + chips(preset.amount);
    button.addEventListener("click", () => choose(preset.amount));
    row.appendChild(button);
  });
  return row;
}
