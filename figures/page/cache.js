(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("sa-data").textContent);
  var words = data.words;
  var CONFIG = { displaylogo: false, responsive: true };
  var state = { step: data.step || 0, layer: 0 };

  function byId(id) { return document.getElementById(id); }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }
  function say(id, text) { byId(id).textContent = text; }

  // In a notebook's frame: the frame takes the page's height (nothing scrolls inside it).
  function fitFrame() {
    var frame = null;
    try { frame = window.frameElement; } catch (error) { frame = null; }
    if (frame) frame.style.height = Math.ceil(document.body.getBoundingClientRect().height) + "px";
  }
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(fitFrame).observe(document.body);

  function draw(div, figure) {
    if (!window.Plotly) { div.textContent = words.no_plotly; return; }
    Plotly.react(div, figure.data, figure.layout, CONFIG);
  }

  function show() {
    var step = data.steps[state.step];
    var entry = step.layers[state.layer];
    var shape = entry.cacheShape;
    say("sa-shown", fill(words.shown, {
      step: state.step + 1, steps: data.steps.length, position: step.position, query: step.query, token: step.token,
    }));
    say("sa-cache", fill(words.cache, {
      h_kv: shape[0], t: shape[1], d: shape[2], bytes: entry.cacheBytes.toLocaleString("en-US"),
    }));
    byId("sa-step").value = String(state.step);
    byId("sa-previous").disabled = state.step === 0;
    byId("sa-next").disabled = state.step === data.steps.length - 1;
    byId("sa-layer").value = String(state.layer);
    draw(byId("sa-rows"), entry.rows);
    draw(byId("sa-matrix"), entry.matrix);
    window.seeingAttention.state = { step: state.step, layer: state.layer };
  }

  function choose(step, layer) {
    state.step = Math.max(0, Math.min(data.steps.length - 1, step));
    state.layer = Math.max(0, Math.min(data.layers.length - 1, layer));
    show();
  }

  say("sa-heading", data.title);
  say("sa-lead", words.lead);
  if (words.bound) { byId("sa-bound").hidden = false; say("sa-bound", words.bound); }
  say("sa-previous", words.previous);
  say("sa-next", words.next);
  say("sa-layer-label", words.layer);
  say("sa-made-heading", words.made);
  say("sa-offline", words.offline);
  byId("sa-step").max = String(data.steps.length - 1);
  byId("sa-step").setAttribute("aria-label", words.step);
  data.layers.forEach(function (name, index) {
    var option = document.createElement("option");
    option.value = String(index);
    option.textContent = name;
    byId("sa-layer").appendChild(option);
  });
  data.made.forEach(function (pair) {
    var dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = pair[0];
    dd.textContent = pair[1];
    byId("sa-made").appendChild(dt);
    byId("sa-made").appendChild(dd);
  });
  byId("sa-previous").addEventListener("click", function () { choose(state.step - 1, state.layer); });
  byId("sa-next").addEventListener("click", function () { choose(state.step + 1, state.layer); });
  byId("sa-step").addEventListener("input", function (event) { choose(Number(event.target.value), state.layer); });
  byId("sa-layer").addEventListener("change", function (event) { choose(state.step, Number(event.target.value)); });
  window.seeingAttention = { choose: choose, steps: data.steps.length, state: null, ready: false };
  show();
  window.seeingAttention.ready = true;
})();
