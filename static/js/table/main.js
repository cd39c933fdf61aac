// One table, live: connect to ws/tables/<id>/, draw each snapshot, send moves.
// The snapshot is the whole truth; events only feed the hand log and the
// "last hand" summary. The page is the `table` object below, which every
// module is handed: its config (from #room's data attributes), its state
// (state.js), its socket (socket.js), and what they share.
import { byId, settleBets } from "../shared/felt.js";
import { sentence } from "../shared/format.js";
import { listenForKeys, playAdvance, renderActions, renderAdvance } from "./actions.js";
import { myTurn } from "./advance.js";
import { renderChipControls } from "./chip-controls.js";
import { renderTimer } from "./clock.js";
import { callOf, gameNotice, myCall, renderGame, showNotice } from "./games.js";
import { renderLedger } from "./ledger.js";
import { renderHomeBots } from "./home-bots.js";
import { renderHost } from "./host.js";
import { HandLog, listenForChat, logSnapshot, takeChat } from "./log.js";
import { animate, dealMs, movesBetween } from "./motion.js";
import { renderBalance, renderCentre, renderLastHand, renderSeats } from "./render.js";
import { BuyIn, renderSeatControls, stoodUp } from "./seat-controls.js";
import { SeatAsk, asksForSeats, redrawSeatRequests, renderSeatRequests } from "./seat-requests.js";
import { Sounds, turnBegins } from "./sounds.js";
import { keepMoveRoom } from "./steady.js";
import { TableSocket, tableUrl } from "./socket.js";
import { TableState, mySeat } from "./state.js";

const ERROR_SHOWN_MS = 8000;
// Past the deal's own time, when the turn shows even if the cards' landing went unheard.
const DEAL_SLACK_MS = 1000;

function readConfig(room) {
  const data = room.dataset;
  return {
    tableId: data.table,
    seatCount: parseInt(data.seats, 10),
    minBuyIn: parseInt(data.minBuyIn, 10),
    maxBuyIn: parseInt(data.maxBuyIn, 10),
    loggedIn: data.loggedIn === "1",
    actionMs: 1000 * (parseInt(data.actionSeconds, 10) || 10),
    // A finished hand's page in the hand history: for its players, and staff.
    handUrl: data.handUrl || "",
    allHands: data.allHands === "1",
    turnIcon: data.turnIcon || "",
    // The account's preferences (on for a visitor); the browser may mute too.
    sounds: data.sounds !== "0",
    animations: data.animations !== "0",
  };
}

function start(room) {
  const config = readConfig(room);
  const table = {
    config,
    state: new TableState({ allHands: config.allHands }),
    mySeat: () => mySeat(table.state.snap),
    reviewUrl: (id) => config.handUrl.replace(/0\/$/, id + "/"),
    send(message) {
      if (!table.socket.send(message)) showError("Not connected yet; try again in a moment.");
      else if (message.type === "leave" || message.type === "stay") table.askedToLeave = message.type === "leave";
    },
    // Where a home game's host approves each seat, a member asks for it (seat-requests.js).
    sit: (number) => (asksForSeats(table.state.snap) ? table.seatAsk.open(number) : table.buyIn.open(number)),
    advance: null, // the advance action ticked, if any (advance.js)
    dealing: null, // while the cards dealt are in flight: the turn waits (holdTurn)
    decided: null, // the decision whose move is on its way, if any (actions.js)
    called: null, // the dealer's call on its way, {number, position}, if any (actions.js)
    hostConfirming: null, // a home game's host command awaiting "are you sure?" (host.js)
    askedToLeave: false, // the viewer asked to leave their seat (seat-controls.js, stoodUp)
    stoodUp: false, // the table stood the viewer up, unasked: their seat controls say so
    moveRoom: null, // the room the move area keeps, {width, height} (steady.js)
  };
  table.buyIn = new BuyIn(table);
  table.seatAsk = new SeatAsk(table);
  table.log = new HandLog(table);
  table.sounds = new Sounds(config.sounds, byId("sound-toggle"));
  table.socket = new TableSocket(tableUrl(config.tableId), {
    connecting() {
      table.state.reconnect();
      table.decided = null; // a move lost with the connection may be made again
      table.called = null;
      setConn("Connecting…");
    },
    open: () => setConn(""),
    closed: () => setConn("Disconnected; reconnecting…"),
    gone: () => setConn("This table doesn't exist."),
    message: (message) => receive(table, message),
  });
  byId("banner-close").addEventListener("click", () => (byId("banner").hidden = true));
  listenForKeys(() => table.buyIn.isOpen || table.seatAsk.isOpen);
  listenForChat(table);
  document.addEventListener("visibilitychange", () => {
    if (table.state.snap) signalTurn(table);
  });
  // Turning a phone, or resizing a window, can stand the felt up or lay it down.
  let resizing = null;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(() => {
      if (!table.state.snap) return;
      renderSeats(table);
      keepMoveRoom(table);
    });
  });
  table.socket.connect();
}

