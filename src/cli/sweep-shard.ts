import type { Experiment } from '../core/config/resolve';
import type { RunSpec } from '../core/run/partition';
import type { RunSeries } from '../core/run/series';
import { CpuShard } from '../exec/cpu/shard';
import { makeRun } from '../exec/host/state';

// One thread's share of a sweep batch (core/sweep/batch.ts) on the CPU executor: its runs laid out
// together in one CpuShard, as an experiment's runs are. The executor keys a run's random streams
// by (seed, seed index, algorithm position); in a batch the position is cells × algorithms, so each
// run is made again, before the first update, with its position in its own cell (`streams`):
// makeRun derives the streams exactly as for the cell run alone (initial logits depend on the seed
// alone, and the iteration-0 evaluation reads no stream, so what the shard recorded stays valid).

/** What a batch thread is given: the compiled experiment, its runs, and each compiled algorithm's stream index. */
export interface BatchShardRequest {
  exp: Experiment;
  specs: RunSpec[];
  streams: number[];
  progressEvery: number;
}

export type BatchShardMessage =
  | { type: 'progress'; iteration: number }
  | { type: 'done'; series: RunSeries[] }
  | { type: 'error'; message: string };

export function runBatchShard(req: BatchShardRequest, post: (m: BatchShardMessage) => void): void {
  try {
    const shard = new CpuShard(req.exp, req.specs);
    const P = shard.pb.params;
    req.specs.forEach((s, r) => {
      const own = req.streams[s.algoIndex]!;
      if (own === s.algoIndex) return;
      const old = shard.runs[r]!;
      const run = makeRun(shard.pb, req.exp.algorithms[s.algoIndex]!, own, s.seedIndex, shard.theta.subarray(r * P, (r + 1) * P));
      run.diverged = old.diverged;
      shard.runs[r] = run;
    });
    while (!shard.done) {
      shard.step();
      if (shard.iteration % req.progressEvery === 0 || shard.done) post({ type: 'progress', iteration: shard.iteration });
    }
    post({ type: 'done', series: shard.series });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
}
