"use strict";
// Draws a board (engine/src/board.rs, as JSON: rows of cards, face-down stacks, coins, tokens,
// hats, dice, timers and text) in SVG. Shared by the replay page and `shifu serve`'s table page.
// Every text goes in through textContent, never as markup.
const ShifuBoard = (function () {
  const NS = "http://www.w3.org/2000/svg";

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, s, size, attrs) {
    const t = el("text", Object.assign({ x: x, y: y, "font-size": size }, attrs || {}), parent);
    t.textContent = s;
    return t;
  }
  function wrap(s, width) {
    const words = String(s).split(/\s+/);
    const lines = [];
    let line = "";
    for (const w of words) {
      if (line && (line + " " + w).length > width) {
        lines.push(line);
        line = w;
      } else {
        line = line ? line + " " + w : w;
      }
    }
    if (line) lines.push(line);
    return lines;
  }
  function lines(g, x, y, s, width, max, size, attrs) {
    const ls = wrap(s, width);
    ls.slice(0, max).forEach(function (l, i) {
      text(g, x, y + i * (size + 2), i === max - 1 && ls.length > max ? l + "…" : l, size, attrs);
    });
  }
  const HAT_COLOURS = { Chef: "#ffffff", Waiter: "#333333", Cashier: "#c0392b", Master: "#d4a017",
    Apprentice: "#7fb069", "Prince Mochi": "#f4a6c1" };
  const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

  // Each item kind: its size and how it is drawn in group g at (0, 0).
  const ITEMS = {
    card: [112, 126, function (g, it) {
      el("rect", { width: 108, height: 122, rx: 7, fill: "#fffdf5", stroke: "#7a5230" }, g);
      lines(g, 6, 16, it.name, 15, 2, 12, { "font-weight": "bold" });
      if (it.cost) lines(g, 6, 50, "cost: " + it.cost, 17, 3, 10, { fill: "#8a2d1d" });
      lines(g, 6, 88, it.note, 18, 3, 10, { fill: "#555" });
    }],
    face_down: [84, 126, function (g, it) {
      el("rect", { width: 80, height: 122, rx: 7, fill: "#6b4c9a", stroke: "#3c2a57" }, g);
      el("rect", { x: 8, y: 8, width: 64, height: 106, rx: 4, fill: "none", stroke: "#b9a3dd", "stroke-dasharray": "4 3" }, g);
      text(g, 40, 56, "×" + it.count, 18, { fill: "#fff", "text-anchor": "middle", "class": "count" });
      lines(g, 12, 80, it.label, 11, 3, 10, { fill: "#fff" });
    }],
    coins: [74, 76, function (g, it) {
      el("circle", { cx: 36, cy: 24, r: 22, fill: "#e8b923", stroke: "#a07d10", "stroke-width": 2 }, g);
      text(g, 36, 29, it.value, 14, { "text-anchor": "middle", "font-weight": "bold", "class": "value" });
      lines(g, 2, 60, it.label, 12, 2, 10);
    }],
    token: [74, 76, function (g, it) {
      el("rect", { x: 16, y: 4, width: 40, height: 40, rx: 8, fill: "#9cc3e0", stroke: "#3d6f94" }, g);
      text(g, 36, 29, it.value, 14, { "text-anchor": "middle", "font-weight": "bold", "class": "value" });
      lines(g, 2, 60, it.label, 12, 2, 10);
    }],
    hat: [74, 76, function (g, it) {
      const fill = HAT_COLOURS[it.label] || "#b0a090";
      el("path", { d: "M14 40 L58 40 L58 34 L50 34 L46 8 L26 8 L22 34 L14 34 Z", fill: fill, stroke: "#222" }, g);
      text(g, 36, 28, it.value, 13, { "text-anchor": "middle", "font-weight": "bold", fill: fill === "#333333" ? "#fff" : "#000", "class": "value" });
      lines(g, 2, 60, it.label, 12, 2, 10);
    }],
    die: [44, 48, function (g, it) {
      el("rect", { x: 2, y: 2, width: 38, height: 38, rx: 6, fill: it.face ? "#fff" : "#ddd", stroke: "#333" }, g);
      if (!it.face) text(g, 21, 27, "×", 16, { "text-anchor": "middle" });
      (PIPS[it.face] || []).forEach(function (p) {
        el("circle", { cx: 2 + p[0] * 9.5, cy: 2 + p[1] * 9.5, r: 3.5, fill: "#222" }, g);
      });
    }],
    timer: [150, 52, function (g, it) {
      lines(g, 2, 12, it.label, 26, 1, 10);
      el("rect", { x: 2, y: 18, width: 140, height: 14, rx: 3, fill: "#fff", stroke: "#555" }, g);
      const share = it.total > 0 ? Math.max(0, Math.min(1, it.left / it.total)) : 0;
      el("rect", { x: 2, y: 18, width: 140 * share, height: 14, rx: 3, fill: "#e0a458" }, g);
      text(g, 2, 46, (+it.left).toFixed(1) + " / " + (+it.total).toFixed(1), 10);
    }],
    text: [0, 22, function (g, it) {
      text(g, 2, 15, it.text, 12);
    }],
  };
  function size(it) {
    const s = ITEMS[it.kind] || ITEMS.text;
    return it.kind === "text" ? [Math.min(900, 7 * String(it.text).length + 12), s[1]] : [s[0], s[1]];
  }
  function tooltip(it) {
    return [it.name, it.cost && "cost " + it.cost, it.note, it.label, it.text,
      it.count !== undefined && "×" + it.count, it.value !== undefined && String(it.value),
      it.face !== undefined && "face " + it.face].filter(Boolean).join(" · ");
  }

  // Draws `board` into the <svg> element `svg`, the rows of seat `seat` (from 1, or null)
  // highlighted.
  function draw(svg, board, seat) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const width = Math.max(600, svg.parentNode.clientWidth - 8);
    let y = 4;
    board.rows.forEach(function (row, r) {
      const g = el("g", { "class": "row", "data-row": r }, svg);
      const bg = el("rect", { x: 0, y: y, width: width, rx: 6,
        fill: row.seat && row.seat === seat ? "#fff3cf" : row.seat ? "#fbf8f2" : "#efe7da", stroke: "#d8ccb8" }, g);
      text(g, 8, y + 16, row.label, 13, { "font-weight": "bold" });
      let x = 8, top = y + 24, line = 0;
      row.items.forEach(function (it) {
        const s = size(it);
        if (x + s[0] > width - 4 && x > 8) {
          x = 8;
          top += line + 6;
          line = 0;
        }
        const ig = el("g", { transform: "translate(" + x + "," + top + ")", "class": "item " + it.kind }, g);
        el("title", {}, ig).textContent = tooltip(it);
        (ITEMS[it.kind] || ITEMS.text)[2](ig, it);
        x += s[0] + 6;
        line = Math.max(line, s[1]);
      });
      const h = top + line + 6 - y;
      bg.setAttribute("height", h);
      y += h + 6;
    });
    svg.setAttribute("width", width);
    svg.setAttribute("height", y);
  }

  // The result table `t` (a <table>, emptied first) of a finished game's `outcome` (score,
  // rank, winners, capped): a row per seat with the stable test hooks `data-seat`, `data-score`
  // and `data-rank`; seat `you` (if any) is marked.
  function result(t, outcome, you) {
    while (t.firstChild) t.removeChild(t.firstChild);
    const head = t.insertRow();
    ["player", "score", "rank"].forEach(function (h) {
      const th = document.createElement("th");
      th.textContent = h;
      head.appendChild(th);
    });
    outcome.score.forEach(function (v, i) {
      const tr = t.insertRow();
      tr.className = "seat-score" + (outcome.winners.indexOf(i + 1) >= 0 ? " winner" : "");
      tr.setAttribute("data-seat", i + 1);
      tr.setAttribute("data-score", v);
      tr.setAttribute("data-rank", outcome.rank[i]);
      tr.insertCell().textContent = "player " + (i + 1) + (i + 1 === you ? " (you)" : "");
      tr.insertCell().textContent = v;
      tr.insertCell().textContent = outcome.rank[i];
    });
    if (outcome.capped) t.insertRow().insertCell().textContent = "ended by the round cap";
  }

  return { draw: draw, result: result };
})();
