// The hand replayer: steps through a finished hand drawn from the steps the
// server embedded in the page (#replay-data). Each step is the server's view of
// the hand for this viewer after one action, so every card, stack, bet and pot
// here is the server's; this file only draws them. Also wires the deck check.
(function () {
  "use strict";

  var source = document.getElementById("replay-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var steps = data.steps;
  var index = 0;

  var SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  var RED = { d: true, h: true };

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // The same card as the table page draws; null is a card this viewer can't see.
  function card(code, down) {
    if (code === null || code === undefined) return el("span", "card card-back", "");
    var rank = code[0] === "T" ? "10" : code[0];
    var node = el("span", "card " + (RED[code[1]] ? "card-red" : "card-black") + (down ? " card-hole" : ""));
    node.appendChild(el("span", "card-rank", rank));
    node.appendChild(el("span", "card-suit", SUITS[code[1]]));
    node.setAttribute("aria-label", rank + SUITS[code[1]]);
    node.dataset.card = code;
    return node;
  }

  function potName(i, count) {
    if (count === 1) return "Pot";
    return i === 0 ? "Main pot" : "Side pot " + i;
  }

  // "two pair, kings and nines", or for hi-lo "…; 8-6-4-2-A low" / "…; no low".
  function wordsOf(words) {
    if (!words) return "";
    var parts = [];
    if (words.high) parts.push(words.high);
    if ("low" in words) parts.push(words.low || "no low");
    return parts.join("; ");
  }

  // Engine player -> "wins 46 (main pot)" at the last step.
  function winnings(result) {
    var out = {};
    if (!result) return out;
    result.pots.forEach(function (pot, i) {
      pot.shares.forEach(function (share) {
        var text = "wins " + share[1] + (result.pots.length > 1 ? " (" + potName(i, 2).toLowerCase() + ")" : "");
        out[share[0]] = out[share[0]] ? out[share[0]] + ", " + text : text;
      });
    });
    return out;
  }

  // ------------------------------------------------------------- drawing

  function render() {
    var step = steps[index];
    renderSeats(step.view);
    renderCentre(step.view);
    var lines = $("replay-lines");
    lines.textContent = "";
    step.lines.forEach(function (text) { lines.appendChild(el("li", "", text)); });
    $("replay-position").textContent = "Step " + (index + 1) + " of " + steps.length;
    $("replay-first").disabled = $("replay-prev").disabled = index === 0;
    $("replay-last").disabled = $("replay-next").disabled = index === steps.length - 1;
    document.querySelectorAll(".story li").forEach(function (li) {
      li.classList.toggle("story-current", li.dataset.step === String(index));
    });
  }

  function renderSeats(view) {
    var felt = $("replay-felt");
    felt.querySelectorAll(".seat").forEach(function (n) { felt.removeChild(n); });
    var bottom = data.viewer !== null ? data.seats[data.viewer] : Math.min.apply(null, data.seats);
    var wins = winnings(view.result);
    view.players.forEach(function (seen, p) {
      var number = data.seats[p];
      // The viewer's seat sits at 6 o'clock, the others clockwise, as at the table.
      var angle = Math.PI / 2 + (2 * Math.PI * (number - bottom)) / data.seat_count;
      var box = seatBox(view, seen, p, wins[p]);
      box.dataset.seat = String(number);
      box.style.left = (50 + 46 * Math.cos(angle)) + "%";
      box.style.top = (50 + 44 * Math.sin(angle)) + "%";
      felt.appendChild(box);
    });
  }

  function seatBox(view, seen, p, won) {
    var box = el("div", "seat");
    if (p === data.viewer) box.classList.add("seat-mine");
    if (view.to_act === p && view.phase !== "over") box.classList.add("seat-turn");
    if (seen.folded) box.classList.add("seat-folded");
    if (won) box.classList.add("seat-winner");
    var head = el("div", "seat-head");
    head.appendChild(el("span", "seat-name", data.names[p]));
    head.appendChild(el("span", "seat-no", "#" + data.seats[p]));
    box.appendChild(head);
    box.appendChild(el("div", "seat-stack", seen.stack + " chips"));
    var tags = [];
    if (seen.folded) tags.push("folded");
    if (seen.protected) tags.push("all in, protected");
    else if (seen.all_in) tags.push("all in");
    if (data.dealer === data.seats[p]) tags.push("dealer");
    if (won) tags.push(won);
    if (tags.length) box.appendChild(el("div", "seat-tags", tags.join(" · ")));
    var cards = el("div", "cards cards-small");
    seen.down.slice(0, 2).forEach(function (c) { cards.appendChild(card(c, true)); });
    seen.up.forEach(function (c) { cards.appendChild(card(c, false)); });
    seen.down.slice(2).forEach(function (c) { cards.appendChild(card(c, true)); });
    box.appendChild(cards);
    if (seen.bet) box.appendChild(el("div", "seat-bet", "bet " + seen.bet));
    var words = view.result ? wordsOf(view.result.hands[String(p)]) : "";
    if (words) box.appendChild(el("div", "seat-hand", words));
    return box;
  }

  function renderCentre(view) {
    var stage = view.street;
    if (view.phase === "over") stage = view.result && !view.result.uncontested ? "showdown" : "hand over";
    $("replay-street").textContent = "Hand #" + data.hand + " · " + stage;
    var community = $("replay-community");
    community.textContent = "";
    view.community.forEach(function (c) { community.appendChild(card(c, false)); });
    var pots = $("replay-pots");
    pots.textContent = "";
    if (view.result) {
      view.result.pots.forEach(function (pot, i) {
        var rake = pot.rake ? " (rake " + pot.rake + ")" : "";
        pots.appendChild(el("div", "pot", potName(i, view.result.pots.length) + ": " + pot.amount + rake));
      });
      return;
    }
    view.pots.forEach(function (pot, i) {
      if (pot.amount) pots.appendChild(el("div", "pot", potName(i, view.pots.length) + ": " + pot.amount));
    });
    if (view.current_bet) pots.appendChild(el("div", "pot", "Bet to match: " + view.current_bet));
  }

  // ------------------------------------------------------------ stepping

  function go(to, remember) {
    index = Math.max(0, Math.min(steps.length - 1, to));
    render();
    // Remember the step in the address, without a history entry per step.
    if (remember !== false) history.replaceState(null, "", "#step-" + (index + 1));
  }

  // "#step-4" is the fourth step, as the counter numbers them.
  function fromHash() {
    var match = /^#step-(\d+)$/.exec(location.hash);
    return match ? parseInt(match[1], 10) - 1 : null;
  }

  $("replay-first").addEventListener("click", function () { go(0); });
  $("replay-prev").addEventListener("click", function () { go(index - 1); });
  $("replay-next").addEventListener("click", function () { go(index + 1); });
  $("replay-last").addEventListener("click", function () { go(steps.length - 1); });
  // A line of "the hand in words" links to its step.
  window.addEventListener("hashchange", function () {
    var step = fromHash();
    if (step !== null) {
      go(step, false);
      $("replayer").scrollIntoView({ block: "start" });
    }
  });

  var KEYS = {
    ArrowLeft: function () { return index - 1; },
    ArrowRight: function () { return index + 1; },
    Home: function () { return 0; },
    End: function () { return steps.length - 1; },
  };

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || !KEYS[e.key]) return;
    var target = e.target.tagName;
    if (target === "INPUT" || target === "TEXTAREA" || target === "SELECT") return;
    e.preventDefault();
    go(KEYS[e.key]());
  });

  var start = fromHash();
  go(start === null ? 0 : start, false);

  // ---------------------------------------------------------- deck check

  // Recomputes SHA-256 of "<salt>:<deck>" from the text shown on the page.
  var check = $("deck-check-button");
  if (check) {
    check.addEventListener("click", function () {
      var out = $("deck-check-result");
      var text = $("deck-salt").textContent.trim() + ":" + $("deck-cards").textContent.trim();
      var commitment = $("deck-commitment").textContent.trim();
      var hash = window.cardroomSha256(text);
      var matches = hash === commitment;
      out.textContent = "";
      out.className = "deck-result " + (matches ? "deck-match" : "deck-mismatch");
      out.appendChild(el("strong", "", matches ? "It matches." : "It does not match!"));
      out.appendChild(el("span", "", " SHA-256 of the salt and deck above: "));
      out.appendChild(el("code", "hash", hash));
      out.appendChild(el("span", "", matches
        ? ". The deck was fixed before the first card was dealt."
        : ". This deck is not the one committed to when the hand began."));
    });
  }
})();
