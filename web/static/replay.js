// The replay: a slider through every turn of /replay, play/pause, the turn's text; at the
// last turn the final scoring step by step (each step marks its routes, the longest path
// is traced on the board) and the win-chance chart (a line per seat; a point jumps the
// slider to its turn).

import { fill, htmlEl, svgEl } from "./svg.js";

const PLAY_MS = 700;
const CHART_W = 320;
const CHART_H = 150;
const PAD = 12;

export class Replay {
  /**
   * @param {HTMLElement} root where the replay controls go
   * @param {object} map the map payload
   * @param {object} strings the page's words
   * @param {object} data the /replay payload
   * @param {string[]} names seat names by seat
   * @param {{onShow: (state: object) => void, onMark: (routes: string[], path: string[]) => void, onClose: () => void}} actions
   */
  constructor(root, map, strings, data, names, actions) {
    this.root = root;
    this.map = map;
    this.s = strings;
    this.data = data;
    this.names = names;
    this.actions = actions;
    this.timer = null;
    this.shown = 0;
    this.build();
    this.show(1);
  }

  build() {
    const s = this.s;
    const turns = this.data.turns;
    this.root.replaceChildren();
    const box = htmlEl("section", { class: "replay panel-section" }, this.root);
    htmlEl("h2", { text: s.replay }, box);
    const label = htmlEl("label", { for: "replay-slider", class: "replay-label" }, box);
    htmlEl("span", { text: `${s.replay_turn} ` }, label);
    this.number = htmlEl("output", { class: "replay-number", for: "replay-slider" }, label);
    this.slider = htmlEl("input", { id: "replay-slider", type: "range", min: 1, max: Math.max(1, turns.length), step: 1, value: 1 }, box);
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    const controls = htmlEl("div", { class: "replay-controls" }, box);
    this.playButton = htmlEl("button", { type: "button", class: "replay-play", text: s.play }, controls);
    this.playButton.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    const close = htmlEl("button", { type: "button", class: "replay-close", text: s.replay_close }, controls);
    close.addEventListener("click", () => {
      this.pause();
      this.actions.onClose();
    });
    this.text = htmlEl("p", { class: "replay-text", "aria-live": "polite" }, box);
    this.finalBox = htmlEl("div", { class: "final", hidden: true }, box);
    if (this.data.analysis && this.data.analysis.chances && this.data.analysis.chances.length) this.chart(box);
  }

  play() {
    if (Number(this.slider.value) >= this.data.turns.length) this.show(1);
    this.playButton.textContent = this.s.pause;
    this.timer = setInterval(() => {
      const next = Number(this.slider.value) + 1;
      if (next > this.data.turns.length) this.pause();
      else this.show(next);
    }, PLAY_MS);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = this.s.play;
  }

  /** Show turn `n` (1-based) on the board. */
  show(n) {
    const turns = this.data.turns;
    if (!turns.length) return;
    const i = Math.min(turns.length, Math.max(1, n));
    const turn = turns[i - 1];
    this.slider.value = String(i);
    this.number.textContent = `${i} / ${turns.length}`;
    this.text.textContent = turn.text;
    this.actions.onShow(turn.state);
    this.actions.onMark([], []);
    this.root.querySelectorAll(".chart-point.current").forEach((p) => p.classList.remove("current"));
    this.root.querySelectorAll(`.chart-point[data-turn="${i}"]`).forEach((p) => p.classList.add("current"));
    const atEnd = i === turns.length && this.data.final;
    this.finalBox.hidden = !atEnd;
    if (atEnd) this.startFinal();
  }

  startFinal() {
    const s = this.s;
    this.shown = 0;
    this.finalBox.replaceChildren();
    htmlEl("h3", { text: s.final }, this.finalBox);
    this.stepList = htmlEl("ol", { class: "final-steps" }, this.finalBox);
    const controls = htmlEl("div", { class: "final-controls" }, this.finalBox);
    this.nextButton = htmlEl("button", { type: "button", class: "final-next", text: s.next_step }, controls);
    this.nextButton.addEventListener("click", () => this.step());
    const all = htmlEl("button", { type: "button", class: "final-all", text: s.all_steps }, controls);
    all.addEventListener("click", () => {
      while (this.shown < this.data.final.steps.length) this.step();
    });
  }

  /** Reveal the next final scoring step and mark its routes (or trace its path). */
  step() {
    const steps = this.data.final.steps;
    if (this.shown >= steps.length) return;
    const step = steps[this.shown];
    this.shown += 1;
    const item = htmlEl("li", { class: `final-step final-${step.kind}`, "data-seat": step.seat }, this.stepList);
    htmlEl("span", { class: "final-text", text: step.text }, item);
    this.actions.onMark(step.routes || [], step.path || []);
    this.nextButton.disabled = this.shown >= steps.length;
  }

  chart(parent) {
    const s = this.s;
    const chances = this.data.analysis.chances;
    const figure = htmlEl("figure", { class: "chart" }, parent);
    htmlEl("figcaption", { text: s.chart }, figure);
    const svg = svgEl("svg", { viewBox: `0 0 ${CHART_W} ${CHART_H}`, class: "chart-svg", role: "img" }, figure);
    svgEl("title", {}, svg).textContent = s.chart;
    const n = chances.length;
    const x = (i) => PAD + ((CHART_W - 2 * PAD) * i) / Math.max(1, n - 1);
    const y = (p) => CHART_H - PAD - (CHART_H - 2 * PAD) * p;
    svgEl("line", { x1: PAD, y1: y(0.5), x2: CHART_W - PAD, y2: y(0.5), class: "chart-mid" }, svg);
    // a turn without chances (null: the ticket choice at the start) has no point
    const known = chances.map((row, i) => [row, i]).filter(([row]) => Array.isArray(row));
    const seats = known.length ? known[0][0].length : 0;
    for (let seat = 0; seat < seats; seat++) {
      const colour = this.map.seat_colours[seat % this.map.seat_colours.length];
      const pts = known.map(([row, i]) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
      svgEl("polyline", { points: pts, class: "chart-line", stroke: colour.hex, "data-seat": seat }, svg);
      known.forEach(([row, i]) => {
        const turn = Math.min(this.data.turns.length, i + 1);
        const point = svgEl("circle", { cx: x(i), cy: y(row[seat]), r: 2.2, class: "chart-point", fill: colour.hex, "data-turn": turn, "data-seat": seat, tabindex: 0, role: "button" }, svg);
        point.setAttribute("aria-label", fill(s.chart_point, { name: this.names[seat] || colour.symbol, points: Math.round(row[seat] * 100), version: turn }));
        const jump = () => {
          this.pause();
          this.show(turn);
        };
        point.addEventListener("click", jump);
        point.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") jump();
        });
      });
    }
  }
}
