import type { Experiment } from '../config/experiment';

/** The engines that run an experiment. */
export type RunExecutor = 'cpu' | 'tensor' | 'webgpu';

export interface ExecutorChoice {
  executor: RunExecutor;
  reason: string;
}

/**
 * MLP policies always run on the tensor executor; tabular policies run on the CPU executor
 * (float64, fastest for small tables) unless the config asks for the tensor executor or names
 * a tfjs backend.
 */
export function chooseExecutor(exp: Experiment): ExecutorChoice {
  if (exp.policy.kind === 'mlp') return { executor: 'tensor', reason: 'MLP policy: neural policies run on the tensor executor' };
  if (exp.executor === 'webgpu') return { executor: 'webgpu', reason: 'as asked (executor: webgpu): whole exact-mode iterations of every run in WGSL compute shaders, float32' };
  if (exp.executor === 'tensor') return { executor: 'tensor', reason: 'tabular policy on the tensor executor, as asked (executor: tensor)' };
  if (exp.executor === 'auto' && exp.backend) return { executor: 'tensor', reason: `tabular policy on the tensor executor, because backend ${exp.backend} was asked for` };
  return {
    executor: 'cpu',
    reason:
      exp.executor === 'cpu'
        ? 'tabular policy on the CPU executor, as asked (executor: cpu)'
        : 'tabular policy: the CPU executor is the float64 reference and the fastest path for small tables',
  };
}
