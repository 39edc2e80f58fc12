// Pan and zoom of the board: one finger or the mouse drags, two fingers pinch, the wheel
// zooms at the cursor, a double tap zooms in, within limits (the whole board .. 8 times
// it). City names keep their screen size (font scaled by 1/zoom) and declutter: a name
// that would cover another one is moved to another side of its dot or hidden, and at
// high zoom every name shows.

const LABEL_PX = 13;
const TAP_SLOP = 8;
const DOUBLE_TAP_MS = 320;
const MAX_ZOOM = 8;
const SHOW_ALL_ZOOM = 3;
const SIDES = {
  e: [1, 0, "start"], ne: [0.7, -0.7, "start"], n: [0, -1, "middle"], nw: [-0.7, -0.7, "end"],
  w: [-1, 0, "end"], sw: [-0.7, 0.7, "end"], s: [0, 1, "middle"], se: [0.7, 0.7, "start"],
};
const SIDE_ORDER = ["e", "w", "n", "s", "ne", "se", "nw", "sw"];

export class BoardView {
  /**
   * @param {SVGSVGElement} svg the board element (fills its container)
   * @param {SVGGElement} viewport the group that carries the pan/zoom transform
   * @param {object} map the map payload (size, cities)
   * @param {Map<string, SVGTextElement>} labels city id -> name text
   * @param {(target: Element, x: number, y: number) => void} onTap a tap or click that did not move
   */
  constructor(svg, viewport, map, labels, onTap) {
    this.svg = svg;
    this.viewport = viewport;
    this.map = map;
    this.labels = labels;
    this.onTap = onTap;
    this.k = 1;
    this.tx = 0;
    this.ty = 0;
    this.fitK = 1;
    this.pointers = new Map();
    this.gesture = null;
    this.lastTap = null;
    this.widths = new Map();
    this.frame = 0;
    this.order = this.priority();
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    svg.addEventListener("pointerup", (e) => this.up(e));
    svg.addEventListener("pointercancel", (e) => this.cancel(e));
    svg.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    new ResizeObserver(() => this.fit(true)).observe(svg);
  }

  /** Busy cities first: they keep their names when names collide. */
  priority() {
    const degree = new Map();
    for (const r of this.map.routes) {
      degree.set(r.a, (degree.get(r.a) || 0) + 1);
      degree.set(r.b, (degree.get(r.b) || 0) + 1);
    }
    return this.map.cities.map((c) => c.id).sort((a, b) => (degree.get(b) || 0) - (degree.get(a) || 0));
  }

  /** Show the whole board (`keep`: only when the zoom was still the fitted one). */
  fit(keep = false) {
    const rect = this.svg.getBoundingClientRect();
    if (!rect.width || !rect.height) return;
    const [w, h] = this.map.size;
    const wasFit = Math.abs(this.k - this.fitK) < 1e-6;
    this.fitK = Math.min(rect.width / w, rect.height / h);
    if (keep && !wasFit) {
      this.apply();
      return;
    }
    this.k = this.fitK;
    this.tx = (rect.width - w * this.k) / 2;
    this.ty = (rect.height - h * this.k) / 2;
    this.apply();
  }

  /** The zoom relative to the whole board (1 = fitted). */
  get zoom() {
    return this.k / this.fitK;
  }

  /** Zoom by `factor` keeping the screen point (x, y) (relative to the board element) still. */
  zoomAt(factor, x, y) {
    const k = Math.min(this.fitK * MAX_ZOOM, Math.max(this.fitK, this.k * factor));
    const f = k / this.k;
    this.tx = x - (x - this.tx) * f;
    this.ty = y - (y - this.ty) * f;
    this.k = k;
    this.apply();
  }

  /** Zoom by `factor` around the middle of the board element. */
  zoomCentre(factor) {
    const rect = this.svg.getBoundingClientRect();
    this.zoomAt(factor, rect.width / 2, rect.height / 2);
  }

  clamp() {
    const rect = this.svg.getBoundingClientRect();
    const [w, h] = this.map.size;
    const bw = w * this.k;
    const bh = h * this.k;
    const clampAxis = (t, box, view) => (box <= view ? (view - box) / 2 : Math.min(0, Math.max(view - box, t)));
    this.tx = clampAxis(this.tx, bw, rect.width);
    this.ty = clampAxis(this.ty, bh, rect.height);
  }

