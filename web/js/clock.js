// The server's clock as seen from the page, from `ping` / `pong` (docs/PROTOCOL.md): for each
// pong, offset = serverTime − (sentAt + receivedAt) / 2 assumes the two legs are equal; the
// estimate kept is the one from the ping with the smallest round trip in the window, whose legs
// can differ least (NTP's clock filter). The two clocks are both monotonic on one machine or
// drift by parts per million, so a window of a minute is plenty.
//
// Pongs go through the simulated link both ways, so the round trip also shows the
// link: `rtt` is the median of the last few, following a change of link within seconds.

const WINDOW = 64;       // pings kept for the offset
const RECENT = 8;        // pings the round trip's median is taken over
const PERIOD = 1000;     // ms between pings once warm
const WARM_UP = 6;       // pings sent back to back (each after the previous pong) at connect

export class ClockSync {
  /** @param send {(message: object) => boolean} */
  constructor(send) {
    this.send = send;
    this.timer = null;
    this.reset();
  }

  reset() {
    clearTimeout(this.timer);
    this.timer = null;
    this.seq = 0;
    this.inFlight = new Map();  // seq → performance.now() at send
    this.samples = [];          // {rtt, offset}, oldest first
    this.offset = null;         // server ms − page ms
    this.rttRecent = [];
  }

  /** Starts pinging (a new connection): a quick burst, then one a second. */
  start() {
    this.reset();
    this.ping();
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.inFlight.clear();
  }

  /** Pings at once (e.g. after the link changed), and keeps the schedule. */
  ping() {
    clearTimeout(this.timer);
    this.seq += 1;
    const at = performance.now();
    if (this.send({ type: "ping", seq: this.seq, t: Number(at.toFixed(3)) })) this.inFlight.set(this.seq, at);
    // Pings lost to a closed socket or an unanswered one must not pile up.
    for (const [seq, sentAt] of this.inFlight) if (at - sentAt > 30000) this.inFlight.delete(seq);
    this.timer = setTimeout(() => this.ping(), PERIOD);
  }

  /** A `pong`: checked (a bad one is dropped), then folded into the estimate. */
  pong(message, at) {
    const sentAt = this.inFlight.get(message.seq);
    if (sentAt === undefined || typeof message.serverTime !== "number" || !Number.isFinite(message.serverTime)) return;
    this.inFlight.delete(message.seq);
    const rtt = at - sentAt;
    if (!(rtt >= 0)) return;
    this.samples.push({ rtt, offset: message.serverTime - (sentAt + at) / 2 });
    if (this.samples.length > WINDOW) this.samples.shift();
    let best = this.samples[0];
    for (const sample of this.samples) if (sample.rtt < best.rtt) best = sample;
    this.offset = best.offset;
    this.rttRecent.push(rtt);
    if (this.rttRecent.length > RECENT) this.rttRecent.shift();
    if (this.seq < WARM_UP) this.ping();
  }

  /** The link changed: the round trip's recent figures are the old link's. */
  linkChanged() {
    this.rttRecent = [];
    this.ping();
  }

  /** Median round trip of the recent pings, ms (NaN before the first pong). */
  get rtt() {
    if (this.rttRecent.length === 0) return NaN;
    const sorted = [...this.rttRecent].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)];
  }

  /** Page time (performance.now()) → server time, or null before the first pong. */
  toServer(pageTime) {
    return this.offset === null ? null : pageTime + this.offset;
  }
}
