// Loaded by ui/chart_clicks.py as a Streamlit component (no frame, no user text).
// Clicking a heatmap cell in one of the named charts sends which chart, which head (the
// trace's meta.head), which block (meta.block, where a chart shows several blocks) and
// which cell (row = query, column = key) to the page's next run.
// Plotly sends heatmap clicks as plotly_click events (not as selections, which
// st.plotly_chart(on_select=...) would need), so the listeners are attached here, to each
// chart as it appears (a rerun may replace a chart's element).
export default function ({ setTriggerValue, data }) {
  const attach = () => {
    for (const [key, chart] of Object.entries(data.charts)) {
      for (const plot of document.querySelectorAll(`.st-key-${key} .js-plotly-plot`)) {
        if (plot.dataset.clicks === "on" || typeof plot.on !== "function") continue;
        plot.dataset.clicks = "on";
        plot.on("plotly_click", (event) => {
          const point = event && event.points && event.points[0];
          if (!point || !Array.isArray(point.pointIndex)) return;
          const meta = (point.data && point.data.meta) || {};
          setTriggerValue("clicked", {
            chart,
            head: Number.isInteger(meta.head) ? meta.head : null,
            block: Number.isInteger(meta.block) ? meta.block : null,
            row: point.pointIndex[0],
            col: point.pointIndex[1],
          });
        });
      }
    }
  };
  attach();
  const observer = new MutationObserver(attach);
  observer.observe(document.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}
