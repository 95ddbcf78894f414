// The scene panel's "try" presets: one choice sets up a scene that shows one of the newer UIKit
// transitions (a sheet with detents, the zoom from a thumbnail, iOS 26's content back swipe) and
// a one-line hint under the status line says what to drag. Each preset is the messages an
// example script sends (examples/scripts/scene-sheet-detents-*, scene-zoom-*, scene-content-swipe-*);
// the demo scene of *Start scene* is untouched. Held by test_scene_presets.py.

/**
 * Each preset: the first release that has the feature (an older release in the iOS select
 * starts the scene as FALLBACK_RELEASE instead), the scene's root, the operation after it, the hint,
 * and when the hint still applies (the scene-state it was written for).
 */
export const SCENE_PRESETS = {
  "sheet-detents": {
    label: "sheet with detents (iOS 15+)",
    minimum: 15,
    root: () => ({ id: "maps", title: "Maps" }),
    then: () => ({
      type: "present", animated: true, interactive: false,
      controller: {
        id: "places", title: "Places", presentationStyle: "pageSheet",
        sheet: { detents: ["medium", "large"], selectedDetent: "medium", prefersGrabberVisible: true },
      },
    }),
    hint: "drag the sheet up to its large detent (or down, from medium, to dismiss it)",
    holds: (state) => (state.presentations ?? []).some((entry) => entry.presented === "places"),
  },
  "zoom": {
    label: "zoom from a thumbnail (iOS 18+)",
    minimum: 18,
    root: () => ({
      id: "nav", kind: "navigation",
      stack: [{ id: "grid", title: "Photos", views: [{ id: "thumb", kind: "view", frame: THUMB }] }],
    }),
    then: () => ({
      type: "push", animated: true, interactive: false, transition: "zoom", source: "thumb",
      controller: { id: "photo", title: "Photo" },
    }),
    hint: "drag the photo down and to the right: it shrinks back into its thumbnail",
    holds: (state) => topOf(state, "nav") === "photo",
  },
  "content-swipe": {
    label: "iOS 26 back swipe",
    minimum: 26,
    root: () => ({
      id: "nav", kind: "navigation",
      stack: [
        { id: "list", title: "List" },
        { id: "detail", title: "Detail", views: [{ id: "carousel", kind: "horizontal-scroll", frame: CAROUSEL }] },
      ],
    }),
    then: () => null,
    hint: "drag right from mid-screen (the carousel too: it rests at its leading edge) to pop back",
    holds: (state) => topOf(state, "nav") === "detail",
  },
};

/** The thumbnail in the grid, as the zoom example's (scene-zoom-push.json). */
const THUMB = { x: 148, y: 200, width: 120, height: 160 };
/** A carousel across the detail's middle, at its leading edge (scene-content-swipe-yields.json's size). */
const CAROUSEL = { x: 0, y: 300, width: 390, height: 220 };
/** The release a preset's scene runs as when the select's is older than the preset needs. */
const FALLBACK_RELEASE = "26";

function topOf(state, navigation) {
  const stack = state.navigationStacks?.find((entry) => entry.navigation === navigation)?.stack ?? [];
  return stack[stack.length - 1] ?? null;
}

export class ScenePresets {
  /**
   * @param document the page (the select `preset` in the form `scene-start`, `scene-preset-hint`)
   * @param model {import("./scene.js").SceneModel}
   * @param send {(message) => void} the scene panel's send (errors show under its start button)
   */
  constructor(document, model, send) {
    this.model = model;
    this.send = send;
    this.form = document.getElementById("scene-start");
    this.select = this.form.elements.preset;
    this.hintLine = document.getElementById("scene-preset-hint");
    this.chosen = null;  // the preset whose hint shows, until its scene moves on or restarts
    this.seen = false;   // the chosen preset's scene-state has arrived (a later `root: null` ends it)
    this.learnAgain = null;  // the operation's controller, to learn again after the scene's first state
    this.select.replaceChildren(new Option("try…", ""));
    for (const [id, preset] of Object.entries(SCENE_PRESETS)) this.select.append(new Option(preset.label, id));
    this.select.addEventListener("change", () => {
      const id = this.select.value;
      this.select.value = "";  // the same preset can be chosen again
      if (Object.hasOwn(SCENE_PRESETS, id)) this.start(id);
    });
    this.form.addEventListener("submit", () => { this.chosen = null; });
  }

  /** The release the preset's scene runs as: the select's, unless it is older than the preset needs. */
  release(preset) {
    const selected = this.form.elements.ios.value;
    return Number(selected) >= preset.minimum ? selected : FALLBACK_RELEASE;
  }

  /** `scene` (a phone, the preset's root and release), then the preset's operation, in order. */
  start(id) {
    const preset = SCENE_PRESETS[id];
    const root = preset.root();
    this.model.learnTree(root);
    this.chosen = preset;
    this.seen = false;
    this.send({ type: "scene", device: "phone", ios: this.release(preset), root });
    const then = preset.then();
    if (then) {
      this.model.learnTree(then.controller);
      this.send(then);
    }
    // A first scene's scene-state makes the model forget what it knew (ids start over), and a
    // presented controller's title is not in the scene's tree: learnt again once it arrives.
    this.learnAgain = then?.controller ?? null;
  }

  /**
   * Called from the panel's update(), before it draws the tree: the hint shows while the scene
   * is still the preset's.
   */
  update() {
    const state = this.model.state;
    if (this.chosen && state !== null && this.learnAgain) {
      this.model.learnTree(this.learnAgain);
      this.learnAgain = null;
    }
    if (this.chosen && state !== null) this.seen = true;
    else if (this.chosen && this.seen) this.chosen = null;  // the scene was left
    const text = this.chosen && state && !state.inFlight && this.chosen.holds(state) ? this.chosen.hint : "";
    if (this.hintLine.textContent !== text) this.hintLine.textContent = text;
    this.hintLine.hidden = text === "";
  }
}
