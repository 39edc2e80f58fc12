// Small DOM helpers of the live board: SVG and HTML elements, and the seat symbols
// (the PNG's shapes: a port of render/_draw.py `symbol`, so colour is never the only cue).

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element `tag` with `attrs`, appended to `parent` when given. */
export function svgEl(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** An HTML element `tag` with `attrs` (`text` sets its text, `class` its class), appended to `parent`. */
export function htmlEl(tag, attrs = {}, parent = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** `template` with each `{key}` replaced by `facts[key]` (the page's words keep their placeholders). */
export function fill(template, facts = {}) {
  return String(template ?? "").replace(/\{(\w+)\}/g, (m, key) => (key in facts ? String(facts[key]) : m));
}

const SHAPES = ["circle", "triangle", "square", "diamond", "star"];

function ring(n, x, y, r, sy = 1, dy = 0) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = ((-90 + (i * 360) / n) * Math.PI) / 180;
    pts.push([x + r * Math.cos(a), y + r * sy * Math.sin(a) + dy]);
  }
  return pts;
}

/** Seat `seat`'s symbol (● ▲ ■ ◆ ★) as an SVG shape of radius `r` around (x, y). */
export function seatSymbol(seat, x, y, r, fillColour, parent = null) {
  const shape = SHAPES[seat % SHAPES.length];
  const attrs = { fill: fillColour, class: `symbol symbol-${shape}` };
  if (shape === "circle") return svgEl("circle", { cx: x, cy: y, r, ...attrs }, parent);
  if (shape === "square") {
    const q = r * 0.85;
    return svgEl("rect", { x: x - q, y: y - q, width: 2 * q, height: 2 * q, ...attrs }, parent);
  }
  let pts;
  if (shape === "triangle") pts = ring(3, x, y, r, 1.1, r * 0.15);
  else if (shape === "diamond") pts = ring(4, x, y, r, 1.1);
  else pts = ring(10, x, y, 1).map(([px, py], i) => {
    const rr = i % 2 === 0 ? r * 1.15 : r * 0.5;
    return [x + (px - x) * rr, y + (py - y) * rr];
  });
  return svgEl("polygon", { points: pts.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" "), ...attrs }, parent);
}

/** Black or white ink, whichever reads better on `hex` (render/_theme.py `text_on`). */
export function inkOn(hex) {
  const v = parseInt(String(hex).slice(1), 16);
  const r = (v >> 16) & 255;
  const g = (v >> 8) & 255;
  const b = v & 255;
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#1c1c1e" : "#faf8f2";
}

/** A points attribute of the polygon `pts`. */
export function pointsAttr(pts) {
  return pts.map((p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`).join(" ");
}
