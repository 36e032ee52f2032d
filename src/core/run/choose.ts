import type { Experiment } from '../config/experiment';
import { webgpuUnsupported } from '../config/webgpu-support';

/** The engines that run an experiment. */
export type RunExecutor = 'cpu' | 'tensor' | 'webgpu';

export interface ExecutorChoice {
  executor: RunExecutor;
  reason: string;
}

/** The WebGPU adapter the page found: a hardware one, a software one (SwiftShader), or none/unknown. */
export type GpuKind = 'hardware' | 'software' | null;

/**
 * With `auto` and a hardware WebGPU adapter, tabular experiments of at least this many runs go to
 * the WebGPU executor (one dispatch runs them all; below this the CPU executor's workers are
 * already fast). An estimate, not a measurement on a hardware GPU (docs/architecture.md).
 */
export const WEBGPU_AUTO_RUNS = 2304;

/**
 * MLP policies run on the tensor executor unless the config asks for the WebGPU executor; tabular policies run on the CPU executor
 * (float64, fastest for small tables) unless the config asks for the tensor or WebGPU executor or
 * names a tfjs backend — or, in the page (`gpu` known), a hardware WebGPU adapter is there and
 * the experiment is large and of a kind the WebGPU executor runs.
 */
export function chooseExecutor(exp: Experiment, gpu: GpuKind = null): ExecutorChoice {
  if (exp.executor === 'webgpu') return { executor: 'webgpu', reason: 'as asked (executor: webgpu): whole iterations of every run in WGSL compute shaders, float32' };
  if (exp.policy.kind === 'mlp') return { executor: 'tensor', reason: 'MLP policy: neural policies run on the tensor executor' };
  if (exp.executor === 'tensor') return { executor: 'tensor', reason: 'tabular policy on the tensor executor, as asked (executor: tensor)' };
  if (exp.executor === 'auto' && exp.backend) return { executor: 'tensor', reason: `tabular policy on the tensor executor, because backend ${exp.backend} was asked for` };
  if (exp.executor === 'cpu') return { executor: 'cpu', reason: 'tabular policy on the CPU executor, as asked (executor: cpu)' };
  const runs = exp.algorithms.length * exp.seedIndices.length;
  if (gpu === 'hardware' && runs >= WEBGPU_AUTO_RUNS && webgpuUnsupported(exp) === null)
    return { executor: 'webgpu', reason: `tabular policy, ${runs.toLocaleString('en-US')} runs and a hardware WebGPU adapter: one WGSL dispatch runs every run` };
  return {
    executor: 'cpu',
    reason:
      gpu === 'software'
        ? 'tabular policy: the CPU executor is the float64 reference and the fastest path for small tables (the WebGPU adapter here is a software one, where the WebGPU executor is no faster)'
        : 'tabular policy: the CPU executor is the float64 reference and the fastest path for small tables',
  };
}

/** What each executor does in one place (the page, a worker, Node): every executor must be answered for. */
export type Runners<R> = { readonly [E in RunExecutor]: (choice: ExecutorChoice) => R };

/**
 * The one step from a choice to its runner: the page, the sweep worker and the CLI each give their
 * runners and call this, so no caller falls through to an executor the choice did not name.
 */
export function runWith<R>(choice: ExecutorChoice, runners: Runners<R>): R {
  return runners[choice.executor](choice);
}

/** The executors' names in messages. */
export const EXECUTOR_NAMES: Readonly<Record<RunExecutor, string>> = { cpu: 'CPU', tensor: 'tensor', webgpu: 'WebGPU' };
