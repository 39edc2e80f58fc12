// The live board page: loads the map and the state of the game the link's token names,
// draws the board as SVG (draw.js), lets it pan and zoom (view.js), shows the table in a
// side panel or bottom sheet (panel.js), follows the game live (live.js) and replays it
// (replay.js). Plain ES modules, no build step; every word comes from state.strings.

import { drawMap, drawState, highlight } from "./draw.js";
import { Live } from "./live.js";
import { MovePanel } from "./moves.js";
import { Panel } from "./panel.js";
import { Replay } from "./replay.js";
import { fill, htmlEl, svgEl } from "./svg.js";
import { BoardView } from "./view.js";

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message || String(response.status));
  return body;
}

class BoardPage {
  constructor(app, map, state) {
    this.app = app;
    this.map = map;
    this.state = state;
    this.s = state.strings || {};
    this.base = `/api/b/${encodeURIComponent(app.dataset.token)}`;
    this.replay = null;
    this.build();
    this.setState(state);
    this.live = new Live(this.base, () => this.state.version, (st) => this.setState(st), (down) => (this.badge.hidden = !down));
    this.live.start();
  }

  build() {
    const s = this.s;
    const app = this.app;
    app.replaceChildren();
    app.classList.add("app");
    document.title = `${s.title} – ${this.map.name}`;
    const bar = htmlEl("header", { class: "bar" }, app);
    htmlEl("h1", { text: this.map.name }, bar);
    this.badge = htmlEl("span", { class: "badge reconnecting", role: "status", hidden: true, text: s.reconnecting }, bar);
    const wrap = htmlEl("main", { class: "board-wrap" }, app);
    const svg = svgEl("svg", { class: "board", role: "img", "aria-labelledby": "board-title" }, wrap);
    svgEl("title", { id: "board-title" }, svg).textContent = fill(s.board_title, { map: this.map.name });
    const viewport = svgEl("g", { class: "viewport" }, svg);
    this.board = drawMap(viewport, this.map);
    this.view = new BoardView(svg, viewport, this.map, this.board.labels, (target) => this.tap(target));
    const zoom = htmlEl("div", { class: "zoom-buttons" }, wrap);
    for (const [text, label, act] of [
      ["+", s.zoom_in, () => this.view.zoomCentre(1.6)],
      ["−", s.zoom_out, () => this.view.zoomCentre(1 / 1.6)],
      ["⤢", s.zoom_reset, () => this.view.fit()],
    ]) {
      const button = htmlEl("button", { type: "button", class: "zoom", "aria-label": label, title: label, text }, zoom);
      button.addEventListener("click", act);
    }
    this.info = htmlEl("div", { class: "info-card", role: "dialog", hidden: true, "aria-labelledby": "info-title" }, wrap);
    const aside = htmlEl("aside", { class: "panel sheet" }, app);
    const handle = htmlEl("button", { type: "button", class: "sheet-handle", "aria-expanded": "true", "aria-label": s.sheet, title: s.sheet }, aside);
    handle.addEventListener("click", () => {
      const open = aside.classList.toggle("collapsed");
      handle.setAttribute("aria-expanded", String(!open));
    });
    this.moves = new MovePanel(htmlEl("section", { class: "moves", hidden: true }, aside), this);
    this.panelBody = htmlEl("div", { class: "panel-body" }, aside);
    this.replayBody = htmlEl("div", { class: "replay-body", hidden: true }, aside);
    this.panel = new Panel(this.panelBody, this.map, s, {
      onPlan: (ids) => highlight(this.board, ids, [], "plan"),
      onReplay: () => this.openReplay(),
    });
    this.view.fit();
  }

  /** Show `state` (a newer version, or the first) on the board and in the panel. */
  setState(state) {
    this.state = state;
    if (state.strings) this.s = Object.assign(this.s, state.strings);
    this.app.dataset.version = String(state.version);
    if (this.replay) return;
    drawState(this.board, this.map, state);
    highlight(this.board, []);
    this.panel.render(state);
    this.moves.render(state);
  }

  tap(target) {
    const hit = target && target.closest ? target.closest("[data-route]") : null;
    if (!hit) {
      this.info.hidden = true;
      return;
    }
    if (this.moves.tap(hit.getAttribute("data-route"))) {
      this.info.hidden = true;
      return;
    }
    this.showRoute(hit.getAttribute("data-route"));
  }

  /** The small card with a route's length, colour and owner. */
  showRoute(id) {
    const s = this.s;
    const route = this.board.routes.get(id);
    if (!route) return;
    const r = route.data;
    const city = (cid) => this.board.cities.get(cid).name;
    const colour = this.map.colours[r.colour] || { name: r.colour, symbol: "" };
    const claim = (this.shownState().claims || []).find((c) => c.route === id);
    this.info.replaceChildren();
    this.info.dataset.route = id;
    htmlEl("h2", { id: "info-title", text: `${s.route_info}: ${city(r.a)} – ${city(r.b)}` }, this.info);
    htmlEl("p", { class: "info-length", text: fill(s.length, { length: r.length }) }, this.info);
    htmlEl("p", { class: "info-colour", text: fill(s.colour, { colour: `${colour.symbol} ${colour.name}`.trim() }) }, this.info);
    if (r.tunnel) htmlEl("p", { class: "info-tunnel", text: s.tunnel }, this.info);
    if (r.ferry) htmlEl("p", { class: "info-ferry", text: fill(s.ferry, { n: r.ferry }) }, this.info);
    if (claim) {
      const seat = (this.state.seats || []).find((x) => x.seat === claim.seat) || { name: "", colour: claim.seat };
      const sc = this.map.seat_colours[seat.colour % this.map.seat_colours.length];
      htmlEl("p", { class: "info-owner", "data-seat": claim.seat, text: fill(s.owner, { owner: `${sc.symbol} ${seat.name}` }) }, this.info);
    } else {
      htmlEl("p", { class: "info-owner free", text: s.free }, this.info);
    }
    const close = htmlEl("button", { type: "button", class: "info-close", text: s.close }, this.info);
    close.addEventListener("click", () => (this.info.hidden = true));
    this.info.hidden = false;
  }

  shownState() {
    return this.replayState || this.state;
  }

  async openReplay() {
    const data = await getJson(`${this.base}/replay`);
    this.panelBody.hidden = true;
    this.replayBody.hidden = false;
    const names = (this.state.seats || []).map((x) => x.name);
    this.replay = new Replay(this.replayBody, this.map, this.s, data, names, {
      onShow: (st) => {
        this.replayState = st;
        drawState(this.board, this.map, st);
      },
      onMark: (routes, path) => highlight(this.board, routes, path, "final"),
      onClose: () => this.closeReplay(),
    });
  }

  closeReplay() {
    this.replay = null;
    this.replayState = null;
    this.replayBody.hidden = true;
    this.replayBody.replaceChildren();
    this.panelBody.hidden = false;
    this.setState(this.state);
  }
}

async function main() {
  const app = document.getElementById("app");
  if (!app || !app.dataset.token) return;
  const base = `/api/b/${encodeURIComponent(app.dataset.token)}`;
  try {
    const [map, state] = await Promise.all([getJson(`${base}/map`), getJson(`${base}/state`)]);
    window.ttrBoard = new BoardPage(app, map, state);
    app.dataset.ready = "true";
  } catch (err) {
    app.replaceChildren();
    htmlEl("p", { class: "load-error", role: "alert", text: err.message }, app);
    app.dataset.ready = "error";
  }
}

main();
