// Every page's times in the browser's time zone. The server writes them in
// its own zone (UTC) as <time datetime="ISO" data-local="STYLE">, which reads
// well without JavaScript; here each gets the player's local text (styles:
// shared/times.js), and a tooltip with the date, seconds and zone. An
// element with data-time-zone names the zone the times are now in, and a
// form's field with data-time-zone-field or a link with data-time-zone-link
// sends it (tables/forms.py).
import { browserZone, fullTime, localTime, zoneName } from "./shared/times.js";

document.querySelectorAll("time[data-local]").forEach((node) => {
  const text = localTime(node.dateTime, node.dataset.local);
  if (!text) return; // unreadable: the server's words stay
  node.textContent = text;
  node.title = fullTime(node.dateTime);
});

document.querySelectorAll("[data-time-zone]").forEach((node) => {
  node.textContent = zoneName();
});

// A form's days are the browser's too: its hidden time zone field says which.
document.querySelectorAll("input[data-time-zone-field]").forEach((node) => {
  node.value = browserZone();
});

// So are a download's times: its link asks for them in the browser's zone.
document.querySelectorAll("a[data-time-zone-link]").forEach((node) => {
  const zone = browserZone();
  if (!zone) return; // the site's zone, as without JavaScript
  const url = new URL(node.href);
  url.searchParams.set("tz", zone);
  node.href = url.toString();
});
