// The requests awaiting a reply on this connection, and which of them a reply or an error
// answers. Each request carries an `id` (docs/PROTOCOL.md, "Request ids") that the server
// echoes on its replies (`configured`, `joined`, `scene-state`, `link`) and on any error it
// caused: such a message settles the request with that id. One without an id (`play`'s
// `played` event, a stray error, a broadcast) is matched by order, as before ids: the oldest
// request of its kind, or for an error the oldest of any kind. test_requests_page.py holds both.

export class Requests {
  constructor() {
    this.pending = [];  // [{id, kind, field}], oldest first
    this.lastId = 0;    // ids count up for the page's lifetime: one never answers a later socket's request
  }

  /** A new socket: nothing sent on the old one will be answered. */
  reset() {
    this.pending = [];
  }

  get count() {
    return this.pending.length;
  }

  /** Records a request about to be sent; returns the id to send with it (a string, as the protocol wants). */
  add(kind, field) {
    this.lastId += 1;
    const id = String(this.lastId);
    this.pending.push({ id, kind, field });
    return id;
  }

  /** Forgets a request that could not be sent. */
  drop(id) {
    this.pending = this.pending.filter((entry) => entry.id !== id);
  }

  /**
   * The request a reply of `kind` answers, removed from those pending, or null: the one with
   * the reply's id, else the oldest of that kind.
   */
  settle(kind, message) {
    return this.take(message, (entry) => entry.kind === kind);
  }

  /** The request an error answers, removed, or null: the one with its id, else the oldest. */
  settleError(error) {
    return this.take(error, () => true);
  }

  take(message, matches) {
    const index = message.id !== undefined
      ? this.pending.findIndex((entry) => entry.id === message.id)
      : this.pending.findIndex(matches);
    if (index < 0) return null;
    return this.pending.splice(index, 1)[0];
  }
}
