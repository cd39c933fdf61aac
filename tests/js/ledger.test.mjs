// A home game's books on the table page (static/js/table/ledger.js): the
// figures as the table shows them, who pays whom in words, and the section
// drawn for a player seated, and for a viewer the snapshot gives no books.
import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, installFakeDocument } from "./fake_dom.mjs";

const page = installFakeDocument();

const { figureCells, renderLedger, signed, transferLines } = await import("../../static/js/table/ledger.js");

// Alice and bob bought in 200 each; bob topped up 50 and has won 40 of alice's;
// carol bought in 100, lost 3 to the rake and 7 to bob, and left with 90.
const LEDGER = {
  players: [
    { player: "alice", name: "Alice", seated: true, bought_in: 200, topped_up: 0, cashed_out: 0, on_table: 160, net: -40 },
    { player: "bob", name: "bob", seated: true, bought_in: 200, topped_up: 50, cashed_out: 0, on_table: 297, net: 47 },
    { player: "carol", name: "carol", seated: false, bought_in: 100, topped_up: 0, cashed_out: 90, on_table: 0, net: -10 },
  ],
  totals: { bought_in: 500, topped_up: 50, cashed_out: 90, on_table: 457, net: -3 },
  rake: 3,
  transfers: [
    { payer: "Alice", payee: "bob", house: false, amount: 40 },
    { payer: "carol", payee: "bob", house: false, amount: 7 },
    { payer: "carol", payee: "the house", house: true, amount: 3 },
  ],
};

function fakeSection() {
  const ids = ["ledger", "ledger-live", "ledger-note", "ledger-heading", "ledger-settle", "ledger-rows", "ledger-totals", "ledger-transfers"];
  for (const id of ids) {
    page[id] = new FakeElement(id.includes("rows") || id.includes("totals") ? "tbody" : "div");
  }
}

const OPEN = { is_open: true };

function texts(row) {
  return row.children.map((cell) => cell.textContent);
}

test("a net has its sign, a minus sign for a loss, and thousands are grouped", () => {
  assert.equal(signed(1250), "+1,250");
  assert.equal(signed(-40), "−40");
  assert.equal(signed(0), "0");
  assert.deepEqual(figureCells(LEDGER.players[1]), ["200", "50", "0", "297", "+47"]);
});

test("who pays whom is one line a transfer, the house by name", () => {
  assert.deepEqual(transferLines(LEDGER), ["Alice pays bob 40", "carol pays bob 7", "carol pays the house 3"]);
});

test("with no transfers the books say everyone is square, or that nobody has bought in", () => {
  assert.deepEqual(transferLines({ ...LEDGER, transfers: [] }), ["Everyone is square."]);
  assert.deepEqual(transferLines({ ...LEDGER, players: [], transfers: [] }), ["Nobody has bought in yet."]);
});

test("a player seated sees every player's row, the totals and the transfers", () => {
  fakeSection();
  renderLedger({ state: { snap: { table: OPEN, ledger: LEDGER } } });
  assert.equal(page["ledger-live"].hidden, false);
  assert.equal(page["ledger-note"].hidden, true);
  const rows = page["ledger-rows"].children;
  assert.deepEqual(rows.map(texts), [
    ["Alice", "200", "0", "0", "160", "−40"],
    ["bob", "200", "50", "0", "297", "+47"],
    ["carol", "100", "0", "90", "0", "−10"],
  ]);
  assert.ok(rows[0].children[5].classList.contains("books-down"));
  assert.ok(rows[1].children[5].classList.contains("books-up"));
  // Carol has left: her row is marked so.
  assert.ok(rows[2].classList.contains("books-left"));
  assert.equal(rows[2].children[0].children[0].textContent, "left");
  assert.ok(!rows[0].classList.contains("books-left"));
  assert.deepEqual(page["ledger-totals"].children.map(texts), [["Total", "500", "50", "90", "457", "−3"]]);
  assert.deepEqual(
    page["ledger-transfers"].children.map((li) => li.textContent),
    ["Alice pays bob 40", "carol pays bob 7", "carol pays the house 3"],
  );
});

test("once the game is closed the books are the final ones, and so is the settle-up", () => {
  fakeSection();
  renderLedger({ state: { snap: { table: OPEN, ledger: LEDGER } } });
  assert.equal(page["ledger-heading"].textContent, "The books");
  renderLedger({ state: { snap: { table: { is_open: false }, ledger: LEDGER } } });
  assert.equal(page["ledger-heading"].textContent, "The final books");
  assert.equal(page["ledger-settle"].textContent, "The settle-up: who pays whom");
  fakeSection();
  renderLedger({ state: { snap: { table: { is_open: false }, ledger: LEDGER } } });
  // Everyone has left a closed game: nobody's row says so.
  assert.ok(page["ledger-rows"].children.every((row) => !row.classList.contains("books-left")));
});

test("a viewer the snapshot gives no books sees the note, not the last books drawn", () => {
  fakeSection();
  renderLedger({ state: { snap: { table: OPEN, ledger: LEDGER } } });
  renderLedger({ state: { snap: { table: OPEN, you: { seat: null } } } });
  assert.equal(page["ledger-live"].hidden, true);
  assert.equal(page["ledger-note"].hidden, false);
});

test("a table of the room, with no books section, draws nothing", () => {
  for (const id of ["ledger", "ledger-live", "ledger-note"]) delete page[id];
  assert.doesNotThrow(() => renderLedger({ state: { snap: { ledger: LEDGER } } }));
});
