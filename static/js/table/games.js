// A table whose game changes hand by hand (a rotation, or dealer's choice):
// the game being dealt on the stakes line and in the rules panel, what is
// coming, the log's lines and the notice when the game changes, and the
// dealer's call: who is choosing, and the dealer's panel of games. The
// snapshot says it all (`table.stakes`, `rules`, `mix`, `call`, and
// `hand_info.game` and `call`); nothing here works out a game. The pure
// helpers come first and touch no page, so node's test runner imports this
// module as it is.
import { byId, el } from "../shared/felt.js";

// How long the notice of a new game stays on the felt.
export const NOTICE_MS = 6000;

// The dealer's call under way in `snap`, or null.
export function callOf(snap) {
  return (snap && snap.table && snap.table.call) || null;
}

// Whether the viewer of `snap` is the dealer calling the game.
export function myCall(snap) {
  const call = callOf(snap);
  return Boolean(call && snap.you && snap.you.seat === call.seat);
}

// Who calls: their username, or their seat when the account is gone.
function caller(call) {
  return call.player || "Seat " + call.seat;
}

// "alice is choosing the game": the centre's line and the log's.
export function choosingWords(call) {
  return caller(call) + " is choosing the game";
}

// The game of `snap`'s hand by its name alone ("Razz"), from the mixed
// table's list: the longest name its words begin with; else the words whole.
export function gameName(snap) {
  const info = snap.hand_info;
  const words = (info && info.game) || "";
  const mix = snap.table.mix;
  let name = "";
  (mix ? mix.games : []).forEach((game) => {
    const fits = words === game.name || words.startsWith(game.name + ", ");
    if (fits && game.name.length > name.length) name = game.name;
  });
  return name || words;
}

// The call that chose a hand's game, `call` as hand_info has it ({by, how}),
// with the game `game` in words: "alice calls Baseball", "alice’s time ran
// out: Razz", "alice is away: Razz".
export function callWords(call, game) {
  if (call.how === "timed_out") return call.by + "’s time ran out: " + game;
  if (call.how === "away") return call.by + " is away: " + game;
  return call.by + " calls " + game;
}

// The log's lines under a new hand's heading, for `snap`, the first snapshot
// of that hand the page has: the dealer's call that chose its game, or what
// the game is now when it differs from `before`'s (the words of the hand
// logged before; null for the first this page logs, whose game a mixed
// table says).
export function gameLines(before, snap) {
  const info = snap.hand_info;
  if (!info || !info.game) return [];
  if (info.call) return [callWords(info.call, info.game)];
  if (before === null) return snap.table.mix ? ["The game is " + info.game] : [];
  return before === info.game ? [] : ["The game is now " + info.game];
}

// What the felt says, briefly, when the snapshot `after` brings a new hand
// after `before` (none: the page has just opened, and says nothing): the
// call that chose its game, else the game when it changed from `before`'s
// hand's ("Now playing Razz"); "" when there is nothing to say.
export function gameNotice(before, after) {
  const now = after.hand_info;
  if (!before || !now || !now.game) return "";
  const was = before.hand_info;
  if (was && was.id === now.id) return "";
  if (now.call) return callWords(now.call, gameName(after));
  return was && was.game !== now.game ? "Now playing " + gameName(after) : "";
}

// The log's line when a dealer begins to call the game in `after` (the page's
// first snapshot, or one after `before`, which had no call or another).
export function callLines(before, after) {
  const call = callOf(after);
  if (!call) return [];
  const was = callOf(before);
  return was && was.number === call.number ? [] : [choosingWords(call)];
}

// What the mix line says: the server's words ("Razz · 2 more hands, then
// Seven-card stud hi-lo, eight or better"); "" at a table that deals one game.
export function mixWords(mix) {
  return mix ? mix.words : "";
}

