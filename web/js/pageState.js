// The page's state: one record, written by the receiver, the sender and the strip, read by the
// display and the test hooks. Nothing here draws or sends.

/** The phases in which nothing moves: a tap may play, the strip may scroll (`paused`: pausesOnCompletion). */
export const RESTING = new Set(["idle", "finished", "cancelled", "paused"]);

export function createPageState() {
  return {
    session: null,
    role: "driver",          // or "viewer" after `join`
    config: null,            // the effective configuration, as the server last said
    container: [390, 844],
    logo: null,
    frame: null,             // the latest frame (latest wins), whole (deltas applied: frameAssembler.js)
    frameCount: 0,
    framesIgnored: 0,  // frame messages with nothing to draw (serve --prebuilt-frames' padding)
    drawnFrame: null,
    seq: 0,                  // the last pointer seq sent on this connection
    ack: null,               // the highest ack received on this connection
    selected: 1,             // the herb whose thumbnail the pop opens (card 1 = the default origin)
    scroll: 0,               // the strip's scroll position, in cards
    restore: null,           // the configuration to restore after a reconnect
    outcomes: [],            // "finished" / "cancelled", in order, for this page's lifetime
    view: null,              // the geometry of the last drawing (orientation.js viewGeometry): pointers invert it
    lastPointer: null,       // the last pointer message sent (interface points in a scene)
    shown: null,             // the frame drawn last (the latest, or the interpolation buffer's; lab.js)
    sceneVersion: 0,         // bumped when what the cards show may have changed: the display redraws
  };
}

/** Whether the latest frame is at rest (a tap may play, the strip may scroll). */
export function atRest(state) {
  return state.frame !== null && RESTING.has(state.frame.phase);
}
