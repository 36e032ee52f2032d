import { stepsPerIteration } from '../../core/run/steps';
import type { Experiment } from '../../core/config/resolve';
import { allRuns, type RunSpec } from '../../core/run/partition';
import { buildResult, type ExperimentResult } from '../../core/run/result';
import type { Progress } from '../host/progress';
import { needsMonteCarlo } from '../../core/config/resolve';
import type { RunSeries } from '../../core/run/series';
import { McShard } from './mc-shard';
import { TensorShard } from './shard';

/** What the runner needs of a shard (TensorShard: tabulated policies; McShard: Monte-Carlo J). */
interface Shard {
  readonly specs: RunSpec[];
  readonly series: RunSeries[];
  readonly Jstar: number;
  init(): Promise<void>;
  step(): Promise<void>;
  dispose(): void;
}

export interface TensorRunOptions {
  backend: string;
  reason: string;
  progressEvery?: number;
  onProgress?: (p: Progress) => void;
  /** Checked between iterations; true stops the run (the promise rejects with "stopped"). */
  stopped?: () => boolean;
  /** Tests: estimate J by Monte Carlo even where it could be enumerated. */
  forceMonteCarlo?: boolean;
}

/** Runs grouped by update shape (steps per iteration), each group one shard of batched tensors. */
export function groupByShape(exp: Experiment): RunSpec[][] {
  const groups = new Map<number, RunSpec[]>();
  for (const spec of allRuns(exp)) {
    const k = stepsPerIteration(exp, spec.algoIndex);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(spec);
  }
  return [...groups.values()];
}

/** Run an experiment on the tensor executor (the tfjs backend must already be selected). */
export async function runOnTensor(exp: Experiment, opts: TensorRunOptions): Promise<ExperimentResult> {
  const t0 = performance.now();
  const monteCarlo = exp.policy.kind === 'mlp' && (needsMonteCarlo(exp.env) || opts.forceMonteCarlo === true);
  const shards: Shard[] = [];
  try {
    for (const specs of groupByShape(exp)) shards.push(monteCarlo ? new McShard(exp, specs) : new TensorShard(exp, specs));
  } catch (e) {
    shards.forEach((s) => s.dispose());
    throw e;
  }
  const every = opts.progressEvery ?? 10;
  try {
    for (const s of shards) await s.init();
    for (let k = 0; k < exp.iterations; k++) {
      if (opts.stopped?.()) throw new Error('stopped');
      for (const s of shards) await s.step();
      if (opts.onProgress && ((k + 1) % every === 0 || k + 1 === exp.iterations))
        opts.onProgress({
          iteration: k + 1,
          total: exp.iterations,
          latest: shards.flatMap((s) => s.specs.map((spec, r) => ({ spec, iteration: k + 1, J: s.series[r].J[k + 1] }))),
        });
    }
  } finally {
    shards.forEach((s) => s.dispose());
  }
  return buildResult(exp, shards[0].Jstar, shards.flatMap((s) => s.series), {
    jIsEstimate: monteCarlo,
    executor: 'tensor',
    backend: opts.backend,
    executorReason: opts.reason,
    threads: 1,
    wallSeconds: (performance.now() - t0) / 1000,
  });
}

export { stepsPerIteration };
