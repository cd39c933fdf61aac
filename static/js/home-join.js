// The invite link's page (/home/join/#<code>): the code is in the fragment,
// which browsers never send to a server, so no log holds it. This posts it,
// then follows the answer to the table. A visitor who must log in first
// keeps the code in this tab's session storage meanwhile. Another link
// opened in the same tab changes only the fragment, so the page loads no
// more: it is taken up as it comes.
(function () {
  "use strict";
  var KEY = "cardroom-invite";
  var form = document.getElementById("home-join");
  var status = document.getElementById("home-join-status");

  function join() {
    var code = window.location.hash.slice(1);
    if (code) {
      // Out of the address bar and the tab's history: the link is a key.
      window.history.replaceState(null, "", window.location.pathname);
      window.sessionStorage.setItem(KEY, code);
    } else {
      code = window.sessionStorage.getItem(KEY) || "";
    }
    if (!code) {
      status.textContent = "This link has no invitation in it: ask your host to send it again.";
      return;
    }
    if (form.dataset.loggedIn !== "1") {
      status.textContent = "You are invited to a home game.";
      return;
    }
    status.textContent = "Opening the invitation…";
    document.getElementById("home-join-code").value = code;
    fetch(form.action || window.location.pathname, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
    })
      .then(function (response) {
        return response.json().then(function (answer) {
          return { ok: response.ok, answer: answer };
        });
      })
      .then(function (reply) {
        window.sessionStorage.removeItem(KEY);
        if (reply.ok) {
          window.location.assign(reply.answer.url);
        } else {
          status.textContent = reply.answer.error || "No such table.";
        }
      })
      .catch(function () {
        status.textContent = "Could not reach Cardroom: reload the page to try again.";
      });
  }

  join();
  window.addEventListener("hashchange", function () {
    if (window.location.hash.length > 1) join();
  });
})();
