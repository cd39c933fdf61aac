// One table, live: connect to ws/tables/<id>/, draw each snapshot, send moves.
// The snapshot is the whole truth; events only feed the hand log and the "last
// hand" summary. Every amount on a button comes from the server's legal_actions,
// never from arithmetic here. Text from other people (names, chat) goes in with
// textContent only.
(function () {
  "use strict";

  var room = document.getElementById("room");
  if (!room) return;
  var tableId = room.dataset.table;
  var seatCount = parseInt(room.dataset.seats, 10);
  var minBuyIn = parseInt(room.dataset.minBuyIn, 10);
  var maxBuyIn = parseInt(room.dataset.maxBuyIn, 10);
  var loggedIn = room.dataset.loggedIn === "1";
  var actionMs = 1000 * (parseInt(room.dataset.actionSeconds, 10) || 10);
  // A finished hand's page in the hand history: for its players, and staff.
  var handUrl = room.dataset.handUrl || "";
  var allHands = room.dataset.allHands === "1";

  var SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  var RED = { d: true, h: true };
  // One key per kind of move: fold, the passive move, the aggressive one.
  var KEYS = { fold: "F", check: "C", call: "C", bring_in: "C", complete: "B", bet: "B", raise: "R" };
  var SAT_OUT_FOR_TIMEOUTS = "sat out: two turns timed out";
  var VERBS = {
    fold: "Fold", check: "Check", call: "Call", bring_in: "Bring in",
    complete: "Complete to", bet: "Bet", raise: "Raise to",
  };

  var socket = null;
  var lastSeq = 0;
  var backoff = 500;
  var snap = null;
  var pending = []; // events waiting for the snapshot that follows them
  var timer = null; // the running turn's clock, or null
  var skew = 0; // the server's clock minus ours, in ms, from the last `timer`
  var timerFrame = null;
  var lastHand = null; // the summary of the last finished hand, kept until the next one ends
  var sitting = null; // the seat the buy-in dialog is waiting to see us in
  // A new connection is sent the latest hand's log from its first event, and
  // the recent chat: what this page already shows of them is skipped.
  var eventsSeen = {}; // hand id -> events of it logged
  var replaying = {}; // hand id -> events of it received on this connection
  var lastChatId = 0;
  var bannerTimer = null;

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // ------------------------------------------------------------ connection

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/tables/" + tableId + "/");
    lastSeq = 0;
    pending = [];
    replaying = {};
    setConn("Connecting…");
    socket.onopen = function () { backoff = 500; setConn(""); };
    socket.onmessage = function (e) { receive(JSON.parse(e.data)); };
    socket.onclose = function (e) {
      if (e.code === 4404) { setConn("This table doesn't exist."); return; }
      setConn("Disconnected; reconnecting…");
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 15000);
    };
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    else showError("Not connected yet; try again in a moment.");
  }

  function setConn(text) { $("conn").textContent = text; }

  function receive(msg) {
    // Each connection counts from 1; a gap means we missed something.
    if (msg.seq !== lastSeq + 1 && msg.type !== "snapshot") send({ type: "snapshot" });
    lastSeq = msg.seq;
    if (msg.type === "snapshot") takeSnapshot(msg);
    else if (msg.type === "event") pending.push(msg);
    else if (msg.type === "timer") takeTimer(msg);
    else if (msg.type === "chat") takeChat(msg);
    else if (msg.type === "error") takeError(msg);
  }

  // Events come just before the snapshot they lead to. Those of the hand we
  // were showing are told with the old snapshot's seating, the rest (a new
  // hand's) with the new one, so every line names the right player.
  function takeSnapshot(msg) {
    var events = pending;
    pending = [];
    var before = snap;
    var shownId = before && before.hand_info ? before.hand_info.id : null;
    var endResult = msg.hand_info && msg.hand ? { id: msg.hand_info.id, result: msg.hand.result } : null;
    var log = function (m) { logEvent(m, endResult); };
    if (before) events.filter(function (m) { return m.hand_id === shownId; }).forEach(log);
    if (before && msg.hand_info && msg.hand_info.id !== shownId && shownId !== null) {
      // The hand we showed is over, perhaps without our seeing its last snapshot.
      var summary = summarize(before, events);
      if (summary && (!lastHand || lastHand.id !== summary.id || !lastHand.words)) lastHand = summary;
    }
    snap = msg;
    events.filter(function (m) { return m.hand_id !== shownId; }).forEach(log);
    if (before) logSeatChanges(before, msg);
    if (snap.hand && snap.hand.result) lastHand = summarize(snap, []);
    timer = snap.hand_info ? snap.hand_info.timer || null : null;
    if (sitting !== null && mySeat() === sitting) closeBuyIn();
    render();
  }

  function takeTimer(msg) {
    var serverNow = Date.parse(msg.now);
    if (!isNaN(serverNow)) skew = serverNow - Date.now();
    timer = msg.seat === null || msg.seat === undefined ? null : msg;
    if (snap) renderTimer();
  }

  // The server's messages are lower-case phrases ("seat 3 at Table 1 is taken").
  function sentence(text) {
    text = String(text || "Something went wrong");
    text = text.charAt(0).toUpperCase() + text.slice(1);
    return /[.!?]$/.test(text) ? text : text + ".";
  }

  function takeError(msg) {
    if (sitting !== null && buyIn && buyIn.open) {
      buyInError(sentence(msg.message));
      sitting = null;
      return;
    }
    showError(sentence(msg.message));
    // A refused move cleared the buttons: a fresh snapshot brings them back.
    if (msg.code === "stale" || msg.code === "illegal") send({ type: "snapshot" });
  }

  // An error stays up long enough to read, then goes; the close button hides it sooner.
  function showError(text) {
    $("banner-text").textContent = text;
    $("banner").hidden = false;
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(function () { $("banner").hidden = true; }, 8000);
  }
  $("banner-close").addEventListener("click", function () { $("banner").hidden = true; });

  // ----------------------------------------------------------------- cards

  function card(code) {
    if (code === null || code === undefined) return el("span", "card card-back", "");
    var rank = code[0] === "T" ? "10" : code[0];
    var suit = code[1];
    var node = el("span", "card " + (RED[suit] ? "card-red" : "card-black"));
    node.appendChild(el("span", "card-rank", rank));
    node.appendChild(el("span", "card-suit", SUITS[suit] || suit));
    node.setAttribute("aria-label", rank + SUITS[suit]);
    return node;
  }

  function downCard(code) {
    var node = card(code);
    if (code) node.classList.add("card-hole");
    return node;
  }

  // Every chip count on the page is written one way: 10,000.
  function chips(n) { return Number(n).toLocaleString("en-US"); }

  function cardText(code) {
    if (!code) return "??";
    return (code[0] === "T" ? "10" : code[0]) + (SUITS[code[1]] || code[1]);
  }

  // ---------------------------------------------------------------- render

  function engineIndex(seatNumber) {
    if (!snap.hand_info) return -1;
    return snap.hand_info.seats.indexOf(seatNumber);
  }

  function seatOf(player) {
    return snap.hand_info ? snap.hand_info.seats[player] : player + 1;
  }

  function mySeat() { return snap.you ? snap.you.seat : null; }

  function render() {
    renderSeats();
    renderCentre();
    renderActions();
    renderSeatControls();
    renderLastHand();
    renderTimer();
    renderBalance();
  }

  // The header's balance was rendered with the page; buy-ins and cash-outs move it.
  function renderBalance() {
    var shown = document.querySelector(".site-header .balance");
    if (shown && snap.you && typeof snap.you.balance === "number") {
      shown.textContent = chips(snap.you.balance) + " chips";
    }
  }

  function renderSeats() {
    var felt = $("felt");
    felt.querySelectorAll(".seat").forEach(function (n) { felt.removeChild(n); });
    var bySeat = {};
    snap.table.seats.forEach(function (s) { bySeat[s.number] = s; });
    var bottom = mySeat() || 1;
    var winners = winnersBySeat();
    for (var n = 1; n <= seatCount; n++) {
      // Seat `bottom` sits at 6 o'clock; the others follow clockwise.
      var angle = Math.PI / 2 + (2 * Math.PI * (n - bottom)) / seatCount;
      var box = bySeat[n] ? occupiedSeat(bySeat[n], winners) : emptySeat(n);
      box.dataset.seat = String(n);
      box.style.left = (50 + 46 * Math.cos(angle)) + "%";
      box.style.top = (50 + 44 * Math.sin(angle)) + "%";
      felt.appendChild(box);
    }
  }

  function occupiedSeat(seat, winners) {
    var box = el("div", "seat");
    var p = engineIndex(seat.number);
    var hp = p >= 0 && snap.hand ? snap.hand.players[p] : null;
    if (seat.number === mySeat()) box.classList.add("seat-mine");
    var toAct = hp && snap.hand.to_act === p && snap.hand.phase !== "over";
    if (toAct) box.classList.add("seat-turn");
    if (hp && hp.folded) box.classList.add("seat-folded");
    if (winners[seat.number]) box.classList.add("seat-winner");
    var head = el("div", "seat-head");
    head.appendChild(el("span", "seat-name", seat.player));
    head.appendChild(el("span", "seat-no", "#" + seat.number));
    box.appendChild(head);
    var stack = hp && !snap.hand_info.finished ? hp.stack : seat.stack;
    box.appendChild(el("div", "seat-stack", chips(stack) + " chips"));
    var tags = [];
    if (seat.state === "sitting_out" && seat.sat_out_for === "timeouts") tags.push(SAT_OUT_FOR_TIMEOUTS);
    else if (seat.state !== "playing") tags.push(seat.state.replace("_", " "));
    // Sat down during a hand: dealt in from the next one.
    else if (!hp && snap.hand_info && !snap.hand_info.finished) tags.push("next hand");
    if (hp && hp.folded) tags.push("folded");
    // A protected player (timed out) plays on as if all in, without risking more.
    if (hp && hp.protected) tags.push("all in, protected");
    else if (hp && hp.all_in) tags.push("all in");
    if (seat.leaving) tags.push("leaving after this hand");
    if (snap.hand_info && snap.hand_info.dealer === seat.number) tags.push("dealer");
    if (winners[seat.number]) tags.push(winners[seat.number]);
    if (tags.length) box.appendChild(el("div", "seat-tags", tags.join(" · ")));
    if (hp) {
      var cards = el("div", "cards cards-small");
      hp.down.slice(0, 2).forEach(function (c) { cards.appendChild(downCard(c)); });
      hp.up.forEach(function (c) { cards.appendChild(card(c)); });
      hp.down.slice(2).forEach(function (c) { cards.appendChild(downCard(c)); });
      box.appendChild(cards);
      if (hp.bet) box.appendChild(el("div", "seat-bet", "bet " + chips(hp.bet)));
      var words = handWords(p);
      if (words) box.appendChild(el("div", "seat-hand", words));
    }
    if (toAct && timer) box.appendChild(timerBar("seat-timer"));
    return box;
  }

  function emptySeat(number) {
    var box = el("div", "seat seat-empty");
    box.appendChild(el("div", "seat-no", "Seat " + number));
    if (loggedIn && !mySeat() && snap.table.is_open) {
      var b = el("button", "button button-small", "Sit here");
      b.type = "button";
      b.addEventListener("click", function () { sit(number); });
      box.appendChild(b);
    }
    return box;
  }

  // ---------------------------------------------------------- the buy-in

  var buyIn = $("buy-in");
  var buyInForm = $("buy-in-form");
  var buyInSeat = null;

  function sit(number) {
    buyInSeat = number;
    sitting = null;
    $("buy-in-seat").textContent = String(number);
    buyInError("");
    buyInBusy(false);
    buyIn.showModal();
    $("buy-in-amount").select();
  }

  function buyInError(text) {
    $("buy-in-error").textContent = text;
    $("buy-in-error").hidden = !text;
    $("buy-in-amount").setAttribute("aria-invalid", text ? "true" : "false");
    if (text) buyInBusy(false);
  }

  function buyInBusy(busy) {
    var submit = $("buy-in-submit");
    submit.disabled = busy;
    submit.textContent = busy ? "Sitting down…" : "Sit down";
  }

  function closeBuyIn() {
    sitting = null;
    if (buyIn.open) buyIn.close();
  }

  if (buyInForm) {
    buyInForm.addEventListener("submit", function (e) {
      e.preventDefault();
      var text = $("buy-in-amount").value.trim();
      var amount = Number(text);
      if (!/^[0-9]+$/.test(text) || amount < minBuyIn || amount > maxBuyIn) {
        buyInError("Enter a whole number of chips from " + minBuyIn + " to " + maxBuyIn + ".");
        return;
      }
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        buyInError("Not connected to the table yet; try again in a moment.");
        return;
      }
      buyInError("");
      buyInBusy(true);
      sitting = buyInSeat;
      send({ type: "sit", seat: buyInSeat, buy_in: amount });
    });
    $("buy-in-cancel").addEventListener("click", closeBuyIn);
    buyIn.addEventListener("close", function () { sitting = null; });
  }

  function result() { return snap.hand && snap.hand.result; }

  function handWords(player) {
    var r = result();
    return wordsOf(r && r.hands[String(player)]);
  }

  // "two pair, kings and nines", or for hi-lo "…; 8-6-4-2-A low" / "…; no low".
  function wordsOf(words) {
    if (!words) return "";
    var parts = [];
    if (words.high) parts.push(words.high);
    if (words.low) parts.push(words.low);
    else if ("low" in words) parts.push("no low");
    return parts.join("; ");
  }

  // Seat number -> "wins 24 (main pot)" for the finished hand's winners.
  function winnersBySeat() {
    var out = {};
    var r = result();
    if (!r) return out;
    winnings(r).forEach(function (win) {
      var seat = seatOf(win.player);
      out[seat] = out[seat] ? out[seat] + ", " + win.text : win.text;
    });
    return out;
  }

  // One {player, text} per share of a pot: "wins 12 (side pot 1, low)". Which
  // pot is named when there are several; which half, in a split game.
  function winnings(r) {
    var wins = [];
    r.pots.forEach(function (pot, i) {
      pot.shares.forEach(function (share) {
        var where = [];
        if (r.pots.length > 1) where.push(potName(i, r.pots.length));
        var half = halfWon(r, pot, share[0]);
        if (half) where.push(half);
        var text = "wins " + chips(share[1]) + (where.length ? " (" + where.join(", ") + ")" : "");
        wins.push({ player: share[0], text: text });
      });
    });
    return wins;
  }

  // "high", "low" or "high and low" in a hi-lo showdown, where a shown hand is
  // named both ways; "" otherwise.
  function halfWon(r, pot, player) {
    if (r.uncontested || !pot.high_winners || !pot.low_winners) return "";
    var split = Object.keys(r.hands).some(function (p) { return "high" in r.hands[p] && "low" in r.hands[p]; });
    if (!split) return "";
    var high = pot.high_winners.indexOf(player) >= 0;
    var low = pot.low_winners.indexOf(player) >= 0;
    return high && low ? "high and low" : high ? "high" : low ? "low" : "";
  }

  function potName(i, count) {
    if (count === 1) return "pot";
    return i === 0 ? "main pot" : "side pot " + i;
  }

  // ------------------------------------------------------- the last hand

  // What a finished hand came to, from its last snapshot (hands in words) or,
  // if the next hand came first, from its show and result events (no words).
  function summarize(s, events) {
    var info = s.hand_info;
    if (!info) return null;
    var names = {};
    s.table.seats.forEach(function (seat) { names[seat.number] = seat.player; });
    var r = s.hand && s.hand.result;
    var shown = {};
    var payouts = null;
    if (r) {
      payouts = r.payouts;
      Object.keys(r.hands).forEach(function (p) {
        shown[p] = { cards: r.hands[p].cards, words: wordsOf(r.hands[p]) };
      });
    } else {
      events.forEach(function (m) {
        if (m.hand_id !== info.id) return;
        if (m.event.type === "show") shown[m.event.player] = { cards: m.event.cards, words: "" };
        if (m.event.type === "result") payouts = m.event.payouts;
      });
      if (!payouts) return null;
    }
    var rows = [];
    info.seats.forEach(function (seatNumber, p) {
      var hand = shown[p];
      if (!hand && !payouts[p]) return;
      rows.push({
        seat: seatNumber,
        name: names[seatNumber] || "Seat " + seatNumber,
        cards: hand ? hand.cards : null,
        words: hand ? hand.words : "",
        won: payouts[p] || 0,
      });
    });
    var pots = [];
    if (r && (r.pots.length > 1 || r.pots.some(function (pot) { return pot.shares.length > 1; }))) {
      r.pots.forEach(function (pot, i) {
        var shares = pot.shares.map(function (share) {
          var seat = info.seats[share[0]];
          var half = halfWon(r, pot, share[0]);
          return (names[seat] || "Seat " + seat) + " " + chips(share[1]) + (half ? " (" + half + ")" : "");
        });
        var name = potName(i, r.pots.length);
        pots.push(name.charAt(0).toUpperCase() + name.slice(1) + " " + chips(pot.amount) + ": " + shares.join(", "));
      });
    }
    // Dealt in: still true once the player has left the table.
    var review = allHands || dealtIn(s);
    return {
      id: info.id, number: info.number, words: Boolean(r), rows: rows, pots: pots,
      rake: r ? r.rake : 0, review: review,
    };
  }

  function renderLastHand() {
    var box = $("last-hand");
    if (!lastHand) { box.hidden = true; return; }
    box.hidden = false;
    $("last-hand-number").textContent = "#" + lastHand.number;
    var link = $("last-hand-link");
    link.hidden = !lastHand.review;
    if (lastHand.review) link.href = reviewUrl(lastHand.id);
    var list = $("last-hand-rows");
    list.textContent = "";
    lastHand.rows.forEach(function (row) {
      var line = el("li", "last-row" + (row.won ? " last-winner" : ""));
      line.appendChild(el("span", "last-name", row.name));
      if (row.cards) {
        var cards = el("span", "cards cards-small last-cards");
        row.cards.forEach(function (c) { cards.appendChild(card(c)); });
        line.appendChild(cards);
      }
      if (row.words) line.appendChild(el("span", "last-words", row.words));
      if (row.won) line.appendChild(el("span", "last-won", "wins " + chips(row.won)));
      list.appendChild(line);
    });
    lastHand.pots.forEach(function (text) { list.appendChild(el("li", "last-pot", text)); });
  }

  function reviewUrl(handId) { return handUrl.replace(/0\/$/, handId + "/"); }

  // Whether this viewer may open the hand in the history: they were dealt in.
  function mayReview(handId) {
    if (allHands) return true;
    return Boolean(snap.hand_info && snap.hand_info.id === handId && dealtIn(snap));
  }

  // Whether the snapshot's viewer was dealt into its hand (the view names them).
  function dealtIn(s) {
    return Boolean(s.hand && s.hand.viewer !== null && s.hand.viewer !== undefined);
  }

  function renderCentre() {
    var hand = snap.hand;
    var stage = "";
    if (hand) stage = hand.phase !== "over" ? hand.street : hand.result && !hand.result.uncontested ? "showdown" : "over";
    var waiting = snap.table.waiting;
    var heading = hand ? "Hand #" + snap.hand_info.number + " · " + stage : "Waiting for players";
    var turn = "";
    if (waiting === "players") {
      heading = "Waiting for players";
      turn = "A hand starts once two players with chips are sitting in.";
    } else if (waiting === "closed") {
      heading = "The table is closed";
      turn = "No new hands start here.";
    } else if (hand && hand.phase !== "over" && hand.to_act !== null) {
      var seat = seatOf(hand.to_act);
      turn = seat === mySeat() ? "Your turn" : seatName(seat) + " to act";
    }
    $("street").textContent = heading;
    $("turn").textContent = turn;
    var community = $("community");
    community.textContent = "";
    if (hand) hand.community.forEach(function (c) { community.appendChild(card(c)); });
    var pots = $("pots");
    pots.textContent = "";
    if (!hand) return;
    hand.pots.forEach(function (pot, i) {
      var name = potName(i, hand.pots.length);
      if (pot.amount) pots.appendChild(el("div", "pot", name.charAt(0).toUpperCase() + name.slice(1) + ": " + chips(pot.amount)));
    });
    if (hand.current_bet && hand.phase !== "over") pots.appendChild(el("div", "pot", "Bet to match: " + chips(hand.current_bet)));
  }

  function renderActions() {
    var box = $("actions");
    box.textContent = "";
    $("keys").hidden = !mySeat();
    if (!snap.hand || !snap.hand.legal_actions.length) return;
    snap.hand.legal_actions.forEach(function (option) {
      var amounts = option.amounts && option.amounts.length ? option.amounts : [null];
      amounts.forEach(function (amount, i) {
        var label = VERBS[option.kind] || option.kind;
        if (option.kind === "call" || option.kind === "bring_in") label += " " + chips(option.min);
        else if (amount !== null) label += " " + chips(amount);
        var b = el("button", "button action action-" + option.kind);
        b.type = "button";
        b.appendChild(el("span", "action-label", label));
        var key = i === 0 ? KEYS[option.kind] : null;
        if (key) {
          b.appendChild(el("kbd", "", key));
          b.dataset.key = key;
          b.title = "Shortcut: " + key;
        }
        b.addEventListener("click", function () { act(option.kind, amount); });
        box.appendChild(b);
      });
    });
  }

  function act(kind, amount) {
    var message = { type: "act", action: kind, turn: snap.hand.turn, hand: snap.hand_info.id };
    if (amount !== null) message.amount = amount;
    send(message);
    $("actions").textContent = ""; // one click, one move; the next snapshot brings new buttons
  }

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    var target = e.target.tagName;
    if (target === "INPUT" || target === "TEXTAREA" || target === "SELECT") return;
    if (buyIn && buyIn.open) return;
    var key = e.key.toUpperCase();
    var button = $("actions").querySelector('[data-key="' + key + '"]');
    // With checking free there is nothing to fold: F checks, as check/fold would.
    if (!button && key === "F") button = $("actions").querySelector(".action-check");
    if (button) { e.preventDefault(); button.click(); }
  });

  function renderSeatControls() {
    var box = $("seat-controls");
    if (!loggedIn) return;
    box.textContent = "";
    var mine = snap.table.seats.filter(function (s) { return s.number === mySeat(); })[0];
    if (!mine) {
      box.appendChild(el("p", "help", "Pick an empty seat to sit down."));
      return;
    }
    var toggle = mine.state === "playing"
      ? button("Sit out", { type: "sit_out" })
      : button("Sit in", { type: "sit_in" });
    box.appendChild(toggle);
    if (mine.state === "sitting_out" && mine.sat_out_for === "timeouts") {
      box.appendChild(el("p", "help", "You were sat out: two turns timed out. Sit in to be dealt in again."));
    }
    var info = snap.hand_info;
    var inHand = Boolean(info && !info.finished && info.seats.indexOf(mine.number) >= 0);
    if (mine.leaving) {
      box.appendChild(el("p", "help", "You’ll leave the table, with your chips, when this hand ends."));
      box.appendChild(button("Stay", { type: "stay" }));
    } else {
      box.appendChild(button(inHand ? "Leave after this hand" : "Leave", { type: "leave" }));
    }
  }

  function button(label, message) {
    var b = el("button", "button button-quiet", label);
    b.type = "button";
    b.addEventListener("click", function () { send(message); });
    return b;
  }

  // ------------------------------------------------------------ the clock

  function timerBar(className) {
    var track = el("div", "timer " + className);
    track.appendChild(el("div", "timer-bar"));
    return track;
  }

  // The action time shrinks one bar; once it is gone the extra time counts down
  // in another colour, in seconds: the countdown every turn has, or, at stakes
  // with a time bank (`clock` "time_bank"), the player's bank. Times are the
  // server's, so the bar runs on our clock plus the skew measured from the
  // last `timer` message.
  function renderTimer() {
    cancelAnimationFrame(timerFrame);
    var box = $("timer");
    var t = timer;
    var deadline = t && Date.parse(t.deadline);
    if (!t || isNaN(deadline) || !snap.hand || snap.hand.phase === "over") {
      box.hidden = true;
      return;
    }
    var expires = Date.parse(t.expires_at);
    if (isNaN(expires)) expires = deadline;
    var bankMs = typeof t.time_bank_ms === "number" && t.time_bank_ms > 0 ? t.time_bank_ms : expires - deadline;
    var seat = snap.table.seats.filter(function (s) { return s.number === t.seat; })[0];
    var whose = t.seat === mySeat() ? "Your" : (seat ? seat.player : "Seat " + t.seat) + "’s";
    var extra = t.clock === "time_bank" ? " time bank: " : " countdown: ";
    var shown = null;
    box.hidden = false;
    (function tick() {
      var now = Date.now() + skew;
      var left, share, mode, text;
      if (now < deadline) {
        left = deadline - now;
        share = Math.min(left / actionMs, 1);
        mode = "timer-action";
        text = whose + " time: " + Math.ceil(left / 1000) + "s";
      } else {
        left = Math.max(expires - now, 0);
        share = bankMs > 0 ? Math.min(left / bankMs, 1) : 0;
        mode = "timer-bank";
        text = whose + extra + Math.ceil(left / 1000) + "s";
      }
      document.querySelectorAll(".timer").forEach(function (track) {
        track.classList.toggle("timer-bank", mode === "timer-bank");
        track.firstChild.style.width = (100 * share) + "%";
      });
      if (text !== shown) { $("timer-text").textContent = text; shown = text; }
      if (left > 0) timerFrame = requestAnimationFrame(tick);
    })();
  }

  // ---------------------------------------------------------------- the log

  function addLine(list, node) {
    list.appendChild(node);
    while (list.children.length > 200) list.removeChild(list.firstChild);
    list.scrollTop = list.scrollHeight;
  }

  function seatName(number) {
    var seat = snap.table.seats.filter(function (s) { return s.number === number; })[0];
    return seat ? seat.player : "Seat " + number;
  }

  function who(player) {
    var number = seatOf(player);
    var seat = snap.table.seats.filter(function (s) { return s.number === number; })[0];
    return "Seat " + number + (seat ? " (" + seat.player + ")" : "");
  }

  // The chips each player has put in on this street, to say what a call costs.
  var streetBets = {};
  var betStreet = null;

  function putIn(e) {
    if (typeof e.street === "number" && e.street !== betStreet) {
      betStreet = e.street;
      streetBets = {};
    }
    if (e.type === "return") streetBets[e.player] = (streetBets[e.player] || 0) - e.amount;
    if (typeof e.total !== "number") return null;
    var chipsIn = e.total - (streetBets[e.player] || 0);
    streetBets[e.player] = e.total;
    return chipsIn;
  }

  function describe(e, r) {
    var chipsIn = putIn(e);
    var text = tell(e, chipsIn, r);
    return text && e.timed_out ? text + " (out of time)" : text;
  }

  function tell(e, chipsIn, r) {
    var allIn = e.all_in ? ", all in" : "";
    switch (e.type) {
      case "ante": return who(e.player) + " antes " + chips(e.amount);
      case "bring_in": return who(e.player) + " brings in " + chips(e.total) + allIn;
      case "complete": return who(e.player) + " completes to " + chips(e.total) + allIn;
      case "bet": return who(e.player) + " bets " + chips(e.total) + allIn;
      case "raise": return who(e.player) + " raises to " + chips(e.total) + allIn;
      case "call": return who(e.player) + " calls " + chips(chipsIn) + allIn;
      case "check": return who(e.player) + " checks";
      case "fold": return who(e.player) + " folds";
      case "protect":
        return who(e.player) + " ran out of time: all in for the " + e.put_in + " put in so far";
      case "deal": return e.up ? who(e.player) + " is dealt " + cardText(e.card) : null;
      case "board": return "Community card: " + cardText(e.card);
      case "return": return who(e.player) + " takes back " + chips(e.amount) + " uncalled";
      case "show": return who(e.player) + " shows " + e.cards.map(cardText).join(" ");
      case "muck": return who(e.player) + " mucks";
      case "result":
        var won = [];
        if (r) {
          winnings(r).forEach(function (win) { won.push(who(win.player) + " " + win.text); });
        } else {
          e.payouts.forEach(function (n, p) { if (n) won.push(who(p) + " wins " + chips(n)); });
        }
        return won.join(", ") + (e.rake ? " (rake " + chips(e.rake) + ")" : "");
      default: return null;
    }
  }

  var loggedHand = null;

  // One event into the log, unless this page logged it before a reconnect.
  // ``ended`` is the hand's result from the snapshot that follows, when it has one.
  function logEvent(message, ended) {
    var e = message.event;
    var id = message.hand_id;
    replaying[id] = (replaying[id] || 0) + 1;
    if (replaying[id] <= (eventsSeen[id] || 0)) return;
    eventsSeen[id] = replaying[id];
    if (id !== loggedHand) {
      loggedHand = id;
      streetBets = {};
      betStreet = null;
      var number = snap.hand_info && snap.hand_info.id === id ? " #" + snap.hand_info.number : "";
      addLine($("log"), el("li", "log-hand", "Hand" + number));
    }
    var r = ended && ended.id === id ? ended.result : null;
    var text = describe(e, r);
    if (!text) return;
    var line = el("li", "log-" + e.type, text);
    if (e.type === "result" && mayReview(message.hand_id)) {
      var link = el("a", "log-review", "Replay hand");
      link.href = reviewUrl(message.hand_id);
      line.appendChild(document.createTextNode(" · "));
      line.appendChild(link);
    }
    addLine($("log"), line);
  }

  // What changed at the seats between two snapshots that no hand event tells.
  function logSeatChanges(before, after) {
    var old = {};
    before.table.seats.forEach(function (s) { old[s.number] = s; });
    var now = {};
    after.table.seats.forEach(function (s) {
      now[s.number] = s;
      var was = old[s.number];
      if (!was || was.player !== s.player) {
        addLine($("log"), el("li", "log-seat", s.player + " sits down in seat " + s.number));
      } else if (s.sat_out_for === "timeouts" && was.sat_out_for !== "timeouts") {
        addLine($("log"), el("li", "log-seat", s.player + " " + SAT_OUT_FOR_TIMEOUTS));
      }
    });
    before.table.seats.forEach(function (s) {
      var still = now[s.number];
      if (!still || still.player !== s.player) {
        addLine($("log"), el("li", "log-seat", s.player + " leaves the table"));
      }
    });
  }

  function takeChat(msg) {
    if (typeof msg.id === "number") {
      if (msg.id <= lastChatId) return; // shown before this connection
      lastChatId = msg.id;
    }
    addChat(msg.from, msg.text);
  }

  function addChat(from, text) {
    var line = el("li");
    line.appendChild(el("strong", "", from + ": "));
    line.appendChild(document.createTextNode(text));
    addLine($("chat"), line);
  }

  var chatForm = $("chat-form");
  if (chatForm) {
    chatForm.addEventListener("submit", function (e) {
      e.preventDefault();
      var input = $("chat-text");
      var text = input.value.trim();
      if (!text) return;
      send({ type: "chat", text: text.slice(0, 300) });
      input.value = "";
    });
  }

  connect();
})();