function receive(table, message) {
  if (message.type === "snapshot") takeSnapshot(table, message);
  else if (message.type === "event") table.state.event(message);
  else if (message.type === "timer") {
    table.state.clock(message, Date.now());
    if (table.state.snap) {
      renderTimer(table);
      settleBets(byId("felt")); // the centre's clock may have come or gone
    }
  } else if (message.type === "chat") takeChat(table, message);
  else if (message.type === "error") takeError(table, message);
}

function takeSnapshot(table, message) {
  // Lines gone missing are asked for by the socket (log.js, socket.js).
  const { before, fresh } = logSnapshot(table, message);
  table.log.calls(before, message);
  if (before && stoodUp(before, message, table.askedToLeave)) table.stoodUp = true;
  if (table.mySeat()) table.stoodUp = false; // seated again
  else table.askedToLeave = false; // the seat is gone: the request is spent
  table.buyIn.seated(table.mySeat());
  const played = playAdvance(table);
  render(table);
  if (played) byId("actions").textContent = ""; // sent for the player: no buttons to click
  keepMoveRoom(table);
  // What happened since the page last drew is seen moving and heard; a page
  // just opened is still and quiet.
  if (before) {
    const moves = movesBetween(before, message);
    const landed = holdTurn(table, animate(table, moves), dealMs(moves));
    // A turn an advance action already played is not announced; one whose
    // cards are still in flight is announced as they land, if still the turn.
    const stillTurn = () => myTurn(table.state.snap) && !turnBegins(message, table.state.snap);
    table.sounds.changed(fresh, before, message, { answered: played }, landed, stillTurn);
    if (callBegins(before, message) && table.sounds.audible) table.sounds.play(["turn"]);
    const notice = gameNotice(before, message);
    if (notice) showNotice(notice);
  }
}

// Whether the viewer's call of the game begins with snapshot `after`.
function callBegins(before, after) {
  const was = callOf(before);
  return myCall(after) && !(was && was.number === callOf(after).number);
}

// While the cards dealt fly in, whose turn it is, the clock and the move
// buttons wait, hidden (table.css), so nobody is asked to act on cards still
// in the air; they come when `landed` (motion.js's animate) settles, or after
// the deal's time `ms` and some slack. A move's key still works meanwhile: a
// key pressed is never lost. No flight (reduced motion): no wait. A later
// deal's wait takes over from an earlier one's. Returns a promise settled
// when the turn shows, or null when it shows at once.
function holdTurn(table, landed, ms) {
  if (!landed) return null;
  const hold = {};
  table.dealing = hold;
  const room = byId("room");
  room.classList.add("dealing");
  return new Promise((shown) => {
    const release = () => {
      shown();
      if (table.dealing !== hold) return;
      table.dealing = null;
      room.classList.remove("dealing");
    };
    landed.then(release);
    setTimeout(release, ms + DEAL_SLACK_MS);
  });
}

function takeError(table, message) {
  redrawSeatRequests(table); // a host's answer refused: its buttons work again
  if (table.buyIn.refused(sentence(message.message))) return;
  if (table.seatAsk.refused(sentence(message.message))) return;
  table.decided = null; // a refused decision may be made again
  showError(sentence(message.message));
  if (table.called) {
    // A refused call may be made again; the refusal says our view may be
    // behind (the call is over, the players changed), so ask for the truth.
    table.called = null;
    renderActions(table);
    table.send({ type: "snapshot" });
    return;
  }
  // A refused move cleared the buttons: a fresh snapshot brings them back.
  if (message.code === "stale" || message.code === "illegal") table.send({ type: "snapshot" });
}

export function render(table) {
  signalTurn(table);
  renderSeats(table);
  renderCentre(table);
  renderGame(table);
  renderActions(table);
  renderAdvance(table);
  renderSeatControls(table);
  renderChipControls(table);
  renderLastHand(table);
  renderHost(table);
  renderSeatRequests(table);
  renderHomeBots(table);
  renderLedger(table);
  renderTimer(table);
  settleBets(byId("felt")); // the centre, drawn after the seats, may lie on a bet
  renderBalance(table);
}

// A player looking at another tab sees their turn in this tab's title and icon.
const TITLE = document.title;
const YOUR_TURN = "▶ Your turn · ";
const ICON = document.querySelector('link[rel="icon"]');
const ICON_HREF = ICON ? ICON.href : "";

function signalTurn(table) {
  const snap = table.state.snap;
  const signal = (myTurn(snap) || myCall(snap)) && document.hidden;
  document.title = signal ? YOUR_TURN + TITLE : TITLE;
  if (ICON) ICON.href = signal ? table.config.turnIcon : ICON_HREF;
}

function setConn(text) {
  byId("conn").textContent = text;
}

let bannerTimer = null;

// An error stays up long enough to read, then goes; the close button hides it sooner.
function showError(text) {
  byId("banner-text").textContent = text;
  byId("banner").hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => (byId("banner").hidden = true), ERROR_SHOWN_MS);
}

const room = byId("room");
if (room) start(room);
