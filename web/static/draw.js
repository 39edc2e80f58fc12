// The board as SVG: background, routes, cities, labels (drawn once per map), then the
// state's claims, stations and the last move on top (redrawn on every state).
// Colours, symbols and marks follow the PNG (render/_board.py): a route is its car spaces
// in its colour with the colour's symbol, a tunnel has dashed outlines, a ferry's
// locomotive spaces carry a rainbow dot; a claimed route is re-drawn in the seat's colour,
// cased in white, with the seat's symbol on every space.

import { routeShape } from "./geometry.js";
import { inkOn, pointsAttr, seatSymbol, svgEl } from "./svg.js";

const INK = "#1c1c1e";
const PAPER = "#faf8f2";
const OUTLINE = "#3c3c3c";
const SEA = "#b2d0e2";
const LAND = "#eee8d6";
const FOREIGN = "#dedbd2";
const BORDER = "#aaa08c";
const CITY_BG = "#ece7dc";
const RAINBOW = ["#d62828", "#ee8014", "#f0c400", "#2e9642", "#2068cc", "#8648aa"];

function polys(value) {
  return (value || [])
    .map((item) => (Array.isArray(item) ? item : item && item.points))
    .filter((pts) => Array.isArray(pts) && pts.length >= 2);
}

function background(layer, map) {
  const bg = map.background || {};
  const [w, h] = map.size;
  const style = bg.style || "none";
  const ground = style === "geo" ? SEA : style === "city" ? CITY_BG : LAND;
  svgEl("rect", { x: 0, y: 0, width: w, height: h, fill: ground }, layer);
  for (const [key, colour] of [["land", LAND], ["foreign", FOREIGN], ["lakes", SEA]]) {
    for (const pts of polys(bg[key])) {
      if (pts.length >= 3) svgEl("polygon", { points: pointsAttr(pts), fill: colour }, layer);
    }
  }
  for (const item of bg.rivers || []) {
    const width = item && !Array.isArray(item) ? Number(item.width || 6) : 6;
    for (const pts of polys([item])) {
      svgEl("polyline", { points: pointsAttr(pts), fill: "none", stroke: SEA, "stroke-width": width, "stroke-linejoin": "round" }, layer);
    }
  }
  for (const pts of polys(bg.borders)) {
    svgEl("polyline", { points: pointsAttr(pts), fill: "none", stroke: BORDER, "stroke-width": 1.2 }, layer);
  }
}

function ferryMark(car, parent) {
  // render/_draw.py locomotive_mark: a rainbow-ringed dot
  const [x, y] = car.centre;
  const r = 4.2;
  RAINBOW.forEach((colour, i) => {
    const a0 = (i * 60 * Math.PI) / 180;
    const a1 = ((i + 1) * 60 * Math.PI) / 180;
    const d = `M${x},${y} L${x + r * Math.cos(a0)},${y + r * Math.sin(a0)} A${r},${r} 0 0 1 ${x + r * Math.cos(a1)},${y + r * Math.sin(a1)} Z`;
    svgEl("path", { d, fill: colour }, parent);
  });
  svgEl("circle", { cx: x, cy: y, r: r * 0.45, fill: PAPER }, parent);
}

function colourSymbol(route, shape, colour, parent) {
  if (!colour || !colour.symbol || route.colour === "gray") return;
  const car = shape.cars[Math.floor(shape.cars.length / 2)];
  const [x, y] = car.centre;
  const text = svgEl("text", { x, y, class: "route-symbol", fill: inkOn(colour.hex), "text-anchor": "middle", "dominant-baseline": "central" }, parent);
  text.textContent = colour.symbol;
}

/**
 * Draw the map once into the SVG group `root`.
 * @returns {{routes: Map<string, {data: object, shape: object, group: SVGGElement}>, cities: Map<string, object>,
 *            labels: Map<string, SVGTextElement>, layers: object}}
 */
