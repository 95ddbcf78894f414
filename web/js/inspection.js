// The tools to study a transition, wired onto the page record: `page.history` (the last
// gestures, kept whole: history.js; the sender and the receiver record into it),
// `page.timeline` (which picture the screen shows: live, or a kept gesture's frame), its panel,
// and the layer inspector. main.js calls this once, before the socket opens.

import { GestureHistory } from "./history.js";
import { LayerInspector } from "./inspector.js";
import { Timeline } from "./timeline.js";
import { TimelinePanel } from "./timelinePanel.js";

/** @param page {{state, screen, renderer, display}} */
export function installInspection(page, document) {
  page.history = new GestureHistory();
  page.timeline = new Timeline(page.history);
  page.timelinePanel = new TimelinePanel(page, document);
  page.inspector = new LayerInspector(page, document);
}
