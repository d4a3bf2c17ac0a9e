// Loaded by ui/export.py as a Streamlit component (components v2: in the page, no frame, no
// user text). A downloaded chart keeps the page's font.
//
// Plotly's download button lays the chart out again in the page, where the page's web font
// (data.family, Streamlit's Source Sans) measures every text, and writes that layout as an
// SVG: the file itself, or the picture its PNG is drawn from (an <img>, which sees none of
// the page's web fonts either). Opened on its own, the SVG fell back to another font, wider
// or taller, and its texts overlapped and were cut where the layout had left room for the
// page's. So every SVG Plotly writes for a download (the copy of the chart it lays out for
// the image: its config's _exportedPlot) gets the page's @font-face rules of data.family,
// with the font files inlined as data: URLs (the same files the page loaded, cached), in a
// <style> of its own. The page's charts are not touched.
const SVG_NS = "http://www.w3.org/2000/svg";
const DESCRIPTORS = ["font-style", "font-weight", "font-stretch", "unicode-range"];

const named = (rule) => rule.style.getPropertyValue("font-family").replace(/["']/g, "").trim();

// The @font-face rules of the page's style sheets for ``family`` (upright only: the charts
// use no italics), each with the address its font file is fetched from.
function faceRules(family) {
  const found = [];
  for (const sheet of Array.from(document.styleSheets)) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch (error) {
      continue; // another origin's sheet: not readable, and not the page's font
    }
    for (const rule of Array.from(rules)) {
      if (!(rule instanceof CSSFontFaceRule) || named(rule) !== family) continue;
      if (rule.style.getPropertyValue("font-style") === "italic") continue;
      const src = rule.style.getPropertyValue("src").match(/url\(\s*["']?([^"')]+)["']?\s*\)(\s*format\([^)]*\))?/);
      if (src) found.push({ rule, url: new URL(src[1], sheet.href || location.href).href, format: src[2] || "" });
    }
  }
  return found;
}

const asDataUrl = (blob) =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });

// The CSS of ``family``'s faces with their files inlined ("" when the page has none).
async function inlinedFaces(family) {
  const faces = await Promise.all(
    faceRules(family).map(async ({ rule, url, format }) => {
      const data = await asDataUrl(await (await fetch(url)).blob());
      const descriptors = DESCRIPTORS.map((name) => [name, rule.style.getPropertyValue(name)])
        .filter(([, value]) => value)
        .map(([name, value]) => `${name}:${value};`)
        .join("");
      return `@font-face{font-family:'${family}';${descriptors}src:url(${data})${format.replace(/"/g, "'")};}`;
    }),
  );
  return faces.join("");
}

// Plotly's drawing of a chart it lays out for an image (not a chart on the page).
function exportedPaper(node) {
  if (!(node instanceof SVGSVGElement) || !node.classList.contains("main-svg")) return false;
  const chart = node.closest(".js-plotly-plot");
  return !!(chart && chart._context && chart._context._exportedPlot);
}

// Plotly turns that drawing into the SVG's text with XMLSerializer (its snapshot/tosvg.js):
// the font goes in for that call only, as the drawing's first child.
function embedFontsInExports(state) {
  const serialize = XMLSerializer.prototype.serializeToString;
  XMLSerializer.prototype.serializeToString = function (node) {
    if (!state.css || !exportedPaper(node)) return serialize.call(this, node);
    const style = document.createElementNS(SVG_NS, "style");
    style.textContent = state.css;
    node.insertBefore(style, node.firstChild);
    try {
      return serialize.call(this, node);
    } finally {
      style.remove();
    }
  };
}

export default function ({ data }) {
  const state = (window.__chartExportFonts = window.__chartExportFonts || { css: "", family: null, hooked: false });
  if (!state.hooked) {
    embedFontsInExports(state);
    state.hooked = true;
  }
  if (state.family !== data.family) {
    state.family = data.family;
    const family = data.family;
    // After the page's first charts: the file is already in the browser's cache.
    setTimeout(() => {
      inlinedFaces(family)
        .then((css) => {
          if (state.family === family) state.css = css;
        })
        .catch(() => {}); // no font to embed: the download is as Plotly makes it
    }, 0);
  }
}
