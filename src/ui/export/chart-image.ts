// A chart card as a standalone SVG (and a PNG drawn from it), read from the page when asked.
//
// The cards are a mix of HTML and graphics: the line charts are SVG (return, gap, metric), the seed
// multiples are small SVGs laid out in an HTML grid with HTML tick labels, and the turn heatmaps
// are canvases (one pixel per cell) with HTML labels. So the export is a snapshot of the card's
// layout: every inline SVG is cloned in place with the computed styles that matter inlined (CSS
// classes and variables do not exist outside the page), every canvas becomes one <rect> per run of
// equal cells, and the HTML around them becomes SVG: <text> per rendered line of text, <rect>s for
// backgrounds (swatches, colour bars, including linear gradients), borders and outlines. Form
// controls, the export buttons themselves ([data-export-ignore]) and tooltips are left out.
// Everything is built with DOM APIs and written by XMLSerializer; no markup is parsed.

const SVG_NS = 'http://www.w3.org/2000/svg';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Computed properties copied onto every cloned SVG element (presentation that CSS may set). */
const SVG_PROPS = [
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'stroke-linecap',
  'stroke-linejoin', 'opacity', 'color', 'visibility', 'display',
] as const;
const TEXT_PROPS = ['font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'letter-spacing'] as const;
const TEXT_TAGS = new Set(['text', 'tspan', 'textPath']);
const NO_STYLE_TAGS = new Set(['title', 'desc', 'metadata', 'style', 'script']);

interface Ctx {
  /** Top-left of the exported area, in viewport coordinates. */
  ox: number;
  oy: number;
  defs: SVGDefsElement;
  ids: number;
  /** The root's font family (texts state theirs only when it differs). */
  font: string;
}

const el = <K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] => {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
};

const round1 = (v: number) => Math.round(v * 10) / 10;
const r1 = (v: number) => String(round1(v));

/** Alpha of a computed colour ("rgba(0, 0, 0, 0)", "transparent", "rgb(1 2 3 / 0.5)"). */
function alpha(color: string): number {
  if (!color || color === 'transparent' || color === 'none') return 0;
  const m = /rgba?\(([^)]*)\)/.exec(color);
  if (!m) return 1;
  const parts = m[1].split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 4) return 1;
  const a = parts[3];
  return a.endsWith('%') ? parseFloat(a) / 100 : parseFloat(a);
}

/** The first opaque background at or above `start` (the page's colour when none of the card's is). */
export function backgroundOf(start: Element): string {
  for (let e: Element | null = start; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    if (alpha(bg) > 0.99) return bg;
  }
  return '#ffffff';
}

function skipped(e: Element): boolean {
  if (e.hasAttribute('data-export-ignore')) return true;
  const tag = e.tagName.toLowerCase();
  if (tag === 'select' || tag === 'button' || tag === 'input' || tag === 'textarea' || tag === 'script' || tag === 'style' || tag === 'template') return true;
  if (tag === 'label' && e.querySelector('select, input, textarea')) return true;
  return e.classList.contains('plot-tip') || e.classList.contains('chart-tooltip');
}

// ---------------------------------------------------------------------------------------------
// Inline SVGs: cloned, with computed styles inlined

/** Computed values of `props` on `src` that should be written (defaults of non-inherited properties left out). */
function styleOf(src: Element, props: readonly string[], cs = getComputedStyle(src)): [string, string][] {
  const out: [string, string][] = [];
  for (const p of props) {
    const v = cs.getPropertyValue(p);
    if (!v) continue;
    if (p === 'display' && v !== 'none') continue;
    if (p === 'visibility' && v !== 'hidden' && v !== 'collapse') continue;
    if (p === 'opacity' && v === '1') continue;
    if (p === 'dominant-baseline' && v === 'auto') continue;
    if (p === 'letter-spacing' && v === 'normal') continue;
    out.push([p, v]);
  }
  return out;
}

/** `3px, 3px` (or `6 4`) times k. */
const scaleLengths = (v: string, k: number) =>
  v === 'none' ? v : v.split(/[\s,]+/).filter(Boolean).map((x) => `${Math.round(parseFloat(x) * k * 1000) / 1000}px`).join(' ');

