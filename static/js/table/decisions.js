// Decisions that are not bets: rolling a down card face up (roll your own),
// exchanging a card or standing pat (English stud), and declaring high, low
// or both (hi-lo declare). A roll or an exchange names one of the player's
// own cards, which are clicked on the felt (render.js makes them buttons) or
// picked with their number key; standing pat and declaring are buttons in
// #actions. The pure helpers come first and touch no page, so node's test
// runner imports this module as it is.
import { el } from "../shared/felt.js";
import { cardFace, chips, decidingAtOnce, namesList } from "../shared/format.js";
import { seatName } from "./narrate.js";
import { seatOf } from "./state.js";

// The button moves of a decision and their keys; a card's key is its number.
export const DECISION_KEYS = { stand_pat: "P", declare_high: "H", declare_low: "L", declare_both: "B" };
const BUTTON_LABELS = { stand_pat: "Stand pat", declare_high: "High", declare_low: "Low", declare_both: "Both" };
const CARD_VERBS = { roll: "Roll", exchange: "Exchange" };
// What a player chose while the others still choose, in the words of "You …".
const CHOSEN = { high: "declared high", low: "declared low", both: "declared both ways" };

// Whether the viewer of `hand` still has to make the decision under way.
export function viewerDeciding(hand) {
  if (!hand || hand.phase !== "deciding" || hand.viewer === null || hand.viewer === undefined) return false;
  return (hand.deciding || []).includes(hand.viewer);
}

// The viewer's options in the decision under way: the server's legal
// actions, while the viewer is still to decide.
export function decisionOptions(hand) {
  return viewerDeciding(hand) ? hand.legal_actions || [] : [];
}

// The option naming a card (a roll or an exchange), or null.
function cardOption(options) {
  return options.find((option) => CARD_VERBS[option.kind] && Array.isArray(option.cards)) || null;
}

// The viewer's cards the decision may name, in the order the felt draws them
// (felt.js's studCards: the down cards, then the up ones, each in dealing
// order): [{card, kind, key, label}], `key` "1", "2", … by that order.
export function cardPicks(hand, options) {
  const option = cardOption(options);
  if (!option) return [];
  const held = hand.players[hand.viewer].cards;
  const drawn = [...held.filter((c) => !c.up), ...held.filter((c) => c.up)];
  const picks = [];
  drawn.forEach(({ card }) => {
    if (!card || !option.cards.includes(card) || picks.length >= 9) return;
    const label = CARD_VERBS[option.kind] + " the " + cardFace(card).label;
    picks.push({ card, kind: option.kind, key: String(picks.length + 1), label });
  });
  return picks;
}

// The decision's buttons: stand pat, and the three declarations: [{kind, label, key}].
export function decisionButtons(options) {
  return options
    .filter((option) => BUTTON_LABELS[option.kind])
    .map((option) => ({ kind: option.kind, label: BUTTON_LABELS[option.kind], key: DECISION_KEYS[option.kind] }));
}

// The chips an exchange costs (its option's min), or 0 when it is free.
export function exchangePrice(options) {
  const option = options.find((o) => o.kind === "exchange");
  return option && option.min ? option.min : 0;
}

// What the viewer is asked, over the buttons: {title, help}.
export function decisionPrompt(hand, options) {
  const atOnce = decidingAtOnce(hand);
  if (hand.decision === "roll") {
    return {
      title: "Roll a card",
      help: "Tap or click a down card to turn it face up (or press the number on it). Nobody sees it until everyone has chosen.",
    };
  }
  if (hand.decision === "exchange") {
    const price = exchangePrice(options);
    if (!cardOption(options)) return { title: "Exchange", help: "No exchange is open to you now: stand pat." };
    const cost = price ? " The " + chips(price) + " chips go in the pot; nobody matches them." : "";
    return {
      title: "Exchange" + (price ? " (" + chips(price) + ")" : ""),
      help:
        "Tap or click a card (or press its number) to swap it for the next from the deck; the new one comes face up or down as the old one was." +
        cost,
    };
  }
  const heard = atOnce ? "Nobody sees yours until everyone has declared." : "The players after you hear it.";
  return { title: "Declare", help: "High, low or both. " + heard };
}

// The names of those still choosing, for `snap`'s viewer at seat `mine`.
function stillChoosing(snap, mine) {
  const hand = snap.hand;
  return (hand.deciding || [])
    .map((p) => seatOf(snap, p))
    .filter((seat) => seat !== mine)
    .map((seat) => seatName(snap, seat));
}

