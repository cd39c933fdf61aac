// The hand log and the chat on the page. The words come from the server's
// narrator, the headings and seat changes from narrate.js.
import { byId, el } from "../shared/felt.js";
import { fullTime, localTime } from "../shared/times.js";
import { callLines, gameLines } from "./games.js";
import { Narration, seatChanges } from "./narrate.js";
import { mayReview } from "./state.js";

const LONGEST = 200; // lines kept in each list

export function addLine(list, node) {
  list.appendChild(node);
  while (list.children.length > LONGEST) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
}

export class HandLog {
  constructor(table) {
    this.table = table;
    this.narration = new Narration();
    this.game = null; // the game of the last hand headed, in words
  }

  // One event message into the log, headed with `snap`'s hand number (and,
  // under the heading, the call that chose its game or the game it changed
  // to), unless this page logged it before (a replay) or some before it
  // never came. Whether it was new.
  event(message, snap) {
    if (!this.table.state.events.isNew(message)) return false;
    const { heading, text } = this.narration.next(message, snap);
    const list = byId("log");
    if (heading) {
      addLine(list, el("li", "log-hand", heading));
      const info = snap.hand_info;
      if (info && info.id === message.hand_id) {
        gameLines(this.game, snap).forEach((line) => addLine(list, el("li", "log-game", line)));
        this.game = info.game || null;
      }
    }
    if (!text) return true;
    const line = el("li", "log-" + message.event.type, text);
    if (message.event.type === "result" && mayReview(snap, message.hand_id, this.table.config.allHands)) {
      const link = el("a", "log-review", "Replay hand");
      link.href = this.table.reviewUrl(message.hand_id);
      line.appendChild(document.createTextNode(" · "));
      line.appendChild(link);
    }
    addLine(list, line);
    return true;
  }

  seats(before, after) {
    seatChanges(before, after).forEach((text) => addLine(byId("log"), el("li", "log-seat", text)));
  }

  // The dealer beginning to call the game, once a call.
  calls(before, after) {
    callLines(before, after).forEach((text) => addLine(byId("log"), el("li", "log-game", text)));
  }
}

// Takes snapshot `message` into the page's state and logs the events it ends,
// each once and in order, and the seat changes since the snapshot before
// between the hand that page showed and any newer: a player sits down, or
// leaves, between hands, so their line comes before the deal it joins or
// misses. When some events went missing (a gap in the hand's event
// indexes) the socket asks for a snapshot, whose reply replays them; it alone
// asks, once for the frame, however the gap showed. What the page draws next
// needs the snapshot `before` and the events `fresh` to the log.
export function logSnapshot(table, message) {
  const { before, early, late } = table.state.snapshot(message);
  // The events this page hadn't shown: a reconnect sends some again.
  const fresh = [];
  early.forEach((m) => table.log.event(m, before) && fresh.push(m));
  if (before) table.log.seats(before, message);
  late.forEach((m) => table.log.event(m, message) && fresh.push(m));
  if (table.state.events.takeGap()) table.socket.resync();
  return { before, fresh };
}

// A chat message, unless shown before this connection: when it was said,
// in the browser's time zone, who said it (a long name cut short, whole in
// its title) and what.
export function takeChat(table, message) {
  if (!table.state.chat.isNew(message)) return;
  const line = el("li");
  const at = localTime(message.at, "minute");
  if (at) {
    const time = el("time", "chat-time", at);
    time.setAttribute("datetime", message.at);
    time.title = fullTime(message.at);
    line.appendChild(time);
    line.appendChild(document.createTextNode(" "));
  }
  const from = el("strong", "chat-from", message.from);
  from.title = message.from;
  line.appendChild(from);
  line.appendChild(document.createTextNode(": " + message.text));
  addLine(byId("chat"), line);
}

// The chat box. A line sent, or Enter in an empty box, leaves the box: the
// keys go back to the table, where a player who chatted on their turn
// presses C to call, not to type a "c" (Escape leaves it too: actions.js).
export function listenForChat(table) {
  const form = byId("chat-form");
  if (!form) return;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const input = byId("chat-text");
    const text = input.value.trim();
    if (text) {
      table.send({ type: "chat", text: text.slice(0, 300) });
      input.value = "";
    }
    input.blur();
  });
}