/**
 * Inline the computed styles of `src`'s tree onto its clone `dst`. A non-scaling stroke (drawn
 * the same width whatever the zoom) becomes an ordinary one of the width it had on the page —
 * `k` = 1 / the SVG's scale — so the export scales as one picture (a PNG drawn at 2× included).
 */
function inlineStyles(src: Element, dst: Element, k: number): void {
  const tag = src.localName;
  if (!NO_STYLE_TAGS.has(tag)) {
    const style = (dst as SVGElement).style;
    const cs = getComputedStyle(src);
    const props = TEXT_TAGS.has(tag) || tag === 'svg' || tag === 'g' ? [...SVG_PROPS, ...TEXT_PROPS] : SVG_PROPS;
    for (const [p, v] of styleOf(src, props, cs)) style.setProperty(p, v);
    if (cs.getPropertyValue('vector-effect') === 'non-scaling-stroke') {
      dst.removeAttribute('vector-effect');
      style.setProperty('vector-effect', 'none');
      style.setProperty('stroke-width', scaleLengths(cs.getPropertyValue('stroke-width') || '1px', k));
      const dash = cs.getPropertyValue('stroke-dasharray');
      if (dash && dash !== 'none') style.setProperty('stroke-dasharray', scaleLengths(dash, k));
    }
  }
  // clones have the same structure: walk the element children in step
  const a = src.children, b = dst.children;
  for (let i = 0; i < a.length && i < b.length; i++) inlineStyles(a[i], b[i], k);
}

/** How much the SVG's viewBox is scaled to its box (the geometric mean when stretched). */
function svgScale(svg: SVGSVGElement, box: DOMRect): number {
  const vb = svg.viewBox?.baseVal;
  if (!vb || vb.width <= 0 || vb.height <= 0) return 1;
  const sx = box.width / vb.width, sy = box.height / vb.height;
  const align = svg.preserveAspectRatio?.baseVal?.align;
  return align === SVGPreserveAspectRatio.SVG_PRESERVEASPECTRATIO_NONE ? Math.sqrt(sx * sy) : Math.min(sx, sy);
}

