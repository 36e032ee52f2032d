import { resolveConfig } from '../core/config/resolve';
import { applyHotValues, type HotValues } from '../core/run/changes';
import type { BackendReport } from '../core/run/backend-report';
import type { RunSpec } from '../core/run/partition';
import { storageStride } from '../core/run/series';
import { CpuShard } from '../exec/cpu/shard';
import { acquireDevice, adapterName } from '../exec/webgpu/device';
import { WebGpuShard } from '../exec/webgpu/shard';
import type { MakeSteppable } from './session-host';
import { TURN_STEP_NEEDS_CPU } from './session-protocol';

/**
 * The WebGPU executor's runs as a session: every run in one shard, several iterations per dispatch
 * (as many as take about DISPATCH_MS, never past the next pause, step or hot change, which land
 * between iterations as on the other executors).
 *
 * A lost device (a driver reset, a GPU taken away, `device.destroy()`) does not end the run: the
 * CPU executor takes over from the last iteration the GPU completed. Exact mode draws no random
 * numbers after the start, so it replays iterations 0 … k with the same hot changes at the same
 * iterations and goes on; the page keeps the GPU's numbers up to k and says what happened.
 */
export const makeWebGpuSteppable: MakeSteppable = async (config, specs) => {
  const exp = resolveConfig(config);
  const gpu = await acquireDevice();
  let lost: string | null = null;
  void gpu.device.lost.then((info) => (lost = `the WebGPU device was lost (${info.reason}${info.message ? `: ${info.message}` : ''})`));
  // the browser tests lose the device on purpose through this handle (a worker's global; the page cannot reach it)
  (globalThis as { __seeupoWebGpuDevice?: GPUDevice }).__seeupoWebGpuDevice = gpu.device;
  const every = storageStride(exp.iterations);
  const shard = new WebGpuShard(exp, specs, gpu.device, every);
  try {
    await shard.init();
  } catch (e) {
    shard.dispose();
    gpu.device.destroy();
    throw e;
  }
  const hotLog: { at: number; values: HotValues }[] = [];
  let cpu: CpuShard | null = null;
  let backend: BackendReport = { backend: 'webgpu', attempts: [], adapter: gpu.adapter, reason: `WGSL kernels on ${adapterName(gpu.adapter)}` };
  const fallBack = (why: string) => {
    const k = shard.iteration;
    cpu = replayOnCpu(config, specs, every, hotLog, k);
    shard.dispose();
    backend = { backend: 'cpu', attempts: [{ backend: 'webgpu', ok: false, reason: why }], adapter: gpu.adapter, reason: `${why} at iteration ${k}; the CPU executor (float64) continued from there` };
  };
  return {
    get series() {
      return cpu ? cpu.series : shard.series;
    },
    get iteration() {
      return cpu ? cpu.iteration : shard.iteration;
    },
    total: exp.iterations,
    turns: exp.env.turns,
    Jstar: shard.Jstar,
    get backend() {
      return backend;
    },
    async step(turns, limit = 1) {
      if (turns) throw new Error(TURN_STEP_NEEDS_CPU);
      if (!cpu) {
        try {
          if (lost) throw new Error(lost);
          await shard.step(Math.min(limit, shard.suggestedK()));
          return null;
        } catch (e) {
          fallBack(lost ?? `the WebGPU executor failed (${e instanceof Error ? e.message : String(e)})`);
        }
      }
      cpu!.step();
      return null;
    },
    applyHot(v) {
      hotLog.push({ at: cpu ? cpu.iteration : shard.iteration, values: v });
      if (cpu) applyHotValues(cpu.pb.exp, v);
      else {
        applyHotValues(exp, v);
        shard.writeAlgos();
      }
    },
    dispose() {
      shard.dispose();
      gpu.device.destroy();
    },
  };
};

/** A CPU shard at iteration k of the same runs: replayed from the start with the hot changes the session made. */
function replayOnCpu(config: unknown, specs: RunSpec[], every: number, hotLog: readonly { at: number; values: HotValues }[], k: number): CpuShard {
  const cpu = new CpuShard(resolveConfig(config), specs, every);
  while (cpu.iteration < k) {
    for (const h of hotLog) if (h.at === cpu.iteration) applyHotValues(cpu.pb.exp, h.values);
    cpu.step();
  }
  return cpu;
}
