import { partitionRuns } from '../core/run/partition';
import type { Sweep } from '../core/sweep/cells';
import type { SweepCell } from '../core/sweep/document';
import { runSweepCells, type SweepExecutors } from '../core/sweep/run';
import { runInNode } from './run-node';
import { inThisThread, runShardsOnCpu } from '../exec/cpu/run-experiment';
import { nodeThreadLauncher } from '../exec/cpu/node-pool';

// The sweep runner of core/sweep/run.ts on Node: a batch's runs dealt round-robin over worker
// threads (the bundled cpu-worker.js, as `run` deals an experiment's), the per-cell fallback on
// the executor `run` would choose.

export interface NodeSweepOptions {
  threads: number;
  /** dist/ folder URL of the bundled cpu-worker.js; null: stay on this thread. */
  workers: URL | null;
  shard: { index: number; count: number } | null;
  onProgress?: (done: number, total: number) => void;
  onCell?: (cell: SweepCell) => void;
  maxBatchRunIterations?: number;
}

export function runSweepCellsInNode(sweep: Sweep, cells: number[], opts: NodeSweepOptions): Promise<{ cells: SweepCell[]; warnings: string[] }> {
  const launch = opts.threads === 1 || !opts.workers ? inThisThread : nodeThreadLauncher(new URL('./cpu-worker.js', opts.workers));
  const executors: SweepExecutors = {
    batch: (exp, specs, report) => runShardsOnCpu(exp, { exp }, partitionRuns(specs, opts.threads), { threads: opts.threads, launch, onProgress: (p) => report(p.iteration) }),
    single: (exp, config, report) => runInNode(exp, config, { threads: opts.threads, launch, onProgress: (p) => report(p.iteration) }),
  };
  return runSweepCells(sweep, cells, executors, { shard: opts.shard, onProgress: opts.onProgress, onCell: opts.onCell, maxBatchRunIterations: opts.maxBatchRunIterations, betweenJobs: () => new Promise((r) => setImmediate(r)) });
}
