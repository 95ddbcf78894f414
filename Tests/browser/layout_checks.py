"""What a page's layout must hold, measured in the page: no text overflowing its box
(`scrollWidth ≤ clientWidth` on every label, heading, table cell, button, select, output), no
word broken across two lines, no select narrower than its chosen option, and at phone width no
element wider than the screen. Used by test_inspector_layout.py and scripts/page_screenshots.py."""

# Returns {overflowing: [...], broken: [...], clipped: [...], wide: [...], scrollWidth, screenWidth};
# each entry names the element (tag#id.class "text") and its widths.
LAYOUT_PROBLEMS = r"""
const name = (el) => {
  const id = el.id ? '#' + el.id : '';
  const cls = typeof el.className === 'string' && el.className ? '.' + el.className.split(' ').join('.') : '';
  return `${el.tagName.toLowerCase()}${id}${cls} "${(el.textContent || el.value || '').trim().slice(0, 40)}"`;
};
const visible = (el) => {
  if (el.closest('[hidden], dialog:not([open])')) return false;
  const style = getComputedStyle(el);
  if (style.display === 'none' || style.visibility === 'hidden') return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
const overflowing = [], broken = [], clipped = [], wide = [];
const boxes = 'label, h1, h2, h3, legend, th, td, dt, dd, button, select, output, summary, kbd, .legend, .note';
for (const el of document.querySelectorAll(boxes)) {
  if (!visible(el)) continue;
  if (el.scrollWidth > el.clientWidth + 1) overflowing.push(`${name(el)} ${el.scrollWidth} > ${el.clientWidth}`);
}
// A word broken across lines: a Range over it has client rects on two lines. A compound may
// break at its hyphen ("iOS-/version"), as typesetting does: its parts count as words.
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const range = document.createRange();
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  if (!parent || !visible(parent) || parent.closest('script, style, textarea, #session-id')) continue;
  const text = node.textContent;
  const words = /[^\s\-\u2010]+/g;
  for (let m = words.exec(text); m; m = words.exec(text)) {
    if (m[0].length < 2) continue;
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (tops.size > 1) broken.push(`${name(parent)} word "${m[0]}"`);
  }
}
// A select must show its chosen option whole: the text's width plus its padding and arrow.
const canvas = document.createElement('canvas').getContext('2d');
for (const select of document.querySelectorAll('select')) {
  if (!visible(select) || select.selectedIndex < 0) continue;
  const style = getComputedStyle(select);
  canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = canvas.measureText(select.options[select.selectedIndex].text).width;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
  if (text > room + 1) clipped.push(`${name(select)} needs ${Math.ceil(text)} has ${Math.floor(room)}`);
}
const screenWidth = arguments[0];
if (screenWidth < 760) {
  for (const el of document.querySelectorAll('body *')) {
    if (!visible(el) || el.closest('.offscreen')) continue;
    const r = el.getBoundingClientRect();
    if (r.right > screenWidth + 1 || r.left < -1) {
      wide.push(`${name(el)} ${Math.round(r.left)}…${Math.round(r.right)}`);
    }
  }
}
return {overflowing, broken, clipped, wide, scrollWidth: document.documentElement.scrollWidth, screenWidth};
"""


def set_viewport(driver, width, height, mobile=False, scale=1):
    """Makes the page's viewport exactly `width` × `height` CSS px (a window's size includes its
    frame, so the viewport is set through the DevTools protocol)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
    if mobile:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def layout_problems(page, width):
    """The problems at a viewport `width` CSS px wide (below 760: a phone, where also no element
    may reach past the screen's edge)."""
    return page.js(LAYOUT_PROBLEMS, width)
