// Where the tour's "step n ▼" tag goes beside the element a step points at: the first of a few
// places around (then inside) the element's ring that stays on screen and covers no control of the
// page, so a pointer never hides the button it may be asking for (the classroom's Run sits right
// above its tree; the tour's own panel counts as a control, as it is drawn over the tag). Headings
// and progress bars are avoided too, but a place that covers one of them still beats one that
// covers a control; among places that cover something, the least covered.

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface TagPlace {
  /** The tag's top-left, in the ring's coordinates. */
  left: number;
  top: number;
  /** Whether the tag's arrow points down (the tag is above the element) or up. */
  above: boolean;
}

const GAP = 10;

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * The tag's place for a ring at `ring` (viewport coordinates), a tag of `tag` size, the
 * controls' boxes to keep clear of, the other boxes better left clear (`soft`) and the viewport's size.
 */
export function placeTag(ring: Rect, tag: { width: number; height: number }, controls: readonly Rect[], viewport: { width: number; height: number }, soft: readonly Rect[] = []): TagPlace {
  const { width: w, height: h } = tag;
  const above = -h - GAP, below = ring.height + GAP;
  const start = 12, end = ring.width - w - 12, middle = (ring.width - w) / 2;
  const candidates: TagPlace[] = [
    { left: start, top: above, above: true },
    // inside the ring, below its top edge (a card's corner): the element's own controls count like any other
    { left: start, top: GAP, above: false },
    { left: end, top: GAP, above: false },
    { left: end, top: above, above: true },
    { left: middle, top: above, above: true },
    { left: start, top: below, above: false },
    { left: end, top: below, above: false },
    { left: middle, top: below, above: false },
    { left: middle, top: GAP, above: false },
    { left: start, top: ring.height - h - GAP, above: true },
    { left: end, top: ring.height - h - GAP, above: true },
  ];
  // then along the ring's top and bottom edges, from hanging off its left end to hanging off its right
  for (let k = 0; k <= 8; k++) {
    const left = -w + 12 + (k / 8) * (ring.width - 24 + w);
    candidates.push({ left, top: above, above: true }, { left, top: below, above: false });
  }
  let best: TagPlace | null = null;
  let bestCover = Infinity;
  for (const c of candidates) {
    const r = { left: ring.left + c.left, top: ring.top + c.top, width: w, height: h };
    if (r.left < 0 || r.top < 0 || r.left + w > viewport.width || r.top + h > viewport.height) continue;
    // any covered control outweighs every soft box
    const cover = controls.reduce((s, b) => s + overlap(r, b), 0) * 1e9 + soft.reduce((s, b) => s + overlap(r, b), 0);
    if (cover === 0) return c;
    if (cover < bestCover) [best, bestCover] = [c, cover];
  }
  return best ?? candidates[0];
}
