// What each layer's `content` looks like: the screens of the reference's demos, drawn in the
// layer's own coordinates (origin at its top-left, size = its bounds). The server says where a
// layer is; this module only says what is on it.

/** The herbs of seed 000's pop demo: the strip's thumbnails and the detail they open into. */
export const HERBS = [
  { name: "Basil", colors: ["#3f8f3a", "#a6d36b"], leaf: "#2c6b26", text: "Sweet and peppery; the king of herbs." },
  { name: "Saffron", colors: ["#c2481c", "#f6b73c"], leaf: "#8f2f10", text: "Crimson threads of the crocus flower." },
  { name: "Marjoram", colors: ["#5b7b3a", "#c9d98f"], leaf: "#41602a", text: "Mild and floral, oregano's gentler cousin." },
  { name: "Rosemary", colors: ["#2f5d62", "#9cc5b5"], leaf: "#1f4246", text: "Needles of pine and lemon for roasts." },
  { name: "Anise", colors: ["#6b4a8a", "#d3b8e6"], leaf: "#4b3168", text: "Liquorice-sweet seeds and feathery leaves." },
  { name: "Thyme", colors: ["#7a6a2f", "#e4d48c"], leaf: "#5a4c1c", text: "Tiny leaves, earthy and warm." },
  { name: "Mint", colors: ["#1f8a70", "#9be3c6"], leaf: "#13664f", text: "Cool and bright, for tea and salads." },
  { name: "Sage", colors: ["#5f6f64", "#c8d3c4"], leaf: "#44524a", text: "Soft grey leaves with a savoury bite." },
];

/** The pop demo's strip of thumbnails: where card `index` sits at scroll position `scroll`. */
// Card 1 at scroll 0 sits exactly on the server's default `originFrame` [148, H − 200, 120, 160].
export const STRIP = { gap: 12, width: 120, height: 160, bottomInset: 40, firstX: 16 };

export function cardFrame(index, scroll, container) {
  const [, height] = container;
  return [
    STRIP.firstX + (index - scroll) * (STRIP.width + STRIP.gap),
    height - STRIP.bottomInset - STRIP.height,
    STRIP.width,
    STRIP.height,
  ];
}

function roundedRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, Math.max(0, Math.min(r, w / 2, h / 2)));
}

function lines(ctx, x, y, widths, gap, color, height = 8) {
  ctx.fillStyle = color;
  widths.forEach((w, i) => {
    roundedRect(ctx, x, y + i * gap, w, height, height / 2);
    ctx.fill();
  });
}

function statusBar(ctx, w, color) {
  ctx.fillStyle = color;
  ctx.font = "600 15px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  ctx.textAlign = "left";
  ctx.fillText("9:41", 28, 26);
  ctx.textAlign = "right";
  ctx.fillText("●●● ▮", w - 24, 26);
  ctx.textAlign = "left";
}

/** A herb "photo": a gradient and a sprig, filling w × h. */
export function drawHerb(ctx, herb, w, h) {
  const gradient = ctx.createLinearGradient(0, 0, w, h);
  gradient.addColorStop(0, herb.colors[1]);
  gradient.addColorStop(1, herb.colors[0]);
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, w, h);
  // The sprig scales with the picture, so a thumbnail and its detail look alike.
  const s = Math.min(w, h) / 120;
  ctx.save();
  ctx.translate(w * 0.5, h * 0.62);
  ctx.strokeStyle = herb.leaf;
  ctx.lineWidth = 3 * s;
  ctx.lineCap = "round";
  ctx.beginPath();
  ctx.moveTo(0, 40 * s);
  ctx.quadraticCurveTo(-6 * s, 0, 4 * s, -48 * s);
  ctx.stroke();
  ctx.fillStyle = herb.leaf;
  for (let i = 0; i < 5; i += 1) {
    const y = 28 * s - i * 17 * s;
    for (const side of [-1, 1]) {
      ctx.save();
      ctx.translate(side * 3 * s, y);
      ctx.rotate(side * (0.9 - i * 0.08));
      ctx.beginPath();
      ctx.ellipse(side * 13 * s, 0, (14 - i) * s, 6 * s, 0, 0, Math.PI * 2);
      ctx.fill();
      ctx.restore();
    }
  }
  ctx.restore();
}

function drawCard(ctx, herb, w, h) {
  drawHerb(ctx, herb, w, h);
  ctx.fillStyle = "rgba(0,0,0,0.35)";
  ctx.fillRect(0, h - 30, w, 30);
  ctx.fillStyle = "#fff";
  ctx.font = "600 14px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  ctx.textAlign = "left";
  ctx.fillText(herb.name, 10, h - 15);
}

