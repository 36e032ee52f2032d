import type { Progress } from '../exec/cpu/run-experiment';
import type { ExperimentResult } from '../core/run/result';

/** One chart point: the mean J over seeds of each algorithm at an iteration (null = not all seeds reported yet). */
export interface ChartRow {
  iteration: number;
  means: (number | null)[];
}

/**
 * Merges streamed progress into per-algorithm means over seeds. Each (algorithm, seed) run reports
 * its J at some iterations; a per-(algorithm, iteration) running sum and count make each report
 * O(1), and an algorithm's mean at an iteration appears once all its seeds have reported there.
 */
export class SeedMeans {
  private readonly sums: Float64Array[];
  private readonly counts: Int32Array[];
  /** Latest iteration each (algorithm, seed) reported, to drop repeats. */
  private readonly lastSeen: Int32Array;
  private readonly points = new Map<number, (number | null)[]>();

  constructor(
    private readonly algorithms: number,
    private readonly seeds: number,
    iterations: number,
  ) {
    this.sums = Array.from({ length: algorithms }, () => new Float64Array(iterations + 1));
    this.counts = Array.from({ length: algorithms }, () => new Int32Array(iterations + 1));
    this.lastSeen = new Int32Array(algorithms * seeds).fill(-1);
  }

  /** Add one progress message; returns true when some algorithm completed a new mean. */
  add(latest: Progress['latest']): boolean {
    let completed = false;
    for (const { spec, iteration: k, J } of latest) {
      const a = spec.algoIndex, run = a * this.seeds + spec.seedIndex;
      if (k <= this.lastSeen[run] || k >= this.sums[a].length) continue;
      this.lastSeen[run] = k;
      this.sums[a][k] += J;
      if (++this.counts[a][k] === this.seeds) {
        let row = this.points.get(k);
        if (!row) this.points.set(k, (row = new Array<number | null>(this.algorithms).fill(null)));
        row[a] = Number.isFinite(this.sums[a][k]) ? this.sums[a][k] / this.seeds : null;
        completed = true;
      }
    }
    return completed;
  }

  /** The completed points, by iteration, as fresh objects (safe to hand to React). */
  rows(): ChartRow[] {
    return [...this.points.keys()].sort((x, y) => x - y).map((k) => ({ iteration: k, means: [...this.points.get(k)!] }));
  }
}

/** Mean J over seeds at every iteration, from the finished result (the full-resolution chart). */
export function meansFromResult(result: ExperimentResult): ChartRow[] {
  const rows: ChartRow[] = [];
  for (let k = 0; k <= result.iterations; k++) {
    const means = result.algorithms.map(({ runs }) => {
      let s = 0, n = 0;
      for (const r of runs) {
        const v = r.J[k];
        if (v !== null && v !== undefined) { s += v; n++; }
      }
      return n ? s / n : null;
    });
    rows.push({ iteration: k, means });
  }
  return rows;
}
