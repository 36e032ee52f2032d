import type { Experiment } from '../../core/config/resolve';
import { allRuns, partitionRuns, type RunSpec } from '../../core/run/partition';
import { buildResult, type ExperimentResult } from '../../core/run/result';
import type { RunSeries } from '../../core/run/series';
import { computeOptimum } from '../../core/env/exact';
import { sharesContexts } from '../../core/config/experiment';
import { buildTree } from '../../core/env/tree';
import { chooseExecutor } from '../../core/run/choose';
import { runShard, type ShardMessage, type ShardRequest } from './protocol';
import type { Progress } from '../host/progress';
import { nowMs } from '../host/clock';

/** Starts one shard somewhere (this thread, a worker thread, a Web Worker). */
export type ShardLauncher = (req: ShardRequest, onMessage: (m: ShardMessage) => void) => { cancel(): void };

/** Runs a shard on the calling thread. */
export const inThisThread: ShardLauncher = (req, onMessage) => {
  runShard(req, onMessage);
  return { cancel() {} };
};

export type { Progress } from '../host/progress';

export interface CpuRunOptions {
  threads: number;
  launch: ShardLauncher;
  progressEvery?: number;
  onProgress?: (p: Progress) => void;
}

/** Run an experiment on the CPU executor over `threads` shards and assemble the result JSON. */
export async function runOnCpu(exp: Experiment, config: unknown, opts: CpuRunOptions): Promise<ExperimentResult> {
  const t0 = nowMs();
  const shards = partitionRuns(allRuns(exp), opts.threads);
  const series = await runShardsOnCpu(exp, { config }, shards, opts);
  const Jstar = computeOptimum(exp.env, buildTree(exp.env), sharesContexts(exp.policy)).Jstar;
  return buildResult(exp, Jstar, series, {
    executor: 'cpu',
    backend: null,
    executorReason: chooseExecutor(exp).reason,
    threads: shards.length,
    wallSeconds: (nowMs() - t0) / 1000,
  });
}

/**
 * Run shards of `exp`'s runs (one launch each) to the end and gather their series. `source` is
 * what the shards resolve: the raw config (an experiment), or the resolved experiment itself
 * (a sweep batch, whose runs carry their own-cell `streamIndex`).
 */
export function runShardsOnCpu(exp: Experiment, source: { config: unknown } | { exp: Experiment }, shards: RunSpec[][], opts: CpuRunOptions): Promise<RunSeries[]> {
  const seen = new Array<number>(shards.length).fill(0);
  const series: RunSeries[] = [];
  let remaining = shards.length;
  const handles: { cancel(): void }[] = [];
  return new Promise((resolve, reject) => {
    let failed = false;
    const onMessage = (s: number) => (m: ShardMessage) => {
      if (failed) return;
      if (m.type === 'error') {
        failed = true;
        handles.forEach((h) => h.cancel());
        reject(new Error(m.message));
      } else if (m.type === 'progress') {
        seen[s] = m.iteration;
        opts.onProgress?.({
          iteration: Math.min(...seen),
          total: exp.iterations,
          latest: m.specs.map((spec, r) => ({ spec, iteration: m.iteration, J: m.J[r] })),
        });
      } else {
        series.push(...m.series);
        if (--remaining === 0) resolve(series);
      }
    };
    const base = 'exp' in source ? { config: null, exp: source.exp } : { config: source.config };
    // every shard gets the experiment already resolved from this config instead of validating
    // the config again (a worker then never builds the config schema): a copy each, as a shard
    // writes scheduled changes into its experiment and one shard may run on this thread
    const own = (): { exp?: Experiment } => ('exp' in source ? {} : { exp: structuredClone(exp) });
    shards.forEach((specs, s) => handles.push(opts.launch({ ...base, ...own(), specs, progressEvery: opts.progressEvery ?? 10 }, onMessage(s))));
  });
}
