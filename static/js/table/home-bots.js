// A home game's bots: the host adds one to make up the game ("Add a bot"),
// and removes each again; the house plays them. Everyone sees which seats
// are bots (a "bot" tag on the seat); only the host gets this section, next
// to their panel. The server checks every command again.
import { button, byId, el } from "../shared/felt.js";

// The usernames of the bots the host added; none at a table of the room.
export function botsOf(snap) {
  const home = snap.table.home;
  return (home && home.bots) || [];
}

// A seat's "bot" tag, as a list to spread among its tags: [] for a person.
export function botTags(snap, seat) {
  return botsOf(snap).includes(seat.player) ? ["bot"] : [];
}

// What the section shows, as a key: it is drawn again only when this changes.
// `free`: whether a seat is free for one more bot (none held for the waiting list).
export function botsMode(snap, seatCount) {
  if (!snap.table.home || !snap.you || !snap.you.host || !snap.table.is_open) return { kind: "none" };
  const seats = new Map(snap.table.seats.map((seat) => [seat.player, seat]));
  const taken = snap.table.seats.length + (snap.table.held_seats || []).length;
  const bots = botsOf(snap).map((name) => {
    const seat = seats.get(name);
    return { name, seated: Boolean(seat), leaving: Boolean(seat && seat.leaving) };
  });
  return { kind: "host", free: taken < seatCount, bots };
}

export function renderHomeBots(table) {
  const panel = byId("home-bots");
  if (!panel) return; // a table of the room
  const mode = botsMode(table.state.snap, table.config.seatCount);
  const key = JSON.stringify(mode);
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  panel.hidden = mode.kind === "none";
  const box = byId("home-bots-controls");
  box.textContent = "";
  if (mode.kind === "host") drawBots(table, box, mode);
}

function drawBots(table, box, mode) {
  const row = el("div", "host-row");
  const add = button("Add a bot", "button", () => {
    once(add); // one bot a click: the snapshot that seats it draws the section again
    table.send({ type: "home_bot_add" });
  });
  add.disabled = !mode.free;
  row.appendChild(add);
  const help = mode.free ? "The house plays it, with the table’s largest buy-in." : "Every seat is taken.";
  row.appendChild(el("span", "help", help));
  box.appendChild(row);
  if (mode.bots.length) box.appendChild(botList(table, mode.bots));
}

function botList(table, bots) {
  const list = el("ul", "host-players");
  for (const bot of bots) {
    const item = el("li", "host-player");
    item.dataset.bot = bot.name;
    item.appendChild(el("span", "host-name", bot.name));
    if (bot.leaving) item.appendChild(el("span", "help", "leaves after this hand"));
    else {
      if (!bot.seated) item.appendChild(el("span", "help", "sitting down"));
      const remove = button("Remove", "button button-quiet button-small", () => {
        once(remove);
        table.send({ type: "home_bot_remove", player: bot.name });
      });
      remove.setAttribute("aria-label", "Remove " + bot.name);
      item.appendChild(remove);
    }
    list.appendChild(item);
  }
  return list;
}

// A button clicked is off until its answer comes, or a while if the server
// refuses (the banner says why) and nothing changes to draw it again.
const ANSWER_MS = 3000;

function once(button) {
  button.disabled = true;
  setTimeout(() => (button.disabled = false), ANSWER_MS);
}
