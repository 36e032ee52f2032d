import type { Experiment } from '../../core/config/resolve';
import { chooseExecutor } from '../../core/run/choose';
import { allRuns } from '../../core/run/partition';
import { buildResult, type ExperimentResult } from '../../core/run/result';
import type { Progress } from '../host/progress';
import { acquireDevice } from './device';
import { WebGpuShard } from './shard';

/** An experiment to the end on the WebGPU executor (a sweep's cell in the page), every buffer and the device released after. */
export async function runOnWebGpu(exp: Experiment, onProgress?: (p: Progress) => void): Promise<ExperimentResult> {
  const t0 = performance.now();
  const gpu = await acquireDevice();
  const shard = new WebGpuShard(exp, allRuns(exp), gpu.device);
  try {
    await shard.init();
    while (!shard.done) {
      await shard.step(shard.suggestedK());
      onProgress?.({ iteration: shard.iteration, total: exp.iterations, latest: [] });
    }
    return buildResult(exp, shard.Jstar, shard.series, { executor: 'webgpu', backend: null, executorReason: chooseExecutor(exp).reason, threads: 1, wallSeconds: (performance.now() - t0) / 1000 });
  } finally {
    shard.dispose();
    gpu.device.destroy();
  }
}
