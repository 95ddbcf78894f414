// Input → frame latency as the page sees it: a pointer message sent → the first frame whose
// `ack` ≥ its `seq` arrives. The frame's own timestamps split that into server time
// (`sent − received`, on the server's clock) and the rest, the network and both event loops.
//
// Percentiles are computed by sorting the recent samples (at most 256): the page has no build
// step to bring in a statistics package, and a nearest-rank percentile of 256 numbers is exact.

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
}

class Ring {
  constructor(capacity) {
    this.capacity = capacity;
    this.values = [];
    this.next = 0;
  }

  push(value) {
    if (this.values.length < this.capacity) this.values.push(value);
    else this.values[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
  }

  percentiles() {
    const sorted = [...this.values].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }

  clear() {
    this.values = [];
    this.next = 0;
  }
}

export class LatencyMeter {
  constructor(capacity = 256) {
    this.pending = new Map();  // seq → performance.now() when sent
    this.total = new Ring(capacity);
    this.network = new Ring(capacity);
    this.server = new Ring(capacity);
    this.count = 0;
    this.arrivals = [];  // performance.now() of frames in the last second
  }

  sent(seq, at) {
    this.pending.set(seq, at);
  }

  /** A frame arrived at `at`: settles every pending seq it acknowledges. */
  frame(frame, at) {
    this.arrivals.push(at);
    while (this.arrivals.length && this.arrivals[0] < at - 1000) this.arrivals.shift();
    if (frame.ack === null || frame.ack === undefined) return;
    for (const [seq, sentAt] of this.pending) {
      if (seq > frame.ack) continue;
      this.pending.delete(seq);
      const total = at - sentAt;
      this.total.push(total);
      this.count += 1;
      // Only the acknowledged message itself has its receive time in the frame.
      if (seq === frame.ack && Number.isFinite(frame.sent) && Number.isFinite(frame.received)) {
        const server = Math.max(frame.sent - frame.received, 0);
        this.server.push(server);
        this.network.push(Math.max(total - server, 0));
      }
    }
  }

  /** Frames received per second, over the last second. */
  frameRate(now) {
    while (this.arrivals.length && this.arrivals[0] < now - 1000) this.arrivals.shift();
    return this.arrivals.length;
  }

  summary() {
    return {
      count: this.count,
      total: this.total.percentiles(),
      network: this.network.percentiles(),
      server: this.server.percentiles(),
    };
  }

  /** A new link: the figures start over, so they show the link in force. */
  restart() {
    this.total.clear();
    this.network.clear();
    this.server.clear();
    this.count = 0;
  }

  /** A new session: old sequence numbers mean nothing any more. */
  reset() {
    this.pending.clear();
  }
}