/** Pop's presenter: the herb list with its scrolling strip (the selected card is its own layer). */
function herbList(ctx, w, h, scene) {
  ctx.fillStyle = "#f4efe6";
  ctx.fillRect(0, 0, w, h);
  statusBar(ctx, w, "#3b3325");
  ctx.fillStyle = "#2d2619";
  ctx.font = "700 34px system-ui, sans-serif";
  ctx.textBaseline = "alphabetic";
  ctx.fillText("Herbs", 20, 100);
  ctx.fillStyle = "#7b705e";
  ctx.font = "16px system-ui, sans-serif";
  ctx.fillText("Tap a herb to open it; drag to", 20, 132);
  ctx.fillText("scrub the transition.", 20, 154);
  lines(ctx, 20, 190, [w - 40, w - 80, w - 60, w - 110, w - 70], 22, "#e2d9c8", 10);
  ctx.fillStyle = "#2d2619";
  ctx.font = "600 17px system-ui, sans-serif";
  const [, stripY] = cardFrame(0, 0, [w, h]);
  ctx.fillText("Fresh this week", 20, stripY - 16);
  HERBS.forEach((herb, index) => {
    if (index === scene.selected) return;  // drawn by the server's `thumbnail` layer
    const [x, y, cw, ch] = cardFrame(index, scene.scroll, [w, h]);
    if (x + cw < 0 || x > w) return;
    ctx.save();
    roundedRect(ctx, x, y, cw, ch, 20);
    ctx.clip();
    ctx.translate(x, y);
    drawCard(ctx, herb, cw, ch);
    ctx.restore();
  });
}

/** Pop's presented screen: the tapped herb, full screen. */
function herbDetail(ctx, w, h, scene) {
  const herb = HERBS[scene.selected] ?? HERBS[0];
  drawHerb(ctx, herb, w, h);
  const gradient = ctx.createLinearGradient(0, h * 0.55, 0, h);
  gradient.addColorStop(0, "rgba(0,0,0,0)");
  gradient.addColorStop(1, "rgba(0,0,0,0.7)");
  ctx.fillStyle = gradient;
  ctx.fillRect(0, h * 0.55, w, h * 0.45);
  statusBar(ctx, w, "#fff");
  ctx.fillStyle = "#fff";
  ctx.font = "700 40px system-ui, sans-serif";
  ctx.textBaseline = "alphabetic";
  ctx.fillText(herb.name, 24, h - 150);
  ctx.font = "17px system-ui, sans-serif";
  ctx.fillText(herb.text, 24, h - 115, w - 48);
  lines(ctx, 24, h - 90, [w - 48, w - 90, w - 70], 20, "rgba(255,255,255,0.45)");
}

/** Reveal's presenter: the launch screen whose logo grows into the next one. */
function launchScreen(ctx, w, h) {
  ctx.fillStyle = "#0b6e4f";
  ctx.fillRect(0, 0, w, h);
  statusBar(ctx, w, "#d9f2e6");
  ctx.fillStyle = "#d9f2e6";
  ctx.textAlign = "center";
  ctx.font = "700 28px system-ui, sans-serif";
  ctx.fillText("Reveal", w / 2, h * 0.25);
  ctx.font = "16px system-ui, sans-serif";
  ctx.fillText("drag to grow the logo into the app", w / 2, h * 0.25 + 30);
  ctx.textAlign = "left";
}

/** Reveal's presented screen: the app behind the logo, a news feed. */
function feedScreen(ctx, w, h) {
  ctx.fillStyle = "#f5f7fa";
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = "#0b6e4f";
  ctx.fillRect(0, 0, w, 96);
  statusBar(ctx, w, "#fff");
  ctx.fillStyle = "#fff";
  ctx.font = "700 22px system-ui, sans-serif";
  ctx.fillText("Feed", 20, 78);
  const colors = ["#ffb3a7", "#a7d8ff", "#c9f0b5", "#f7e1a1", "#d8c2f5"];
  for (let i = 0; i < 5; i += 1) {
    const y = 116 + i * 142;
    ctx.fillStyle = "#fff";
    roundedRect(ctx, 16, y, w - 32, 126, 14);
    ctx.fill();
    ctx.fillStyle = colors[i];
    roundedRect(ctx, 28, y + 12, 102, 102, 10);
    ctx.fill();
    lines(ctx, 144, y + 20, [w - 190, w - 220, w - 260], 24, "#d5dae2", 10);
  }
}

