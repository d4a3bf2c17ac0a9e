// Hover one cell of a head's detail figure and the same cell is outlined in every stage.
// Runs in a zero-height component frame and reaches the page's Plotly charts through its
// parent (same origin). Charts opt in with layout.meta.syncHover. No user text here.
(function () {
  const page = window.parent;
  const CLASS = "sync-hover-cell";

  function clear(gd) {
    gd.querySelectorAll("." + CLASS).forEach((box) => box.remove());
  }

  function outline(gd, xa, ya, row, col) {
    const left = xa._offset + Math.min(xa.l2p(col - 0.5), xa.l2p(col + 0.5));
    const top = ya._offset + Math.min(ya.l2p(row - 0.5), ya.l2p(row + 0.5));
    const box = page.document.createElement("div");
    box.className = CLASS;
    Object.assign(box.style, {
      position: "absolute", pointerEvents: "none", boxSizing: "border-box",
      left: left + "px", top: top + "px",
      width: Math.abs(xa.l2p(col + 0.5) - xa.l2p(col - 0.5)) + "px",
      height: Math.abs(ya.l2p(row + 0.5) - ya.l2p(row - 0.5)) + "px",
      border: "3px dashed #111", outline: "2px solid #fff", zIndex: 10,
    });
    gd.appendChild(box);
  }

  function attach(gd) {
    if (gd.__syncHover || !gd.layout || !gd.layout.meta || !gd.layout.meta.syncHover) return;
    gd.__syncHover = true;
    if (page.getComputedStyle(gd).position === "static") gd.style.position = "relative";
    gd.on("plotly_hover", function (event) {
      const point = event.points && event.points[0];
      if (!point || !Array.isArray(point.pointNumber)) return;
      const [row, col] = point.pointNumber;
      clear(gd);
      const layout = gd._fullLayout;
      const seen = new Set();
      gd._fullData.forEach(function (trace) {
        if (trace.type !== "heatmap") return;
        const xName = (trace.xaxis || "x").replace("x", "xaxis");
        const yName = (trace.yaxis || "y").replace("y", "yaxis");
        if (seen.has(xName)) return;
        seen.add(xName);
        outline(gd, layout[xName], layout[yName], row, col);
      });
    });
    gd.on("plotly_unhover", () => clear(gd));
  }

  function scan() {
    page.document.querySelectorAll(".js-plotly-plot").forEach(attach);
  }
  scan();
  setInterval(scan, 1000);
})();
