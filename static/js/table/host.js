// A home game's host runs it from here: pause and resume the deal, change the
// game for the next hand (on its own page), remove a player, hand the host
// role to another, close the game, and deal a closed one again (on its own
// page). Everyone at a home game sees when it is paused and what the host's
// change will be; only the host gets the panel.
// The server checks every command again, and refuses anyone else's. The pure
// helpers come first and touch no page, so node's test runner imports this
// module as it is.
import { button, byId, el } from "../shared/felt.js";
import { chips } from "../shared/format.js";
import { showNotice } from "./games.js";
import { addLine } from "./log.js";
import { renderSeats } from "./render.js";

// The house's bots: they play, and may not host.
const BOT = /^bot-\d+$/;

// What everyone is told about the game's state: "" when there is nothing to say.
export function homeStatus(snap) {
  const home = snap.table.home;
  if (!home || !snap.table.is_open) return "";
  const lines = [];
  const hosting = snap.you && snap.you.host;
  if (home.paused && hosting) lines.push("You paused the game: no new hand starts until you resume it.");
  else if (home.paused) lines.push("Paused by the host, " + home.host + ": no new hand starts until they resume the game.");
  const change = home.change;
  if (change && !change.applied) lines.push("From the next hand: " + change.words + " (" + change.by + "’s change).");
  return lines.join(" ");
}

// The log's lines (and the felt's notice, the first of them) when the host's
// change or the host changes between `seen` ({change, host} as last drawn;
// null when the page has just opened) and snapshot `snap`. A page just
// opened says only a change still waiting.
export function homeLines(seen, snap) {
  const home = snap.table.home;
  if (!home) return [];
  const change = home.change;
  const lines = [];
  if (seen && seen.host && seen.host !== home.host) lines.push(home.host + " hosts the game now");
  const was = seen ? seen.change : null;
  if (change && (!was || was.number !== change.number)) {
    if (seen || !change.applied) lines.push(change.by + " changed the game: " + change.words + ", from the next hand");
  } else if (change && change.applied && was && !was.applied) {
    lines.push("The game is changed from this hand: " + change.words);
  }
  return lines;
}

// The felt's brief notice for the same change as homeLines: the log has the
// words in full. "" when there is nothing to say.
export function homeNotice(seen, snap) {
  const home = snap.table.home;
  if (!seen || !home) return "";
  const change = home.change;
  const was = seen.change;
  if (change && (!was || was.number !== change.number)) return change.by + " changed the game from the next hand";
  if (change && change.applied && was && !was.applied) return "The host’s change is made from this hand";
  return seen.host && seen.host !== home.host ? home.host + " hosts the game now" : "";
}

// What the host's panel shows, as a key: it is built again only when this
// changes, so a snapshot arriving mid-confirm keeps the question asked. Once
// the game is closed, the host may only deal it again.
export function hostMode(snap, confirming) {
  if (!snap.table.home || !snap.you || !snap.you.host) return { kind: "none" };
  if (!snap.table.is_open) return { kind: "closed" };
  const players = snap.table.seats
    .filter((seat) => seat.player !== snap.table.home.host)
    .map((seat) => ({ name: seat.player, leaving: seat.leaving, bot: isBot(snap, seat.player) }));
  const asked =
    confirming && (confirming.action === "close" || players.some((p) => p.name === confirming.player));
  return { kind: "host", paused: snap.table.home.paused, players, confirming: asked ? confirming : null };
}

// A bot the host added, or any house bot: it plays, and may not host.
function isBot(snap, name) {
  return BOT.test(name) || (snap.table.home.bots || []).includes(name);
}

// The page's seats, buy-ins and action time as the host's change set them:
// `config` with the snapshot's terms; null when they are what the page has.
export function termsFollowed(config, snap) {
  const terms = snap.table.home && snap.table.home.terms;
  if (!terms) return null;
  const [minBuyIn, maxBuyIn] = snap.table.buy_in || [config.minBuyIn, config.maxBuyIn];
  const now = { seatCount: terms.seats, actionMs: 1000 * terms.action_seconds, minBuyIn, maxBuyIn };
  if (Object.keys(now).every((key) => config[key] === now[key])) return null;
  return { ...config, ...now };
}

export function renderHost(table) {
  const status = byId("home-status");
  if (!status) return; // a table of the room
  const snap = table.state.snap;
  const followed = termsFollowed(table.config, snap);
  if (followed) {
    const seatsMoved = followed.seatCount !== table.config.seatCount;
    table.config = followed;
    if (seatsMoved) renderSeats(table); // drawn before this, with the old count
    const range = byId("buy-in-range");
    if (range) range.textContent = chips(followed.minBuyIn) + "–" + chips(followed.maxBuyIn);
  }
  const words = homeStatus(snap);
  status.textContent = words;
  status.hidden = !words;
  // A closed game lets nobody new in: its link goes, as from a page drawn after.
  const invite = byId("invite");
  if (invite) invite.hidden = !snap.table.is_open;
  announce(table, snap);
  const panel = byId("host-panel");
  if (roleMoved(panel.hasAttribute("data-hosting"), snap)) {
    // The host role came to this viewer or left them: the page is drawn for
    // the host (the invite link) or for a member, so it is drawn again.
    window.location.reload();
    return;
  }
  const mode = hostMode(snap, table.hostConfirming);
  const key = JSON.stringify(mode);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  panel.hidden = mode.kind === "none";
  const box = byId("host-controls");
  box.textContent = "";
  if (mode.kind === "host") drawPanel(table, box, mode, panel.dataset.changeUrl);
  else if (mode.kind === "closed") {
    const help = "A new game for the same friends, set up as this one ended.";
    box.appendChild(pageRow("Deal it again…", "button", panel.dataset.againUrl, "host-again", help));
  }
}

