// A sheet's detents on the canvas: each phone sheet's detent lines, faint and labelled, from the
// latest scene-state's `sheets`, and the sheet's grabber (scene layers of role `grabber`), drawn
// over the card after the animator's layers (at rest the card is the armed swipe-down's layer,
// drawn on top of the still views). docs/PAGE.md "Sheet detents".

const LINE = "rgba(255, 255, 255, 0.28)";
const LABEL = "rgba(255, 255, 255, 0.55)";
const GRABBER = "rgba(60, 60, 67, 0.3)";  // UIKit's grabber: a translucent grey pill (chosen)

export class SheetDetents {
  /** `model`: the SceneModel (its `state` is the latest scene-state, or null). */
  constructor(model) {
    this.model = model;
  }

  /** Draws over the frame in device points (the caller set the base transform). */
  draw(ctx, sceneFrame) {
    const sheets = this.model.state?.sheets ?? [];
    const width = this.model.state?.size?.[0] ?? 390;
    ctx.save();
    for (const sheet of sheets) {
      for (const detent of sheet.detents ?? []) {
        if (!Number.isFinite(detent.top)) continue;
        const selected = detent.id === sheet.detent;
        ctx.strokeStyle = LINE;
        ctx.lineWidth = selected ? 1.5 : 1;
        ctx.setLineDash(selected ? [] : [6, 4]);
        ctx.beginPath();
        ctx.moveTo(0, detent.top);
        ctx.lineTo(width, detent.top);
        ctx.stroke();
        ctx.fillStyle = LABEL;
        ctx.font = "10px -apple-system, system-ui, sans-serif";
        ctx.textAlign = "right";
        ctx.textBaseline = "bottom";
        ctx.fillText(detent.id, width - 6, detent.top - 2);
      }
    }
    ctx.setLineDash([]);
    for (const layer of sceneFrame?.layers ?? []) {
      if (layer.role !== "grabber" || !(layer.opacity > 0)) continue;
      const [x, y, w, h] = layer.frame;
      ctx.globalAlpha = Math.min(layer.opacity, 1);
      ctx.fillStyle = GRABBER;
      ctx.beginPath();
      ctx.roundRect(x, y, w, h, h / 2);
      ctx.fill();
    }
    ctx.restore();
  }
}
