// Identical curves on the return chart: drawn over one another they show as one colour, so the
// chart labels them as a group ("8 algorithms at 0.30: GRPO, GSPO, …") at the line's end, and
// labels every line at its end once lines overlap (docs/architecture.md, the charts).

export interface GroupInput {
  id: string;
  label: string;
  color: string;
  points: readonly { x: number; mean: number | null }[];
}

export interface LineGroup {
  ids: string[];
  labels: string[];
  color: string;
  /** The last point with a value: where the label goes. */
  end: { x: number; y: number } | null;
}

/**
 * Algorithms whose curves coincide: every point within `tol` of the group's first curve (a
 * missing value only matches a missing value). Groups in the order of their first member.
 */
export function identicalGroups(series: readonly GroupInput[], tol: number): LineGroup[] {
  const groups: { head: GroupInput; members: GroupInput[] }[] = [];
  for (const s of series) {
    const g = groups.find((x) => sameCurve(x.head, s, tol));
    if (g) g.members.push(s);
    else groups.push({ head: s, members: [s] });
  }
  return groups.map(({ head, members }) => ({ ids: members.map((m) => m.id), labels: members.map((m) => m.label), color: head.color, end: endOf(head) }));
}

function sameCurve(a: GroupInput, b: GroupInput, tol: number): boolean {
  if (a.points.length !== b.points.length) return false;
  for (let i = 0; i < a.points.length; i++) {
    const u = a.points[i].mean, v = b.points[i].mean;
    if (u === null || v === null ? u !== v : !(Math.abs(u - v) <= tol)) return false;
  }
  return true;
}

function endOf(s: GroupInput): { x: number; y: number } | null {
  for (let i = s.points.length - 1; i >= 0; i--) {
    const m = s.points[i].mean;
    if (m !== null && Number.isFinite(m)) return { x: s.points[i].x, y: m };
  }
  return null;
}

/** "8 algorithms at 0.30: GRPO, GSPO, PPO+GRAE, …" (at most `shown` names); one algorithm: its label. */
export function groupLabel(labels: readonly string[], at: string, shown = 3): string {
  if (labels.length === 1) return labels[0];
  const names = labels.length > shown ? `${labels.slice(0, shown).join(', ')}, …` : labels.join(', ');
  return `${labels.length} algorithms at ${at}: ${names}`;
}

/**
 * The longest form of a line's end label that is at most `maxWidth` wide: a group names fewer
 * algorithms ("8 algorithms at 0.30: GRPO, …"), then none ("8 algorithms at 0.30"), then
 * "8 at 0.30"; a lone line's label is cut short with "…". Null when not even the shortest fits.
 * (The label's title keeps every name.)
 */
export function fitGroupLabel(labels: readonly string[], at: string, maxWidth: number, measure: (text: string) => number): string | null {
  const forms: string[] = [];
  if (labels.length === 1) {
    const [label] = labels;
    forms.push(label);
    for (let n = label.length - 1; n >= 1; n--) forms.push(`${label.slice(0, n).trimEnd()}…`);
  } else {
    for (let k = Math.min(3, labels.length); k >= 1; k--) forms.push(groupLabel(labels, at, k));
    forms.push(`${labels.length} algorithms at ${at}`, `${labels.length} at ${at}`);
  }
  return forms.find((t) => measure(t) <= maxWidth) ?? null;
}

/**
 * Label positions (pixels) at the lines' ends, pushed apart to at least `gap` pixels, top to
 * bottom, inside [top, bottom]. Returns the y of each input, in input order.
 */
export function spreadLabels(ys: readonly number[], gap: number, top: number, bottom: number): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  const out = new Array<number>(ys.length);
  let last = -Infinity;
  for (const o of order) {
    const y = Math.max(o.y, last + gap, top);
    out[o.i] = y;
    last = y;
  }
  // pushed past the bottom: shift the whole stack up as far as the top allows
  const over = Math.max(0, last - bottom);
  if (over > 0) for (let i = 0; i < out.length; i++) out[i] = Math.max(top, out[i] - over);
  return out;
}
