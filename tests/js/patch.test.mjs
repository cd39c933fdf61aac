// Bringing a list up to date in place (static/js/shared/patch.js): a row that
// has not changed stays the same element, so a click on it is never lost; a
// changed row keeps its element and swaps only the cells that differ.
import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDocument } from "./fake_dom.mjs";

installFakeDocument();

const { patchChildren } = await import("../../static/js/shared/patch.js");

function row(id, ...cells) {
  const tr = document.createElement("tr");
  tr.dataset.table = id;
  for (const text of cells) {
    const td = document.createElement("td");
    td.appendChild(document.createTextNode(text));
    tr.appendChild(td);
  }
  return tr;
}

const key = (tr) => tr.dataset.table;

function body(...rows) {
  const tbody = document.createElement("tbody");
  rows.forEach((r) => tbody.appendChild(r));
  return tbody;
}

function texts(tbody) {
  return tbody.children.map((tr) => tr.children.map((td) => td.children[0].textContent));
}

test("a row that has not changed stays the same element", () => {
  const oak = row("1", "Oak", "2 / 8");
  const elm = row("2", "Elm", "0 / 8");
  const tbody = body(oak, elm);
  patchChildren(tbody, [row("1", "Oak", "2 / 8"), row("2", "Elm", "0 / 8")], key);
  assert.equal(tbody.children[0], oak);
  assert.equal(tbody.children[1], elm);
});

test("a changed row keeps its element and the cells that did not change", () => {
  const oak = row("1", "Oak", "2 / 8", "Join");
  const [name, seats, join] = oak.children;
  const tbody = body(oak);
  patchChildren(tbody, [row("1", "Oak", "3 / 8", "Join")], key);
  assert.equal(tbody.children[0], oak);
  assert.equal(oak.children[0], name);
  assert.notEqual(oak.children[1], seats);
  assert.equal(oak.children[2], join);
  assert.deepEqual(texts(tbody), [["Oak", "3 / 8", "Join"]]);
});

test("a changed row takes the new row's class and data", () => {
  const oak = row("1", "Oak");
  oak.dataset.extra = "old";
  const later = row("1", "Oak");
  later.className = "lobby-seated";
  const tbody = body(oak);
  patchChildren(tbody, [later], key);
  assert.equal(tbody.children[0], oak);
  assert.equal(oak.className, "lobby-seated");
  assert.deepEqual({ ...oak.dataset }, { table: "1" });
});

test("a row of another shape is replaced whole", () => {
  const oak = row("1", "Oak", "2 / 8");
  const later = row("1", "Oak", "2 / 8", "Your seat");
  const tbody = body(oak);
  patchChildren(tbody, [later], key);
  assert.equal(tbody.children[0], later);
});

test("rows move into the new order, new ones come in and gone ones leave", () => {
  const oak = row("1", "Oak");
  const elm = row("2", "Elm");
  const ash = row("3", "Ash");
  const tbody = body(oak, elm, ash);
  const fir = row("4", "Fir");
  patchChildren(tbody, [row("3", "Ash"), fir, row("1", "Oak")], key);
  assert.deepEqual(tbody.children, [ash, fir, oak]);
});

test("an emptied list has no rows left, and rows without a key are made afresh", () => {
  const empty = document.createElement("tr");
  const tbody = body(row("1", "Oak"), empty);
  patchChildren(tbody, [], key);
  assert.deepEqual(tbody.children, []);
  const again = document.createElement("tr");
  patchChildren(tbody, [again], key);
  assert.deepEqual(tbody.children, [again]);
});

test("a list item whose words changed keeps its link", () => {
  const item = (seated) => {
    const li = document.createElement("li");
    li.dataset.url = "/tables/7/";
    const a = document.createElement("a");
    a.textContent = "Friday game";
    li.appendChild(a);
    li.appendChild(document.createTextNode(` · ${seated} seated`));
    return li;
  };
  const before = item(2);
  const [link] = before.children;
  const list = body(before);
  patchChildren(list, [item(3)], (li) => li.dataset.url);
  assert.equal(list.children[0], before);
  assert.equal(before.children[0], link);
  assert.equal(before.children[1].textContent, " · 3 seated");
});
