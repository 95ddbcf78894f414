// The page's wiring: makes the connection and the page's parts, hands each the others it needs
// (one `page` record), and starts the socket and the drawing loop. sender.js sends, receiver.js
// applies what arrives, errors.js shows refusals, display.js draws, strip.js handles taps,
// recording.js and watching.js the tools, study.js the study tools; testHooks.js only with ?test.

import { Connection } from "./connection.js";
import { Display } from "./display.js";
import { ErrorRouter } from "./errors.js";
import { FrameAssembler } from "./frameAssembler.js";
import { Hud } from "./hud.js";
import { PointerInput } from "./input.js";
import { NetworkLab } from "./lab.js";
import { LatencyMeter } from "./latency.js";
import { OrientationPanel } from "./orientationPanel.js";
import { createPageState } from "./pageState.js";
import { Receiver } from "./receiver.js";
import { Recorder } from "./recorder.js";
import { RecordingControls } from "./recording.js";
import { ReleaseRulesForm } from "./releaseRules.js";
import { Renderer } from "./renderer.js";
import { Requests } from "./requests.js";
import { SceneModel } from "./scene.js";
import { SceneCards } from "./sceneCards.js";
import { ScenePanel } from "./scenePanel.js";
import { Sender } from "./sender.js";
import { SheetDetents } from "./sheetDetents.js";
import { SettingsForm } from "./settings.js";
import { Strip } from "./strip.js";
import { installStudy } from "./study.js";
import { WatchControls } from "./watching.js";

const $ = (id) => document.getElementById(id);
const screen = $("screen");
const wsURL = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;
const sceneModel = new SceneModel();
// Not while an opened pan script plays: its messages alone drive the session.
const enabled = () => page.state.role === "driver" && page.connection.isOpen && !page.scriptPlayer.playing;

const page = {
  state: createPageState(),
  wsURL,
  screen,
  renderer: new Renderer(screen),
  hud: new Hud(document, () => page.state.config),
  latency: new LatencyMeter(),
  recorder: new Recorder(),
  frames: new FrameAssembler(),  // deltas applied here: the state and all after it see whole frames
  requests: new Requests(),
  sceneModel,
  sceneCards: new SceneCards(sceneModel),
  sheetDetents: new SheetDetents(sceneModel),
  connection: new Connection(wsURL, {
    onOpen: () => page.receiver.opened(),
    onMessage: (message) => page.receiver.message(message),
    onState: (...args) => page.receiver.connectionState(...args),
  }),
};
page.sender = new Sender(page);
page.settings = new SettingsForm($("settings"), (patch, field) => page.sender.configure(patch, field));
page.releaseRules = new ReleaseRulesForm($("release-rules"), (patch, field) => page.sender.configure(patch, field));
/** The form that shows errors about `field` (the release rules' fields have their own panel). */
page.formFor = (field) => (page.releaseRules.owns(field) ? page.releaseRules : page.settings);
page.scenePanel = new ScenePanel(document, sceneModel, { send: (m) => page.sender.request("scene", null, m), enabled });
page.orientationPanel = new OrientationPanel(document, sceneModel, {
  send: (message) => page.scenePanel.send(message),
  enabled,
});
page.lab = new NetworkLab(document, {
  send: (message) => page.connection.send(message),
  request: (message) => page.sender.request("network", "network", message),
  linkChanged: () => page.latency.restart(),
});
page.display = new Display(page, document);
page.errors = new ErrorRouter(page, document);
page.recording = new RecordingControls(page, document);
page.watching = new WatchControls(page, document);
page.strip = new Strip(page, screen);
page.input = new PointerInput(screen, (x, y, fresh) => page.display.toContainer(x, y, fresh), {
  pointer: (...args) => page.sender.pointer(...args),
  tap: (x, y) => page.strip.tap(x, y),
  enabled,
});
page.receiver = new Receiver(page, document);
installStudy(page, document);  // timeline, inspector, slow motion, open/export, compare, URL, keys
window.addEventListener("resize", () => page.display.layout());

if (new URLSearchParams(location.search).has("test")) {
  const { installTestHooks } = await import("./testHooks.js");
  installTestHooks(page);
}
page.display.layout();
page.connection.open();
requestAnimationFrame((now) => page.display.render(now));
