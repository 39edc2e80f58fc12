// Playing on the board: the seat's legal moves (state.me.moves, from the service's turn menu)
// as buttons, a claimable route chosen by tapping it on the board, and the chosen move sent
// to POST /api/b/{token}/act with the version the page shows. A refusal's sentence (the one
// Discord shows) stays above the buttons until the next move. Every word is from state.strings.

import { fill, htmlEl } from "./svg.js";

export class MovePanel {
  /**
   * @param {HTMLElement} root the panel's element (hidden while there is nothing to decide)
   * @param {object} page the board page: `s` (words), `map`, `board`, `base`, `state`, `setState`
   */
  constructor(root, page) {
    this.root = root;
    this.page = page;
    this.chosen = null; // the claim entry's index the player tapped
    this.error = "";
    this.busy = false;
    this.version = -1;
    if (!document.querySelector('link[href="/static/moves.css"]')) {
      htmlEl("link", { rel: "stylesheet", href: "/static/moves.css" }, document.head);
    }
  }

  /** Show the moves of `state` (called with every new state). */
  render(state) {
    const s = this.page.s;
    const me = state.me;
    const moves = me ? me.moves : null;
    if (state.version !== this.version) {
      if (this.version >= 0) this.error = "";
      this.version = state.version;
      if (!moves || !moves.claims.some((c) => c.index === this.chosen)) this.chosen = null;
    }
    this.markClaimable(moves ? moves.claims : []);
    this.root.replaceChildren();
    const running = state.game && state.game.status === "running";
    this.root.hidden = !me || !running;
    if (this.root.hidden) return;
    htmlEl("h2", { text: moves ? s.your_move : s.wait_turn }, this.root);
    if (this.error) htmlEl("p", { class: "move-error", role: "alert", text: this.error }, this.root);
    if (this.busy) htmlEl("p", { class: "move-busy", role: "status", text: s.sending }, this.root);
    if (!moves) return;
    this.root.dataset.step = moves.step;
    if (moves.keep) this.keep(moves.keep);
    else if (moves.step === "tunnel" && moves.tunnel) this.tunnel(moves.tunnel);
    else if (moves.step === "flag") this.flags(moves.flags);
    else this.turn(moves, state);
  }

  button(text, move, action, parent = this.root) {
    const b = htmlEl("button", { type: "button", class: "move", "data-move": move, text, disabled: this.busy }, parent);
    b.addEventListener("click", () => this.send(action));
    return b;
  }

  cards(counts) {
    const colours = this.page.map.colours;
    return Object.entries(counts)
      .map(([c, n]) => `${n}× ${((colours[c] || {}).symbol || "")} ${(colours[c] || { name: c }).name}`.replace(/\s+/g, " "))
      .join(" + ");
  }

  routeName(id) {
    const route = this.page.board.routes.get(id);
    if (!route) return id;
    const city = (cid) => (this.page.board.cities.get(cid) || { name: cid }).name;
    return `${city(route.data.a)} – ${city(route.data.b)}`;
  }

  cityName(id) {
    return (this.page.board.cities.get(id) || { name: id }).name;
  }

  turn(moves, state) {
    const s = this.page.s;
    if (moves.step === "second_card") htmlEl("p", { text: s.second_card }, this.root);
    const cards = htmlEl("div", { class: "move-row" }, this.root);
    if (moves.deck) this.button(s.draw_deck, "deck", { kind: "draw", slot: null }, cards);
    for (const slot of moves.slots) {
      const colour = this.page.map.colours[state.face_up[slot]] || { name: state.face_up[slot], symbol: "" };
      const text = fill(s.take_face_up, { colour: `${colour.symbol} ${colour.name}`.trim() });
      this.button(text, `slot-${slot}`, { kind: "draw", slot }, cards);
    }
    if (moves.claims.length) this.claims(moves.claims);
    moves.tickets.forEach((mix, i) => {
      const text = mix.length ? fill(s.draw_mix, { name: mix.map(([, n]) => n).join(" + ") }) : s.draw_tickets;
      this.button(text, `tickets-${i}`, { kind: "tickets", draw: i });
    });
    if (moves.stations.length) this.stations(moves.stations);
  }

  claims(claims) {
    const s = this.page.s;
    const chosen = claims.find((c) => c.index === this.chosen);
    if (!chosen) {
      htmlEl("p", { class: "move-hint", text: s.claim_hint }, this.root);
      return;
    }
    const box = htmlEl("div", { class: "move-claim", "data-route": chosen.route }, this.root);
    htmlEl("p", { text: fill(s.choose_payment, { name: this.routeName(chosen.route) }) }, box);
    chosen.payments.forEach((pay, i) => {
      const text = fill(s.pay, { name: this.cards(pay.cards) });
      this.button(text, `pay-${i}`, { kind: "claim", route: chosen.index, payment: i }, box);
    });
    const cancel = htmlEl("button", { type: "button", class: "move cancel", "data-move": "cancel", text: s.cancel }, box);
    cancel.addEventListener("click", () => {
      this.chosen = null;
      this.render(this.page.state);
    });
  }

