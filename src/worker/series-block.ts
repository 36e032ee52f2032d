import type { RunSeries } from '../core/run/series';
import { PER_ITERATION_METRICS } from '../core/run/series';

// Streamed metrics as one Float64Array. For iterations k in (from, to], per run in order:
// J[k], entropy[k] and optimalTokenProb[t][k] (evaluations after k iterations), then the
// per-iteration metrics of iteration k−1 → k (kl, clipFraction, …), which exist for k ≥ 1.

const valuesPerPoint = (turns: number) => 2 + turns + PER_ITERATION_METRICS.length;

export function packBlock(series: RunSeries[], from: number, to: number, turns: number): Float64Array {
  const n = to - from;
  const per = valuesPerPoint(turns);
  const out = new Float64Array(series.length * n * per).fill(NaN);
  let o = 0;
  for (const s of series)
    for (let k = from + 1; k <= to; k++) {
      out[o++] = s.J[k];
      out[o++] = s.entropy[k];
      for (let t = 0; t < turns; t++) out[o++] = s.optimalTokenProb[t][k];
      for (const m of PER_ITERATION_METRICS) out[o++] = k >= 1 ? s[m][k - 1] : NaN;
    }
  return out;
}

/** Write a block into the page's copies of the same runs (`targets[r]` ↔ the worker's r-th run). */
export function unpackBlock(block: Float64Array, targets: RunSeries[], from: number, to: number, turns: number): void {
  const n = to - from;
  const per = valuesPerPoint(turns);
  if (block.length !== targets.length * n * per) throw new Error(`data block of ${block.length} values, expected ${targets.length * n * per}`);
  let o = 0;
  for (const s of targets)
    for (let k = from + 1; k <= to; k++) {
      s.J[k] = block[o++];
      s.entropy[k] = block[o++];
      for (let t = 0; t < turns; t++) s.optimalTokenProb[t][k] = block[o++];
      for (const m of PER_ITERATION_METRICS) {
        const v = block[o++];
        if (k >= 1) s[m][k - 1] = v;
      }
    }
}
