// The words and numbers of a hand, shared by the live table and the replayer.
// Nothing here touches the page, so node's test runner imports it as it is.

export const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RED = { d: true, h: true };

// Every chip count on the page is written one way: 10,000.
export function chips(n) {
  return Number(n).toLocaleString("en-US");
}

// What a card shows: "Td" is {rank: "10", suit: "♦", red: true, label: "10♦"}.
// A card this viewer can't see (null) has no face.
export function cardFace(code) {
  if (code === null || code === undefined) return null;
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = SUITS[code[1]] || code[1];
  return { rank, suit, red: Boolean(RED[code[1]]), label: rank + suit };
}

// "pot" when there is one, else "main pot", "side pot 1", …: lower case, for
// the middle of a sentence; potTitle starts one.
export function potName(i, count) {
  if (count === 1) return "pot";
  return i === 0 ? "main pot" : "side pot " + i;
}

export function potTitle(i, count) {
  return capitalize(potName(i, count));
}

export function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The server's messages are lower-case phrases ("seat 3 at Table 1 is taken").
export function sentence(text) {
  text = capitalize(String(text || "Something went wrong"));
  return /[.!?]$/.test(text) ? text : text + ".";
}

// "two pair, kings and nines", or for hi-lo "…; 8-6-4-2-A low" / "…; no low".
// A hi-lo declare hand is named only the way or ways its player declared.
export function wordsOf(words) {
  if (!words) return "";
  const declared = words.declared || "both";
  const parts = [];
  if (words.high && declared !== "low") parts.push(words.high);
  if (declared === "high") return parts.join("; ");
  if (words.low) parts.push(words.low);
  else if ("low" in words) parts.push("no low");
  return parts.join("; ");
}

// What player `p`'s hand was, in words, in a finished hand's `view`: a shown
// hand's, or the viewer's own mucked one (the view tells only its owner).
export function handWords(view, p) {
  const shown = view.result && view.result.hands[String(p)];
  if (shown) return wordsOf(shown);
  return p === view.viewer && view.your_hand ? wordsOf(view.your_hand) : "";
}

// "high", "low" or "high and low" in a hi-lo showdown, where a shown hand is
// named both ways; "" otherwise.
export function halfWon(result, pot, player) {
  if (!result.uncontested && pot.spade_winners && pot.spade_winners.length) {
    // Chicago: the best hand's half and the high (or low) spade's.
    const spade = result.spade + " spade";
    const hand = pot.high_winners.includes(player);
    const held = pot.spade_winners.includes(player);
    return hand && held ? "best hand and " + spade : held ? spade : "best hand";
  }
  if (result.uncontested || !pot.high_winners || !pot.low_winners) return "";
  const hands = Object.values(result.hands);
  if (!hands.some((hand) => "high" in hand && "low" in hand)) return "";
  const high = pot.high_winners.includes(player);
  const low = pot.low_winners.includes(player);
  if (high && low) return "high and low";
  return high ? "high" : low ? "low" : "";
}

// Chicago: the spade in the hole that won `player` half a pot, as {card: "Ks",
// half: "high"}, or null. The result names it only in a hand that was shown.
export function winningSpade(result, player) {
  const hand = result && result.hands[String(player)];
  return hand && hand.spade ? { card: hand.spade, half: result.spade } : null;
}

// One {player, text} per share of a pot: "wins 12 (side pot 1, low)". Which
// pot is named when there are several; which half, in a split game.
export function winnings(result) {
  const wins = [];
  result.pots.forEach((pot, i) => {
    pot.shares.forEach(([player, amount]) => {
      const where = [];
      if (result.pots.length > 1) where.push(potName(i, result.pots.length));
      const half = halfWon(result, pot, player);
      if (half) where.push(half);
      const text = "wins " + chips(amount) + (where.length ? " (" + where.join(", ") + ")" : "");
      wins.push({ player, text });
    });
  });
  return wins;
}

// Engine player -> "wins 24 (main pot), wins 6 (side pot 1)"; {} before a result.
export function winsByPlayer(result) {
  const out = {};
  if (!result) return out;
  winnings(result).forEach(({ player, text }) => {
    out[player] = out[player] ? out[player] + ", " + text : text;
  });
  return out;
}

// The pots with chips in them ("Main pot: 40"), then the bet to match while
// betting goes on.
export function potsInPlay(hand) {
  const lines = [];
  // The total counts this street's bets too, which join the pots when it ends.
  const collected = hand.pots.reduce((sum, pot) => sum + pot.amount, 0);
  const betting = (hand.players || []).reduce((sum, p) => sum + (p.bet || 0), 0);
  const live = hand.pots.filter((pot) => pot.amount).length;
  if (hand.phase !== "over" && (betting || live > 1)) lines.push("Total pot: " + chips(collected + betting));
  hand.pots.forEach((pot, i) => {
    if (pot.amount) lines.push(potTitle(i, hand.pots.length) + ": " + chips(pot.amount));
  });
  if (hand.current_bet && hand.phase !== "over") lines.push("Bet to match: " + chips(hand.current_bet));
  return lines;
}

// The tags a dealt-in player's seat shows for the hand: folded, all in,
// mucked (at the showdown, unshown). A protected player (timed out) plays on
// as if all in, without risking more.
export function handTags(player) {
  const tags = [];
  if (player.folded) tags.push("folded");
  if (player.protected) tags.push("all in, protected");
  else if (player.all_in) tags.push("all in");
  if (player.mucked) tags.push("mucked");
  return tags;
}

// "Wild: queens and fives", from a view's words for what is wild now; ""
// in a game without wild cards.
export function wildsText(view) {
  return view && view.wilds ? "Wild: " + view.wilds : "";
}

// Whether the hand waits on a decision that everyone still in makes at once,
// unseen (a roll, a hi-lo declaration unless declared in turn): nobody is
// then "to act", and `deciding` names all who have yet to choose.
export function decidingAtOnce(hand) {
  return Boolean(hand && hand.phase === "deciding" && hand.to_act === null);
}

const DECLARED = { high: "High", low: "Low", both: "Both" };

// The badges a dealt-in player's seat shows for a decision that is not a
// bet, as [{text, kind, hidden}] (`hidden`: words before the text for a
// screen reader only). While everyone chooses at once: whether this player
// has chosen, never what. Once the declarations are revealed: theirs.
export function decisionBadges(hand, player) {
  const seat = hand.players[player];
  const badges = [];
  if (decidingAtOnce(hand) && !seat.folded) {
    const choosing = (hand.deciding || []).includes(player);
    badges.push(choosing ? { text: "choosing…", kind: "choosing" } : { text: "decided", kind: "decided" });
  }
  if (seat.declared && DECLARED[seat.declared]) {
    badges.push({ text: DECLARED[seat.declared], kind: "declared-" + seat.declared, hidden: "declared " });
  }
  return badges;
}

// "bob", "bob and carol", "bob, carol and dave".
export function namesList(names) {
  if (names.length < 2) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}