// "You roll the K♦ — waiting for bob.": the viewer's own choice made at
// once, while the others still choose; "" when there is none.
export function waitingWords(snap, mine) {
  const choice = snap.hand && snap.hand.your_choice;
  if (!choice || !decidingAtOnce(snap.hand)) return "";
  const names = stillChoosing(snap, mine);
  const waiting = " — waiting for " + (names.length ? namesList(names) : "the others") + ".";
  if (choice.kind === "roll" && choice.card) return "You roll the " + cardFace(choice.card).label + waiting;
  if (choice.kind === "declare") return "You " + (CHOSEN[choice.choice] || "declared") + waiting;
  return "You have chosen" + waiting;
}

const DOING = { roll: "roll", exchange: "exchange or stand pat", declare: "declare" };

// The centre's line for whose decision it is: "Your turn to declare",
// "bob to exchange or stand pat", "bob and carol to roll".
export function decisionTurn(snap, mine) {
  const hand = snap.hand;
  const doing = DOING[hand.decision] || "decide";
  if (!decidingAtOnce(hand)) {
    const seat = seatOf(snap, hand.to_act);
    return seat === mine ? "Your turn: " + doing : seatName(snap, seat) + " to " + doing;
  }
  if (viewerDeciding(hand)) return "Your turn: " + doing;
  const names = stillChoosing(snap, mine);
  return names.length ? namesList(names) + " to " + doing : "";
}

// What makes a decision the one it is: the hand, its street and kind, and,
// in turn, the turn (at once, the others' choices move the turn on).
export function decisionKey(snap) {
  const hand = snap.hand;
  const turn = decidingAtOnce(hand) ? "at once" : hand.turn;
  return JSON.stringify([snap.hand_info.id, hand.street, hand.decision, turn]);
}

// The `act` message for a decision: `card` for a roll or an exchange.
export function decisionMessage(snap, kind, card = null) {
  const message = { type: "act", action: kind, turn: snap.hand.turn, hand: snap.hand_info.id };
  if (card) message.cards = [card];
  return message;
}

// ------------------------------------------------------------------ page

// The viewer's decision in #actions (`box`): the prompt and the buttons, or,
// once they have chosen while the others choose, what they chose.
// `choose(kind, card)` sends a move.
export function drawDecision(box, snap, mine, options, choose) {
  const waiting = waitingWords(snap, mine);
  if (waiting) {
    box.appendChild(el("p", "decision-wait", waiting));
    return;
  }
  if (!options.length) return;
  const prompt = decisionPrompt(snap.hand, options);
  const head = el("p", "decision-prompt");
  head.appendChild(el("strong", "decision-title", prompt.title));
  head.appendChild(document.createTextNode(" " + prompt.help));
  box.appendChild(head);
  decisionButtons(options).forEach((choice) => {
    const b = el("button", "button action action-" + choice.kind);
    b.type = "button";
    b.dataset.kind = choice.kind;
    b.appendChild(el("span", "action-label", choice.label));
    b.appendChild(el("kbd", "", choice.key));
    b.dataset.key = choice.key;
    b.title = "Shortcut: " + choice.key;
    b.addEventListener("click", () => choose(choice.kind, null));
    box.appendChild(b);
  });
}

// Makes the viewer's cards in seat `box` that the decision may name into
// buttons, each with its key in its corner; `choose(kind, card)` sends.
export function makePickable(box, picks, choose) {
  if (!picks.length) return;
  box.classList.add("seat-picking");
  picks.forEach((pick) => {
    const face = box.querySelector('.seat-cards .card[data-card="' + pick.card + '"]');
    if (!face) return;
    const button = el("button", face.className + " card-pick");
    button.type = "button";
    button.append(...face.childNodes);
    button.appendChild(el("kbd", "card-key", pick.key));
    button.dataset.card = pick.card;
    button.dataset.key = pick.key;
    button.setAttribute("aria-label", pick.label);
    button.title = pick.label + " (key " + pick.key + ")";
    button.addEventListener("click", () => choose(pick.kind, pick.card));
    face.replaceWith(button);
  });
}

// Marks the card the viewer rolls, chosen while the others still choose.
export function markChosen(box, choice) {
  if (!choice || choice.kind !== "roll" || !choice.card) return;
  const face = box.querySelector('.seat-cards .card[data-card="' + choice.card + '"]');
  if (!face) return;
  face.classList.add("card-chosen");
  face.setAttribute("aria-label", cardFace(choice.card).label + ", your roll: hidden until everyone has chosen");
}
