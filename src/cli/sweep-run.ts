import type { Sweep } from '../core/sweep/cells';
import type { SweepCell } from '../core/sweep/document';
import { runSweepCells, type SweepExecutors } from '../core/sweep/run';
import { runInNode } from './run-node';
import { inThisThread } from '../exec/cpu/run-experiment';
import { nodeThreadLauncher } from '../exec/cpu/node-pool';
import { NodeChunkPool } from '../exec/cpu/node-chunk-pool';

// The sweep runner of core/sweep/run.ts on Node: a batch's runs handed out chunk by chunk to this
// thread and pooled worker threads (the bundled cpu-worker.js) as each frees up
// (exec/cpu/chunks.ts), the per-cell fallback on the executor `run` would choose.

export interface NodeSweepOptions {
  threads: number;
  /** dist/ folder URL of the bundled cpu-worker.js; null: stay on this thread. */
  workers: URL | null;
  shard: { index: number; count: number } | null;
  onProgress?: (done: number, total: number) => void;
  onCell?: (cell: SweepCell) => void;
  maxBatchRunIterations?: number;
}

export async function runSweepCellsInNode(sweep: Sweep, cells: number[], opts: NodeSweepOptions): Promise<{ cells: SweepCell[]; warnings: string[] }> {
  const worker = opts.threads > 1 && opts.workers !== null ? new URL('./cpu-worker.js', opts.workers) : null;
  const launch = worker ? nodeThreadLauncher(worker) : inThisThread;
  // on one thread too: chunks keep each shard's arrays small (a batch of thousands of runs in one
  // shard walks megabytes per iteration), let a signal in between them, and let cells be read off
  // (and journalled) as they finish
  const pool = new NodeChunkPool(worker, opts.threads);
  const executors: SweepExecutors = {
    batch: (exp, specs, report, finished) => {
      let runs = 0;
      // progress in whole runs: iterations done by every run, on average
      return pool.run(exp, specs, (series) => {
        finished?.(series);
        report(((runs += series.length) * exp.iterations) / specs.length);
      });
    },
    single: (exp, config, report) => runInNode(exp, config, { threads: opts.threads, launch, onProgress: (p) => report(p.iteration) }),
  };
  try {
    return await runSweepCells(sweep, cells, executors, { shard: opts.shard, onProgress: opts.onProgress, onCell: opts.onCell, maxBatchRunIterations: opts.maxBatchRunIterations, betweenJobs: () => new Promise((r) => setImmediate(r)) });
  } finally {
    await pool.close();
  }
}
