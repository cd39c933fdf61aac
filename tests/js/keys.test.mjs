// The move keys and the chat box (static/js/table/actions.js, log.js): a key
// typed into a text box is words, any other is the table's; a chat line sent,
// Enter in an empty box, or Escape leaves the box, so the next key is a move.
// Node has no DOM: the document, the chat form and the elements are faked
// here with just what the two modules call.
import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDocument } from "./fake_dom.mjs";

const page = installFakeDocument(); // the page's elements by id
const listeners = {};
document.addEventListener = (type, listener) => (listeners[type] = listener);
document.querySelector = () => null; // no cards to pick on the felt

const { listenForKeys, typesText } = await import("../../static/js/table/actions.js");
const { listenForChat } = await import("../../static/js/table/log.js");

// An element a key can go to: `tagName`, and for an input its `type`.
function target(tagName, fields = {}) {
  return {
    tagName,
    blurred: 0,
    blur() {
      this.blurred += 1;
    },
    closest: (selector) => (selector === "dialog" ? fields.dialog || null : null),
    ...fields,
  };
}

const chatBox = () => target("INPUT", { value: "" }); // as the template has it: no type
const body = target("BODY");

test("a text box, a text area, a list and an editable element take typing; the rest don't", () => {
  for (const typing of [
    chatBox(),
    target("INPUT", { type: "number" }),
    target("INPUT", { type: "search" }),
    target("TEXTAREA"),
    target("SELECT"),
    target("DIV", { isContentEditable: true }),
  ]) {
    assert.equal(typesText(typing), true, typing.tagName + " " + typing.type);
  }
  for (const keyless of [
    body,
    target("BUTTON"),
    target("INPUT", { type: "checkbox" }),
    target("INPUT", { type: "range" }),
    target("INPUT", { type: "submit" }),
    null,
  ]) {
    assert.equal(typesText(keyless), false, keyless && keyless.tagName + " " + keyless.type);
  }
});

// The page's move buttons: one call button keyed C; how often it was pressed.
let busy = false;
const pressed = { C: 0 };
page.actions = {
  querySelector: (selector) => (selector === '[data-key="C"]' ? { click: () => (pressed.C += 1) } : null),
};
listenForKeys(() => busy);

function press(key, on) {
  const event = { key, target: on, prevented: false, preventDefault: () => (event.prevented = true) };
  listeners.keydown(event);
  return event;
}

test("C makes the move from anywhere but a text box", () => {
  pressed.C = 0;
  assert.equal(press("c", body).prevented, true);
  press("c", target("INPUT", { type: "range" })); // the bet slider, just dragged
  press("c", target("INPUT", { type: "checkbox" })); // an advance action, just ticked
  assert.equal(pressed.C, 3);
  assert.equal(press("c", chatBox()).prevented, false); // a "c" in the chat
  assert.equal(pressed.C, 3);
});

test("Escape in the chat box leaves it; in a dialog it is the dialog's", () => {
  const box = chatBox();
  press("Escape", box);
  assert.equal(box.blurred, 1);
  const inDialog = target("INPUT", { type: "number", dialog: {} });
  press("Escape", inDialog);
  assert.equal(inDialog.blurred, 0);
});

test("no move is made while a dialog (the buy-in) is open", () => {
  pressed.C = 0;
  busy = true;
  press("c", body);
  busy = false;
  assert.equal(pressed.C, 0);
});

// The chat form, with the box in it; the lines the table sent.
function chatForm() {
  const form = { addEventListener: (type, listener) => (form[type] = listener) };
  page["chat-form"] = form;
  page["chat-text"] = chatBox();
  const sent = [];
  listenForChat({ send: (message) => sent.push(message) });
  const submit = () => form.submit({ preventDefault() {} });
  return { box: page["chat-text"], sent, submit };
}

test("a chat line sent leaves the chat box, so the next key is a move", () => {
  const { box, sent, submit } = chatForm();
  box.value = "  good luck ";
  submit();
  assert.deepEqual(sent, [{ type: "chat", text: "good luck" }]);
  assert.equal(box.value, "");
  assert.equal(box.blurred, 1);
});

test("Enter in an empty chat box sends nothing and leaves it", () => {
  const { box, sent, submit } = chatForm();
  box.value = "   ";
  submit();
  assert.deepEqual(sent, []);
  assert.equal(box.blurred, 1);
});
