"use strict";
// The table page of `shifu serve`: one seat's view of a table (GET /api/tables/ID), drawn with
// the replay page's board code; the seat's legal actions as buttons (POST .../act), the result
// once the game is over. The seat and its token come from the link's fragment
// (#seat=K&token=T). Every text goes in through textContent, never as markup.
(function () {
  const id = decodeURIComponent(window.location.pathname.split("/").pop());
  const params = new URLSearchParams(window.location.hash.slice(1));
  const seat = parseInt(params.get("seat"), 10);
  const token = params.get("token") || "";
  const svg = document.getElementById("board");
  const actions = document.getElementById("actions");
  const message = document.getElementById("message");
  const api = "/api/tables/" + encodeURIComponent(id);
  let last = null;
  let poll = null;
  let busy = false;

  function say(text, error) {
    message.textContent = text;
    message.className = error ? "error" : "";
  }
  function clear(e) {
    while (e.firstChild) e.removeChild(e.firstChild);
  }
  function answer(r) {
    return r.json().then(function (j) {
      if (!r.ok) throw new Error(j.error || "HTTP " + r.status);
      return j;
    });
  }
  function drawResult(v) {
    const t = document.getElementById("result");
    clear(t);
    if (!v.result) {
      t.insertRow().insertCell().textContent = "In progress.";
      return;
    }
    ShifuBoard.result(t, v.result, v.seat);
    t.insertRow().insertCell().textContent = "seed " + v.result.seed;
  }
  function drawActions(v) {
    clear(actions);
    v.legal.forEach(function (a) {
      const b = document.createElement("button");
      b.className = "action";
      b.setAttribute("data-action", a.index);
      b.textContent = a.name;
      b.addEventListener("click", function () { act(a.index); });
      actions.appendChild(b);
    });
  }
  function drawHistory(v) {
    const list = document.getElementById("action-list");
    clear(list);
    v.history.forEach(function (m) {
      const li = document.createElement("li");
      li.textContent = "P" + m.actor + ": " + m.name;
      if (m.actor !== v.seat) li.className = "hidden-move";
      list.appendChild(li);
    });
    if (list.lastChild) list.lastChild.scrollIntoView({ block: "nearest" });
  }
  function draw(v) {
    last = v;
    document.getElementById("title").textContent = v.game + ": player " + v.seat;
    document.getElementById("origin").textContent = "table " + id + " · agents by seat: " +
      v.agents.join(" | ") + " · you see what player " + v.seat + " sees";
    document.getElementById("status").textContent = v.board.status;
    ShifuBoard.draw(svg, v.board, v.seat);
    drawActions(v);
    drawResult(v);
    drawHistory(v);
    if (v.result) say("Game over.");
    else if (v.your_turn) say("Your move: " + v.legal.length + " legal actions.");
    else say("Waiting for player " + v.to_move + "…");
    schedule(v);
  }
  function schedule(v) {
    if (poll) clearTimeout(poll);
    poll = null;
    if (!v.result && !v.your_turn) poll = setTimeout(refresh, 1000);
  }
  function refresh() {
    fetch(api + "?seat=" + seat + "&token=" + encodeURIComponent(token), { cache: "no-store" })
      .then(answer)
      .then(draw)
      .catch(function (e) { say(e.message, true); });
  }
  function act(index) {
    if (busy) return;
    busy = true;
    actions.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    say("Playing…");
    fetch(api + "/act", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat: seat, token: token, action: index }) })
      .then(answer)
      .then(function (v) { busy = false; draw(v); })
      .catch(function (e) {
        busy = false;
        say(e.message, true);
        refresh();
      });
  }

  if (!(seat >= 1) || !token) {
    say("This link has no seat and token: open the link the lobby gave.", true);
    return;
  }
  window.addEventListener("resize", function () { if (last) ShifuBoard.draw(svg, last.board, last.seat); });
  refresh();
})();