/** The source screen of the other kinds: a mail-like list. */
function inboxScreen(ctx, w, h) {
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = "#f2f2f7";
  ctx.fillRect(0, 0, w, 110);
  statusBar(ctx, w, "#111");
  ctx.fillStyle = "#111";
  ctx.font = "700 34px system-ui, sans-serif";
  ctx.fillText("Inbox", 20, 94);
  const avatars = ["#ff9500", "#34c759", "#007aff", "#af52de", "#ff2d55", "#5ac8fa", "#ffcc00", "#8e8e93"];
  for (let i = 0; i < 9; i += 1) {
    const y = 122 + i * 78;
    ctx.fillStyle = avatars[i % avatars.length];
    ctx.beginPath();
    ctx.arc(44, y + 30, 22, 0, Math.PI * 2);
    ctx.fill();
    lines(ctx, 80, y + 14, [120 + (i * 37) % 90, w - 120, w - 150], 18, i === 0 ? "#9aa0aa" : "#d1d1d6", 9);
    ctx.fillStyle = "#e5e5ea";
    ctx.fillRect(80, y + 74, w - 80, 1);
  }
}

/** The destination screen of the other kinds: one message, in a different colour scheme. */
function messageScreen(ctx, w, h) {
  const gradient = ctx.createLinearGradient(0, 0, 0, h);
  gradient.addColorStop(0, "#3a2a8c");
  gradient.addColorStop(1, "#7b3fa0");
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, w, h);
  statusBar(ctx, w, "#fff");
  ctx.fillStyle = "#fff";
  ctx.font = "700 30px system-ui, sans-serif";
  ctx.fillText("Message", 20, 94);
  ctx.fillStyle = "#ffcc00";
  ctx.beginPath();
  ctx.arc(w / 2, 260, 80, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = "#3a2a8c";
  ctx.font = "700 64px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText("B", w / 2, 262);
  ctx.textAlign = "left";
  ctx.textBaseline = "alphabetic";
  lines(ctx, 28, 380, [w - 56, w - 80, w - 66, w - 120, w - 56, w - 90], 26, "rgba(255,255,255,0.4)", 11);
}

/** The back of a curled page: paper, shaded toward the fold. */
function pageBack(ctx, w, h) {
  const gradient = ctx.createLinearGradient(0, 0, w, h);
  gradient.addColorStop(0, "#fdfdfb");
  gradient.addColorStop(1, "#d9d7cf");
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, w, h);
}

/** Builds the reveal logo's path from the `welcome` shape, scaled into w × h. */
export function logoPath(shape, w, h) {
  const path = new Path2D();
  const sx = w / shape.size[0];
  const sy = h / shape.size[1];
  for (const [command, ...n] of shape.path) {
    if (command === "M") path.moveTo(n[0] * sx, n[1] * sy);
    else if (command === "L") path.lineTo(n[0] * sx, n[1] * sy);
    else if (command === "C") path.bezierCurveTo(n[0] * sx, n[1] * sy, n[2] * sx, n[3] * sy, n[4] * sx, n[5] * sy);
    else if (command === "Z") path.closePath();
  }
  return path;
}

/**
 * Draws `content` into a w × h box at the origin.
 * @param scene {{kind: string, selected: number, scroll: number, logo: object|null}}
 */
export function drawContent(ctx, content, w, h, scene) {
  const pop = scene.kind === "pop";
  const reveal = scene.kind === "reveal";
  switch (content) {
    case "presenter":
      if (pop) herbList(ctx, w, h, scene);
      else if (reveal) launchScreen(ctx, w, h);
      else inboxScreen(ctx, w, h);
      break;
    case "presented":
      if (pop) herbDetail(ctx, w, h, scene);
      else if (reveal) feedScreen(ctx, w, h);
      else messageScreen(ctx, w, h);
      break;
    case "thumbnail":
      drawCard(ctx, HERBS[scene.selected] ?? HERBS[0], w, h);
      break;
    case "logo":
      if (scene.logo) {
        ctx.fillStyle = "#ffffff";
        ctx.fill(logoPath(scene.logo, w, h));
      }
      break;
    case "pageBack":
      pageBack(ctx, w, h);
      break;
    case "shade":  // a scene's covered view dimmed (the push's parallax): black at the layer's opacity
      ctx.fillStyle = "#000";
      ctx.fillRect(0, 0, w, h);
      break;
    default:
      break;  // "mask" layers are never drawn; an unknown content stays empty
  }
}
