// Times in the player's time zone (static/js/shared/times.js), and the chat
// lines that show them (log.js's takeChat). The server writes instants in
// UTC; these tests read them in zones a few hours either side of it, and
// across a change of day and of daylight saving time.
//
// This process runs in Kolkata (UTC+5:30, no daylight saving) as a player's
// browser would, so the functions that take the browser's zone are tested too.
process.env.TZ = "Asia/Kolkata";

import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDocument } from "./fake_dom.mjs";

const { fullTime, localTime, zoneName } = await import("../../static/js/shared/times.js");

const AT = "2026-11-21T10:00:02.120000+00:00"; // as the server writes it (Python's isoformat)

test("an instant is written in the zone asked for", () => {
  assert.equal(localTime(AT, "date-second", "UTC"), "2026-11-21 10:00:02");
  assert.equal(localTime(AT, "date-second", "Asia/Kolkata"), "2026-11-21 15:30:02");
  assert.equal(localTime(AT, "date-second", "America/Los_Angeles"), "2026-11-21 02:00:02");
});

test("without a zone it is the browser's", () => {
  assert.equal(localTime(AT, "date-minute"), "2026-11-21 15:30");
  assert.match(zoneName(), /^Asia\/(Kolkata|Calcutta)$/); // ICU still says Calcutta
  assert.equal(zoneName("Europe/Paris"), "Europe/Paris");
});

test("each style shows its parts, on a 24-hour clock", () => {
  const late = "2026-11-21T23:05:09+00:00";
  assert.equal(localTime(late, "minute", "UTC"), "23:05");
  assert.equal(localTime(late, "second", "UTC"), "23:05:09");
  assert.equal(localTime(late, "date-minute", "UTC"), "2026-11-21 23:05");
  assert.equal(localTime("2026-11-21T00:00:00Z", "minute", "UTC"), "00:00"); // not 24:00
});

test("the local date is the zone's, a day on where it is already tomorrow", () => {
  assert.equal(localTime("2026-03-01T22:45:00+00:00", "date-minute", "Asia/Kolkata"), "2026-03-02 04:15");
  assert.equal(localTime("2026-03-02T03:30:00+00:00", "date-minute", "America/New_York"), "2026-03-01 22:30");
});

test("daylight saving time moves the same UTC hour", () => {
  // New York: UTC-5 in winter, UTC-4 from 8 March 2026.
  assert.equal(localTime("2026-03-07T15:00:00+00:00", "minute", "America/New_York"), "10:00");
  assert.equal(localTime("2026-03-09T15:00:00+00:00", "minute", "America/New_York"), "11:00");
});

test("an unknown style is the date and minute; an unreadable time is nothing", () => {
  assert.equal(localTime(AT, "fortnight", "UTC"), "2026-11-21 10:00");
  assert.equal(localTime("", "minute", "UTC"), "");
  assert.equal(localTime(undefined, "minute", "UTC"), "");
  assert.equal(localTime("yesterday-ish", "minute", "UTC"), "");
});

test("the tooltip names the zone with the whole instant", () => {
  assert.equal(fullTime(AT, "Europe/Paris"), "2026-11-21 11:00:02 (Europe/Paris)");
  assert.equal(fullTime("", "Europe/Paris"), "");
});

// ------------------------------------------------------------- the chat

const page = installFakeDocument();
const { takeChat } = await import("../../static/js/table/log.js");
const { TableState } = await import("../../static/js/table/state.js");

function chatLine(message) {
  const chat = document.createElement("ol");
  page.chat = chat;
  takeChat({ state: new TableState() }, { type: "chat", seq: 1, id: 431, ...message });
  return chat.children[0];
}

test("a chat line shows when it was said in the browser's zone, as a <time>", () => {
  const line = chatLine({ from: "alice", text: "gl", at: AT });
  const [time, , from, said] = line.children;
  assert.equal(time.tagName, "TIME");
  assert.equal(time.textContent, "15:30"); // 10:00 UTC in Kolkata
  assert.equal(time.attributes.datetime, AT);
  assert.match(time.title, /^2026-11-21 15:30:02 \(Asia\/(Kolkata|Calcutta)\)$/);
  assert.equal(from.textContent, "alice");
  assert.equal(said.textContent, ": gl");
});

test("a chat line keeps a long name whole in its title, for the CSS that cuts it", () => {
  const name = "l".repeat(150);
  const line = chatLine({ from: name, text: "hi", at: AT });
  const from = line.children.find((child) => child.className === "chat-from");
  assert.equal(from.textContent, name);
  assert.equal(from.title, name);
});

test("a chat line without a readable time still shows who said what", () => {
  const line = chatLine({ from: "bob", text: "<b>hi</b>", at: null });
  assert.deepEqual(line.children.map((child) => child.textContent), ["bob", ": <b>hi</b>"]);
});
