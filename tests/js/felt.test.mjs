// A seat's cards on the felt (static/js/shared/felt.js), drawn from the view's
// one list in dealing order: the down cards together, then the up cards.
// Node has no DOM, so the few element methods felt.js uses are faked (fake_dom.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDocument } from "./fake_dom.mjs";
import { cardGroups, cardPlace, jokerCard, seatBox, studCards } from "../../static/js/shared/felt.js";

installFakeDocument();

// A seat's cards as the view sends them: d("As") a down card (d(null) one
// this viewer can't see), u("2c") an up card.
const d = (card) => ({ card, up: false });
const u = (card) => ({ card, up: true });

// What studCards drew, group by group: a face by its code, starred when
// tinted as a hole card and "!" when drawn wild; "back" for a card this
// viewer can't see.
function drawn(cards) {
  return studCards({ cards }).children.map((group) => [
    group.className,
    group.children.map((c) => {
      if (c.classList.contains("card-back")) return "back";
      const wild = c.classList.contains("card-wild") ? "!" : "";
      return c.dataset.card + (c.classList.contains("card-hole") ? "*" : "") + wild;
    }),
  ]);
}

test("the owner's stud hand: down cards together and tinted, then the up cards, each in dealing order", () => {
  // alice's seven cards as dealt: two down, four up, the last down.
  const alice = [d("As"), d("Kd"), u("2c"), u("7s"), u("9h"), u("Qd"), d("3h")];
  assert.deepEqual(drawn(alice), [
    ["hand-down", ["As*", "Kd*", "3h*"]],
    ["hand-up", ["2c", "7s", "9h", "Qd"]],
  ]);
});

test("another player's down cards are backs, untinted; their up cards show", () => {
  // bob's hand as alice (or an observer) sees it.
  assert.deepEqual(drawn([d(null), d(null), u("9h"), d(null)]), [
    ["hand-down", ["back", "back", "back"]],
    ["hand-up", ["9h"]],
  ]);
});

test("a card turned face up, the list the same length, is drawn with the up cards", () => {
  const before = [d("As"), d("Kd"), u("2c")];
  const after = [u("As"), d("Kd"), u("2c")];
  assert.deepEqual(drawn(before), [
    ["hand-down", ["As*", "Kd*"]],
    ["hand-up", ["2c"]],
  ]);
  assert.deepEqual(drawn(after), [
    ["hand-down", ["Kd*"]],
    ["hand-up", ["As", "2c"]],
  ]);
});

test("a hand dealt up, down, up groups its down card alone and its up cards in dealing order", () => {
  assert.deepEqual(drawn([u("2c"), d("As"), u("7s")]), [
    ["hand-down", ["As*"]],
    ["hand-up", ["2c", "7s"]],
  ]);
  assert.deepEqual(drawn([u("2c"), d(null), u("7s")]), [
    ["hand-down", ["back"]],
    ["hand-up", ["2c", "7s"]],
  ]);
});

test("a group with no cards is not drawn", () => {
  assert.deepEqual(drawn([u("2c"), u("7s")]), [["hand-up", ["2c", "7s"]]]);
  assert.deepEqual(drawn([d("As")]), [["hand-down", ["As*"]]]);
});

test("a wild card is drawn wild, up or down, and said to be wild", () => {
  const cards = [{ card: "2s", up: false, wild: true }, d("Kd"), u("7s"), { card: "2c", up: true, wild: true }];
  assert.deepEqual(drawn(cards), [
    ["hand-down", ["2s*!", "Kd*"]],
    ["hand-up", ["7s", "2c!"]],
  ]);
  const row = studCards({ cards });
  assert.match(row.children[1].children[1].attributes["aria-label"], /, wild$/);
});

test("cardGroups splits the list by face, keeping dealing order", () => {
  assert.deepEqual(cardGroups([u("2c"), d(null), d("As"), u("7s")]), { down: [null, "As"], up: ["2c", "7s"] });
});

test("cardPlace names where studCards draws each card of the list", () => {
  const cards = [u("2c"), d("As"), u("7s"), d("Kd"), u("As"), u("9h")];
  const row = studCards({ cards });
  const groups = Object.fromEntries(row.children.map((g) => [g.className.replace("hand-", ""), g.children]));
  cards.forEach((c, position) => {
    const { group, index } = cardPlace(cards, position);
    assert.equal(group, c.up ? "up" : "down");
    assert.equal(groups[group][index].dataset.card, c.card, "card " + position);
  });
});

test("a seat not dealt in, or dealt nothing yet, draws no cards", () => {
  const seat = { number: 3, name: "carol", stack: 500, tags: [], words: "" };
  const hasCards = (box) => box.children.some((c) => c.classList.contains("seat-cards"));
  assert.equal(hasCards(seatBox({ ...seat, player: null })), false);
  assert.equal(hasCards(seatBox({ ...seat, player: { cards: [], bet: 0 } })), false);
  assert.equal(hasCards(seatBox({ ...seat, player: { cards: [d(null)], bet: 0 } })), true);
});

test("the bug is a joker that says what it is to a screen reader", () => {
  const joker = jokerCard();
  assert.equal(joker.className, "card card-joker");
  assert.equal(joker.attributes.role, "img");
  assert.equal(joker.attributes["aria-label"], "the bug: a joker, every hand's seventh card");
});

test("a seat still choosing at once is marked, and its badges sit under its stack", () => {
  const seat = { number: 3, name: "carol", stack: 500, tags: [], words: "", player: null, deciding: true };
  const badges = [{ text: "Low", kind: "declared-low", hidden: "declared " }];
  const box = seatBox({ ...seat, badges });
  assert.equal(box.classList.contains("seat-deciding"), true);
  const plate = box.children.find((c) => c.className === "seat-plate");
  const row = plate.children.find((c) => c.className === "seat-badges");
  const [badge] = row.children;
  assert.equal(badge.className, "seat-badge seat-badge-declared-low");
  assert.deepEqual(badge.children.map((c) => c.textContent), ["declared ", "Low"]);
  assert.equal(badge.children[0].className, "visually-hidden");
  const plain = seatBox({ ...seat, deciding: false, badges: [] });
  assert.equal(plain.classList.contains("seat-deciding"), false);
  assert.equal(plain.children[0].children.some((c) => c.className === "seat-badges"), false);
});
