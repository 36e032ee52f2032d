import { describe, expect, it } from 'vitest';
import { placeTreeLabels, type LabelNode } from '../src/ui/charts/tree-labels';

// The policy tree's value labels at the classroom's 20 px: beside, above, below or left of their
// node, never over another label or node, inside the drawing; the important ones first.

const W = 12; // px a character at 20 px
const measure = (t: string) => t.length * W;
const node = (cx: number, cy: number, forms: string[], priority = 0): LabelNode => ({ cx, cy, r: 11, forms, extra: [], priority });

function boxes(nodes: LabelNode[], font: number) {
  const placed = placeTreeLabels(nodes, measure, font, 1, { x0: 0, y0: 0, x1: 400, y1: 300 });
  return placed.map((p) => {
    if (!p) return null;
    const w = measure(p.text);
    const x0 = p.anchor === 'start' ? p.x : p.anchor === 'middle' ? p.x - w / 2 : p.x - w;
    return { x0, x1: x0 + w, y0: p.y - 0.45 * font, y1: p.y + 0.45 * font, p };
  });
}

const hits = (a: { x0: number; x1: number; y0: number; y1: number }, b: { x0: number; x1: number; y0: number; y1: number }) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

describe('placeTreeLabels', () => {
  it('puts a label right of its node where there is room', () => {
    const [b] = boxes([node(50, 100, ['.999'])], 20);
    expect(b!.p).toEqual({ text: '.999', x: 64, y: 100, anchor: 'start' });
  });

  it('a node whose right is taken by the next node in its row gets its label elsewhere, overlapping nothing', () => {
    // a chain along one row, 60 px apart: ".999" (48 px) beside each node would run into the next
    const nodes = [0, 1, 2, 3, 4].map((d) => node(20 + d * 60, 150, ['.999'], 5 - d));
    // and rows 21 px apart around it
    nodes.push(node(80, 129, ['.000 +3']), node(140, 171, ['.000 +12']));
    const got = boxes(nodes, 20);
    const circles = nodes.map((n) => ({ x0: n.cx - n.r, x1: n.cx + n.r, y0: n.cy - n.r, y1: n.cy + n.r }));
    got.forEach((a, i) => {
      if (!a) return;
      expect(a.x0).toBeGreaterThanOrEqual(0);
      expect(a.x1).toBeLessThanOrEqual(400);
      got.slice(i + 1).forEach((b) => b && expect(hits(a, b), `${a.p.text} × ${b.p.text}`).toBe(false));
      circles.forEach((c, k) => k !== i && expect(hits(a, c), `${a.p.text} over node ${k}`).toBe(false));
    });
    // each chain node still shows its value somewhere
    for (let i = 0; i < 5; i++) expect(got[i], `chain node ${i}`).not.toBeNull();
  });

  it('falls back to a shorter form, and leaves a label off (rather than overlap) when nothing fits', () => {
    // boxed in by the bounds: the second node's full label runs past the right edge, its value alone fits
    const placed = placeTreeLabels([node(20, 20, ['1.0'], 2), node(90, 20, ['.000 +39', '.000'], 1)], measure, 20, 1, { x0: 0, y0: 0, x1: 160, y1: 40 });
    expect(placed[0]!.text).toBe('1.0');
    expect(placed[1]!.text).toBe('.000');
    // no place at all: left off
    expect(placeTreeLabels([node(20, 20, ['.000'])], measure, 20, 1, { x0: 0, y0: 0, x1: 40, y1: 40 })).toEqual([null]);
  });
});
