import { ConfigError } from '../core/config/fields';
import type { Experiment } from '../core/config/resolve';
import { chooseExecutor, runWith } from '../core/run/choose';
import type { ExperimentResult } from '../core/run/result';
import { NODE_BACKENDS } from '../core/options';
import { runOnCpu, type CpuRunOptions, type Progress } from '../exec/cpu/run-experiment';
import { WEBGPU_IN_NODE } from './webgpu';

// One experiment on Node, on the executor chooseExecutor picks: `run`, `claims` and a sweep's
// single cells all come through here, so the CLI has one answer per executor.

export interface NodeRunOptions extends CpuRunOptions {
  onProgress: (p: Progress) => void;
  /** --threads was given: the tensor executor says it ignores it. */
  threadsAsked?: boolean;
}

export function runInNode(exp: Experiment, config: unknown, opts: NodeRunOptions): Promise<ExperimentResult> {
  return runWith(chooseExecutor(exp), {
    webgpu: () => Promise.reject(new ConfigError('executor', WEBGPU_IN_NODE)),
    tensor: async (choice) => {
      // a backend Node lacks is refused by runTensorInNode: its error must stay stderr's one line (docs/cli.md "Exit codes")
      const runs = exp.backend === null || (NODE_BACKENDS as readonly string[]).includes(exp.backend);
      if (opts.threadsAsked && runs) process.stderr.write('warning: --threads is ignored by the tensor executor (one thread drives the tfjs backend)\n');
      const { runTensorInNode } = await import('../exec/tensor/node-run');
      return runTensorInNode(exp, choice.reason, opts.onProgress);
    },
    cpu: () => runOnCpu(exp, config, opts),
  });
}
