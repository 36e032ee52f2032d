import { Worker } from 'node:worker_threads';
import { computeOptimum } from '../core/env/exact';
import { buildTree } from '../core/env/tree';
import { chooseExecutor } from '../core/run/choose';
import { allRuns, partitionRuns } from '../core/run/partition';
import { buildResult, type ExperimentResult } from '../core/run/result';
import type { RunSeries } from '../core/run/series';
import { cellConfig, cellValues, resolveCell, type Sweep } from '../core/sweep/cells';
import { planJobs, splitSeries, type Job } from '../core/sweep/batch';
import { cellOf, type SweepCell } from '../core/sweep/document';
import { checkSweepWork } from '../core/sweep/limits';
import { inThisThread, runOnCpu } from '../exec/cpu/run-experiment';
import { nodeThreadLauncher } from '../exec/cpu/node-pool';
import { runBatchShard, type BatchShardMessage, type BatchShardRequest } from './sweep-shard';

// Runs a sweep's cells (all of them, or one shard's): resolves every cell, checks the work limit up
// front, then runs the jobs of core/sweep/batch.ts — batches of cells as one experiment over the
// threads, and the per-cell fallback (MLP/tensor cells, cells with scheduled changes) one
// experiment at a time through the ordinary executors.

export interface SweepRunOptions {
  threads: number;
  /** dist/ folder URL of the bundled workers (sweep-worker.js, cpu-worker.js); null: stay on this thread. */
  workers: URL | null;
  shard: { index: number; count: number } | null;
  /** Runs·iterations done so far, of `total`. */
  onProgress?: (done: number, total: number) => void;
}

export async function runSweepCells(sweep: Sweep, cells: number[], opts: SweepRunOptions): Promise<{ cells: SweepCell[]; warnings: string[] }> {
  const exps = cells.map((c) => resolveCell(sweep, c));
  checkSweepWork(sweep, exps, opts.shard);
  const warnings = [...new Set(exps.flatMap((e) => e.warnings))];
  const jobs = planJobs(sweep, cells, exps, (c) => cellValues(sweep, c));
  const expOf = new Map(cells.map((c, i) => [c, exps[i]!]));
  const total = exps.reduce((n, e) => n + e.algorithms.length * e.seedIndices.length * e.iterations, 0);
  let done = 0;
  const out: SweepCell[] = [];
  for (const job of jobs) {
    const size = job.kind === 'single' ? job.exp.algorithms.length * job.exp.seedIndices.length : allRuns(job.exp).length;
    const report = (iterationsDone: number) => opts.onProgress?.(done + iterationsDone * size, total);
    if (job.kind === 'single') {
      out.push(cellOf(job.cell, cellValues(sweep, job.cell), await runSingle(sweep, job, opts, report)));
    } else {
      const series = await runBatch(job, opts, report);
      const Jstar = computeOptimum(job.exp.env, buildTree(job.exp.env)).Jstar;
      splitSeries(job, series).forEach((cellSeries, i) => {
        const cell = job.cells[i]!;
        const exp = expOf.get(cell)!;
        const result = buildResult(exp, Jstar, cellSeries, { executor: 'cpu', backend: null, executorReason: chooseExecutor(exp).reason, threads: opts.threads, wallSeconds: 0 });
        out.push(cellOf(cell, cellValues(sweep, cell), result));
      });
    }
    done += size * job.exp.iterations;
  }
  return { cells: out.sort((a, b) => a.index - b.index), warnings };
}

/** The per-cell fallback: the cell as an experiment of its own, on the executor `run` would choose. */
async function runSingle(sweep: Sweep, job: Extract<Job, { kind: 'single' }>, opts: SweepRunOptions, report: (k: number) => void): Promise<ExperimentResult> {
  const choice = chooseExecutor(job.exp);
  if (choice.executor === 'tensor') {
    const { runTensorInNode } = await import('../exec/tensor/node-run');
    return runTensorInNode(job.exp, choice.reason, (p) => report(p.iteration));
  }
  const launch = opts.threads === 1 || !opts.workers ? inThisThread : nodeThreadLauncher(new URL('./cpu-worker.js', opts.workers));
  return runOnCpu(job.exp, cellConfig(sweep, job.cell), { threads: opts.threads, launch, onProgress: (p) => report(p.iteration) });
}

/** A batch's runs dealt round-robin over the threads (as runOnCpu deals an experiment's), each share in one CpuShard. */
function runBatch(job: Extract<Job, { kind: 'batch' }>, opts: SweepRunOptions, report: (k: number) => void): Promise<RunSeries[]> {
  const shares = partitionRuns(allRuns(job.exp), opts.threads);
  const streams = job.owners.map((o) => o.algoIndex);
  const seen = new Array<number>(shares.length).fill(0);
  const series: RunSeries[] = [];
  return new Promise((resolve, reject) => {
    let remaining = shares.length;
    let failed = false;
    const stops: (() => void)[] = [];
    const onMessage = (s: number) => (m: BatchShardMessage) => {
      if (failed) return;
      if (m.type === 'error') {
        failed = true;
        stops.forEach((stop) => stop());
        reject(new Error(m.message));
      } else if (m.type === 'progress') {
        seen[s] = m.iteration;
        report(Math.min(...seen));
      } else {
        series.push(...m.series);
        if (--remaining === 0) resolve(series);
      }
    };
    shares.forEach((specs, s) => {
      const req: BatchShardRequest = { exp: job.exp, specs, streams, progressEvery: 10 };
      if (shares.length === 1 || !opts.workers) {
        runBatchShard(req, onMessage(s));
        return;
      }
      const w = new Worker(new URL('./sweep-worker.js', opts.workers), { workerData: req });
      w.on('message', (m: BatchShardMessage) => {
        onMessage(s)(m);
        if (m.type !== 'progress') void w.terminate();
      });
      w.on('error', (e) => onMessage(s)({ type: 'error', message: e.message }));
      stops.push(() => void w.terminate());
    });
  });
}
