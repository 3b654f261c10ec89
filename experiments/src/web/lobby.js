"use strict";
// The lobby of `shifu serve`: lists the games, lets one choose the players, the human seats and
// each bot's agent spec, and creates the table (POST /api/tables). Every text goes in through
// textContent, never as markup.
(function () {
  const gameSel = document.getElementById("game");
  const players = document.getElementById("players");
  const seats = document.getElementById("seats");
  const message = document.getElementById("message");
  let games = [];

  function say(text, error) {
    message.textContent = text;
    message.className = error ? "error" : "";
  }
  function current() {
    return games.find(function (g) { return g.name === gameSel.value; });
  }
  function drawSeats() {
    const g = current();
    if (!g) return;
    players.min = g.min_players;
    players.max = g.max_players;
    let n = parseInt(players.value, 10);
    if (!(n >= g.min_players)) n = g.min_players;
    if (n > g.max_players) n = g.max_players;
    players.value = n;
    const old = {};
    seats.querySelectorAll("input.agent").forEach(function (i) { old[i.dataset.seat] = i.value; });
    const oldHuman = {};
    seats.querySelectorAll("input.human").forEach(function (i) { oldHuman[i.dataset.seat] = i.checked; });
    while (seats.firstChild) seats.removeChild(seats.firstChild);
    const head = seats.insertRow();
    ["seat", "human", "agent (bots)"].forEach(function (h) {
      const th = document.createElement("th");
      th.textContent = h;
      head.appendChild(th);
    });
    for (let s = 1; s <= n; s++) {
      const tr = seats.insertRow();
      tr.insertCell().textContent = "player " + s;
      const human = document.createElement("input");
      human.type = "checkbox";
      human.className = "human";
      human.dataset.seat = s;
      human.checked = s in oldHuman ? oldHuman[s] : s === 1;
      tr.insertCell().appendChild(human);
      const agent = document.createElement("input");
      agent.type = "text";
      agent.className = "agent";
      agent.dataset.seat = s;
      agent.value = old[s] || "greedy";
      tr.insertCell().appendChild(agent);
    }
  }
  function create() {
    const humans = [];
    seats.querySelectorAll("input.human").forEach(function (i) {
      if (i.checked) humans.push(parseInt(i.dataset.seat, 10));
    });
    const agents = [];
    seats.querySelectorAll("input.agent").forEach(function (i) { agents.push(i.value.trim() || "random"); });
    const body = { game: gameSel.value, players: parseInt(players.value, 10), humans: humans, agents: agents };
    const seed = document.getElementById("seed").value.trim();
    if (seed !== "") {
      if (!/^[0-9]+$/.test(seed)) {
        say("The seed is a whole number (or empty for a random one).", true);
        return;
      }
      body.seed = Number(seed);
    }
    const set = document.getElementById("set").value.split(";").map(function (x) { return x.trim(); })
      .filter(function (x) { return x !== ""; });
    if (set.length) body.set = set;
    say("Starting the table…");
    fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (j) { return [r.ok, j]; }); })
      .then(function (res) {
        if (!res[0]) {
          say(res[1].error || "the server refused the table", true);
          return;
        }
        const list = document.getElementById("tickets");
        while (list.firstChild) list.removeChild(list.firstChild);
        res[1].seats.forEach(function (t) {
          const li = document.createElement("li");
          const a = document.createElement("a");
          a.href = t.url;
          a.className = "seat-link";
          a.textContent = "play player " + t.seat;
          li.appendChild(a);
          list.appendChild(li);
        });
        say("Table " + res[1].table + " is ready.");
        if (res[1].seats.length === 1) window.location.href = res[1].seats[0].url;
      })
      .catch(function (e) { say("The server did not answer: " + e, true); });
  }

  fetch("/api/games")
    .then(function (r) { return r.json(); })
    .then(function (list) {
      games = list;
      list.forEach(function (g) {
        const o = document.createElement("option");
        o.value = g.name;
        o.textContent = g.title + " (" + g.min_players + "–" + g.max_players + " players)";
        gameSel.appendChild(o);
      });
      drawSeats();
    })
    .catch(function (e) { say("The server did not answer: " + e, true); });
  gameSel.addEventListener("change", drawSeats);
  players.addEventListener("change", drawSeats);
  document.getElementById("create").addEventListener("click", create);
})();
