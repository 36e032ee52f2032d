import { resolveConfig, type Experiment } from '../../src/core/config/resolve';
import { CpuShard } from '../../src/exec/cpu/shard';
import { allRuns } from '../../src/core/run/partition';

/** A one-context custom environment config. */
export function customConfig(opts: {
  T: number;
  V: number;
  L: number;
  rewards: number[];
  gamma?: number;
  algorithms: Record<string, unknown>[];
  mode?: 'exact' | 'sampled';
  iterations?: number;
  seeds?: number;
  lr?: number;
  initScale?: number;
  groupSize?: number;
  optimizer?: 'sgd' | 'adam';
  noise?: unknown;
}) {
  return {
    version: 1,
    env: { turns: opts.T, vocab: opts.V, tokensPerTurn: opts.L, rewards: [opts.rewards], gamma: opts.gamma ?? 1, ...(opts.noise ? { noise: opts.noise } : {}) },
    policy: { kind: 'tabular', initScale: opts.initScale ?? 0 },
    mode: opts.mode ?? 'exact',
    iterations: opts.iterations ?? 1,
    seeds: opts.seeds ?? 1,
    groupSize: opts.groupSize ?? 8,
    optimizer: { kind: opts.optimizer ?? 'sgd', lr: opts.lr ?? 1 },
    algorithms: opts.algorithms,
  };
}

/** A shard over every run of the config. */
export function shardFor(config: unknown): CpuShard {
  const exp = resolveConfig(config);
  const specs = exp.algorithms.flatMap((_, a) => Array.from({ length: exp.seeds }, (_, s) => ({ algoIndex: a, seedIndex: s })));
  return new CpuShard(exp, specs);
}

export const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

/**
 * Every run of `exp` computed directly in one shard on this thread, optionally changing values
 * (`change.apply`) before iteration `change.at`: what a session's streamed series must equal.
 */
export function directSeries(exp: Experiment, change?: { at: number; apply: (exp: Experiment) => void }) {
  const shard = new CpuShard(exp, allRuns(exp));
  while (!shard.done) {
    if (change && shard.iteration === change.at) change.apply(exp);
    shard.step();
  }
  return shard.series;
}
