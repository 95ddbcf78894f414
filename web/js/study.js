// The tools for studying a transition, wired onto the page record in the order they need:
// the timeline and the layer inspector (inspection.js), slow motion, opening and exporting
// files, compare, the URL state and the keyboard shortcuts. main.js calls this once, after the
// page's core parts exist and before the socket opens (the URL state sends a link's settings
// on the first `welcome`).

import { Compare } from "./compare.js";
import { installInspection } from "./inspection.js";
import { ReplayPanel } from "./replayPanel.js";
import { ScriptPlayer } from "./scriptPlayer.js";
import { Shortcuts } from "./shortcuts.js";
import { SlowMotion } from "./slowMotion.js";
import { UrlState } from "./urlState.js";

/** @param page the page record with its settings form, sender and receiver */
export function installStudy(page, document) {
  const configure = (patch, field) => page.sender.configure(patch, field);
  page.slowMotion = new SlowMotion(document.getElementById("settings"), page.settings, configure);
  page.scriptPlayer = new ScriptPlayer(page);  // plays an opened pan script; sees every message
  page.replayPanel = new ReplayPanel(page, document);
  installInspection(page, document);  // page.history, page.timeline, the inspector
  page.urlState = new UrlState(page, document);  // after the inspection, before the shortcuts
  page.shortcuts = new Shortcuts(page, document);
  page.compare = new Compare(document, page.wsURL);
}
