// Where each policy-tree node's label goes (its value V^π, "exit", "+n" hidden below): beside the
// node where there is room, else above, below or left of it, never over another label or node,
// so the classroom's 20 px type does not crowd (docs/architecture.md, the charts). Labels are
// placed in order of importance (the optimal path, the exit, then by the probability of reaching
// the node); a label with no free place is left off (the node's tooltip still gives its value).

export interface LabelNode {
  cx: number;
  cy: number;
  r: number;
  /** The label's forms, longest first (e.g. ".000 +39", ".000"): the first that finds a place is drawn. */
  forms: string[];
  /** Further lines drawn under the label (the details), whose widths count too. */
  extra: string[];
  /** Higher goes first. */
  priority: number;
}

export interface PlacedLabel {
  text: string;
  /** The text's x and the y of its first line's middle (drawn with dy 0.35em). */
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const hits = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** Half the height of a line's ink (digits and lower case without descenders: 0.73 em), with a margin. */
const HALF_INK = 0.45;
/** Line spacing of a label's further lines (the details), in em. */
export const LINE_EM = 1.05;

/**
 * The labels' places, in input order (null: left off). `font` in px; `lines`: lines a label has
 * (1, or up to 3 with the details); `bounds`: the drawing's box labels must stay in.
 */
export function placeTreeLabels(nodes: readonly LabelNode[], measure: (text: string) => number, font: number, lines: number, bounds: Box, gap = 3): (PlacedLabel | null)[] {
  const taken: Box[] = nodes.map((n) => ({ x0: n.cx - n.r, y0: n.cy - n.r, x1: n.cx + n.r, y1: n.cy + n.r }));
  const out: (PlacedLabel | null)[] = nodes.map(() => null);
  const order = nodes.map((_, i) => i).sort((a, b) => nodes[b].priority - nodes[a].priority || a - b);
  const up = HALF_INK * font, down = HALF_INK * font + (lines - 1) * LINE_EM * font;
  for (const i of order) {
    const { cx, cy, r } = nodes[i];
    const aboveY = cy - r - 2 - down, belowY = cy + r + 2 + up;
    for (const text of nodes[i].forms) {
      const w = Math.max(measure(text), ...nodes[i].extra.map(measure));
      const candidates: PlacedLabel[] = [
        { text, x: cx + r + gap, y: cy, anchor: 'start' },
        { text, x: cx, y: aboveY, anchor: 'middle' },
        { text, x: cx, y: belowY, anchor: 'middle' },
        { text, x: cx - r, y: aboveY, anchor: 'start' },
        { text, x: cx - r, y: belowY, anchor: 'start' },
        { text, x: cx - r - gap, y: cy, anchor: 'end' },
      ];
      const fit = candidates.find((c) => {
        const x0 = c.anchor === 'start' ? c.x : c.anchor === 'middle' ? c.x - w / 2 : c.x - w;
        const box = { x0, y0: c.y - up, x1: x0 + w, y1: c.y + down };
        if (box.x0 < bounds.x0 || box.x1 > bounds.x1 || box.y0 < bounds.y0 || box.y1 > bounds.y1) return false;
        if (taken.some((t, k) => k !== i && hits(box, t))) return false;
        taken.push(box);
        return true;
      });
      if (fit) {
        out[i] = fit;
        break;
      }
    }
  }
  return out;
}
