// A home game's host runs it from here: pause and resume the deal, remove a
// player, close the game. Everyone at a home game sees when it is paused;
// only the host gets the panel. The server checks every command again, and
// refuses anyone else's.
import { byId, el } from "../shared/felt.js";

// What everyone is told about the game's state: "" when there is nothing to say.
export function homeStatus(snap) {
  const home = snap.table.home;
  if (!home || !home.paused || !snap.table.is_open) return "";
  if (snap.you && snap.you.host) return "You paused the game: no new hand starts until you resume it.";
  return "Paused by the host, " + home.host + ": no new hand starts until they resume the game.";
}

// What the host's panel shows, as a key: it is built again only when this
// changes, so a snapshot arriving mid-confirm keeps the question asked.
export function hostMode(snap, confirming) {
  if (!snap.table.home || !snap.you || !snap.you.host || !snap.table.is_open) return { kind: "none" };
  const players = snap.table.seats
    .filter((seat) => seat.player !== snap.table.home.host)
    .map((seat) => ({ name: seat.player, leaving: seat.leaving }));
  const asked = confirming && (confirming.action === "close" || players.some((p) => p.name === confirming.player));
  return { kind: "host", paused: snap.table.home.paused, players, confirming: asked ? confirming : null };
}

export function renderHost(table) {
  const status = byId("home-status");
  if (!status) return; // a table of the room
  const snap = table.state.snap;
  const words = homeStatus(snap);
  status.textContent = words;
  status.hidden = !words;
  const panel = byId("host-panel");
  const mode = hostMode(snap, table.hostConfirming);
  const key = JSON.stringify(mode);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  panel.hidden = mode.kind === "none";
  const box = byId("host-controls");
  box.textContent = "";
  if (mode.kind === "host") drawPanel(table, box, mode);
}

function drawPanel(table, box, mode) {
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
    const asked = mode.confirming && mode.confirming.player === player.name;
    if (asked) {
      row.appendChild(
        el("span", "host-question", "Remove " + player.name + "? Their chips go back to their balance after the hand they are in, and the table is gone for them."),
      );
      row.appendChild(button("Remove " + player.name, "button button-danger", () => send({ type: "home_remove", player: player.name })));
      row.appendChild(button("Cancel", "button button-quiet", () => ask(null)));
    } else if (player.leaving) {
      row.appendChild(el("span", "help", "leaves after this hand"));
    } else {
      row.appendChild(button("Remove", "button button-quiet button-small", () => ask({ action: "remove", player: player.name })));
    }
    list.appendChild(row);
  }
  return list;
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

function button(label, className, click) {
  const b = el("button", className, label);
  b.type = "button";
  b.addEventListener("click", click);
  return b;
}
