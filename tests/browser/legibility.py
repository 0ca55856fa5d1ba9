"""Whether a page's text can be read: every visible text's colour against the background it is
drawn on, as WCAG computes contrast, in the browser itself (computed styles, so the theme, the
media query and the notebook around the card all count)."""

from __future__ import annotations

#: the texts under ``root`` whose contrast is below ``min``: [{text, ratio, fg, bg}]
LOW_CONTRAST = r"""([root, min]) => {
  function rgba(value) {
    let m = value.match(/^rgba?\(([^)]+)\)$/);
    if (m) {
      const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    m = value.match(/^color\(srgb ([^)]+)\)$/);
    if (m) {
      const p = m[1].split(/[ \/]+/).filter(Boolean).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    throw new Error('unknown colour ' + value);
  }
  function over(top, below) {  // a translucent colour painted over an opaque one
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + below[i] * (1 - a)).concat([1]);
  }
  function background(el) {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];  // the canvas
    for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
    return bg;
  }
  function luminance(c) {
    const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  const out = [];
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || ['SCRIPT', 'STYLE', 'OPTION', 'TITLE'].includes(el.tagName)) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const style = getComputedStyle(el);
    const bg = background(el);
    const fg = over(rgba(el instanceof SVGElement ? style.fill : style.color), bg);
    const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < min) out.push({text: node.textContent.trim().slice(0, 40), ratio: +ratio.toFixed(2),
                               fg: fg.map(Math.round).join(','), bg: bg.map(Math.round).join(',')});
  }
  return out;
}"""

#: the page's own background: how dark it is (relative luminance, 0 black to 1 white)
BACKGROUND_LUMINANCE = r"""() => {
  const m = getComputedStyle(document.documentElement).backgroundColor.match(/\d+(\.\d+)?/g).map(Number);
  const [r, g, b] = m.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


def low_contrast(page, root: str = "body", minimum: float = 4.5) -> list[dict]:
    return page.evaluate(LOW_CONTRAST, [root, minimum])
