// Loaded by ui/chart_events.py as a Streamlit component (components v2: in the page, no
// frame, no user text). The one place the page listens to its Plotly charts, through
// Plotly's public events:
// - plotly_click on a heatmap cell of a named chart sends which chart, which head (the
//   trace's meta.head), which block (meta.block, where a chart shows several) and which cell
//   (row = query, column = key) to the page's next run;
// - plotly_hover / plotly_unhover on a chart whose layout.meta.syncHover is set outline the
//   hovered cell in each of its panels (one head's stages show the same cells).
// The meta key names come from figures/events.py (data.keys). Charts are found as they
// appear (a rerun may replace a chart's element): a MutationObserver, no polling.
export default function ({ setTriggerValue, data }) {
  const keys = data.keys;
  const OUTLINE = "chart-events-cell";

  const clearOutline = (plot) => plot.querySelectorAll("." + OUTLINE).forEach((box) => box.remove());

  const outline = (plot, xa, ya, row, col) => {
    const left = xa._offset + Math.min(xa.l2p(col - 0.5), xa.l2p(col + 0.5));
    const top = ya._offset + Math.min(ya.l2p(row - 0.5), ya.l2p(row + 0.5));
    const box = document.createElement("div");
    box.className = OUTLINE;
    Object.assign(box.style, {
      position: "absolute", pointerEvents: "none", boxSizing: "border-box",
      left: left + "px", top: top + "px",
      width: Math.abs(xa.l2p(col + 0.5) - xa.l2p(col - 0.5)) + "px",
      height: Math.abs(ya.l2p(row + 0.5) - ya.l2p(row - 0.5)) + "px",
      border: "3px dashed #111", outline: "2px solid #fff", zIndex: 10,
    });
    plot.appendChild(box);
  };

  const onHover = (plot) => (event) => {
    const point = event && event.points && event.points[0];
    if (!point || !Array.isArray(point.pointNumber)) return;
    const [row, col] = point.pointNumber;
    clearOutline(plot);
    const layout = plot._fullLayout;
    const seen = new Set();
    for (const trace of plot._fullData || []) {
      if (trace.type !== "heatmap") continue;
      const xName = (trace.xaxis || "x").replace("x", "xaxis");
      const yName = (trace.yaxis || "y").replace("y", "yaxis");
      if (seen.has(xName)) continue;
      seen.add(xName);
      outline(plot, layout[xName], layout[yName], row, col);
    }
  };

  const onClick = (chart) => (event) => {
    const point = event && event.points && event.points[0];
    if (!point || !Array.isArray(point.pointIndex)) return;
    const meta = (point.data && point.data.meta) || {};
    const head = meta[keys.head], block = meta[keys.block];
    // A window over a long text, or an overview in blocks: the cell's place in the whole matrix.
    const origin = Array.isArray(meta[keys.origin]) ? meta[keys.origin] : [0, 0];
    const step = Number.isInteger(meta[keys.step]) && meta[keys.step] > 0 ? meta[keys.step] : 1;
    setTriggerValue("clicked", {
      chart,
      head: Number.isInteger(head) ? head : null,
      block: Number.isInteger(block) ? block : null,
      row: origin[0] + point.pointIndex[0] * step,
      col: origin[1] + point.pointIndex[1] * step,
    });
  };

  const attach = () => {
    for (const [key, chart] of Object.entries(data.charts)) {
      for (const plot of document.querySelectorAll(`.st-key-${key} .js-plotly-plot`)) {
        if (plot.dataset.clicks === "on" || typeof plot.on !== "function") continue;
        plot.dataset.clicks = "on";
        plot.on("plotly_click", onClick(chart));
      }
    }
    for (const plot of document.querySelectorAll(".js-plotly-plot")) {
      const meta = plot.layout && plot.layout.meta;
      if (plot.dataset.hover === "on" || typeof plot.on !== "function" || !meta || !meta[keys.syncHover]) continue;
      plot.dataset.hover = "on";
      if (getComputedStyle(plot).position === "static") plot.style.position = "relative";
      plot.on("plotly_hover", onHover(plot));
      plot.on("plotly_unhover", () => clearOutline(plot));
    }
  };
  attach();
  const observer = new MutationObserver(attach);
  observer.observe(document.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}
