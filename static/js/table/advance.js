// Advance actions: a move chosen before your turn, sent as an ordinary `act`
// (with the turn it is for) the moment your turn comes, never before. A choice
// made for one situation is dropped when that situation changes: "Call 10"
// goes when a raise makes it 20, "Check" when someone bets, and all but
// "Fold to any bet" when the street ends. The server checks the move as any
// other; nothing here is trusted.
import { chips } from "../shared/format.js";
import { decisionOptions } from "./decisions.js";

// What the viewer faces in the hand's betting: the street and the chips it
// takes to call; null when advance actions don't apply (not dealt in, folded,
// all in, or no betting going on).
export function facingOf(snap) {
  const hand = snap && snap.hand;
  if (!hand || hand.phase !== "betting" || hand.viewer === null || hand.viewer === undefined) return null;
  const me = hand.players[hand.viewer];
  if (!me || me.folded || me.all_in || me.protected) return null;
  return { handId: snap.hand_info.id, street: hand.street, toCall: Math.max(hand.current_bet - me.bet, 0) };
}

// Whether it is the viewer's turn: only the player to act is sent legal
// actions, and in a choice made at once, each player still to choose.
export function myTurn(snap) {
  const hand = snap && snap.hand;
  if (!hand) return false;
  if (hand.phase === "deciding") return decisionOptions(hand).length > 0;
  return Boolean(hand.legal_actions && hand.legal_actions.length);
}

// Whether `snap` waits on a decision that is not a bet (a roll, an exchange,
// a declaration): an advance action neither plays nor goes then, but waits
// for the betting.
export function betweenBets(snap) {
  return Boolean(snap && snap.hand && snap.hand.phase === "deciding");
}

// What the viewer faces while someone else acts: when advance actions are offered.
export function situation(snap) {
  return myTurn(snap) ? null : facingOf(snap);
}

// The advance actions offered in `facing`: {kind, amount, label}.
export function advanceChoices(facing) {
  if (!facing) return [];
  const choices = [{ kind: "check_fold", amount: null, label: "Check/Fold" }];
  if (facing.toCall === 0) choices.push({ kind: "check", amount: null, label: "Check" });
  else choices.push({ kind: "call", amount: facing.toCall, label: "Call " + chips(facing.toCall) });
  choices.push({ kind: "call_any", amount: null, label: "Call any" });
  choices.push({ kind: "fold_any", amount: null, label: "Fold to any bet" });
  return choices;
}

// The choice still standing in `facing`, or null once its situation has changed.
export function keep(choice, facing) {
  if (!choice || !facing || facing.handId !== choice.facing.handId) return null;
  if (choice.kind === "fold_any") return choice; // for the rest of the hand
  if (facing.street !== choice.facing.street) return null;
  if (choice.kind === "check" && facing.toCall > 0) return null;
  if (choice.kind === "call" && facing.toCall !== choice.amount) return null;
  return choice;
}

// The move to make now that the turn has come, from the legal actions: a
// kind, or null when the choice doesn't fit (the player then decides).
export function moveFor(choice, legalActions) {
  const kinds = new Set(legalActions.map((option) => option.kind));
  const can = (kind) => kinds.has(kind);
  if (can("bring_in")) return null; // a forced bet is the player's own to make
  switch (choice.kind) {
    case "check_fold":
    case "fold_any":
      return can("check") ? "check" : can("fold") ? "fold" : null;
    case "check":
      return can("check") ? "check" : null;
    case "call": {
      const call = legalActions.find((option) => option.kind === "call");
      return call && call.min === choice.amount ? "call" : null;
    }
    case "call_any":
      return can("call") ? "call" : can("check") ? "check" : null;
    default:
      return null;
  }
}
