// The page that works offline from one file: every head's stages from the numbers embedded
// in the element #sa-data, drawn with the Plotly inlined above. Text from the data reaches the
// page only as textContent, and Plotly's labels only escaped (Plotly parses tags in labels).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("sa-data").textContent);
  var W = data.words;
  var T = data.tokens.length;
  var ACCENT = "#0b7a3e";
  var state = { layer: 0, stage: data.stage, head: data.head, row: data.row, col: data.col };

  // In a notebook's frame: the frame takes the page's height (nothing scrolls inside it).
  function fitFrame() {
    var frame = null;
    try { frame = window.frameElement; } catch (error) { frame = null; }
    if (frame) frame.style.height = Math.ceil(document.body.getBoundingClientRect().height) + "px";
  }
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(fitFrame).observe(document.body);
  if (!window.Plotly) {  // a notebook's frame whose notebook no longer holds Plotly's script
    document.getElementById("sa-heading").textContent = data.title;
    document.getElementById("sa-lead").textContent = W.no_plotly;
    fitFrame();
    return;
  }

  function decode(b64) {
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Float32Array(bytes.buffer);
  }
  var layers = data.layers.map(function (layer) {
    var stages = {};
    Object.keys(layer.stages).forEach(function (name) { stages[name] = decode(layer.stages[name]); });
    return { name: layer.name, heads: layer.heads, stages: stages };
  });

  function escapeLabel(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  // Visible labels (a space is ␣, as in the app), each with its position.
  var shown = data.labels || data.tokens;
  var labels = shown.map(function (token, i) { return i + " · " + escapeLabel(token); });
  // The charts show a window of the matrix: all of it up to WINDOW tokens, else WINDOW × WINDOW
  // cells from (q0, k0), moved with the map of the whole text or along the diagonal.
  var WIN = seeingAttentionWindow, N = WIN.size(T);
  var win = { q0: 0, k0: 0 };
  function span(start) { var out = []; for (var i = start; i < start + N; i++) out.push(i); return out; }

  function value(layer, stage, head, row, col) {
    return layers[layer].stages[stage][(head * T + row) * T + col];
  }
  function matrix(layer, stage, head) {
    var z = [];
    for (var r = win.q0; r < win.q0 + N; r++) {
      var line = [];
      for (var c = win.k0; c < win.k0 + N; c++) {
        var v = value(layer, stage, head, r, c);
        line.push(isFinite(v) ? v : null);
      }
      z.push(line);
    }
    return z;
  }
  function fmt(v, digits) {
    if (v === -Infinity) return "−∞";
    if (!isFinite(v)) return "NaN";
    return Number(v.toPrecision(digits)).toString();
  }
  function hoverData(layer, stage, head) {
    var out = [];
    for (var r = win.q0; r < win.q0 + N; r++) {
      var line = [];
      for (var c = win.k0; c < win.k0 + N; c++) {
        var v = value(layer, stage, head, r, c);
        line.push([labels[r], labels[c], v === -Infinity ? W.masked : fmt(v, 4)]);
      }
      out.push(line);
    }
    return out;
  }

  // The app's colours (figures/palette.py): weights white to blue from 0 to 1; scores on a
  // diverging scale with white at 0, positive red, centred on the largest |score| of the head
  // (the scaled and masked scores share one range: a kept cell keeps its colour when masked).
  function scoreLimit(layer, stage, head) {
    var shared = stage === "scores" ? ["scores"] : ["scaled_scores", "masked_scores"];
    var limit = 0;
    shared.forEach(function (name) {
      if (!layers[layer].stages[name]) return;
      for (var r = 0; r < T; r++) for (var c = 0; c < T; c++) {
        var v = value(layer, name, head, r, c);
        if (isFinite(v) && Math.abs(v) > limit) limit = Math.abs(v);
      }
    });
    return limit || 1;
  }
  function trace(layer, stage, head) {
    var weights = stage === "weights";
    var limit = weights ? 1 : scoreLimit(layer, stage, head);
    return {
      type: "heatmap", z: matrix(layer, stage, head), x: span(win.k0), y: span(win.q0),
      customdata: hoverData(layer, stage, head), hoverongaps: true,
      hovertemplate: escapeLabel(W.query) + " %{customdata[0]}<br>" + escapeLabel(W.key) +
        " %{customdata[1]}<br>" + escapeLabel(W.value) + " %{customdata[2]}<extra></extra>",
      colorscale: weights ? data.colors.weights : data.colors.scores,
      zmin: weights ? 0 : -limit, zmax: limit,
      colorbar: { thickness: 10, len: 0.9 },
    };
  }
  function outline(head) {
    if (state.row === null || state.col === null || head !== state.head) return [];
    return [{ type: "rect", xref: "x", yref: "y", x0: state.col - 0.5, x1: state.col + 0.5,
      y0: state.row - 0.5, y1: state.row + 0.5, line: { color: ACCENT, width: 3 } }];
  }
  // Token labels thinned to those that fit: every step-th position, the step a round number
  // that leaves each label room (a label is as tall as its font; a key's label is written
  // upright when it is wider than its room). The panel's title sits under the modebar.
  var FONT = 11, TITLE_TOP = 58, PLOT_PX = 200, MAX_LABEL = 10;
  var STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];
  function step(axisPx, labelPx) {
    for (var i = 0; i < STEPS.length; i++) if (STEPS[i] * axisPx / N >= labelPx) return STEPS[i];
    return Math.ceil(N / 2);
  }
  function cut(label) { return label.length > MAX_LABEL ? label.slice(0, MAX_LABEL - 1) + "…" : label; }
  function textPx(label) {
    var px = 0;
    for (var i = 0; i < label.length; i++) px += label.charCodeAt(i) > 0x2e7f ? FONT : FONT * 0.62;
    return px;
  }
  function ticks(every, start) {  // the window's positions that are multiples of every
    var vals = [], text = [];
    for (var i = Math.ceil(start / every) * every; i < start + N; i += every) { vals.push(i); text.push(cut(labels[i])); }
    return { tickvals: vals, ticktext: text };
  }
  function layout(title, head, widthPx) {
    var yTicks = ticks(step(PLOT_PX, FONT + 4), win.q0);
    var leftPx = Math.max.apply(null, yTicks.ticktext.map(textPx)) + 30;
    var plotWidth = Math.max(60, widthPx - leftPx - 60);
    var wide = Math.max.apply(null, ticks(1, win.k0).ticktext.map(textPx)) + 8;
    var flat = step(plotWidth, wide), tall = step(plotWidth, FONT + 4);
    var upright = flat > 2 * tall;  // written upright when lying flat would leave out many more
    var xTicks = ticks(upright ? tall : flat, win.k0);
    var bottomPx = (upright ? Math.max.apply(null, xTicks.ticktext.map(textPx)) : FONT) + 34;
    function axis(ticked, name) {
      return Object.assign({ tickmode: "array", showgrid: false, zeroline: false, tickfont: { size: FONT },
        title: { text: escapeLabel(name), font: { size: FONT } } }, ticked);
    }
    return {
      title: { text: escapeLabel(title), font: { size: 14 }, x: 0, xref: "paper", xanchor: "left",
        y: 1, yref: "paper", yanchor: "bottom", pad: { b: 6 } },
      margin: { l: leftPx, r: 10, t: TITLE_TOP, b: bottomPx }, height: TITLE_TOP + PLOT_PX + bottomPx,
      plot_bgcolor: "#c8ccd4", paper_bgcolor: "#fff",
      xaxis: Object.assign(axis(xTicks, W.key), { tickangle: upright ? -90 : 0 }),
      yaxis: Object.assign(axis(yTicks, W.query), { autorange: "reversed" }),
      shapes: outline(head),
    };
  }
  var CONFIG = { displaylogo: false, responsive: true, modeBarButtonsToRemove: ["select2d", "lasso2d"] };

  function text(id, value) { document.getElementById(id).textContent = value; }
  function element(tag, className, content) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (content !== undefined) el.textContent = content;
    return el;
  }

  // The static parts, filled as text.
  text("sa-heading", data.title);
  text("sa-lead", W.lead);
  text("sa-tokens-heading", W.tokens);
  if (W.cut) { text("sa-cut", W.cut); document.getElementById("sa-cut").hidden = false; }
  var tokens = document.getElementById("sa-tokens");
  shown.forEach(function (token, i) {
    var chip = element("span", "token");
    chip.appendChild(element("span", "pos", String(i)));
    chip.appendChild(document.createTextNode(token));
    tokens.appendChild(chip);
  });
  text("sa-stage-legend", W.stage);
  var notes = (data.notes || []).join(" ");  // what the source says: the stages it lacks
  text("sa-stage-notes", notes);
  text("sa-heads-heading", W.heads);
  text("sa-masked-note", W.masked_note + " " + W.choose);
  text("sa-shapes-heading", W.shapes);
  text("sa-shapes", data.shapeTrace);
  text("sa-made-heading", W.made);
  var made = document.getElementById("sa-made");
  data.made.forEach(function (pair) {
    made.appendChild(element("dt", "", pair[0]));
    var dd = element("dd");
    dd.appendChild(element("code", "", pair[1]));
    made.appendChild(dd);
  });
  text("sa-offline", W.offline);

  var stages = document.getElementById("sa-stages");
  data.stages.forEach(function (stage) {
    var label = element("label");
    var input = element("input");
    input.type = "radio"; input.name = "stage"; input.value = stage; input.checked = stage === state.stage;
    input.addEventListener("change", function () { state.stage = stage; drawOverview(); drawMap(); });
    label.appendChild(input);
    label.appendChild(document.createTextNode(" " + data.stageTitles[stage]));
    stages.appendChild(label);
  });
  if (layers.length > 1) {
    var select = document.getElementById("sa-layer");
    select.hidden = false;
    select.setAttribute("aria-label", W.layer_choice);
    layers.forEach(function (layer, i) {
      var option = element("option", "", layer.name);
      option.value = String(i);
      select.appendChild(option);
    });
    select.addEventListener("change", function () {
      state.layer = Number(select.value);
      if (state.head >= layers[state.layer].heads) state.head = 0;
      buildOverview(); drawOverview(); drawDetail(); drawHand(); drawMap();
    });
  }

  var overview = document.getElementById("sa-heads");
  var overviewCharts = [];
  function buildOverview() {
    overview.textContent = "";
    overviewCharts = [];
    for (var h = 0; h < layers[state.layer].heads; h++) {
      var div = element("div", "chart");
      div.dataset.head = String(h);
      div.dataset.role = "overview";
      overview.appendChild(div);
      overviewCharts.push(div);
    }
  }
  // Heads are numbered from 1, as in the app.
  function headTitle(h) { return W.head.replace("{head}", String(h + 1)); }
  function drawOverview() {
    overviewCharts.forEach(function (div, h) {
      div.dataset.stage = state.stage;
      Plotly.react(div, [trace(state.layer, state.stage, h)], layout(headTitle(h), h, div.clientWidth), CONFIG);
      if (!div.dataset.bound) { bindClick(div); div.dataset.bound = "1"; }
    });
  }

  var detail = document.getElementById("sa-detail");
  var detailCharts = data.stages.map(function (stage) {
    var div = element("div", "chart");
    div.dataset.stage = stage;
    div.dataset.role = "detail";
    detail.appendChild(div);
    return div;
  });
  function drawDetail() {
    text("sa-detail-heading", W.detail.replace("{head}", String(state.head + 1)));
    detailCharts.forEach(function (div, i) {
      var stage = data.stages[i];
      div.dataset.head = String(state.head);
      Plotly.react(div, [trace(state.layer, stage, state.head)], layout(data.stageTitles[stage], state.head, div.clientWidth),
        CONFIG);
      if (!div.dataset.bound) { bindClick(div); bindHover(div); div.dataset.bound = "1"; }
    });
  }

  var hovering = false;
  function bindHover(div) {
    div.on("plotly_hover", function (event) {
      if (hovering || !event.points.length) return;
      var p = event.points[0];
      hovering = true;  // the others' hover raises no event (noHoverEvent), and this guard keeps it so
      detailCharts.forEach(function (other) {
        if (other !== div) Plotly.Fx.hover(other, { xval: p.x, yval: p.y }, "xy", true);
      });
      hovering = false;
    });
    div.on("plotly_unhover", function () {
      if (hovering) return;
      detailCharts.forEach(function (other) { if (other !== div) Plotly.Fx.unhover(other); });
    });
  }
  function bindClick(div) {
    div.on("plotly_click", function (event) {
      if (!event.points.length) return;
      var p = event.points[0];
      choose(Number(div.dataset.head), p.y, p.x);
    });
  }
  function choose(head, row, col) {
    var headChanged = head !== state.head;
    state.head = head; state.row = row; state.col = col;
    var moved = WIN.holding(win, row, col, T);
    if (moved.q0 !== win.q0 || moved.k0 !== win.k0) { moveWindow(moved.q0, moved.k0); headChanged = false; }
    else if (headChanged) drawMap();
    if (headChanged) drawDetail();
    overviewCharts.concat(detailCharts).forEach(function (div) {
      Plotly.relayout(div, { shapes: outline(Number(div.dataset.head)) });
    });
    drawHand();
  }

  function drawHand() {
    var box = document.getElementById("sa-hand");
    box.textContent = "";
    var r = state.row, h = state.head, l = state.layer;
    if (!layers[l].stages.masked_scores) { box.appendChild(element("p", "note", notes)); return; }  // no scores given
    if (state.row === null) { box.appendChild(element("p", "note", W.choose)); return; }
    box.appendChild(element("h2", "", W.softmax.replace("{head}", String(h + 1)).replace("{row}", String(r))
      .replace("{token}", shown[r])));
    var s = [], max = -Infinity;
    for (var c = 0; c < T; c++) { s.push(value(l, "masked_scores", h, r, c)); if (s[c] > max) max = s[c]; }
    var e = s.map(function (v) { return Math.exp(v - max); });
    var sum = e.reduce(function (a, b) { return a + b; }, 0);
    box.appendChild(element("p", "note", W.softmax_sum.replace("{sum}", fmt(sum, 6)).replace("{max}", fmt(max, 6))));
    var table = element("table", "hand");
    table.id = "sa-hand-table";
    var head = element("tr");
    [W.softmax_key, W.softmax_score, W.softmax_exp, W.softmax_weight, W.softmax_stored].forEach(function (name) {
      head.appendChild(element("th", "", name));
    });
    table.appendChild(head);
    for (c = 0; c < T; c++) {
      var tr = element("tr");
      if (c === state.col) tr.style.outline = "3px solid " + ACCENT;
      [c + " · " + shown[c], fmt(s[c], 6), fmt(e[c], 6), fmt(e[c] / sum, 6), fmt(value(l, "weights", h, r, c), 6)]
        .forEach(function (cell) { tr.appendChild(element("td", "", cell)); });
      table.appendChild(tr);
    }
    box.appendChild(table);
  }

  // The map of the whole text: the chosen head at the stage shown, in blocks, the window
  // outlined; a click moves the window there, the slider moves it along the diagonal.
  var mapDiv = document.getElementById("sa-map"), slide = document.getElementById("sa-slide");
  function windowNote() {
    text("sa-window-note", W.window.replace("{first}", String(win.q0)).replace("{last}", String(win.q0 + N - 1))
      .replace("{key_first}", String(win.k0)).replace("{key_last}", String(win.k0 + N - 1)).replace("{T}", String(T)));
  }
  function drawMap() {
    if (N === T) return;
    var stage = state.stage, h = state.head, l = state.layer, weights = stage === "weights";
    var map = WIN.blocks(function (r, c) { return value(l, stage, h, r, c); }, T);
    var limit = weights ? 1 : scoreLimit(l, stage, h);
    var box = { type: "rect", x0: win.k0 - 0.5, x1: win.k0 + N - 0.5, y0: win.q0 - 0.5, y1: win.q0 + N - 0.5,
      line: { color: ACCENT, width: 3 } };
    var axis = { range: [-0.5, T - 0.5], showgrid: false, zeroline: false, fixedrange: true, tickfont: { size: FONT } };
    Plotly.react(mapDiv, [{ type: "heatmap", z: map.z, x: map.centres, y: map.centres, hoverinfo: "none",
      colorscale: weights ? data.colors.weights : data.colors.scores, zmin: weights ? 0 : -limit, zmax: limit,
      showscale: false }], {
      title: { text: escapeLabel(W.map.replace("{head}", String(h + 1)).replace("{T}", String(T))),
        font: { size: 13 }, x: 0.03, xanchor: "left" },
      width: 250, height: 270, margin: { l: 52, r: 10, t: 40, b: 40 }, plot_bgcolor: "#c8ccd4",
      xaxis: Object.assign({ title: { text: escapeLabel(W.key), font: { size: FONT } } }, axis),
      yaxis: Object.assign({ title: { text: escapeLabel(W.query), font: { size: FONT } }, scaleanchor: "x" }, axis,
        { range: [T - 0.5, -0.5] }),
      shapes: [box],
    }, { displayModeBar: false, responsive: false });
    mapDiv.dataset.q0 = String(win.q0); mapDiv.dataset.k0 = String(win.k0);
    windowNote();
    slide.value = String(win.q0 === win.k0 ? win.q0 : slide.value);
  }
  function moveWindow(q0, k0) {
    win.q0 = WIN.clampStart(q0, T); win.k0 = WIN.clampStart(k0, T);
    drawOverview(); drawDetail(); drawMap();
  }
  if (N < T) {
    document.getElementById("sa-window").hidden = false;
    text("sa-slide-label", W.window_slide);
    slide.max = String(T - N);
    slide.value = "0";
    slide.addEventListener("input", function () { moveWindow(Number(slide.value), Number(slide.value)); });
  }

  buildOverview();
  drawOverview();
  drawDetail();
  drawHand();
  if (N < T) {
    drawMap();
    mapDiv.on("plotly_click", function (event) {
      if (!event.points.length) return;
      moveWindow(event.points[0].y - N / 2, event.points[0].x - N / 2);
    });
  }
  var resizing = null;  // a new width leaves room for other labels
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { drawOverview(); drawDetail(); }, 200);
  });
  if (state.row !== null) choose(state.head, state.row, state.col);
  fitFrame();
  window.seeingAttention = { state: state, choose: choose, window: win, size: N, ready: true };
})();
