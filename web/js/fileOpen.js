// Opening a file: the file picker, and a file dropped anywhere on the page. Reads it as text,
// refusing one over MAX_FILE_BYTES or more than one at a time before reading anything; what the
// text is (a pan script, a trace) is the caller's to decide. While a file is dragged over the
// page, <body> carries the class `dropping`.

/** The largest file opened: far above any script or trace the examples make (under 30 kB). */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

export class FileOpen {
  /**
   * @param handlers {{opened(name, text): void, refused(message): void}}
   */
  constructor(document, handlers) {
    this.handlers = handlers;
    this.body = document.body;
    this.input = document.getElementById("open-file");
    this.input.addEventListener("change", () => {
      this.open([...this.input.files]);
      this.input.value = "";  // the same file may be opened again
    });
    const carriesFiles = (event) => event.dataTransfer?.types?.includes("Files");
    document.addEventListener("dragover", (event) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
      this.body.classList.add("dropping");
    });
    document.addEventListener("dragleave", (event) => {
      if (event.relatedTarget === null) this.body.classList.remove("dropping");
    });
    document.addEventListener("drop", (event) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      this.body.classList.remove("dropping");
      this.open([...event.dataTransfer.files]);
    });
  }

  /** Reads the one file in `files` and hands its text on; refuses anything else. */
  async open(files) {
    if (files.length !== 1) {
      this.handlers.refused(files.length === 0 ? "no file" : `one file at a time (got ${files.length})`);
      return;
    }
    const [file] = files;
    if (file.size > MAX_FILE_BYTES) {
      const mib = (size) => (size / 1024 / 1024).toFixed(1);
      this.handlers.refused(`${file.name}: too big (${mib(file.size)} MiB; at most ${mib(MAX_FILE_BYTES)} MiB)`);
      return;
    }
    let text;
    try {
      text = await file.text();
    } catch (error) {
      this.handlers.refused(`${file.name}: cannot read: ${error.message}`);
      return;
    }
    this.handlers.opened(file.name, text);
  }
}
