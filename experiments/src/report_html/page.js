"use strict";
// The report page's script: a tooltip that shows the <title> of the mark under the pointer, and
// an "export SVG" button per chart that saves that chart as a standalone .svg file (a Blob and
// an object URL: nothing is loaded). Every text goes in through textContent, never as markup.
(function () {
  const tip = document.getElementById("tooltip");
  function titleOf(node) {
    for (let n = node; n && n.nodeType === 1 && n.tagName.toLowerCase() !== "svg"; n = n.parentNode) {
      for (const c of n.childNodes) {
        if (c.nodeType === 1 && c.tagName.toLowerCase() === "title") return c.textContent;
      }
    }
    return null;
  }
  document.addEventListener("mousemove", function (ev) {
    const t = ev.target && ev.target.closest ? titleOf(ev.target) : null;
    if (t === null) {
      tip.hidden = true;
      return;
    }
    tip.textContent = t;
    tip.hidden = false;
    tip.style.left = (ev.clientX + 14) + "px";
    tip.style.top = (ev.clientY + 14) + "px";
  });
  for (const fig of document.querySelectorAll("figure.chart")) {
    const button = fig.querySelector("button.export");
    const svg = fig.querySelector("svg");
    if (!button || !svg) continue;
    button.addEventListener("click", function () {
      const text = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg);
      const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = (fig.dataset.name || "chart") + ".svg";
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    });
  }
})();
