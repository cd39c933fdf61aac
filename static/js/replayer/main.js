// The hand replayer: steps through a finished hand drawn from the steps the
// server embedded in the page (#replay-data). Each step is the server's view of
// the hand for this viewer after one action, so every card, stack, bet and pot
// here is the server's; this file only draws them, with the table's own card
// and seat drawing. Also wires the deck check.
import { byId, card, drawSeats, el, jokerCard, seatBox, showWilds } from "../shared/felt.js";
import {
  chips,
  decidingAtOnce,
  decisionBadges,
  handTags,
  handWords,
  potTitle,
  potsInPlay,
  wildsText,
  winningSpade,
  winsByPlayer,
} from "../shared/format.js";

// The steps' pots: at the end, each pot the hand paid with its rake.
export function stepPots(view) {
  if (!view.result) return potsInPlay(view);
  return view.result.pots.map((pot, i) => {
    const rake = pot.rake ? " (rake " + chips(pot.rake) + ")" : "";
    return potTitle(i, view.result.pots.length) + ": " + chips(pot.amount) + rake;
  });
}

// "Hand #4 · 3rd street", or "· showdown" / "· hand over" at the end.
export function stepHeading(hand, view) {
  let stage = view.street;
  if (view.phase === "over") stage = view.result && !view.result.uncontested ? "showdown" : "hand over";
  return "Hand #" + hand + " · " + stage;
}

class Replayer {
  constructor(data) {
    this.data = data;
    this.steps = data.steps;
    this.index = 0;
  }

  // Goes to step `to`; `remember` puts it in the address, without a history
  // entry per step.
  go(to, remember = true) {
    this.index = Math.max(0, Math.min(this.steps.length - 1, to));
    this.render();
    if (remember) history.replaceState(null, "", "#step-" + (this.index + 1));
  }

  render() {
    const step = this.steps[this.index];
    // The centre first: drawing the seats settles their bets clear of it.
    this.renderCentre(step.view);
    this.renderSeats(step.view);
    const lines = byId("replay-lines");
    lines.textContent = "";
    step.lines.forEach((text) => lines.appendChild(el("li", "", text)));
    const first = this.index === 0;
    const last = this.index === this.steps.length - 1;
    byId("replay-position").textContent = "Step " + (this.index + 1) + " of " + this.steps.length;
    byId("replay-first").disabled = byId("replay-prev").disabled = first;
    byId("replay-last").disabled = byId("replay-next").disabled = last;
    document.querySelectorAll(".story li").forEach((li) => {
      li.classList.toggle("story-current", li.dataset.step === String(this.index));
    });
  }

  renderSeats(view) {
    const data = this.data;
    // The viewer's seat sits at 6 o'clock, the others clockwise, as at the table.
    const bottom = data.viewer !== null ? data.seats[data.viewer] : Math.min(...data.seats);
    const wins = winsByPlayer(view.result);
    const seats = view.players.map((seen, p) => {
      const number = data.seats[p];
      const tags = handTags(seen);
      if (data.dealer === number) tags.push("dealer");
      if (wins[p]) tags.push(wins[p]);
      const box = seatBox({
        number,
        name: data.names[p],
        stack: seen.stack,
        mine: p === data.viewer,
        turn: view.to_act === p && view.phase !== "over",
        deciding: decidingAtOnce(view) && (view.deciding || []).includes(p),
        folded: seen.folded,
        winner: wins[p],
        tags,
        badges: decisionBadges(view, p),
        player: seen,
        words: view.result ? handWords(view, p) : "",
        spade: winningSpade(view.result, p),
      });
      return { number, box, bet: view.phase !== "over" ? seen.bet : 0 };
    });
    drawSeats(byId("replay-felt"), seats, bottom, data.seat_count);
  }

  renderCentre(view) {
    byId("replay-street").textContent = stepHeading(this.data.hand, view);
    showWilds(byId("replay-wilds"), wildsText(view));
    const community = byId("replay-community");
    community.textContent = "";
    view.community.forEach((c) => community.appendChild(card(c)));
    if (view.bug) community.appendChild(jokerCard());
    const pots = byId("replay-pots");
    pots.textContent = "";
    stepPots(view).forEach((text) => pots.appendChild(el("div", "pot", text)));
  }
}

// "#step-4" is the fourth step, as the counter numbers them.
function fromHash() {
  const match = /^#step-(\d+)$/.exec(location.hash);
  return match ? parseInt(match[1], 10) - 1 : null;
}

function listen(replayer) {
  const steps = replayer.steps;
  byId("replay-first").addEventListener("click", () => replayer.go(0));
  byId("replay-prev").addEventListener("click", () => replayer.go(replayer.index - 1));
  byId("replay-next").addEventListener("click", () => replayer.go(replayer.index + 1));
  byId("replay-last").addEventListener("click", () => replayer.go(steps.length - 1));
  // A line of "the hand in words" links to its step.
  window.addEventListener("hashchange", () => {
    const step = fromHash();
    if (step === null) return;
    replayer.go(step, false);
    byId("replayer").scrollIntoView({ block: "start" });
  });
  const keys = {
    ArrowLeft: () => replayer.index - 1,
    ArrowRight: () => replayer.index + 1,
    Home: () => 0,
    End: () => steps.length - 1,
  };
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || !keys[e.key]) return;
    const target = e.target.tagName;
    if (target === "INPUT" || target === "TEXTAREA" || target === "SELECT") return;
    e.preventDefault();
    replayer.go(keys[e.key]());
  });
}

// The deck check: recomputes SHA-256 of "<salt>:<deck>" from the text shown
// on the page (sha256.js, loaded before this when they are shown).
function checkDeck() {
  const button = byId("deck-check-button");
  if (!button) return;
  button.addEventListener("click", () => {
    const out = byId("deck-check-result");
    const text = byId("deck-salt").textContent.trim() + ":" + byId("deck-cards").textContent.trim();
    const hash = window.cardroomSha256(text);
    const matches = hash === byId("deck-commitment").textContent.trim();
    out.textContent = "";
    out.className = "deck-result " + (matches ? "deck-match" : "deck-mismatch");
    out.appendChild(el("strong", "", matches ? "It matches." : "It does not match!"));
    out.appendChild(el("span", "", " SHA-256 of the salt and deck above: "));
    out.appendChild(el("code", "hash", hash));
    out.appendChild(
      el(
        "span",
        "",
        matches
          ? ". The deck was fixed before the first card was dealt."
          : ". This deck is not the one committed to when the hand began.",
      ),
    );
  });
}

const source = byId("replay-data");
if (source) {
  const replayer = new Replayer(JSON.parse(source.textContent));
  listen(replayer);
  const start = fromHash();
  replayer.go(start === null ? 0 : start, false);
  checkDeck();
}
