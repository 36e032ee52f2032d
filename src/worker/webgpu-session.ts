import { resolveConfig } from '../core/config/resolve';
import { applyHotValues } from '../core/run/changes';
import { storageStride } from '../core/run/series';
import { acquireDevice, adapterName } from '../exec/webgpu/device';
import { WebGpuShard } from '../exec/webgpu/shard';
import type { MakeSteppable } from './session-host';
import { TURN_STEP_NEEDS_CPU } from './session-protocol';

/**
 * The WebGPU executor's runs as a session: every run in one shard, several iterations per dispatch
 * (as many as take about DISPATCH_MS, never past the next pause, step or hot change, which land
 * between iterations as on the other executors).
 */
export const makeWebGpuSteppable: MakeSteppable = async (config, specs) => {
  const exp = resolveConfig(config);
  const gpu = await acquireDevice();
  const shard = new WebGpuShard(exp, specs, gpu.device, storageStride(exp.iterations));
  try {
    await shard.init();
  } catch (e) {
    shard.dispose();
    gpu.device.destroy();
    throw e;
  }
  return {
    series: shard.series,
    get iteration() {
      return shard.iteration;
    },
    total: exp.iterations,
    turns: exp.env.turns,
    Jstar: shard.Jstar,
    backend: { backend: 'webgpu', attempts: [], adapter: gpu.adapter, reason: `WGSL kernels on ${adapterName(gpu.adapter)}` },
    async step(turns, limit = 1) {
      if (turns) throw new Error(TURN_STEP_NEEDS_CPU);
      await shard.step(Math.min(limit, shard.suggestedK()));
      return null;
    },
    applyHot(v) {
      applyHotValues(exp, v);
      shard.writeAlgos();
    },
    dispose() {
      shard.dispose();
      gpu.device.destroy();
    },
  };
};
