// The side panel (desktop) or bottom sheet (phone): whose turn, the seats with their
// colour and symbol, clocks, the face-up row, deck and discard, the last move and,
// for a seated reader, the hand and the tickets with the planner's routes.

import { fill, htmlEl, inkOn } from "./svg.js";

/** A countdown text for `seconds` left: "1:02:03", "4:05" or "0:00". */
export function countdown(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** A card chip: its colour, its symbol (never colour alone) and an optional count. */
export function cardChip(map, colour, count = null, parent = null) {
  const info = map.colours[colour] || { hex: "#787878", symbol: "", name: colour };
  const chip = htmlEl("span", { class: `card card-${colour}`, "data-colour": colour, title: info.name }, parent);
  if (colour !== "locomotive") {
    chip.style.backgroundColor = info.hex;
    chip.style.color = inkOn(info.hex);
  }
  htmlEl("span", { class: "card-symbol", "aria-hidden": "true", text: info.symbol }, chip);
  htmlEl("span", { class: "card-name", text: info.name }, chip);
  if (count !== null) htmlEl("span", { class: "card-count", text: count }, chip);
  return chip;
}

function seatBadge(map, seat, parent) {
  const colour = map.seat_colours[seat.colour % map.seat_colours.length];
  const badge = htmlEl("span", { class: "seat-badge", "aria-hidden": "true", text: colour.symbol }, parent);
  badge.style.backgroundColor = colour.hex;
  badge.style.color = inkOn(colour.hex);
  return badge;
}

function section(parent, title, cls) {
  const box = htmlEl("section", { class: `panel-section ${cls}` }, parent);
  htmlEl("h2", { text: title }, box);
  return box;
}

function stat(parent, label, value, cls) {
  const row = htmlEl("span", { class: `stat ${cls}` }, parent);
  htmlEl("span", { class: "stat-label", text: label }, row);
  htmlEl("span", { class: "stat-value", text: value }, row);
  return row;
}

export class Panel {
  /**
   * @param {HTMLElement} root the panel element
   * @param {object} map the map payload
   * @param {object} strings the page's words
   * @param {{onPlan: (ids: string[]) => void, onReplay: () => void}} actions
   */
  constructor(root, map, strings, actions) {
    this.root = root;
    this.map = map;
    this.s = strings;
    this.actions = actions;
    this.state = null;
    this.clocks = [];
    this.timer = setInterval(() => this.tick(), 1000);
  }

  tick() {
    const now = Date.now() / 1000;
    for (const { node, deadline } of this.clocks) node.textContent = fill(this.s.clock, { time: countdown(deadline - now) });
  }

  render(state) {
    this.state = state;
    this.clocks = [];
    const s = this.s;
    this.root.replaceChildren();
    const turn = htmlEl("div", { class: "turn", role: "status" }, this.root);
    const seatOf = (n) => state.seats.find((x) => x.seat === n);
    if (state.game.status === "finished") turn.textContent = s.finished;
    else if (state.game.status === "cancelled") turn.textContent = s.cancelled;
    else if (state.game.status === "lobby") turn.textContent = s.lobby;
    else if (state.turn && state.turn.seat !== null && seatOf(state.turn.seat)) {
      const who = seatOf(state.turn.seat);
      seatBadge(this.map, who, turn);
      htmlEl("span", { text: fill(s.to_move, { name: who.name }) }, turn);
      if (state.turn.round) htmlEl("span", { class: "round", text: fill(s.round, { n: state.turn.round }) }, turn);
      if (state.turn.last_round) htmlEl("strong", { class: "last-round", text: s.last_round }, turn);
    }
    if (state.last_move) {
      const last = htmlEl("p", { class: "last-move" }, this.root);
      htmlEl("span", { class: "last-move-label", text: `${s.last_move}: ` }, last);
      htmlEl("span", { class: "last-move-text", text: state.last_move.text }, last);
    }
    if (state.me) this.renderMe(state.me);
    this.renderSeats(state);
    this.renderTable(state);
    if (state.log && state.log.length) {
      const box = section(this.root, s.log, "log");
      const list = htmlEl("ol", { class: "log-list" }, box);
      for (const line of state.log.slice().reverse()) htmlEl("li", { text: line.text }, list);
    }
    const replay = htmlEl("button", { type: "button", class: "replay-open", text: s.replay }, this.root);
    replay.addEventListener("click", () => this.actions.onReplay());
    this.tick();
  }

  renderSeats(state) {
    const s = this.s;
    const box = section(this.root, s.players, "seats");
    const list = htmlEl("ul", { class: "seat-list" }, box);
    for (const seat of state.seats) {
      const item = htmlEl("li", { class: "seat", "data-seat": seat.seat }, list);
      if (state.turn && state.turn.seat === seat.seat) item.classList.add("active");
      seatBadge(this.map, seat, item);
      htmlEl("span", { class: "seat-name", text: seat.name }, item);
      const stats = htmlEl("span", { class: "seat-stats" }, item);
      stat(stats, s.score, seat.score, "score");
      stat(stats, s.pieces, seat.trains, "trains");
      if (seat.stations !== null && seat.stations !== undefined) stat(stats, s.stations, seat.stations, "stations");
      stat(stats, s.cards, seat.cards, "cards");
      stat(stats, s.tickets, seat.tickets, "tickets");
      const clock = seat.clock || {};
      if (clock.vacation) htmlEl("span", { class: "clock vacation", text: s.vacation }, item);
      else if (clock.deadline) {
        const node = htmlEl("span", { class: "clock", role: "timer" }, item);
        this.clocks.push({ node, deadline: clock.deadline });
      }
    }
  }

  renderTable(state) {
    const s = this.s;
    const box = section(this.root, s.face_up, "table");
    const row = htmlEl("div", { class: "face-up" }, box);
    for (const colour of state.face_up || []) cardChip(this.map, colour, null, row);
    if (state.last_move && state.last_move.kind === "draw") row.classList.add("last");
    const stats = htmlEl("div", { class: "piles" }, box);
    stat(stats, s.deck, state.deck, "deck");
    stat(stats, s.discard, state.discard, "discard");
    stat(stats, s.tickets_left, state.tickets_left, "tickets-left");
  }

  renderMe(me) {
    const s = this.s;
    const hand = section(this.root, s.your_hand, "hand");
    const cards = htmlEl("div", { class: "hand-cards" }, hand);
    for (const [colour, count] of Object.entries(me.hand || {})) if (count > 0) cardChip(this.map, colour, count, cards);
    const tickets = section(this.root, s.your_tickets, "my-tickets");
    const list = htmlEl("ul", { class: "ticket-list" }, tickets);
    const cityName = (id) => (this.map.cities.find((c) => c.id === id) || { name: id }).name;
    const plans = new Map((me.planner || []).map((p) => [p.ticket, p]));
    for (const ticket of me.tickets || []) {
      const item = htmlEl("li", { class: `ticket ${ticket.done ? "done" : "open"}`, "data-ticket": ticket.id }, list);
      htmlEl("span", { class: "ticket-mark", "aria-hidden": "true", text: ticket.done ? "✓" : "○" }, item);
      htmlEl("span", { class: "ticket-name", text: `${cityName(ticket.a)} – ${cityName(ticket.b)}` }, item);
      htmlEl("span", { class: "ticket-points", text: ticket.points }, item);
      htmlEl("span", { class: "ticket-status", text: ticket.done ? s.done : s.not_done }, item);
      const plan = plans.get(ticket.id);
      if (!ticket.done && plan && plan.routes.length) {
        const button = htmlEl("button", { type: "button", class: "plan", "aria-pressed": "false", text: fill(s.plan, { n: plan.cars_missing }), title: s.plan_show }, item);
        button.addEventListener("click", () => {
          const on = button.getAttribute("aria-pressed") !== "true";
          for (const other of this.root.querySelectorAll("button.plan")) other.setAttribute("aria-pressed", "false");
          button.setAttribute("aria-pressed", String(on));
          this.actions.onPlan(on ? plan.routes : []);
        });
      }
    }
  }
}
