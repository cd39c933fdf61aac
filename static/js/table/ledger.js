// A home game's books (the #ledger section, which only a home game's page has):
// each player's bought in, topped up, cashed out, on the table now and net,
// their totals, and who pays whom to settle up. The snapshot carries them
// (`ledger`) to the players seated there, and once the game is closed to
// everyone let in, as its final settle-up; anyone else at an open game sees
// how to follow them, and the file to download.
import { byId, el } from "../shared/felt.js";
import { chips } from "../shared/format.js";

// The figures of a row, in the columns' order.
export const FIGURES = ["bought_in", "topped_up", "cashed_out", "on_table", "net"];

// A net with its sign: "+40", "−25" (a minus sign, not a hyphen), "0".
export function signed(n) {
  if (n > 0) return "+" + chips(n);
  if (n < 0) return "−" + chips(-n);
  return "0";
}

// Each figure as the table shows it: chips, the net signed.
export function figureCells(figures) {
  return FIGURES.map((key) => (key === "net" ? signed(figures[key]) : chips(figures[key])));
}

// "alice pays bob 40", "carol pays the house 3", one line each; or the one
// line that says nobody owes anything.
export function transferLines(ledger) {
  if (!ledger.transfers.length) return [ledger.players.length ? "Everyone is square." : "Nobody has bought in yet."];
  return ledger.transfers.map((t) => t.payer + " pays " + t.payee + " " + chips(t.amount));
}

// A net's class: won, lost, or square.
function netClass(net) {
  if (net > 0) return "books-up";
  return net < 0 ? "books-down" : "";
}

export function renderLedger(table) {
  const box = byId("ledger");
  if (!box) return; // a table of the room keeps no books
  const snap = table.state.snap;
  const ledger = snap.ledger;
  byId("ledger-live").hidden = !ledger;
  byId("ledger-note").hidden = Boolean(ledger);
  if (!ledger) return;
  const closed = !snap.table.is_open;
  byId("ledger-heading").textContent = closed ? "The final books" : "The books";
  byId("ledger-settle").textContent = closed ? "The settle-up: who pays whom" : "Settle up: who pays whom";
  const body = byId("ledger-rows");
  body.textContent = "";
  // Once closed everyone has left: nobody's row is marked so.
  ledger.players.forEach((player) => body.appendChild(playerRow(player, closed)));
  const totals = byId("ledger-totals");
  totals.textContent = "";
  totals.appendChild(figureRow("Total", ledger.totals, "books-total"));
  const transfers = byId("ledger-transfers");
  transfers.textContent = "";
  transferLines(ledger).forEach((line) => transfers.appendChild(el("li", "", line)));
}

// A player's row; one who has left an open game says so.
function playerRow(player, closed) {
  const left = !player.seated && !closed;
  const row = figureRow(player.name, player, left ? "books-left" : "");
  const name = row.firstChild;
  name.title = left ? player.name + " (has left the table)" : player.name;
  if (left) name.appendChild(el("span", "books-tag", "left"));
  return row;
}

// A row of the table: its name, then the figures.
function figureRow(name, figures, className) {
  const row = el("tr", className);
  const head = el("th", "books-name", name);
  head.setAttribute("scope", "row");
  row.appendChild(head);
  figureCells(figures).forEach((text, i) => {
    const net = FIGURES[i] === "net";
    row.appendChild(el("td", net ? "num books-net " + netClass(figures.net) : "num", text));
  });
  return row;
}