function cloneSvg(svg: SVGSVGElement, ctx: Ctx): SVGSVGElement | null {
  const box = svg.getBoundingClientRect();
  if (box.width <= 0 || box.height <= 0) return null;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const scale = svgScale(svg, box);
  inlineStyles(svg, clone, scale > 0 ? 1 / scale : 1);
  const cs = getComputedStyle(svg);
  // the root's own style is the page's layout (width: 100%, a height…), which would override the
  // box set below: keep only its computed presentation
  clone.removeAttribute('style');
  clone.removeAttribute('class');
  for (const [p, v] of styleOf(svg, [...SVG_PROPS, ...TEXT_PROPS], cs)) clone.style.setProperty(p, v);
  clone.setAttribute('x', r1(box.left - ctx.ox));
  clone.setAttribute('y', r1(box.top - ctx.oy));
  clone.setAttribute('width', r1(box.width));
  clone.setAttribute('height', r1(box.height));
  if (!clone.hasAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${r1(box.width)} ${r1(box.height)}`);
  clone.setAttribute('overflow', cs.overflow === 'visible' ? 'visible' : 'hidden');
  // ids of the page (clip paths) stay unique inside the export: it holds one card
  return clone;
}

// ---------------------------------------------------------------------------------------------
// Canvases: one rect per run of equal pixels in a row (the heatmaps are one pixel per cell)

function canvasShapes(canvas: HTMLCanvasElement, ctx: Ctx): SVGElement | null {
  const box = canvas.getBoundingClientRect();
  const w = canvas.width, h = canvas.height;
  if (box.width <= 0 || box.height <= 0 || w === 0 || h === 0) return null;
  const x0 = box.left - ctx.ox, y0 = box.top - ctx.oy, cw = box.width / w, ch = box.height / h;
  let data: Uint8ClampedArray | null = null;
  try {
    data = canvas.getContext('2d')?.getImageData(0, 0, w, h).data ?? null;
  } catch {
    data = null;
  }
  if (!data || w * h > 250_000) {
    // not a 2D canvas, or too many cells for vector shapes: embed its pixels
    const img = el('image', { x: r1(x0), y: r1(y0), width: r1(box.width), height: r1(box.height), preserveAspectRatio: 'none' });
    img.setAttribute('href', canvas.toDataURL('image/png'));
    img.setAttribute('image-rendering', 'pixelated');
    return img;
  }
  const g = el('g', { 'shape-rendering': 'crispEdges' });
  for (let y = 0; y < h; y++) {
    let x = 0;
    while (x < w) {
      const o = (y * w + x) * 4;
      const [r, gr, b, a] = [data[o], data[o + 1], data[o + 2], data[o + 3]];
      let end = x + 1;
      while (end < w) {
        const p = (y * w + end) * 4;
        if (data[p] !== r || data[p + 1] !== gr || data[p + 2] !== b || data[p + 3] !== a) break;
        end++;
      }
      if (a > 0) {
        // edges shared with the neighbours (rounded once), so crisp edges leave no seams
        const left = round1(x0 + x * cw), right = round1(x0 + end * cw), top = round1(y0 + y * ch), bottom = round1(y0 + (y + 1) * ch);
        const rect = el('rect', { x: left, y: top, width: round1(right - left), height: round1(bottom - top), fill: `rgb(${r},${gr},${b})` });
        if (a < 255) rect.setAttribute('fill-opacity', String(Math.round((a / 255) * 1000) / 1000));
        g.appendChild(rect);
      }
      x = end;
    }
  }
  return g;
}

// ---------------------------------------------------------------------------------------------
// HTML: boxes (backgrounds, borders, outlines) and text

/** A <linearGradient> for a computed `linear-gradient(to right|bottom|<deg>, colour stop%, …)`, or null. */
function gradient(image: string, ctx: Ctx): string | null {
  const m = /linear-gradient\((.*)\)/.exec(image);
  if (!m) return null;
  const stops = [...m[1].matchAll(/(rgba?\([^)]*\)|#[0-9a-fA-F]{3,8})\s*([\d.]+%)?/g)];
  if (stops.length < 2) return null;
  const dir = /^\s*(to bottom|180deg)/.test(m[1]) ? { x2: '0', y2: '1' } : { x2: '1', y2: '0' };
  const id = `export-gradient-${ctx.ids++}`;
  const lg = el('linearGradient', { id, x1: '0', y1: '0', ...dir });
  stops.forEach((s, i) => {
    const offset = s[2] ?? `${(i / (stops.length - 1)) * 100}%`;
    lg.appendChild(el('stop', { offset, 'stop-color': s[1] }));
  });
  ctx.defs.appendChild(lg);
  return `url(#${id})`;
}

function paintBox(e: Element, cs: CSSStyleDeclaration, box: DOMRect, out: SVGElement, ctx: Ctx): void {
  const x = box.left - ctx.ox, y = box.top - ctx.oy, w = box.width, h = box.height;
  if (w <= 0 || h <= 0) return;
  const radius = Math.min(parseFloat(cs.borderTopLeftRadius) || 0, w / 2, h / 2);
  const fill = alpha(cs.backgroundColor) > 0 ? cs.backgroundColor : null;
  const grad = cs.backgroundImage && cs.backgroundImage !== 'none' ? gradient(cs.backgroundImage, ctx) : null;
  for (const f of [fill, grad]) if (f) out.appendChild(el('rect', { x: r1(x), y: r1(y), width: r1(w), height: r1(h), rx: r1(radius), fill: f }));
  const sides = (['top', 'right', 'bottom', 'left'] as const).map((s) => ({
    side: s,
    width: parseFloat(cs.getPropertyValue(`border-${s}-width`)) || 0,
    style: cs.getPropertyValue(`border-${s}-style`),
    color: cs.getPropertyValue(`border-${s}-color`),
  }));
  const shown = sides.filter((s) => s.width > 0 && s.style !== 'none' && s.style !== 'hidden' && alpha(s.color) > 0);
  const dash = (style: string, width: number) => (style === 'dashed' ? `${3 * width} ${3 * width}` : style === 'dotted' ? `${width} ${width}` : null);
  const same = shown.length === 4 && shown.every((s) => s.width === shown[0].width && s.style === shown[0].style && s.color === shown[0].color);
  if (same) {
    const bw = shown[0].width;
    const rect = el('rect', { x: r1(x + bw / 2), y: r1(y + bw / 2), width: r1(w - bw), height: r1(h - bw), rx: r1(Math.max(0, radius - bw / 2)), fill: 'none', stroke: shown[0].color, 'stroke-width': bw });
    const d = dash(shown[0].style, bw);
    if (d) rect.setAttribute('stroke-dasharray', d);
    out.appendChild(rect);
  } else
    for (const s of shown) {
      const half = s.width / 2;
      const [x1, y1, x2, y2] =
        s.side === 'top' ? [x, y + half, x + w, y + half]
          : s.side === 'bottom' ? [x, y + h - half, x + w, y + h - half]
            : s.side === 'left' ? [x + half, y, x + half, y + h]
              : [x + w - half, y, x + w - half, y + h];
      const line = el('line', { x1: r1(x1), y1: r1(y1), x2: r1(x2), y2: r1(y2), stroke: s.color, 'stroke-width': s.width });
      const d = dash(s.style, s.width);
      if (d) line.setAttribute('stroke-dasharray', d);
      out.appendChild(line);
    }
}

function paintOutline(cs: CSSStyleDeclaration, box: DOMRect, out: SVGElement, ctx: Ctx): void {
  const width = parseFloat(cs.outlineWidth) || 0;
  if (width <= 0 || cs.outlineStyle === 'none' || alpha(cs.outlineColor) === 0) return;
  const grow = (parseFloat(cs.outlineOffset) || 0) + width / 2;
  out.appendChild(
    el('rect', {
      x: r1(box.left - ctx.ox - grow), y: r1(box.top - ctx.oy - grow), width: r1(box.width + 2 * grow), height: r1(box.height + 2 * grow),
      fill: 'none', stroke: cs.outlineColor, 'stroke-width': width,
    }),
  );
}

function textAt(content: string, left: number, rect: DOMRect, cs: CSSStyleDeclaration, ctx: Ctx): SVGTextElement {
  // the line box's top + 0.8 of its height is the baseline for the usual fonts (ascent ≈ 0.8 of ascent + descent)
  const t = el('text', {
    x: r1(left - ctx.ox),
    y: r1(rect.top - ctx.oy + rect.height * 0.8),
    fill: cs.color,
    'font-size': cs.fontSize,
  });
  if (cs.fontFamily !== ctx.font) t.setAttribute('font-family', cs.fontFamily);
  if (cs.fontWeight !== '400' && cs.fontWeight !== 'normal') t.setAttribute('font-weight', cs.fontWeight);
  if (cs.fontStyle !== 'normal') t.setAttribute('font-style', cs.fontStyle);
  if (alpha(cs.color) < 1) t.setAttribute('fill-opacity', String(alpha(cs.color)));
  t.textContent = content;
  return t;
}

/** One <text> per rendered line of a text node (a wrapped paragraph is measured word by word). */
function paintText(node: Text, cs: CSSStyleDeclaration, out: SVGElement, ctx: Ctx): void {
  const text = node.data;
  if (!text.trim()) return;
  // measure the visible characters only: a text node's leading or trailing space (React splits
  // "J" and " over 2 seeds") is part of the layout, not something to draw
  const first = text.search(/\S/), last = text.search(/\s*$/);
  const range = document.createRange();
  range.setStart(node, first);
  range.setEnd(node, last);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
  if (rects.length === 0) return;
  if (rects.length === 1) {
    out.appendChild(textAt(text.slice(first, last).replace(/\s+/g, ' '), rects[0].left, rects[0], cs, ctx));
    return;
  }
  const lines: { words: string[]; left: number; rect: DOMRect }[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const r = range.getClientRects()[0];
    if (!r || r.width === 0) continue;
    const prev = lines[lines.length - 1];
    if (prev && Math.abs(r.top - prev.rect.top) <= r.height / 2) prev.words.push(m[0]);
    else lines.push({ words: [m[0]], left: r.left, rect: r });
  }
  for (const l of lines) out.appendChild(textAt(l.words.join(' '), l.left, l.rect, cs, ctx));
}

function paint(e: Element, out: SVGElement, ctx: Ctx, root: boolean): void {
  if (skipped(e)) return;
  const cs = getComputedStyle(e);
  if (cs.display === 'none' || parseFloat(cs.opacity) === 0) return;
  if (e instanceof SVGSVGElement) {
    if (cs.visibility !== 'hidden') {
      // its CSS box first (the seed multiples' axes are its borders)
      paintBox(e, cs, e.getBoundingClientRect(), out, ctx);
      const c = cloneSvg(e, ctx);
      if (c) out.appendChild(c);
    }
    return;
  }
  if (!(e instanceof HTMLElement)) return;
  const visible = cs.visibility !== 'hidden';
  const box = e.getBoundingClientRect();
  if (e instanceof HTMLCanvasElement) {
    if (visible) {
      const c = canvasShapes(e, ctx);
      if (c) out.appendChild(c);
    }
    paintOutline(cs, box, out, ctx);
    return;
  }
  if (visible && !root) paintBox(e, cs, box, out, ctx);
  // content an element clips (a caption cut short with an ellipsis) stays inside its box
  let inner = out;
  if (!root && (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') && box.width > 0 && box.height > 0) {
    const id = `export-clip-${ctx.ids++}`;
    const clip = el('clipPath', { id });
    clip.appendChild(el('rect', { x: r1(box.left - ctx.ox), y: r1(box.top - ctx.oy), width: r1(box.width), height: r1(box.height) }));
    ctx.defs.appendChild(clip);
    inner = el('g', { 'clip-path': `url(#${id})` });
    out.appendChild(inner);
  }
  for (const child of e.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) {
      if (visible) paintText(child as Text, cs, inner, ctx);
    } else if (child instanceof Element) paint(child, inner, ctx, false);
  }
  if (visible && !root) paintOutline(cs, box, out, ctx);
}

/** The chart's title: its first heading. */
export function chartTitle(element: Element): string {
  return (element.querySelector('h1, h2, h3, h4')?.textContent ?? element.getAttribute('aria-label') ?? 'Chart').trim();
}

interface Built {
  svg: SVGSVGElement;
  width: number;
  height: number;
}

function build(element: Element): Built {
  const box = element.getBoundingClientRect();
  const width = Math.max(1, Math.ceil(Math.max(box.width, element.scrollWidth)));
  const height = Math.max(1, Math.ceil(Math.max(box.height, element.scrollHeight)));
  const svg = el('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
  svg.setAttributeNS(XMLNS_NS, 'xmlns', SVG_NS);
  const cs = getComputedStyle(element);
  svg.setAttribute('font-family', cs.fontFamily);
  svg.setAttribute('font-size', cs.fontSize);
  const title = el('title');
  title.textContent = chartTitle(element);
  svg.appendChild(title);
  const label = element.getAttribute('aria-label');
  if (label) {
    const desc = el('desc');
    desc.textContent = label;
    svg.appendChild(desc);
  }
  const defs = el('defs');
  svg.appendChild(defs);
  svg.appendChild(el('rect', { x: 0, y: 0, width, height, fill: backgroundOf(element) }));
  const ctx: Ctx = { ox: box.left - element.scrollLeft, oy: box.top - element.scrollTop, defs, ids: 0, font: cs.fontFamily };
  const body = el('g');
  paint(element, body, ctx, true);
  svg.appendChild(body);
  if (!defs.hasChildNodes()) defs.remove();
  return { svg, width, height };
}

/** The chart card as a standalone SVG document (UTF-8 text with an XML declaration). */
export function chartSvg(element: Element): string {
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(build(element).svg) + '\n';
}

/** Largest PNG drawn (pixels): beyond it the scale is lowered. */
const MAX_PIXELS = 32e6;

/** The chart card as a PNG, `scale` pixels per CSS pixel (2: sharp on high-density screens and in print). */
export async function chartPng(element: Element, scale = 2): Promise<Blob> {
  const { svg, width, height } = build(element);
  const text = new XMLSerializer().serializeToString(svg);
  const s = Math.max(0.1, Math.min(scale, Math.sqrt(MAX_PIXELS / (width * height))));
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('the chart SVG could not be drawn'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * s);
    canvas.height = Math.round(height * s);
    const g = canvas.getContext('2d');
    if (!g) throw new Error('no 2D canvas to draw the PNG');
    g.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be encoded'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
