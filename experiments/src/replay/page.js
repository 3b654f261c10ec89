"use strict";
// The replay page's script: reads the embedded replay (JSON), draws each position's board in
// SVG and drives the controls. Every text goes in through textContent, never as markup.
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const svg = document.getElementById("board");
  const slider = document.getElementById("step-slider");
  const last = data.steps.length;
  let pos = 0;
  let timer = null;

  function drawBoard(board) {
    document.getElementById("status").textContent = board.status;
    ShifuBoard.draw(svg, board, data.seat);
  }

  function score(kind, v) {
    return kind === "visits" || kind === "policy" ? (100 * v).toFixed(1) + "%" : (+v).toFixed(3);
  }
  const KINDS = { value: "greedy evaluation after the action", visits: "share of the search's visits",
    policy: "the network's policy probability (no search)",
    reward: "mean reward over the paired worlds", rule: "chosen by the game's greedy rules, without scores",
    plan: "the next step of a choice scored when it began", human: "a person's move (shifu serve)" };
  function drawWhy() {
    const why = document.getElementById("why");
    while (why.firstChild) why.removeChild(why.firstChild);
    const p = document.createElement("p");
    why.appendChild(p);
    if (pos >= last) {
      p.textContent = "Game over.";
      return;
    }
    const s = data.steps[pos];
    p.textContent = "Player " + s.actor + " (" + data.agents[s.actor - 1] + "), " + s.legal +
      " legal actions: " + s.name;
    const note = document.createElement("p");
    note.className = "note";
    why.appendChild(note);
    if (s.agent_differs) note.textContent = "The agent would now choose otherwise; the log's action is shown. ";
    if (!s.candidates.length) {
      note.textContent += s.kind ? KINDS[s.kind] || s.kind :
        data.seat && s.actor !== data.seat ? "Hidden from this seat." : "No scores (a random agent or a forced move).";
      return;
    }
    note.textContent += "Scores: " + (KINDS[s.kind] || s.kind) + ".";
    const t = document.createElement("table");
    t.id = "candidates";
    const head = t.insertRow();
    ["action", "score"].forEach(function (h) {
      const th = document.createElement("th");
      th.textContent = h;
      head.appendChild(th);
    });
    s.candidates.forEach(function (c) {
      const tr = t.insertRow();
      if (c.taken) tr.className = "taken";
      tr.setAttribute("data-score", c.score);
      tr.insertCell().textContent = c.name;
      tr.insertCell().textContent = score(s.kind, c.score);
    });
    why.appendChild(t);
  }
  function drawResult() {
    const t = document.getElementById("result");
    while (t.firstChild) t.removeChild(t.firstChild);
    if (pos < last) {
      t.insertRow().insertCell().textContent = "In progress: step to the end for the result.";
      return;
    }
    ShifuBoard.result(t, data.outcome, null);
  }

  const list = document.getElementById("action-list");
  data.steps.forEach(function (s, i) {
    const li = document.createElement("li");
    li.id = "step-" + i;
    li.textContent = "P" + s.actor + ": " + s.name;
    if (s.index === null) li.className = "hidden-move";
    li.addEventListener("click", function () { go(i); });
    list.appendChild(li);
  });

  function go(p) {
    pos = Math.max(0, Math.min(last, p));
    slider.value = pos;
    document.getElementById("step-label").textContent = pos < last ?
      "step " + (pos + 1) + " of " + last : "end (" + last + " steps)";
    drawBoard(data.frames[pos]);
    drawWhy();
    drawResult();
    const cur = list.querySelector("li.current");
    if (cur) cur.classList.remove("current");
    const li = document.getElementById("step-" + pos);
    if (li) {
      li.classList.add("current");
      li.scrollIntoView({ block: "nearest" });
    }
  }
  function play() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      document.getElementById("play").textContent = "▶ play";
      return;
    }
    if (pos >= last) go(0);
    document.getElementById("play").textContent = "❚❚ pause";
    timer = setInterval(function () {
      if (pos >= last) play();
      else go(pos + 1);
    }, 700);
  }

  document.getElementById("origin").textContent = data.origin + " · agents by seat: " +
    data.agents.join(" | ") + (data.seat ? " · the view of player " + data.seat : " · every card shown");
  slider.max = last;
  slider.addEventListener("input", function () { go(+slider.value); });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(pos - 1); });
  document.getElementById("next").addEventListener("click", function () { go(pos + 1); });
  document.getElementById("last").addEventListener("click", function () { go(last); });
  document.getElementById("play").addEventListener("click", play);
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight") go(pos + 1);
    else if (e.key === "ArrowLeft") go(pos - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(last);
    else if (e.key === " ") play();
    else return;
    e.preventDefault();
  });
  window.addEventListener("resize", function () { drawBoard(data.frames[pos]); });
  go(0);
})();