  stations(stations) {
    const s = this.page.s;
    htmlEl("p", { text: s.station_title }, this.root);
    const select = htmlEl("select", { class: "move-station", "aria-label": s.station_title }, this.root);
    for (const st of stations) htmlEl("option", { value: String(st.index), text: this.cityName(st.city) }, select);
    const pays = htmlEl("div", { class: "move-row" }, this.root);
    const show = () => {
      pays.replaceChildren();
      const st = stations.find((x) => String(x.index) === select.value) || stations[0];
      st.payments.forEach((pay, i) => {
        const text = `${fill(s.station_build, { name: this.cityName(st.city) })}: ${this.cards(pay)}`;
        this.button(text, `station-${i}`, { kind: "station", city: st.index, payment: i }, pays);
      });
    };
    select.addEventListener("change", show);
    show();
  }

  keep(keep) {
    const s = this.page.s;
    htmlEl("p", { text: s.keep_title }, this.root);
    htmlEl("p", { class: "move-hint", text: fill(s.keep_least, { n: keep.min }) }, this.root);
    const list = htmlEl("ul", { class: "move-keep" }, this.root);
    const boxes = keep.offer.map((t, i) => {
      const row = htmlEl("li", {}, list);
      const label = htmlEl("label", {}, row);
      const box = htmlEl("input", { type: "checkbox", "data-ticket": t.id, checked: true }, label);
      label.append(` ${this.cityName(t.a)} – ${this.cityName(t.b)} (${t.points})`);
      box.dataset.position = String(i);
      return box;
    });
    const b = htmlEl("button", { type: "button", class: "move", "data-move": "keep", text: s.keep, disabled: this.busy }, this.root);
    b.addEventListener("click", () => {
      const tickets = boxes.filter((x) => x.checked).map((x) => Number(x.dataset.position));
      this.send({ kind: "keep", tickets });
    });
  }

  tunnel(tunnel) {
    const s = this.page.s;
    htmlEl("p", { text: fill(s.tunnel_title, { name: this.routeName(tunnel.route), n: tunnel.extra }) }, this.root);
    const shown = {};
    for (const c of tunnel.revealed) shown[c] = (shown[c] || 0) + 1;
    htmlEl("p", { class: "move-hint", text: fill(s.tunnel_revealed, { name: this.cards(shown) }) }, this.root);
    tunnel.payments.forEach((pay, i) => {
      this.button(fill(s.tunnel_pay, { name: this.cards(pay) }), `tunnel-${i}`, { kind: "tunnel", payment: i });
    });
    this.button(s.tunnel_give_up, "give-up", { kind: "tunnel", payment: null });
  }

  flags(colours) {
    const s = this.page.s;
    for (const c of colours) {
      const colour = this.page.map.colours[c] || { name: c, symbol: "" };
      this.button(fill(s.flag_keep, { colour: colour.name }), `flag-${c}`, { kind: "flag", colour: c });
    }
    this.button(s.flag_none, "flag-none", { kind: "flag", colour: null });
  }

  /** Mark the claimable routes on the board. */
  markClaimable(claims) {
    const open = new Set(claims.flatMap((c) => c.tracks));
    for (const [id, route] of this.page.board.routes) route.group.classList.toggle("claimable", open.has(id));
  }

  /** A route was tapped: true when it is claimable now (its payments are shown). */
  tap(id) {
    const moves = this.page.state.me ? this.page.state.me.moves : null;
    const claim = moves ? moves.claims.find((c) => c.tracks.includes(id)) : null;
    if (!claim || !["turn"].includes(moves.step) || moves.keep) return false;
    this.chosen = claim.index;
    this.error = "";
    this.render(this.page.state);
    this.root.scrollIntoView({ block: "nearest" });
    return true;
  }

  async send(action) {
    if (this.busy) return;
    this.busy = true;
    this.render(this.page.state);
    let body = {};
    let ok = false;
    try {
      const response = await fetch(`${this.page.base}/act`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ version: this.page.state.version, action }),
      });
      body = await response.json().catch(() => ({}));
      ok = response.ok;
    } catch (err) {
      body = { message: String(err.message || err) };
    }
    this.busy = false;
    this.chosen = null;
    if (ok && body.state && body.state.version > this.page.state.version) {
      this.page.setState(body.state);
      return;
    }
    if (!ok && body.error === "stale_version") await this.catchUp();
    this.error = ok ? "" : body.message || "";
    this.render(this.page.state);
  }

  /** The game moved on before the move arrived: show the current state (the refusal stays). */
  async catchUp() {
    try {
      const response = await fetch(`${this.page.base}/state`, { headers: { Accept: "application/json" } });
      const state = response.ok ? await response.json() : null;
      if (state && state.version > this.page.state.version) this.page.setState(state);
    } catch {
      // the live stream brings it
    }
  }
}
