import type { RunSeries } from '../core/run/series';
import { slotOf } from '../core/run/series';
import { UPDATE_METRICS } from '../core/metrics/names';

// Streamed metrics as one Float64Array. For iterations k in (from, to], per run in order:
// J[k]; then Jgamma[k] when the series has it (γ < 1 with per-turn rewards); then entropy[k] and optimalTokenProb[t][k] (evaluations after k iterations) when the
// series stores evaluation k; then Jcontext[x][k] for every context x when it stores those
// (several contexts; their own stride, jcontextEvery); then the metrics of the update k−1 → k
// (kl, clipFraction, …) when it stores update k − 1 (k ≥ 1). Sender and receiver have the same
// iterations, `every` and jcontextEvery (all from the experiment).

function blockLength(s: RunSeries, from: number, to: number, turns: number): number {
  let n = 0;
  for (let k = from + 1; k <= to; k++) {
    n += s.Jgamma ? 2 : 1;
    if (slotOf(k, s.iterations, s.every) >= 0) n += 1 + turns;
    if (s.Jcontext.length > 0 && slotOf(k, s.iterations, s.jcontextEvery) >= 0) n += s.Jcontext.length;
    if (k >= 1 && slotOf(k - 1, s.iterations - 1, s.every) >= 0) n += UPDATE_METRICS.length;
  }
  return n;
}

export function packBlock(series: RunSeries[], from: number, to: number, turns: number): Float64Array {
  const out = new Float64Array(series.length && blockLength(series[0], from, to, turns) * series.length).fill(NaN);
  let o = 0;
  for (const s of series)
    for (let k = from + 1; k <= to; k++) {
      out[o++] = s.J[k];
      if (s.Jgamma) out[o++] = s.Jgamma[k];
      const e = slotOf(k, s.iterations, s.every);
      if (e >= 0) {
        out[o++] = s.entropy[e];
        for (let t = 0; t < turns; t++) out[o++] = s.optimalTokenProb[t][e];
      }
      const c = s.Jcontext.length > 0 ? slotOf(k, s.iterations, s.jcontextEvery) : -1;
      if (c >= 0) for (const a of s.Jcontext) out[o++] = a[c];
      const u = k >= 1 ? slotOf(k - 1, s.iterations - 1, s.every) : -1;
      if (u >= 0) for (const m of UPDATE_METRICS) out[o++] = s[m][u];
    }
  return out;
}

/** Write a block into the page's copies of the same runs (`targets[r]` ↔ the worker's r-th run). */
export function unpackBlock(block: Float64Array, targets: RunSeries[], from: number, to: number, turns: number): void {
  const expected = targets.length && blockLength(targets[0], from, to, turns) * targets.length;
  if (block.length !== expected) throw new Error(`data block of ${block.length} values, expected ${expected}`);
  let o = 0;
  for (const s of targets)
    for (let k = from + 1; k <= to; k++) {
      s.J[k] = block[o++];
      if (s.Jgamma) s.Jgamma[k] = block[o++];
      const e = slotOf(k, s.iterations, s.every);
      if (e >= 0) {
        s.entropy[e] = block[o++];
        for (let t = 0; t < turns; t++) s.optimalTokenProb[t][e] = block[o++];
      }
      const c = s.Jcontext.length > 0 ? slotOf(k, s.iterations, s.jcontextEvery) : -1;
      if (c >= 0) for (const a of s.Jcontext) a[c] = block[o++];
      const u = k >= 1 ? slotOf(k - 1, s.iterations - 1, s.every) : -1;
      if (u >= 0) for (const m of UPDATE_METRICS) s[m][u] = block[o++];
    }
}
