import type { Experiment } from '../config/resolve';
import { computeOptimum } from '../env/exact';
import { sharesContexts } from '../config/experiment';
import { buildTree } from '../env/tree';
import { chooseExecutor } from '../run/choose';
import { allRuns, type RunSpec } from '../run/partition';
import { buildResult, type ExperimentResult } from '../run/result';
import type { RunSeries } from '../run/series';
import { BatchCells, planJobs, type Job } from './batch';
import { cellConfig, cellValues, resolveCell, type Sweep } from './cells';
import { cellOf, type SweepCell } from './document';
import { checkSweepWork } from './limits';

// Runs a sweep's cells (all of them, or one shard's) — the same loop for the CLI (Node worker
// threads) and the page (Web Workers): resolves every cell, checks the work limit up front, then
// runs the jobs of batch.ts — a batch of cells as one experiment on the CPU executor (each run
// keyed by its own cell's streams), the per-cell fallback as an experiment of its own — and reads
// each cell's entry off the result the cell would give alone.

/** How the caller runs things; the executors live outside core. */
export interface SweepExecutors {
  /**
   * A batch's runs on the CPU executor (`specs` carry their own-cell streamIndex); `report(k)`:
   * iterations every run has done. `finished`, where the executor calls it: some runs are done,
   * with their series (each run once), before the whole batch is; the promise still gives every series.
   */
  batch(exp: Experiment, specs: RunSpec[], report: (k: number) => void, finished?: (series: RunSeries[]) => void): Promise<RunSeries[]>;
  /** A cell as an experiment of its own (its config and resolved experiment), on the executor `run` would choose. */
  single(exp: Experiment, config: Record<string, unknown>, report: (k: number) => void): Promise<ExperimentResult>;
}

export interface SweepRunOptions {
  shard: { index: number; count: number } | null;
  /** Runs·iterations done so far, of `total`. */
  onProgress?: (done: number, total: number) => void;
  /** A finished cell (cells finish in job order, not index order). */
  onCell?: (cell: SweepCell) => void;
  /** At most this many runs × iterations in one batch (batch.ts planJobs); default: no bound. */
  maxBatchRunIterations?: number;
  /** Awaited after each job: lets the caller's event loop turn (a signal handler run) when jobs run on this thread. */
  betweenJobs?: () => Promise<void>;
  /** Checked between jobs: true stops (the promise rejects with "stopped"). */
  stopped?: () => boolean;
}

export async function runSweepCells(sweep: Sweep, cells: number[], run: SweepExecutors, opts: SweepRunOptions): Promise<{ cells: SweepCell[]; warnings: string[] }> {
  const exps = cells.map((c) => resolveCell(sweep, c));
  checkSweepWork(sweep, exps, opts.shard);
  const warnings = [...new Set(exps.flatMap((e) => e.warnings))];
  const jobs = planJobs(sweep, cells, exps, (c) => cellValues(sweep, c), opts.maxBatchRunIterations);
  const expOf = new Map(cells.map((c, i) => [c, exps[i]!]));
  const total = exps.reduce((n, e) => n + e.algorithms.length * e.seedIndices.length * e.iterations, 0);
  let done = 0;
  const out: SweepCell[] = [];
  const add = (cell: SweepCell) => {
    out.push(cell);
    opts.onCell?.(cell);
  };
  for (const job of jobs) {
    if (opts.stopped?.()) throw new Error('stopped');
    const size = job.kind === 'single' ? job.exp.algorithms.length * job.exp.seedIndices.length : allRuns(job.exp).length;
    const report = (iterationsDone: number) => opts.onProgress?.(done + iterationsDone * size, total);
    if (job.kind === 'single') {
      add(cellOf(job.cell, cellValues(sweep, job.cell), await run.single(job.exp, cellConfig(sweep, job.cell), report)));
    } else {
      const Jstar = computeOptimum(job.exp.env, buildTree(job.exp.env), sharesContexts(job.exp.policy)).Jstar;
      const cellsOut = new BatchCells(job, (cell, cellSeries) => {
        const exp = expOf.get(cell)!;
        const result = buildResult(exp, Jstar, cellSeries, { executor: 'cpu', backend: null, executorReason: chooseExecutor(exp).reason, threads: 1, wallSeconds: 0 });
        add(cellOf(cell, cellValues(sweep, cell), result));
      });
      // a cell whose runs are all done is read off while the batch's other runs go on (where the
      // executor says which are done), so threads are not left idle while every cell is read at the end
      const series = await run.batch(job.exp, batchSpecs(job), report, (done) => cellsOut.take(done));
      cellsOut.finish(series);
    }
    done += size * job.exp.iterations;
    opts.onProgress?.(done, total);
    await opts.betweenJobs?.();
  }
  return { cells: out.sort((a, b) => a.index - b.index), warnings };
}

/** A batch's runs, each keyed by its algorithm's position in its own cell. */
function batchSpecs(job: Extract<Job, { kind: 'batch' }>): RunSpec[] {
  return allRuns(job.exp).map((s) => ({ ...s, streamIndex: job.owners[s.algoIndex]!.algoIndex }));
}
