// The tools to study a transition, wired onto the page record: `page.timeline` (which picture
// the screen shows: live, or a kept gesture's frame), its panel, and the layer inspector.
// main.js calls this once; the history they read is `page.history` (history.js).

import { LayerInspector } from "./inspector.js";
import { Timeline } from "./timeline.js";
import { TimelinePanel } from "./timelinePanel.js";

/** @param page {{history, state, screen, renderer, display}} */
export function installInspection(page, document) {
  page.timeline = new Timeline(page.history);
  page.timelinePanel = new TimelinePanel(page, document);
  page.inspector = new LayerInspector(page, document);
}
