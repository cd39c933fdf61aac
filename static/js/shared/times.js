// Times as a player reads them: in their browser's time zone, whatever zone
// the server writes in (UTC). Pages carry each time as <time datetime="...">
// with the instant in ISO 8601; local-times.js rewrites their text with these
// functions, and the table's chat writes its lines' times with them. Nothing
// here touches the page, so node's test runner imports it as it is.

// What each style shows, built from the parts Intl gives for the zone, so the
// look is the same in every browser and language: "2026-11-21 10:00:02".
const STYLES = {
  minute: ["hour", ":", "minute"],
  second: ["hour", ":", "minute", ":", "second"],
  "date-minute": ["year", "-", "month", "-", "day", " ", "hour", ":", "minute"],
  "date-second": ["year", "-", "month", "-", "day", " ", "hour", ":", "minute", ":", "second"],
};

const formats = new Map(); // one Intl.DateTimeFormat per zone: they are slow to make

function format(timeZone) {
  const key = timeZone || "";
  if (!formats.has(key)) {
    const options = {
      year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
    };
    formats.set(key, new Intl.DateTimeFormat("en-GB", timeZone ? { ...options, timeZone } : options));
  }
  return formats.get(key);
}

// The instant `iso` ("2026-11-21T10:00:02.120000+00:00") in `style` (see
// STYLES; "date-minute" when unknown) in `timeZone`, the browser's when
// none is given. "" for a time that can't be read.
export function localTime(iso, style, timeZone) {
  const when = new Date(iso);
  if (!iso || isNaN(when.getTime())) return "";
  const parts = {};
  format(timeZone).formatToParts(when).forEach((part) => (parts[part.type] = part.value));
  return (STYLES[style] || STYLES["date-minute"])
    .map((piece) => (piece in parts ? parts[piece] : piece))
    .join("");
}

// The browser's time zone by name ("Europe/Paris"), as the pages name it
// beside their times; `timeZone` names another.
export function zoneName(timeZone) {
  return timeZone || browserZone() || "local time";
}

// The browser's IANA time zone ("Europe/Paris"), or "" if it doesn't say.
export function browserZone() {
  return format().resolvedOptions().timeZone || "";
}

// The whole instant with its zone, for a time's tooltip:
// "2026-11-21 11:00:02 (Europe/Paris)".
export function fullTime(iso, timeZone) {
  const text = localTime(iso, "date-second", timeZone);
  return text && text + " (" + zoneName(timeZone) + ")";
}