export function drawMap(root, map) {
  const layers = {};
  for (const name of ["background", "routes", "claims", "highlight", "cities", "stations", "labels"]) {
    layers[name] = svgEl("g", { class: `layer layer-${name}` }, root);
  }
  background(layers.background, map);
  const cities = new Map(map.cities.map((c) => [c.id, c]));
  const routes = new Map();
  for (const route of map.routes) {
    const a = cities.get(route.a);
    const b = cities.get(route.b);
    const shape = routeShape(route.length, [a.x, a.y], [b.x, b.y], route.lane || 0, route.bend || 0);
    const colour = map.colours[route.colour] || map.colours.gray || { hex: "#a8a8a8" };
    const group = svgEl("g", { class: "route", "data-route": route.id, "data-colour": route.colour, tabindex: -1 }, layers.routes);
    if (route.tunnel) group.classList.add("tunnel");
    shape.cars.forEach((car, i) => {
      svgEl("polygon", { class: "car", points: pointsAttr(car.corners), fill: colour.hex, stroke: route.tunnel ? INK : OUTLINE }, group);
      if (i < (route.ferry || 0)) ferryMark(car, group);
    });
    colourSymbol(route, shape, colour, group);
    routes.set(route.id, { data: route, shape, group });
  }
  const labels = new Map();
  for (const city of map.cities) {
    const g = svgEl("g", { class: `city city-${city.kind || "city"}`, "data-city": city.id }, layers.cities);
    if (city.kind === "country") {
      svgEl("rect", { x: city.x - 8, y: city.y - 8, width: 16, height: 16, rx: 3, fill: "#d6d0c4", stroke: INK, "stroke-width": 2 }, g);
    } else {
      svgEl("circle", { cx: city.x, cy: city.y, r: 7, fill: PAPER, stroke: INK, "stroke-width": 2 }, g);
    }
    const label = svgEl("text", { class: "label", "data-city": city.id, x: city.x, y: city.y }, layers.labels);
    label.textContent = city.name;
    labels.set(city.id, label);
  }
  return { routes, cities, labels, layers };
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** Draw the claims and stations of `state` over the map (seat colours from `map.seat_colours`). */
export function drawState(board, map, state) {
  const { layers, routes, cities } = board;
  clear(layers.claims);
  clear(layers.stations);
  for (const { group } of routes.values()) {
    group.classList.remove("claimed", "last");
    group.removeAttribute("data-owner");
  }
  const seatColour = (seat) => {
    const info = (state.seats || []).find((x) => x.seat === seat);
    const index = info ? info.colour : seat;
    return map.seat_colours[index % map.seat_colours.length];
  };
  const lastRoutes = new Set(state.last_move ? state.last_move.routes || [] : []);
  for (const claim of state.claims || []) {
    const route = routes.get(claim.route);
    if (!route) continue;
    const colour = seatColour(claim.seat);
    route.group.classList.add("claimed");
    route.group.setAttribute("data-owner", claim.seat);
    const g = svgEl("g", { class: "claim", "data-route": claim.route, "data-seat": claim.seat }, layers.claims);
    if (lastRoutes.has(claim.route)) {
      g.classList.add("last");
      route.group.classList.add("last");
    }
    for (const car of route.shape.cars) {
      svgEl("polygon", { class: "claim-case", points: pointsAttr(car.corners), fill: "none", stroke: PAPER }, g);
      svgEl("polygon", { class: "claim-car", points: pointsAttr(car.corners), fill: colour.hex, stroke: INK }, g);
      seatSymbol(claim.seat, car.centre[0], car.centre[1], 3.6, inkOn(colour.hex), g);
    }
  }
  const lastCities = new Set(state.last_move ? state.last_move.cities || [] : []);
  for (const station of state.stations || []) {
    const city = cities.get(station.city);
    if (!city) continue;
    const colour = seatColour(station.seat);
    const g = svgEl("g", { class: "station", "data-city": station.city, "data-seat": station.seat }, layers.stations);
    if (lastCities.has(station.city)) g.classList.add("last");
    const x = city.x;
    const y = city.y - 16;
    const house = [[x - 7, y + 7], [x - 7, y - 2], [x, y - 9], [x + 7, y - 2], [x + 7, y + 7]];
    svgEl("polygon", { points: pointsAttr(house), fill: colour.hex, stroke: INK, "stroke-width": 1.5 }, g);
    seatSymbol(station.seat, x, y + 1, 3.4, inkOn(colour.hex), g);
  }
}

/** Mark the routes `ids` (and trace `path` as one line) in the highlight layer; empty: clear it. */
export function highlight(board, ids = [], path = [], kind = "plan") {
  const layer = board.layers.highlight;
  clear(layer);
  for (const id of ids) {
    const route = board.routes.get(id);
    if (!route) continue;
    const g = svgEl("g", { class: `highlight highlight-${kind}`, "data-route": id }, layer);
    for (const car of route.shape.cars) svgEl("polygon", { points: pointsAttr(car.corners) }, g);
  }
  for (const id of path) {
    const route = board.routes.get(id);
    if (!route) continue;
    svgEl("polyline", { class: "trace", "data-route": id, points: pointsAttr(route.shape.path) }, layer);
  }
}
