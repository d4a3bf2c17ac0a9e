// A long text's window: the page's charts show WINDOW × WINDOW cells of a T × T matrix (queries
// from q0, keys from k0), and a map shows the whole matrix in blocks (each block its largest
// value), the window outlined, as the app does (figures/window.py). Pure arithmetic: the page's
// script (page.js) draws.
var seeingAttentionWindow = (function () {
  "use strict";
  var WINDOW = 48;  // cells a side: each label and cell legible in a 300-px chart
  var MAP_BLOCKS = 32;  // the map's blocks a side, at most

  function size(T) { return Math.min(T, WINDOW); }
  function clampStart(start, T) { return Math.max(0, Math.min(T - size(T), Math.round(start))); }
  // The window holding (row, col): unchanged when it holds it already, else centred on it.
  function holding(win, row, col, T) {
    var n = size(T);
    return {
      q0: row >= win.q0 && row < win.q0 + n ? win.q0 : clampStart(row - n / 2, T),
      k0: col >= win.k0 && col < win.k0 + n ? win.k0 : clampStart(col - n / 2, T),
    };
  }
  // The whole matrix in blocks of b tokens: each block's largest finite value (null: all −∞),
  // with the block's centre on either axis, in tokens.
  function blocks(value, T) {
    var b = Math.ceil(T / MAP_BLOCKS), n = Math.ceil(T / b);
    var z = [], centres = [];
    for (var i = 0; i < n; i++) centres.push(i * b + (Math.min(b, T - i * b) - 1) / 2);
    for (var bi = 0; bi < n; bi++) {
      var line = [];
      for (var bj = 0; bj < n; bj++) {
        var best = null;
        for (var r = bi * b; r < Math.min(T, bi * b + b); r++) {
          for (var c = bj * b; c < Math.min(T, bj * b + b); c++) {
            var v = value(r, c);
            if (isFinite(v) && (best === null || v > best)) best = v;
          }
        }
        line.push(best);
      }
      z.push(line);
    }
    return { z: z, centres: centres, size: b };
  }
  return { WINDOW: WINDOW, size: size, clampStart: clampStart, holding: holding, blocks: blocks };
})();
