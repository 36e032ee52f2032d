import { DEFAULT_CONFIG } from '../core/config/defaults';
import { resolveConfig, type Experiment } from '../core/config/resolve';
import { algorithmLabel } from '../core/algo/records';
import { computeOptimum } from '../core/env/exact';
import { sharesContexts } from '../core/config/experiment';
import { buildTree } from '../core/env/tree';
import { describeEnv, ENV_PRESETS } from '../core/env/presets';
import { chooseExecutor, type ExecutorChoice, type GpuKind } from '../core/run/choose';
import { algorithmColor } from './palette';

export interface AlgorithmLine {
  id: string;
  label: string;
  color: string;
}

/** What the page knows before running: the resolved experiment, its lines, J*, and the worker count. */
export interface Plan {
  config: unknown;
  exp: Experiment;
  /** Which executor runs it, and why. */
  choice: ExecutorChoice;
  algorithms: AlgorithmLine[];
  Jstar: number;
  /** Range of the mean rewards: J always lies inside it (the chart's y range). */
  rewardRange: [number, number];
  /** Web Workers a CPU-executor run will use (one shard each); the tensor executor uses one. */
  threads: number;
  envTitle: string | null;
  /** The environment in words, from its actual parameters (src/core/env/presets.ts describeEnv). */
  envDescription: string;
}

/**
 * Validate the config and work out J* up front (cheap: one backward induction over a tiny tree).
 * `threads`: the Web Workers a CPU-executor run uses, or how many for its experiment.
 * `gpuKind`: the WebGPU adapter the page found (gpu-probe.ts, kept in the store): with a hardware
 * one \`auto\` may choose the WebGPU executor; null (none, or not asked yet) never does.
 */
export function planExperiment(config: unknown = DEFAULT_CONFIG, threads: number | ((exp: Experiment) => number), gpuKind: GpuKind = null): Plan {
  const exp = resolveConfig(config);
  let lo = Infinity, hi = -Infinity;
  for (const row of exp.env.returns) for (const r of row) { lo = Math.min(lo, r); hi = Math.max(hi, r); }
  const preset = exp.envPreset ? ENV_PRESETS[exp.envPreset] : undefined;
  return {
    config,
    exp,
    choice: chooseExecutor(exp, gpuKind),
    algorithms: exp.algorithms.map((a, i) => ({ id: a.id, label: algorithmLabel(a), color: algorithmColor(a) })),
    Jstar: computeOptimum(exp.env, buildTree(exp.env), sharesContexts(exp.policy)).Jstar,
    rewardRange: [lo, hi],
    threads: Math.max(1, Math.min(typeof threads === 'function' ? threads(exp) : threads, exp.algorithms.length * exp.seedIndices.length)),
    envTitle: preset?.title ?? null,
    envDescription: describeEnv(exp.env, exp.envPreset),
  };
}
