import { resolveConfig, type Experiment } from '../../core/config/resolve';
import type { RunSpec } from '../../core/run/partition';
import { runResolvedShard, type ShardMessage } from './shard-loop';

export { seriesBuffers, type ShardMessage } from './shard-loop';

/** Messages between a runner and a shard worker (Node worker_threads or Web Workers alike). */
export interface ShardRequest {
  config: unknown; // the raw config: the worker validates and resolves it itself
  /**
   * Or the experiment already resolved (by the runner, from this config, or for a sweep batch,
   * core/sweep/batch.ts, whose algorithm list is cells × algorithms, which no config states).
   * Only the project's own runners send it.
   */
  exp?: Experiment;
  specs: RunSpec[];
  progressEvery: number; // iterations between progress messages
}

/** Run a shard to the end, posting J of its runs every `progressEvery` iterations. */
export function runShard(req: ShardRequest, post: (m: ShardMessage) => void): void {
  let exp: Experiment;
  try {
    exp = req.exp ?? resolveConfig(req.config);
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
    return;
  }
  runResolvedShard(exp, req.specs, req.progressEvery, post);
}
