import type { Experiment } from '../../core/config/resolve';
import type { RunSpec } from '../../core/run/partition';
import type { RunSeries } from '../../core/run/series';
import { CpuShard } from './shard';

// The shard loop itself, apart from protocol.ts (which validates a raw config first): a Node
// worker that is sent the resolved experiment runs this without loading the config schema,
// whose construction is a start-up cost (docs/architecture.md "Start-up").

export type ShardMessage =
  | { type: 'progress'; iteration: number; J: Float64Array; specs: RunSpec[] }
  | { type: 'done'; series: RunSeries[] }
  | { type: 'error'; message: string };

/** Run a shard of `exp` to the end, posting J of its runs every `progressEvery` iterations. */
export function runResolvedShard(exp: Experiment, specs: RunSpec[], progressEvery: number, post: (m: ShardMessage) => void): void {
  try {
    const shard = new CpuShard(exp, specs);
    const progress = () => {
      const k = shard.iteration;
      post({ type: 'progress', iteration: k, J: Float64Array.from(shard.series, (s) => s.J[k]), specs });
    };
    progress();
    while (!shard.done) {
      shard.step();
      if (shard.iteration % progressEvery === 0 || shard.done) progress();
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
