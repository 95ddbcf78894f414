// Where an error from the server is shown: against the request that caused it (the network
// lab, the watch form, the scene panel, the settings field it names), or, for one no request
// caused, by its field or code.

import { SCENE_ERRORS } from "./scene.js";

export class ErrorRouter {
  /**
   * @param page {{requests, formFor, lab, scenePanel, sceneModel}}
   */
  constructor(page, document) {
    this.page = page;
    this.watchState = document.getElementById("watch-state");
  }

  show(error) {
    const { requests, formFor, lab, scenePanel, sceneModel } = this.page;
    if (error.seq !== undefined) {
      console.warn("pointer refused:", error);
      return;
    }
    const entry = requests.settleError(error);
    if (entry?.field === "network") {
      lab.refused(error);
      return;
    }
    if (entry?.kind === "join") {
      this.watchState.textContent = error.message;
      return;
    }
    // A scene request's refusal, or one only a scene message can cause (when an unsolicited
    // scene-state settled the request first), goes to the scene panel.
    if (entry?.kind === "scene" || SCENE_ERRORS.has(error.code) || (entry?.kind === "play" && sceneModel.active)) {
      scenePanel.showError(`${error.code}: ${error.message}`);
      return;
    }
    const field = error.field ?? entry?.field ?? "*";
    formFor(field).showError(field, error.message);
  }
}
