import type { SweepAlgorithm, SweepCell } from '../core/sweep/document';
import { cellVerdict, OUTCOME_TEXT, outcomeNumber, type SweepOutcome } from '../core/sweep/outcomes';
import type { Axis, AxisValue } from '../core/sweep/schema';

// The Sweep view's words and numbers, from the sweep's own entries. Pure.

/** A value as an axis label: numbers short (0.03, 1e-4), text as it is. */
export function axisValueText(v: AxisValue): string {
  if (typeof v === 'number') return Math.abs(v) >= 1e-3 || v === 0 ? String(Number(v.toPrecision(4))) : v.toExponential(1);
  return String(v);
}

/** The short name of a path on an axis: "algorithms.*.normalization" → "normalization", "optimizer.lr" → "lr". */
export function axisName(path: string): string {
  return path.split('.').pop()!.replace(/\[\d+\]$/, '');
}

/** An outcome's number as a cell shows it ("∞" for a t95 never reached, "—" for none). */
export function outcomeText(a: SweepAlgorithm, outcome: Exclude<SweepOutcome, 'verdict'>): string {
  const v = outcomeNumber(a, outcome);
  if (v === null) return outcome === 'medianItersTo95' ? '∞' : '—';
  if (outcome === 'atOptimum') return `${Math.round(v * 100)}%`;
  if (outcome === 'finalJ') return v.toFixed(2);
  return String(Math.round(v));
}

/** The tooltip of one cell of one algorithm's map: the cell's values and every number it has. */
export function cellTitle(axes: readonly Axis[], cell: SweepCell, a: SweepAlgorithm, label: string, claim: number): string {
  const where = axes.map((ax, i) => `${axisName(ax.path)} = ${axisValueText(cell.values[i]!)}`).join(', ');
  const f = a.finalJ;
  const j = f.mean === null ? 'final J —' : `final J ${f.mean.toFixed(3)}${f.lo !== null && f.hi !== null && f.hi > f.lo ? ` [${f.lo.toFixed(3)}, ${f.hi.toFixed(3)}]` : ''}`;
  const t95 = a.medianItersTo95 === null ? '∞' : String(a.medianItersTo95);
  return `${where} — ${label}: ${j} (J* ${cell.Jstar.toFixed(3)}), at J* ${Math.round(a.atOptimum * 100)}% of seeds, drops ${a.violations}, median t95 ${t95}; claim ${claim}: ${cellVerdict(a, claim)}. Click to open this cell in the explorer.`;
}

/** "about 12 s left" from the progress so far (null before there is a rate to go by). */
export function timeLeft(done: number, total: number, elapsedMs: number): string | null {
  if (done <= 0 || total <= 0 || elapsedMs <= 0 || done >= total) return null;
  const s = (elapsedMs / done) * (total - done) / 1000;
  if (s < 1) return 'under a second left';
  if (s < 90) return `about ${Math.round(s)} s left`;
  if (s < 5400) return `about ${Math.round(s / 60)} min left`;
  return `about ${(s / 3600).toFixed(1)} h left`;
}

/** The size of a sweep in words: "8 × 3 = 24 cells × 2 algorithms × 1 seed = 48 runs of 500 iterations". */
export function sweepSizeText(axes: readonly { values: readonly unknown[] }[], algorithms: number, seeds: number, iterations: number): string {
  const cells = axes.reduce((n, a) => n * a.values.length, 1);
  const dims = axes.length > 1 ? `${axes.map((a) => a.values.length).join(' × ')} = ` : '';
  const runs = cells * algorithms * seeds;
  const plural = (n: number, w: string) => `${n.toLocaleString('en-US')} ${w}${n === 1 ? '' : 's'}`;
  return `${dims}${plural(cells, 'cell')} × ${plural(algorithms, 'algorithm')} × ${plural(seeds, 'seed')} = ${plural(runs, 'run')} of ${plural(iterations, 'iteration')}`;
}

export const outcomeLabel = (o: SweepOutcome) => OUTCOME_TEXT[o].label;
