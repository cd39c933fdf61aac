// The table's websocket: connects, asks for a fresh snapshot when a message
// is missing, and reconnects with a growing wait. It knows nothing of what
// the messages mean. It is the one place that asks for a snapshot to make up
// for a gap: the page tells it of events missing (resync), and it asks once
// per frame however many signs of the gap the frame shows.

export const FIRST_WAIT_MS = 500;
export const LONGEST_WAIT_MS = 15000;
// The server closes with this code for a table that doesn't exist.
export const TABLE_GONE = 4404;

export function nextWait(ms) {
  return Math.min(ms * 2, LONGEST_WAIT_MS);
}

// A frame holds one message, or one change's messages as an array (its
// events, its snapshot, its timer), to be taken in order at once.
export function messagesOf(data) {
  return Array.isArray(data) ? data : [data];
}

// Each connection counts its messages from 1; a gap means we missed one, and
// only a snapshot (the whole truth) makes up for it.
export function missedOne(lastSeq, message) {
  return message.seq !== lastSeq + 1 && message.type !== "snapshot";
}

export class TableSocket {
  // on: {connecting(), open(), message(msg), closed(), gone()}
  constructor(url, on) {
    this.url = url;
    this.on = on;
    this.socket = null;
    this.lastSeq = 0;
    this.wait = FIRST_WAIT_MS;
    this.missing = false; // the frame being taken showed a gap
  }

  connect() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    this.lastSeq = 0;
    this.on.connecting();
    socket.onopen = () => {
      this.wait = FIRST_WAIT_MS;
      this.on.open();
    };
    socket.onmessage = (e) => this.frame(e.data);
    socket.onclose = (e) => {
      if (e.code === TABLE_GONE) {
        this.on.gone();
        return;
      }
      this.on.closed();
      setTimeout(() => this.connect(), this.wait);
      this.wait = nextWait(this.wait);
    };
  }

  // One frame's messages in order, then one request for a snapshot if a
  // message was skipped (a gap in seq) or the page found events missing: the
  // same lost frame usually shows both, and its reply makes up for either.
  frame(data) {
    this.missing = false;
    messagesOf(JSON.parse(data)).forEach((m) => this.receive(m));
    if (this.missing) this.send({ type: "snapshot" });
    this.missing = false;
  }

  receive(message) {
    if (missedOne(this.lastSeq, message)) this.missing = true;
    this.lastSeq = message.seq;
    this.on.message(message);
  }

  // Something the page needed never came; called from on.message, while a
  // frame is taken. The snapshot asked for at the frame's end brings it (its
  // reply replays the hand's events).
  resync() {
    this.missing = true;
  }

  get isOpen() {
    return Boolean(this.socket) && this.socket.readyState === WebSocket.OPEN;
  }

  // Sends `message` and says whether it could.
  send(message) {
    if (!this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}

// ws://host/ws/tables/12/ for the page's own host.
export function tableUrl(tableId) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  return scheme + location.host + "/ws/tables/" + tableId + "/";
}