// The log's lines for the host's change and the host, once each.
function announce(table, snap) {
  const home = snap.table.home;
  if (!home) return;
  const seen = table.homeSeen || null;
  homeLines(seen, snap).forEach((text) => addLine(byId("log"), el("li", "log-game", text)));
  const notice = homeNotice(seen, snap);
  if (notice) showNotice(notice);
  table.homeSeen = { change: home.change, host: home.host };
}

// Whether the viewer's role has changed since the page was drawn for the
// host (`drawnForHost`) or not. Only a home game's snapshot says who hosts:
// any other leaves the page as it is, so a page never reloads over and over.
export function roleMoved(drawnForHost, snap) {
  if (!snap.table.home || !snap.table.is_open || !snap.you || !("host" in snap.you)) return false;
  return Boolean(snap.you.host) !== drawnForHost;
}

function drawPanel(table, box, mode, changeUrl) {
  const ask = (confirming) => {
    table.hostConfirming = confirming;
    renderHost(table);
  };
  const send = (message) => {
    table.hostConfirming = null;
    table.send(message);
    renderHost(table);
  };
  const deal = el("div", "host-row");
  if (mode.paused) deal.appendChild(button("Resume the deal", "button", () => send({ type: "home_resume" })));
  else deal.appendChild(button("Pause the deal", "button", () => send({ type: "home_pause" })));
  deal.appendChild(el("span", "help", mode.paused ? "No new hand starts while paused." : "The hand in play finishes first."));
  box.appendChild(deal);
  const help = "Games, stakes, seats, buy-ins or action time, from the next hand.";
  box.appendChild(pageRow("Change the game…", "button button-quiet", changeUrl, "host-change", help));
  box.appendChild(playerList(mode, ask, send));
  box.appendChild(closeRow(mode, ask, send));
}

function playerList(mode, ask, send) {
  const list = el("ul", "host-players");
  if (!mode.players.length) list.appendChild(el("li", "help", "No one else is seated."));
  for (const player of mode.players) {
    const row = el("li", "host-player");
    row.dataset.player = player.name;
    row.appendChild(el("span", "host-name", player.name));
    const asked = mode.confirming && mode.confirming.player === player.name ? mode.confirming.action : null;
    if (asked === "remove") {
      row.appendChild(
        el("span", "host-question", "Remove " + player.name + "? Their chips go back to their balance after the hand they are in, and the table is gone for them."),
      );
      row.appendChild(button("Remove " + player.name, "button button-danger", () => send({ type: "home_remove", player: player.name })));
      row.appendChild(button("Cancel", "button button-quiet", () => ask(null)));
    } else if (asked === "hand_over") {
      row.appendChild(
        el("span", "host-question", "Make " + player.name + " the host? They run the game from now on, its invite link theirs; you stay in it as a player."),
      );
      row.appendChild(button("Make " + player.name + " host", "button", () => send({ type: "home_hand_over", player: player.name })));
      row.appendChild(button("Cancel", "button button-quiet", () => ask(null)));
    } else {
      if (player.leaving) row.appendChild(el("span", "help", "leaves after this hand"));
      else row.appendChild(button("Remove", "button button-quiet button-small", () => ask({ action: "remove", player: player.name })));
      if (!player.bot && !player.leaving) {
        row.appendChild(button("Make host", "button button-quiet button-small", () => ask({ action: "hand_over", player: player.name })));
      }
    }
    list.appendChild(row);
  }
  return list;
}

// A row of the panel that leads to one of the host's pages, with what it does.
function pageRow(label, className, url, id, help) {
  const row = el("div", "host-row");
  const link = el("a", className, label);
  link.href = url;
  link.id = id;
  row.appendChild(link);
  row.appendChild(el("span", "help", help));
  return row;
}

function closeRow(mode, ask, send) {
  const row = el("div", "host-row host-close");
  if (mode.confirming && mode.confirming.action === "close") {
    row.appendChild(el("span", "host-question", "Close the game? The hand in play ends first; then every seat is cashed out."));
    row.appendChild(button("Close the game", "button button-danger", () => send({ type: "home_close" })));
    row.appendChild(button("Cancel", "button button-quiet", () => ask(null)));
  } else {
    row.appendChild(button("Close the game…", "button button-quiet", () => ask({ action: "close" })));
  }
  return row;
}