  apply() {
    this.clamp();
    this.viewport.setAttribute("transform", `translate(${this.tx.toFixed(2)} ${this.ty.toFixed(2)}) scale(${this.k.toFixed(5)})`);
    this.svg.dataset.zoom = this.zoom.toFixed(3);
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.layoutLabels();
      });
    }
  }

  local(e) {
    const rect = this.svg.getBoundingClientRect();
    return [e.clientX - rect.left, e.clientY - rect.top];
  }

  down(e) {
    const [x, y] = this.local(e);
    this.pointers.set(e.pointerId, { x, y, x0: x, y0: y, target: e.target });
    this.svg.setPointerCapture?.(e.pointerId);
    if (this.pointers.size === 2) {
      const [p, q] = [...this.pointers.values()];
      this.gesture = { kind: "pinch", dist: Math.hypot(p.x - q.x, p.y - q.y) || 1, mx: (p.x + q.x) / 2, my: (p.y + q.y) / 2, moved: true };
    } else if (this.pointers.size === 1) {
      this.gesture = { kind: "pan", moved: false };
    }
  }

  move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    const [x, y] = this.local(e);
    const dx = x - p.x;
    const dy = y - p.y;
    p.x = x;
    p.y = y;
    if (!this.gesture) return;
    if (this.gesture.kind === "pinch" && this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const dist = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const mx = (a.x + b.x) / 2;
      const my = (a.y + b.y) / 2;
      this.tx += mx - this.gesture.mx;
      this.ty += my - this.gesture.my;
      this.zoomAt(dist / this.gesture.dist, mx, my);
      this.gesture.dist = dist;
      this.gesture.mx = mx;
      this.gesture.my = my;
    } else if (this.gesture.kind === "pan") {
      if (Math.hypot(x - p.x0, y - p.y0) > TAP_SLOP) this.gesture.moved = true;
      if (this.gesture.moved) {
        this.tx += dx;
        this.ty += dy;
        this.apply();
      }
    }
  }

  up(e) {
    const p = this.pointers.get(e.pointerId);
    this.pointers.delete(e.pointerId);
    if (!p || !this.gesture) return;
    const gesture = this.gesture;
    if (this.pointers.size === 0) this.gesture = null;
    if (gesture.kind !== "pan" || gesture.moved) return;
    const now = performance.now();
    const [x, y] = [p.x, p.y];
    if (this.lastTap && now - this.lastTap.t < DOUBLE_TAP_MS && Math.hypot(x - this.lastTap.x, y - this.lastTap.y) < 30) {
      this.lastTap = null;
      this.zoomAt(2, x, y);
      return;
    }
    this.lastTap = { t: now, x, y };
    this.onTap(p.target, x, y);
  }

  cancel(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 0) this.gesture = null;
  }

  wheel(e) {
    e.preventDefault();
    const [x, y] = this.local(e);
    this.zoomAt(Math.exp(-e.deltaY * 0.0015), x, y);
  }

  /** Place every city name at a constant screen size; hide the ones that would collide. */
  layoutLabels() {
    const size = LABEL_PX / this.k;
    const showAll = this.zoom >= SHOW_ALL_ZOOM;
    const taken = [];
    const rect = this.svg.getBoundingClientRect();
    const view = [0, 0, rect.width, rect.height];
    const cities = new Map(this.map.cities.map((c) => [c.id, c]));
    for (const c of this.map.cities) {
      const r = 8 * this.k;
      const sx = this.tx + c.x * this.k;
      const sy = this.ty + c.y * this.k;
      taken.push([sx - r, sy - r, sx + r, sy + r]);
    }
    for (const id of this.order) {
      const label = this.labels.get(id);
      const city = cities.get(id);
      if (!label || !city) continue;
      label.setAttribute("font-size", size.toFixed(3));
      if (!this.widths.has(id)) this.widths.set(id, label.getComputedTextLength() / size || city.name.length * 0.6);
      const wpx = this.widths.get(id) * LABEL_PX;
      const hpx = LABEL_PX * 1.1;
      const sides = city.label && SIDES[city.label] ? [city.label, ...SIDE_ORDER.filter((s) => s !== city.label)] : SIDE_ORDER;
      let chosen = null;
      let spare = null;
      for (const side of sides) {
        const box = this.box(city, side, wpx, hpx);
        if (taken.some((t) => overlaps(t, box))) continue;
        if (inside(box, view)) {
          chosen = [side, box];
          break;
        }
        spare = spare || [side, box];
      }
      chosen = chosen || spare;
      if (!chosen && showAll) chosen = [sides[0], this.box(city, sides[0], wpx, hpx)];
      if (!chosen) {
        label.classList.add("hidden");
        continue;
      }
      const [side, box] = chosen;
      taken.push(box);
      const anchor = SIDES[side][2];
      const ax = anchor === "start" ? box[0] : anchor === "end" ? box[2] : (box[0] + box[2]) / 2;
      label.classList.remove("hidden");
      label.setAttribute("text-anchor", anchor);
      label.setAttribute("x", ((ax - this.tx) / this.k).toFixed(2));
      label.setAttribute("y", (((box[1] + box[3]) / 2 - this.ty) / this.k).toFixed(2));
      label.dataset.side = side;
    }
  }

  box(city, side, w, h) {
    const [dx, dy, anchor] = SIDES[side];
    const gap = 7 * this.k + 4;
    const cx = this.tx + city.x * this.k + dx * gap;
    const cy = this.ty + city.y * this.k + dy * (gap + h / 2 - 2);
    const x0 = anchor === "start" ? cx : anchor === "end" ? cx - w : cx - w / 2;
    return [x0, cy - h / 2, x0 + w, cy + h / 2];
  }
}

function inside(box, view) {
  return box[0] >= view[0] && box[1] >= view[1] && box[2] <= view[2] && box[3] <= view[3];
}

function overlaps(a, b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}
