// Live updates: an EventSource on /api/b/{token}/events. Each `move` event newer than the
// page's version replaces the state (an older or equal one is ignored); `reset` replaces it
// whatever its version. While the connection is down a "reconnecting…" badge shows; the
// browser reconnects by itself and sends Last-Event-ID, and after a long outage (or a
// `move` without its state) the page fetches /state again.

const LONG_OUTAGE_MS = 60000;

export class Live {
  /**
   * @param {string} base "/api/b/{token}"
   * @param {() => number} version the version the page shows
   * @param {(state: object, move: object|null) => void} onState apply a newer state
   * @param {(down: boolean) => void} onConnection show or hide the badge
   */
  constructor(base, version, onState, onConnection) {
    this.base = base;
    this.version = version;
    this.onState = onState;
    this.onConnection = onConnection;
    this.downSince = null;
    this.source = null;
  }

  start() {
    // `after`: a move stored between reading /state and this request is sent, not lost
    const source = new EventSource(`${this.base}/events?after=${this.version()}`);
    this.source = source;
    source.addEventListener("open", () => {
      const long = this.downSince !== null && Date.now() - this.downSince > LONG_OUTAGE_MS;
      this.downSince = null;
      this.onConnection(false);
      if (long) this.refetch();
    });
    source.addEventListener("error", () => {
      if (this.downSince === null) this.downSince = Date.now();
      this.onConnection(true);
    });
    source.addEventListener("move", (e) => this.move(e.data));
    source.addEventListener("reset", (e) => {
      const data = JSON.parse(e.data);
      const state = data.state || data;
      if (state && typeof state.version === "number") this.onState(state, null);
    });
  }

  move(raw) {
    let data;
    try {
      data = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof data.version !== "number" || data.version <= this.version()) return;
    if (data.state) {
      this.onState(data.state, data.move || null);
      return;
    }
    // a catch-up move without its state: the newest one carries it; fetch it if it never comes
    setTimeout(() => {
      if (this.version() < data.version) this.refetch();
    }, 1500);
  }

  async refetch() {
    const response = await fetch(`${this.base}/state`, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const state = await response.json();
    if (state.version > this.version()) this.onState(state, state.last_move || null);
  }
}
