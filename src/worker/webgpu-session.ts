import { applyHotValues } from '../core/run/changes';
import { resolveConfig } from '../core/config/resolve';
import type { BackendReport } from '../core/run/backend-report';
import { storageStride } from '../core/run/series';
import { CpuShard } from '../exec/cpu/shard';
import { acquireDevice, adapterName } from '../exec/webgpu/device';
import { WebGpuShard } from '../exec/webgpu/shard';
import { TreeWatch } from '../exec/host/tree-watch';
import type { MakeSteppable } from './session-host';
import { makeCpuSteppable } from './cpu-session';
import { TURN_STEP_NEEDS_CPU } from './session-protocol';

/**
 * The WebGPU executor's runs as a session: every run in one shard, several iterations per dispatch
 * (as many as take about READBACK_MS, never past the next pause, step or hot change, which land
 * between iterations as on the other executors), the next dispatch submitted before the last one's
 * read back while the session runs on (settled before it stops).
 *
 * A lost device (a driver reset, a GPU taken away, `device.destroy()`) does not end the run: the
 * CPU executor takes over from the last iteration the GPU completed, from the logits and Adam
 * state every read back brings along (WebGpuShard's snapshot), with the experiment as it stands
 * (every change made so far); sampled runs go on with the CPU executor's own random streams. The
 * page keeps the GPU's numbers up to there and says what happened. An MLP policy has no such
 * fallback (the CPU executor runs tables only): the run stops there with that reason.
 */
export const makeWebGpuSteppable: MakeSteppable = async (config, specs) => {
  const exp = resolveConfig(config);
  let gpu: Awaited<ReturnType<typeof acquireDevice>>;
  try {
    gpu = await acquireDevice();
  } catch (e) {
    // no device at all: the CPU executor runs the experiment from the start, and says why
    const why = e instanceof Error ? e.message : String(e);
    const report: BackendReport = { backend: 'cpu', attempts: [{ backend: 'webgpu', ok: false, reason: why }], adapter: null, reason: `${why}; the CPU executor (float64) ran it instead` };
    return Object.defineProperty(await makeCpuSteppable(config, specs), 'backend', { value: report });
  }
  let lost: string | null = null;
  void gpu.device.lost.then((info) => (lost = `the WebGPU device was lost (${info.reason}${info.message ? `: ${info.message}` : ''})`));
  // the browser tests lose the device on purpose through this handle (a worker's global; the page cannot reach it)
  (globalThis as { __seeupoWebGpuDevice?: GPUDevice }).__seeupoWebGpuDevice = gpu.device;
  const every = storageStride(exp.iterations);
  const mlp = exp.policy.kind === 'mlp'; // the CPU executor cannot take an MLP over: no snapshots to read back
  const shard = new WebGpuShard(exp, specs, gpu.device, every, !mlp);
  try {
    await shard.init();
  } catch (e) {
    shard.dispose();
    gpu.device.destroy();
    throw e;
  }
  let cpu: CpuShard | null = null;
  // the policy trees (tables only), from the logits every read back brings along; the CPU executor's after a fallback
  const trees = mlp ? null : new TreeWatch(shard.pb, specs, 'the WebGPU executor keeps its batch on the GPU');
  let watching: { runs: [number, number][]; context: number } | null = null;
  let backend: BackendReport = { backend: 'webgpu', attempts: [], adapter: gpu.adapter, reason: `WGSL kernels on ${adapterName(gpu.adapter)}` };
  const fallBack = (why: string) => {
    const k = shard.iteration;
    if (mlp) throw new Error(`${why} at iteration ${k}; the CPU executor runs tabular policies only, so this MLP cannot go on there: run it again, or on executor "tensor"`);
    cpu = resumeOnCpu(shard, every);
    if (watching) cpu.watch(watching.runs, watching.context);
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
          // the next dispatch goes in before this one's read back, as far as the session's limit (shard.ts)
          await shard.step(Math.min(limit, shard.suggestedK()), shard.iteration + limit);
          return null;
        } catch (e) {
          fallBack(lost ?? `the WebGPU executor failed (${e instanceof Error ? e.message : String(e)})`);
        }
      }
      cpu!.step();
      return null;
    },
    async settle() {
      if (cpu || !shard.inFlight) return;
      try {
        if (lost) throw new Error(lost);
        await shard.settle();
      } catch (e) {
        fallBack(lost ?? `the WebGPU executor failed (${e instanceof Error ? e.message : String(e)})`);
      }
    },
    applyHot(v) {
      applyHotValues(exp, v); // the one experiment both shards read
      if (!cpu) shard.writeAlgos();
    },
    dispose() {
      shard.dispose();
      gpu.device.destroy();
    },
    ...(trees && {
      watch(runs: [number, number][], context: number) {
        watching = { runs, context };
        trees.watch(runs, context);
        cpu?.watch(runs, context);
      },
      trees: () => (cpu ? cpu.trees() : trees.trees(shard.iteration, (r) => shard.runSnapshot(r).logits)),
    }),
  };
};

/**
 * A CPU shard that goes on where the WebGPU shard stopped: the same experiment object (every change
 * applied so far), the same series, the logits and Adam state of the last read back.
 */
function resumeOnCpu(gpu: WebGpuShard, every: number): CpuShard {
  const cpu = new CpuShard(gpu.exp, gpu.specs, every);
  cpu.runs.forEach((run, r) => {
    const { logits, adam } = gpu.runSnapshot(r);
    run.theta.set(logits);
    if (adam) {
      run.opt.m.set(adam.m);
      run.opt.v.set(adam.v);
      adam.steps.forEach((k, t) => (run.opt.steps[t] = k));
    }
    run.diverged = gpu.series[r]!.diverged;
  });
  cpu.thetaSet(); // its kept tables were of the initial θ
  cpu.series.splice(0, cpu.series.length, ...gpu.series);
  cpu.iteration = gpu.iteration;
  return cpu;
}
