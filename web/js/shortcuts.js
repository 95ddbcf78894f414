// Keyboard shortcuts and the `?` overlay that lists them: step a frame, play/pause and go live
// (the timeline, `page.timeline`), slow motion (`page.slowMotion`). A key whose part is not on
// the page does nothing (the overlay says so); no key acts while the user types in a field or
// holds a modifier. test_inspector_state.py holds that `?` opens the overlay.

/** The shortcuts, in the order the overlay lists them. `run` returns false when its part is missing. */
export const SHORTCUTS = [
  { keys: ["←"], codes: ["ArrowLeft"], what: "previous frame", part: "timeline", run: (p) => p.timeline.step(-1) },
  { keys: ["→"], codes: ["ArrowRight"], what: "next frame", part: "timeline", run: (p) => p.timeline.step(1) },
  { keys: ["space"], codes: [" "], what: "play / pause the selected gesture", part: "timeline",
    run: (p) => p.timeline.togglePlay() },
  { keys: ["l"], codes: ["l", "L"], what: "back to live", part: "timeline", run: (p) => p.timeline.goLive() },
  { keys: ["s"], codes: ["s", "S"], what: "slow motion on / off", part: "slowMotion",
    run: (p) => p.slowMotion.toggle() },
  { keys: ["?"], codes: ["?"], what: "this list", part: null, run: null },
  { keys: ["Esc"], codes: [], what: "close this list", part: null, run: null },
];

const PART_NAMES = { timeline: "the timeline", slowMotion: "slow motion" };

/** Whether a key event comes from a place where keys are text: a field, a select, an editor. */
export function typing(target) {
  if (!target || typeof target.closest !== "function") return false;
  return target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']") !== null;
}

export class Shortcuts {
  /** @param page the page record: `timeline` and `slowMotion` are looked up at each key */
  constructor(page, document) {
    this.page = page;
    this.dialog = document.getElementById("shortcuts");
    this.list = document.getElementById("shortcuts-list");
    document.getElementById("shortcuts-open").addEventListener("click", () => this.toggle());
    document.addEventListener("keydown", (event) => this.key(event));
  }

  key(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (event.key === "?") {
      event.preventDefault();
      this.toggle();
      return;
    }
    // Compare mode covers the page: its timeline and slow motion are out of sight, keys leave them be.
    if (this.page.compare?.isOpen) return;
    const shortcut = SHORTCUTS.find((s) => s.run && s.codes.includes(event.key));
    if (!shortcut || !this.available(shortcut)) return;
    // Space and the arrows would scroll the page or press the focused button.
    event.preventDefault();
    shortcut.run(this.page);
  }

  available(shortcut) {
    return shortcut.part === null || Boolean(this.page[shortcut.part]);
  }

  get open() {
    return this.dialog.open;
  }

  toggle() {
    if (this.dialog.open) {
      this.dialog.close();
      return;
    }
    this.fill();
    this.dialog.showModal();
  }

  fill() {
    const document = this.dialog.ownerDocument;
    this.list.replaceChildren();
    for (const shortcut of SHORTCUTS) {
      const term = document.createElement("dt");
      for (const key of shortcut.keys) {
        const kbd = document.createElement("kbd");
        kbd.textContent = key;
        term.append(kbd);
      }
      const description = document.createElement("dd");
      description.textContent = shortcut.what;
      if (!this.available(shortcut)) {
        description.classList.add("unavailable");
        description.textContent += ` (${PART_NAMES[shortcut.part]} is not on this page)`;
      }
      this.list.append(term, description);
    }
  }
}
