import { algorithmLr } from '../algo/records';
import type { Experiment } from '../config/resolve';
import { LIMITS } from '../config/schema';
import { chooseExecutor } from '../run/choose';
import type { RunSeries } from '../run/series';
import type { Sweep } from './cells';

// Batching: a cell is a hyperparameter of a run, as a seed is. Cells that differ
// only in fields a run can carry by itself (an algorithm's fields, and optimizer.lr as each
// algorithm's own `lr`) go into ONE experiment whose algorithm list is cells × algorithms; the
// executor runs all its runs together (threads and shards as usual) and the series are split
// back per cell. Each run keeps the random streams it has in its own cell (`streamIndex`: its
// algorithm's position in the cell), so every number equals the cell run as an experiment of its own.

/** Where a compiled algorithm comes from: its cell and its position in the cell's algorithm list. */
export interface Owner {
  cell: number;
  algoIndex: number;
}

export type Job =
  /** Cells run together on the CPU executor as one experiment (algorithm a of `exp` is `owners[a]`). */
  | { kind: 'batch'; cells: number[]; exp: Experiment; owners: Owner[] }
  /**
   * A cell run as an experiment of its own (per-cell fallback): MLP or tensor-executor cells
   * (the tensor executor keys its streams by list position and is not batched here), and cells
   * whose config schedules `changes` (a change of optimizer.lr must reach every algorithm).
   */
  | { kind: 'single'; cell: number; exp: Experiment };

/** An axis whose values a run can carry by itself: an algorithm's field, or optimizer.lr. */
export function perRunAxis(path: string): boolean {
  return /^algorithms(\.\*|\.\d+|\[\d+\])[.[]/.test(path) || path === 'optimizer.lr';
}

const runsOf = (exp: Experiment) => exp.algorithms.length * exp.seedIndices.length;

/**
 * The jobs that compute `cells` (indices into the sweep, in order; `exps[i]` is cell cells[i]
 * resolved). Batches hold at most LIMITS.maxStoredPoints values of J, like one experiment, and
 * at most `maxRunIterations` runs × iterations (a journalled sweep keeps its batches small, so an
 * interrupt loses little: cells are journalled as their batch ends).
 */
export function planJobs(sweep: Pick<Sweep, 'axes'>, cells: number[], exps: Experiment[], values: (cell: number) => unknown[], maxRunIterations = Infinity): Job[] {
  const jobs: Job[] = [];
  const groups = new Map<string, number[]>();
  cells.forEach((cell, i) => {
    const exp = exps[i]!;
    if (chooseExecutor(exp).executor !== 'cpu' || exp.changes.length > 0) {
      jobs.push({ kind: 'single', cell, exp });
      return;
    }
    const key = JSON.stringify(values(cell).filter((_, a) => !perRunAxis(sweep.axes[a]!.path)));
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(i);
  });
  for (const members of groups.values()) {
    let chunk: number[] = [];
    let points = 0;
    let work = 0;
    const flush = () => {
      if (chunk.length) jobs.push(compile(chunk.map((i) => cells[i]!), chunk.map((i) => exps[i]!)));
      chunk = [];
      points = 0;
      work = 0;
    };
    for (const i of members) {
      const p = runsOf(exps[i]!) * (exps[i]!.iterations + 1);
      const w = runsOf(exps[i]!) * exps[i]!.iterations;
      if (chunk.length && (points + p > LIMITS.maxStoredPoints || work + w > maxRunIterations)) flush();
      chunk.push(i);
      points += p;
      work += w;
    }
    flush();
  }
  // in the order of the cells they hold
  const first = (j: Job) => (j.kind === 'single' ? j.cell : j.cells[0]!);
  return jobs.sort((a, b) => first(a) - first(b));
}

/** One experiment running the cells' algorithms side by side; each algorithm carries its cell's learning rate. */
function compile(cells: number[], exps: Experiment[]): Job {
  const owners: Owner[] = [];
  const algorithms = exps.flatMap((exp, c) =>
    exp.algorithms.map((a, algoIndex) => {
      owners.push({ cell: cells[c]!, algoIndex });
      return { ...a, id: `${a.id}+${cells[c]}`, lr: algorithmLr(a, exp.optimizer.lr) };
    }),
  );
  const first = exps[0]!;
  return { kind: 'batch', cells, exp: { ...first, algorithms, optimizer: { ...first.optimizer }, changes: [], warnings: [] }, owners };
}

/**
 * A batch's series gathered per cell as runs finish: each cell is handed to `ready` (its series,
 * each with its algorithm's position in the cell, in the order they came) as soon as all its runs
 * are in, and cells are handed over in the batch's cell order.
 */
export class BatchCells {
  private readonly slot: Map<number, number>;
  private readonly series: RunSeries[][];
  private readonly missing: number[];
  private next = 0;
  private taken = false;

  constructor(
    private readonly job: Extract<Job, { kind: 'batch' }>,
    private readonly ready: (cell: number, series: RunSeries[]) => void,
  ) {
    this.slot = new Map(job.cells.map((c, i) => [c, i]));
    this.series = job.cells.map(() => []);
    this.missing = job.cells.map(() => 0);
    for (const o of job.owners) this.missing[this.slot.get(o.cell)!]! += job.exp.seedIndices.length;
  }

  /** Some runs finished (each run once). */
  take(series: readonly RunSeries[]): void {
    this.taken = true;
    for (const s of series) {
      const o = this.job.owners[s.algoIndex]!;
      const i = this.slot.get(o.cell)!;
      this.series[i]!.push({ ...s, algoIndex: o.algoIndex });
      this.missing[i]!--;
    }
    this.flush();
  }

  /** The whole batch's series: the cells not handed over yet (every cell, if take was never called). */
  finish(all: readonly RunSeries[]): void {
    if (!this.taken) this.take(all);
    if (this.next < this.series.length) throw new Error(`a sweep batch ended without every run of its cells (cell ${this.job.cells[this.next]})`);
  }

  private flush(): void {
    while (this.next < this.series.length && this.missing[this.next] === 0) {
      this.ready(this.job.cells[this.next]!, this.series[this.next]!);
      this.next++;
    }
  }
}
