// Watching another session: the watch form reopens the socket for the session to watch and
// joins it once welcomed; "Back to my session" and a watched session's end reopen a session of
// the page's own.

export class WatchControls {
  /**
   * @param page {{connection, sender, wsURL}}
   */
  constructor(page, document) {
    this.page = page;
    this.pendingJoin = null;  // the session to join once the socket reopened for it
    this.stateText = document.getElementById("watch-state");
    document.getElementById("watch").addEventListener("submit", (event) => this.onSubmit(event));
    document.getElementById("own-session").addEventListener("click", () => this.ownSession());
  }

  onSubmit(event) {
    event.preventDefault();
    const id = event.target.elements.session.value.trim();
    if (!id) return;
    this.stateText.textContent = `Joining ${id}…`;
    // Behind a balancer (docs/DEPLOY.md) only the process hosting the session can join it: the
    // socket is reopened with ?session=ID, which HAProxy routes on, and the join follows the
    // welcome. Without a balancer the query changes nothing.
    this.pendingJoin = id;
    this.reopen(`${this.page.wsURL}?session=${encodeURIComponent(id)}`);
  }

  ownSession() {
    this.pendingJoin = null;
    this.reopen(this.page.wsURL);
  }

  /** The server welcomed this socket: join the session it was opened for, if any. */
  welcomed() {
    if (!this.pendingJoin) return;
    const session = this.pendingJoin;
    this.pendingJoin = null;
    this.page.sender.request("join", null, { type: "join", session });
  }

  /** The watched session ended: back to a session of the page's own. */
  ended(session) {
    this.stateText.textContent = `Session ${session} ended; back to a session of your own.`;
    this.reopen(this.page.wsURL);
  }

  reopen(url) {
    const { connection } = this.page;
    connection.url = url;
    connection.reconnect();
  }
}
