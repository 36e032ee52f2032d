import { resolveConfig, type Experiment } from '../../core/config/resolve';
import type { RunSpec } from '../../core/run/partition';
import type { RunSeries } from '../../core/run/series';
import { CpuShard } from './shard';

/** Messages between a runner and a shard worker (Node worker_threads or Web Workers alike). */
export interface ShardRequest {
  config: unknown; // the raw config: the worker validates and resolves it itself
  /**
   * Or the experiment already resolved, for a sweep batch (core/sweep/batch.ts): its algorithm
   * list is cells × algorithms, which no config states. Only the project's own runners send it.
   */
  exp?: Experiment;
  specs: RunSpec[];
  progressEvery: number; // iterations between progress messages
}

export type ShardMessage =
  | { type: 'progress'; iteration: number; J: Float64Array; specs: RunSpec[] }
  | { type: 'done'; series: RunSeries[] }
  | { type: 'error'; message: string };

/** Run a shard to the end, posting J of its runs every `progressEvery` iterations. */
export function runShard(req: ShardRequest, post: (m: ShardMessage) => void): void {
  try {
    const shard = new CpuShard(req.exp ?? resolveConfig(req.config), req.specs);
    const progress = () => {
      const k = shard.iteration;
      post({ type: 'progress', iteration: k, J: Float64Array.from(shard.series, (s) => s.J[k]), specs: req.specs });
    };
    progress();
    while (!shard.done) {
      shard.step();
      if (shard.iteration % req.progressEvery === 0 || shard.done) progress();
    }
    post({ type: 'done', series: shard.series });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
}

/** Transferable buffers of a series list (so posting them copies nothing). */
export function seriesBuffers(series: RunSeries[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const s of series) {
    for (const a of [s.J, s.entropy, s.kl, s.clipFraction, s.zeroVarianceGroups, s.gradNorm, s.wallMs, ...s.optimalTokenProb, ...s.Jcontext, ...(s.Jgamma ? [s.Jgamma] : [])]) out.push(a.buffer as ArrayBuffer);
  }
  return out;
}
