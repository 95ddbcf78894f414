// The WebSocket to the sandbox server: one per page, reconnected with exponential backoff.
// It knows the wire protocol's framing (JSON text messages, the subprotocol) and nothing else.

// Protocol 2 (delta frames, docs/PROTOCOL.md "Versions"): the page assembles deltas (frameAssembler.js).
export const SUBPROTOCOL = "transition-sandbox.v2";

/** Backoff: 250 ms, doubled per failed attempt, at most 5 s; reset once a connection opens. */
export function backoffDelay(attempt) {
  return Math.min(250 * 2 ** attempt, 5000);
}

export class Connection {
  /**
   * @param {string} url  ws://host:port/
   * @param {{onOpen: Function, onMessage: Function, onState: Function}} handlers
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.socket = null;
    this.attempt = 0;
    this.retryTimer = null;
  }

  open() {
    clearTimeout(this.retryTimer);
    this.handlers.onState("connecting", this.attempt);
    const socket = new WebSocket(this.url, SUBPROTOCOL);
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.handlers.onState("open");
      this.handlers.onOpen();
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket || typeof event.data !== "string") return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        console.warn("not JSON from the server:", event.data);
        return;
      }
      this.handlers.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;  // replaced on purpose (reconnect())
      this.socket = null;
      const delay = backoffDelay(this.attempt);
      this.attempt += 1;
      this.handlers.onState("reconnecting", this.attempt, delay, event.code);
      this.retryTimer = setTimeout(() => this.open(), delay);
    });
  }

  /** Drops the current socket (if any) and opens a fresh one at once: a new session. */
  reconnect() {
    const old = this.socket;
    this.socket = null;
    this.attempt = 0;
    if (old) old.close(1000, "new session");
    this.open();
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends one message; false when there is no open socket (the caller shows that state). */
  send(message) {
    if (!this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
