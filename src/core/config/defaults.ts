import { ALGORITHM_IDS } from '../algo/records';

/** Values a config may leave out (docs/cli.md "The config"). */
export const DEFAULTS = {
  mode: 'sampled' as const,
  iterations: 200,
  seeds: 16,
  seed: 0,
  groupSize: 8,
  optimizer: { kind: 'sgd' as const, lr: 0.3 },
  executor: 'auto' as const,
  mcSamples: 4096,
  gamma: 1,
  mlpHidden: [32],
  mlpActivation: 'tanh' as const,
  /** Scale of the initial logits (tabular: a uniform start) or of the Glorot weights (MLP). */
  initScale: { tabular: 0, mlp: 1 },
};

/** The default experiment: `lock`, sampled, 16 seeds, 200 iterations, G = 8, SGD lr 0.3, all nine named algorithms. */
export const DEFAULT_CONFIG = {
  version: 1 as const,
  env: { preset: 'lock' },
  policy: { kind: 'tabular' as const },
  mode: DEFAULTS.mode,
  iterations: DEFAULTS.iterations,
  seeds: DEFAULTS.seeds,
  seed: DEFAULTS.seed,
  groupSize: DEFAULTS.groupSize,
  optimizer: DEFAULTS.optimizer,
  algorithms: ALGORITHM_IDS.map((id) => ({ id })),
  executor: DEFAULTS.executor,
};
