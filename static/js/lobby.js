// The lobby's live rows. The server pushes them over ws/lobby/ whenever a
// table changes; the filters are sent over the same socket. While the socket
// is down, lobby.json is polled every few seconds instead, so the list never
// freezes, and the socket is tried again with a growing pause. The rows come
// in the server's order (tables with players first, then by game and name)
// until a click on a column heading sorts them by it; a second click
// reverses the order. Each viewer's rows mark the tables they sit at.
import { chips } from "./shared/format.js";
import { patchChildren } from "./shared/patch.js";

(function () {
  var POLL_MS = 5000;
  var lobby = document.getElementById("lobby");
  var status = document.getElementById("lobby-status");
  var filters = document.getElementById("lobby-filters");
  if (!lobby) return;

  var loggedIn = lobby.dataset.loggedIn === "1";
  var jsonUrl = lobby.dataset.pollUrl.split("?")[0];
  var socket = null;
  var live = false;
  var backoff = 1000;
  var pollTimer = null;
  // The last rows the server sent, in its order; first those the page came with,
  // so they sort before the socket answers.
  var served = document.getElementById("lobby-rows");
  var rows = served ? JSON.parse(served.textContent) : [];
  var sortKey = null;
  var sortDir = 1; // 1 ascending, -1 descending

  function cell(text, className) {
    var td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  function link(href, text, className) {
    var a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    if (className) a.className = className;
    return a;
  }

  // The game being dealt; at a mixed table, under it what is coming
  // ("Razz · 2 more hands, then …"), its list of games on hover.
  function game(t) {
    var td = cell(t.stakes, "lobby-game");
    if (t.coming) {
      var mix = document.createElement("span");
      mix.className = "lobby-mix";
      mix.textContent = t.coming;
      mix.title = "Games: " + t.games.join(", ");
      td.appendChild(mix);
    }
    return td;
  }

  // The player's own tables are marked, and lead back to their seat.
  function row(t) {
    var tr = document.createElement("tr");
    tr.dataset.table = t.id;
    if (t.seated) tr.className = "lobby-seated";
    var name = cell(t.name, "lobby-name");
    if (t.seated) {
      name.appendChild(document.createTextNode(" "));
      var you = document.createElement("span");
      you.className = "lobby-you";
      you.textContent = "You’re seated";
      name.appendChild(you);
    }
    tr.appendChild(name);
    tr.appendChild(game(t));
    tr.appendChild(cell(chips(t.min_buy_in) + "–" + chips(t.max_buy_in), "num"));
    tr.appendChild(cell(t.rake));
    var free = t.seats_free ? " · " + t.seats_free + " free" : "";
    tr.appendChild(cell(t.seats_taken + " / " + t.seats_total + free, "num"));
    tr.appendChild(cell(String(t.waiting), "num"));
    tr.appendChild(cell(t.average_pot === null ? "–" : chips(t.average_pot), "num"));
    tr.appendChild(cell(String(t.hands_per_hour), "num"));
    var links = cell("", "lobby-links");
    if (t.seated) {
      links.appendChild(link(t.url, "Your seat", "button"));
      tr.appendChild(links);
      return tr;
    }
    links.appendChild(link(t.url, "Watch"));
    links.appendChild(document.createTextNode(" "));
    if (loggedIn) {
      links.appendChild(link(t.url, "Join", "button"));
    } else {
      var login = lobby.dataset.loginUrl + "?next=" + encodeURIComponent(t.url);
      links.appendChild(link(login, "Log in to join"));
    }
    tr.appendChild(links);
    return tr;
  }

  // A message that changes nothing leaves the rows alone; the socket's first
  // one is most often the very rows the page came with.
  function render(tables) {
    if (JSON.stringify(tables) === JSON.stringify(rows)) return;
    rows = tables;
    draw();
  }

  function tableKey(tr) {
    return tr.dataset.table;
  }

  // Text sorts as text, numbers as numbers; a missing figure (no average pot) goes last.
  function sorted(tables) {
    if (!sortKey) return tables;
    return tables.slice().sort(function (a, b) {
      var x = a[sortKey], y = b[sortKey];
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      var order = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
      return sortDir * order || a.name.localeCompare(b.name);
    });
  }

  function draw() {
    var tables = sorted(rows);
    var fresh = tables.map(row);
    if (!tables.length) {
      var empty = document.createElement("tr");
      empty.className = "lobby-empty";
      var td = cell("No open tables match.");
      td.colSpan = 9;
      empty.appendChild(td);
      fresh.push(empty);
    }
    patchChildren(lobby.tBodies[0], fresh, tableKey);
  }

  function updated(how) {
    status.textContent = how + " · updated " + new Date().toLocaleTimeString() + ".";
  }

  // ------------------------------------------------------------ sorting

  lobby.querySelectorAll("th[data-sort]").forEach(function (th) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "link-button sort-button";
    while (th.firstChild) button.appendChild(th.firstChild);
    th.appendChild(button);
    th.setAttribute("aria-sort", "none");
    button.addEventListener("click", function () {
      var key = th.dataset.sort;
      sortDir = sortKey === key ? -sortDir : 1;
      sortKey = key;
      lobby.querySelectorAll("th[data-sort]").forEach(function (other) {
        other.setAttribute("aria-sort", other === th ? (sortDir > 0 ? "ascending" : "descending") : "none");
      });
      draw();
    });
  });

  // ------------------------------------------------------------ filters

  // The filters as the form holds them: a variant, a structure code and a kind
  // of table (a policy: one game, a rotation, dealer's choice) or "", a stakes
  // id or null.
  function chosen() {
    var variant = filters ? filters.elements.variant.value : "";
    var structure = filters ? filters.elements.structure.value : "";
    var games = filters ? filters.elements.games.value : "";
    var stakes = filters ? parseInt(filters.elements.stakes.value, 10) : NaN;
    return {
      variant: variant, structure: structure, stakes: isNaN(stakes) ? null : stakes, games: games,
    };
  }

  function narrowed(f) {
    return Boolean(f.variant || f.structure || f.stakes !== null || f.games);
  }

  function query() {
    var f = chosen();
    var params = new URLSearchParams();
    if (f.variant) params.set("variant", f.variant);
    if (f.structure) params.set("structure", f.structure);
    if (f.stakes !== null) params.set("stakes", String(f.stakes));
    if (f.games) params.set("games", f.games);
    var text = params.toString();
    return text ? "?" + text : "";
  }

  function sendFilter() {
    var f = chosen();
    socket.send(JSON.stringify({
      type: "filter", variant: f.variant, structure: f.structure, stakes: f.stakes, games: f.games,
    }));
  }

  function applyFilters() {
    // The address keeps the filters, so a reload or a shared link shows the same list.
    history.replaceState(null, "", location.pathname + query());
    var ignored = document.getElementById("lobby-ignored");
    if (ignored) ignored.hidden = true;
    if (live) sendFilter();
    else poll();
  }

  if (filters) {
    filters.addEventListener("submit", function (e) {
      e.preventDefault();
      applyFilters();
    });
    filters.addEventListener("change", applyFilters);
  }

  // ------------------------------------------------------- my home games

  // The player's home games, as the server lists them: open ones with their
  // game (and at a mixed one what is coming), players seated and host;
  // closed ones lead to their settle-up, and their host to dealing them again.
  var homeList = document.getElementById("home-games-list");
  var homeNone = document.getElementById("home-games-none");

  function homeGame(g) {
    var li = document.createElement("li");
    li.dataset.url = g.url;
    li.appendChild(link(g.url, g.name));
    if (!g.is_open) {
      li.appendChild(document.createTextNode(" · closed: "));
      li.appendChild(link(g.url + "#ledger", "the settle-up"));
      if (g.again_url) {
        li.appendChild(document.createTextNode(" · "));
        li.appendChild(link(g.again_url, "deal it again"));
      }
      return li;
    }
    var coming = g.coming ? " · " + g.coming : "";
    li.appendChild(document.createTextNode(" · " + g.stakes + coming + " · " + g.seated + " seated · "));
    if (g.you_host) {
      var strong = document.createElement("strong");
      strong.textContent = "you host it";
      li.appendChild(strong);
    } else {
      li.appendChild(document.createTextNode("hosted by " + g.host));
    }
    return li;
  }

  // The home games as last drawn, to skip a message that changes none; first
  // those the page came with.
  var servedHome = document.getElementById("home-game-rows");
  var homeShown = servedHome ? JSON.stringify(JSON.parse(servedHome.textContent)) : null;

  function homeKey(li) {
    return li.dataset.url;
  }

  function renderHomeGames(games) {
    if (!homeList || !games) return; // a visitor has none
    var text = JSON.stringify(games);
    if (text === homeShown) return;
    homeShown = text;
    patchChildren(homeList, games.map(homeGame), homeKey);
    homeList.hidden = !games.length;
    homeNone.hidden = Boolean(games.length);
  }

  // ------------------------------------------------------------ the socket

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/lobby/");
    socket.onopen = function () {
      live = true;
      backoff = 1000;
      clearTimeout(pollTimer);
      pollTimer = null;
      // The server starts with every table; ask for ours if the form narrows it.
      if (narrowed(chosen())) sendFilter();
    };
    socket.onmessage = function (e) {
      var msg = JSON.parse(e.data);
      if (msg.type === "lobby") {
        render(msg.tables);
        renderHomeGames(msg.home_games);
        updated("Live");
      } else if (msg.type === "error") {
        status.textContent = "The server refused the filter: " + msg.message;
      }
    };
    socket.onclose = function () {
      var wasLive = live;
      live = false;
      status.textContent = "Live updates are off; checking every few seconds. Reconnecting…";
      if (wasLive) poll();
      else schedulePoll();
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 30000);
    };
  }

  // ----------------------------------------------------------- the fallback

  function schedulePoll() {
    if (pollTimer === null) pollTimer = setTimeout(poll, POLL_MS);
  }

  function poll() {
    clearTimeout(pollTimer);
    pollTimer = null;
    if (live) return;
    fetch(jsonUrl + query(), { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (data) {
        if (live) return; // the socket came back meanwhile and has the last word
        render(data.tables);
        renderHomeGames(data.home_games);
        updated("Checked");
      })
      .catch(function () {
        status.textContent = "Can't reach the server; the list may be out of date. Retrying…";
      })
      .finally(function () { if (!live) schedulePoll(); });
  }

  connect();
})();
