import type { AlgorithmEvidence, Claim } from '../core/claims';

// The verdict panel's pure side: what a selected verdict highlights in the charts (the algorithms
// and, for claim 3, the seed indices it was decided on) as one small style sheet, and the evidence
// numbers as table cells.

export interface Highlight {
  /** Algorithm ids the verdict was decided on (evidence.algorithms, and the controls beside claim 2's). */
  algorithms: string[];
  /** Seed indices (claim 3: where REV reached J* and a critic-free method stayed stuck), or null: every seed. */
  seeds: number[] | null;
}

const idsOf = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((e) => (e && typeof e === 'object' && typeof (e as { id?: unknown }).id === 'string' ? (e as { id: string }).id : null)).filter((x): x is string => x !== null) : [];

export function highlightOf(c: Claim): Highlight {
  const ids = new Set(idsOf(c.evidence.algorithms));
  if (c.claim === 2) for (const id of idsOf(c.evidence.controls)) ids.add(id);
  const raw = c.evidence.seedIndices;
  const seeds = c.claim === 3 && Array.isArray(raw) && raw.length > 0 ? raw.filter((x): x is number => typeof x === 'number') : null;
  return { algorithms: [...ids], seeds };
}

/** A CSS string literal for an attribute value (ids are free text). */
export const cssString = (v: string): string => `"${v.replace(/["\\\n\r\f]/g, (ch) => `\\${ch.charCodeAt(0).toString(16)} `)}"`;

/** Where highlighting applies: every chart of the explorer and of the classroom layout. */
const SCOPE = ':is(.charts, .classroom-charts)';

/**
 * The style sheet that dims every algorithm of the charts but the highlighted ones (return chart
 * lines, bands, markers and legend, the seed charts, the other charts), thickens their lines, and
 * (with seeds) dims every seed line of the seed charts but those seeds'. Empty when nothing is selected.
 */
export function highlightCss(h: Highlight | null): string {
  if (!h || h.algorithms.length === 0) return '';
  const not = h.algorithms.map((id) => `:not([data-algorithm=${cssString(id)}])`).join('');
  const is = h.algorithms.map((id) => `[data-algorithm=${cssString(id)}]`).join(', ');
  const rules = [
    `${SCOPE} [data-algorithm]${not} { opacity: 0.14; }`,
    `${SCOPE} .plot-line:is(${is}) .plot-line-curve { stroke-width: 3.5px; }`,
    `${SCOPE} .chart-legend :is(${is}) { font-weight: 700; }`,
  ];
  if (h.seeds) {
    const seedNot = h.seeds.map((k) => `:not([data-seed="${k}"])`).join('');
    const seedIs = h.seeds.map((k) => `[data-seed="${k}"]`).join(', ');
    rules.push(`${SCOPE} .multiple .seed${seedNot} { stroke-opacity: 0.06; }`);
    rules.push(`${SCOPE} .multiple .seed:is(${seedIs}) { stroke-opacity: 0.95; stroke-width: 2px; }`);
  }
  return rules.join('\n');
}

/** Numbers of the evidence, as the panel shows them. */
export function evidenceCells(e: AlgorithmEvidence, num: (v: number) => string): Record<'seeds' | 'atJstar' | 'stuck' | 'drops' | 't95' | 'finalJ', string> {
  const f = e.finalJ;
  let finalJ = 'n/a';
  if (f.mean !== null) finalJ = f.lo !== null && f.hi !== null && f.hi > f.lo ? `${num(f.mean)} ± ${num((f.hi - f.lo) / 2)}` : num(f.mean);
  const ci = e.atJstarInterval;
  const d = e.largestDrop;
  return {
    seeds: String(e.seeds),
    // k/N with its 95% Clopper–Pearson interval (docs/claims.md, "Terms")
    atJstar: ci ? `${e.atJstar}/${e.seeds} (${ci.lo.toFixed(2)}–${ci.hi.toFixed(2)})` : String(e.atJstar),
    stuck: e.diverged ? `${e.stuck} (${e.diverged} diverged)` : String(e.stuck),
    // the largest drop with where it happened and the KL of its update
    drops: e.drops === 0 ? '0' : `${e.drops} in ${e.seedsWithDrops}${d ? ` (largest ${num(d.size)}, seed ${d.seed}, iteration ${d.iteration}${d.kl === null ? '' : `, KL ${d.kl.toPrecision(2)}`})` : ''}`,
    t95: e.t95 === null ? '∞' : String(e.t95),
    finalJ,
  };
}
