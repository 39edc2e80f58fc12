// Route geometry of the live board: the car spaces of every route, in board pixels.
//
// A port of render/_layout.py (route_shape, _quad, _at, _car) with its constants, so
// the page draws each route exactly where the PNG draws it: the route runs from city a
// to city b, shifted sideways by `lane` track widths (double routes), bent through a
// midpoint `bend` pixels off the straight line (a quadratic curve sampled at 49
// points), and cut into `length` car spaces that stretch to meet both cities.
// Keep the two in step: tests/web/test_geometry.py compares them on every map.

export const CAR_LENGTH_MAX = 120.0;
export const CAR_WIDTH = 12.0;
export const CAR_GAP = 3.0;
export const CITY_MARGIN = 11.0;

function quad(p0, p1, p2, t) {
  // p1 is the curve's midpoint; the control point that passes through it is 2*p1 - (p0+p2)/2
  const u = 1 - t;
  const cx = 2 * p1[0] - (p0[0] + p2[0]) / 2;
  const cy = 2 * p1[1] - (p0[1] + p2[1]) / 2;
  return [u * u * p0[0] + 2 * u * t * cx + t * t * p2[0], u * u * p0[1] + 2 * u * t * cy + t * t * p2[1]];
}

function at(path, cum, s) {
  for (let i = 1; i < cum.length; i++) {
    if (cum[i] >= s || i === cum.length - 1) {
      const seg = cum[i] - cum[i - 1] || 1.0;
      const f = (s - cum[i - 1]) / seg;
      const p = path[i - 1];
      const q = path[i];
      return [[p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f], Math.atan2(q[1] - p[1], q[0] - p[0])];
    }
  }
  return [path[path.length - 1], 0.0];
}

function corners(c, angle, length, width) {
  const ca = Math.cos(angle);
  const sa = Math.sin(angle);
  const hl = length / 2;
  const hw = width / 2;
  return [[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw]].map(([x, y]) => [c[0] + ca * x - sa * y, c[1] + sa * x + ca * y]);
}

/**
 * The drawn form of a route between the points a and b ([x, y], y down).
 * @returns {{cars: {centre: number[], angle: number, length: number, corners: number[][]}[], path: number[][]}}
 */
export function routeShape(length, a, b, lane, bend) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const d = Math.hypot(dx, dy) || 1.0;
  const nx = -dy / d;
  const ny = dx / d;
  const off = lane * (CAR_WIDTH + 3.0);
  const a2 = [a[0] + nx * off, a[1] + ny * off];
  const b2 = [b[0] + nx * off, b[1] + ny * off];
  const mid = [(a2[0] + b2[0]) / 2 + nx * bend, (a2[1] + b2[1]) / 2 + ny * bend];
  const path = [];
  for (let i = 0; i < 49; i++) path.push(quad(a2, mid, b2, i / 48));
  const cum = [0.0];
  for (let i = 1; i < path.length; i++) {
    cum.push(cum[i - 1] + Math.hypot(path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1]));
  }
  const total = cum[cum.length - 1];
  const n = length;
  const usable = Math.max(total - 2 * CITY_MARGIN, n * 6.0);
  const car = Math.min(CAR_LENGTH_MAX, (usable - CAR_GAP * (n - 1)) / n);
  const run = n * car + (n - 1) * CAR_GAP;
  const start = (total - run) / 2;
  const cars = [];
  for (let i = 0; i < n; i++) {
    const s = start + i * (car + CAR_GAP) + car / 2;
    const [centre, angle] = at(path, cum, s);
    cars.push({ centre, angle, length: car, corners: corners(centre, angle, car, CAR_WIDTH) });
  }
  return { cars, path };
}