// The dealer's choices: one per game of the call, [{position, name, sizes,
// key}]: `sizes` the game's words after its name ("5/10, ante 1,
// bring-in 2"), `key` "1" to "9" by their order.
export function callChoices(call) {
  return call.games.map((game, i) => ({
    position: game.position,
    name: game.name,
    sizes: sizesOf(game.game || "", game.name),
    key: i < 9 ? String(i + 1) : null,
  }));
}

// What a game's words say after its name: its sizes ("Razz, 5/10" -> "5/10").
function sizesOf(words, name) {
  if (words.startsWith(name + ", ")) return words.slice(name.length + 2);
  return words === name ? "" : words;
}

export function callMessage(position) {
  return { type: "call_game", game: position };
}

// ------------------------------------------------------------------ page

// The head of the page: the stakes line, the mix line and the rules panel,
// as the snapshot has them for the hand being dealt.
export function renderGame(table) {
  const t = table.state.snap.table;
  if (t.stakes) byId("game-words").textContent = t.stakes;
  const mix = byId("mix");
  mix.textContent = mixWords(t.mix);
  mix.hidden = !mix.textContent;
  if (Array.isArray(t.rules)) renderRules(t.rules);
}

// The "How this game plays" panel's paragraphs, rewritten only when they
// change; open or folded, it stays as the player left it.
function renderRules(rules) {
  let panel = byId("how-it-plays");
  const said = rules.join("\n");
  if (!panel && !rules.length) return;
  if (!panel) panel = newRulesPanel();
  panel.hidden = !rules.length;
  if (panel.dataset.rules === said) return;
  panel.dataset.rules = said;
  panel.querySelectorAll("p").forEach((p) => p.remove());
  rules.forEach((words) => panel.appendChild(el("p", "", words)));
}

// The page opened without a panel (a game the engine refused): one is made.
function newRulesPanel() {
  const panel = el("details", "how-it-plays");
  panel.id = "how-it-plays";
  panel.appendChild(el("summary", "", "How this game plays"));
  document.querySelector(".room-head").appendChild(panel);
  return panel;
}

let noticeTimer = null;

// The notice on the felt that the game has changed, with the stakes line lit
// up, for NOTICE_MS.
export function showNotice(text) {
  const notice = byId("game-notice");
  const stakes = document.querySelector(".room-stakes");
  notice.textContent = text;
  notice.hidden = false;
  stakes.classList.add("room-stakes-new");
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    notice.hidden = true;
    stakes.classList.remove("room-stakes-new");
  }, NOTICE_MS);
}

// The dealer's panel in #actions (`box`): a button per game that fits the
// players, with its number key. `sent`: the game called, on its way (the
// buttons wait, that one marked). `choose(position)` sends the call.
export function drawCallPanel(box, call, sent, choose) {
  const panel = el("div", "call-panel");
  panel.setAttribute("role", "group");
  panel.setAttribute("aria-labelledby", "call-title");
  const head = el("p", "call-prompt");
  const title = el("strong", "call-title", "Your call:");
  title.id = "call-title";
  head.appendChild(title);
  head.appendChild(document.createTextNode(" choose the game for the next hand. It is dealt at once."));
  panel.appendChild(head);
  const list = el("div", "call-games");
  callChoices(call).forEach((choice) => {
    const b = el("button", "call-game");
    b.type = "button";
    b.dataset.game = String(choice.position);
    b.appendChild(el("span", "call-name", choice.name));
    if (choice.sizes) b.appendChild(el("span", "call-sizes", choice.sizes));
    if (choice.key) {
      b.appendChild(el("kbd", "call-key", choice.key));
      b.dataset.key = choice.key;
      b.title = "Shortcut: " + choice.key;
    }
    if (sent) {
      b.disabled = true;
      if (sent.position === choice.position) b.classList.add("call-sent");
    }
    b.addEventListener("click", () => choose(choice.position));
    list.appendChild(b);
  });
  panel.appendChild(list);
  box.appendChild(panel);
}
