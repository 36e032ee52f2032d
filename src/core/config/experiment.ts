import type { AlgorithmRecord } from '../algo/records';
import type { Env } from '../env/types';
import type { Activation, BackendName, ExecutorChoice, Mode, OptimizerKind } from '../options';
import type { ScheduledChange } from './hot-paths';

// The engine's view of an experiment: resolve.ts builds it from a config (defaults and presets
// filled in, everything checked); executors, metrics, claims and the page read it.

export type PolicySpec =
  /** shareContexts: one table for every context, the policy cannot see the prompt (docs/math.md, "Policies"); absent = false. */
  | { kind: 'tabular'; initScale: number; shareContexts?: boolean }
  | { kind: 'mlp'; hidden: number[]; activation: Activation; initScale: number };

/** True when one table serves every context (`policy.shareContexts`, tabular only). */
export const sharesContexts = (policy: PolicySpec): boolean => policy.kind === 'tabular' && policy.shareContexts === true;

/** A validated experiment with every default and preset filled in: what executors run. */
export interface Experiment {
  env: Env;
  envPreset: string | null;
  policy: PolicySpec;
  mode: Mode;
  iterations: number;
  seeds: number;
  seed: number;
  /** The seed indices that run (default 0..seeds−1; `seedIndices` replays some of them). */
  seedIndices: number[];
  groupSize: number;
  optimizer: { kind: OptimizerKind; lr: number };
  algorithms: AlgorithmRecord[];
  executor: ExecutorChoice;
  backend: BackendName | null;
  mcSamples: number;
  /** Learning-rate and clip changes at given iterations, in the order they apply. */
  changes: ScheduledChange[];
  /** Fields given that the algorithm's rule does not read, one line each. */
  warnings: string[];
}
