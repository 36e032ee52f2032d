import type { Verdict } from '../claims';
import { csvField } from './csv-cell';
import type { AxisValue } from './schema';
import type { SweepAlgorithm, SweepCell, SweepOutput } from './document';

// What a phase diagram can colour a cell by, defined once: the page's outcome picker, its colour
// scales, the sweep link's `show=` and the CSV export all read this list.

export const SWEEP_OUTCOMES = ['finalJ', 'atOptimum', 'violations', 'medianItersTo95', 'verdict'] as const;
export type SweepOutcome = (typeof SWEEP_OUTCOMES)[number];

export const OUTCOME_TEXT: Record<SweepOutcome, { label: string; note: string }> = {
  finalJ: { label: 'mean final J', note: 'the mean over seeds of J at the last iteration (J* is the optimum)' },
  atOptimum: { label: 'share of seeds at J*', note: 'the share of seeds whose final J is within 0.01 of J*' },
  violations: { label: 'drops of J', note: 'iterations where J fell by more than the tolerance, summed over seeds (monotonic improvement allows none)' },
  medianItersTo95: { label: 'median t95', note: 'the median over seeds of the iterations until J covered 95% of the way from its start to J* (∞: most seeds never did)' },
  verdict: { label: 'claim verdict', note: 'the verdict of the chosen claim on the cell, for the algorithms its evidence includes' },
};

/** A claim's verdict as a map cell; "n/a": the claim's evidence does not include this algorithm. */
export type CellVerdict = Verdict | 'n/a';
export const CELL_VERDICTS: readonly CellVerdict[] = ['observed', 'not observed', 'undecided', 'not testable', 'n/a'];

/** The number an algorithm's entry gives for a numeric outcome (null: none, e.g. t95 never reached). */
export function outcomeNumber(a: SweepAlgorithm, outcome: Exclude<SweepOutcome, 'verdict'>): number | null {
  if (outcome === 'finalJ') return a.finalJ.mean;
  return a[outcome];
}

/** The verdict of claim `claim` (1–5) for an algorithm's entry; a part's (4a, 4b, 4c) when `part` is given. */
export function cellVerdict(a: SweepAlgorithm, claim: number, part?: string): CellVerdict {
  const c = a.claims.find((x) => x.claim === claim);
  if (!c) return 'n/a';
  if (part === undefined) return c.verdict;
  return c.parts?.find((p) => p.part === part)?.verdict ?? 'n/a';
}

/** The colour scale's domain of a numeric outcome over every cell and algorithm shown (one scale for all maps). */
export function outcomeDomain(cells: readonly SweepCell[], outcome: Exclude<SweepOutcome, 'verdict'>, ids: readonly string[]): [number, number] {
  if (outcome === 'atOptimum') return [0, 1];
  let lo = Infinity, hi = -Infinity;
  for (const c of cells)
    for (const a of c.algorithms) {
      if (!ids.includes(a.id)) continue;
      const v = outcomeNumber(a, outcome);
      if (v === null || !Number.isFinite(v)) continue;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  // J from 0 (or below, when it is negative) to J* at least, so a difference of 0.001 never fills the scale
  if (outcome === 'finalJ') for (const c of cells) hi = Math.max(hi, c.Jstar);
  lo = Math.min(lo, 0);
  if (!Number.isFinite(hi)) return [0, 1];
  return lo === hi ? [lo, lo + 1] : [lo, hi];
}

const csvText = (v: AxisValue | string) => csvField(v === null ? 'null' : String(v));
const csvNum = (v: number | null) => (v === null ? '' : String(v));

/** The sweep as CSV: one row per cell and algorithm, the axes' values first, then every outcome and the five claims' verdicts. */
export function sweepCsv(doc: SweepOutput): string {
  const head = [...doc.axes.map((a) => a.path), 'cell', 'algorithm', 'Jstar', 'finalJ', 'finalJ_lo', 'finalJ_hi', 'atOptimum', 'violations', 'medianItersTo95', ...[1, 2, 3, 4, 5].map((c) => `claim${c}`)];
  const rows = [head.map(csvText).join(',')];
  for (const c of doc.cells)
    for (const a of c.algorithms)
      rows.push(
        [
          ...c.values.map(csvText),
          String(c.index),
          csvText(a.id),
          String(c.Jstar),
          csvNum(a.finalJ.mean),
          csvNum(a.finalJ.lo),
          csvNum(a.finalJ.hi),
          String(a.atOptimum),
          String(a.violations),
          csvNum(a.medianItersTo95),
          ...[1, 2, 3, 4, 5].map((k) => csvText(cellVerdict(a, k))),
        ].join(','),
      );
  return rows.join('\n') + '\n';
}
