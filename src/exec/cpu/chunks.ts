import type { Experiment } from '../../core/config/resolve';
import type { RunSpec } from '../../core/run/partition';
import type { RunSeries } from '../../core/run/series';
import { CpuShard } from './shard';

// Runs handed out while running: a batch's runs are cut into many small chunks, and every
// thread (this one and each worker) takes the next chunk as it frees up, through one shared
// counter. A static split into one shard per thread leaves a thread idle at the end for as long as
// the two shards' costs differ, and run costs differ by algorithm, learning rate and seed. A
// run's numbers do not depend on the chunk it runs in (its random streams are keyed by seed, seed
// index and algorithm position alone), so the result is the same for any split.

/** A chunk's estimated work (ms): small enough that the threads end close together, large enough that a chunk's set-up does not show. */
const CHUNK_MS = 40;
/** At most this many chunks per thread. */
const MAX_CHUNKS_PER_THREAD = 32;

/** Cut `specs` (in order) into contiguous chunks for `threads` threads; `workMs`: their estimated work (work.ts). */
export function chunkRuns(specs: readonly RunSpec[], threads: number, workMs: number): RunSpec[][] {
  const wanted = Math.min(threads * MAX_CHUNKS_PER_THREAD, Math.max(threads, Math.floor(workMs / CHUNK_MS)));
  const n = Math.max(1, Math.min(specs.length, wanted));
  const out: RunSpec[][] = [];
  for (let c = 0; c < n; c++) out.push(specs.slice(Math.floor((c * specs.length) / n), Math.floor(((c + 1) * specs.length) / n)));
  return out;
}

/** The next chunk index for this thread (past the end: none left). */
export const claimChunk = (counter: Int32Array): number => Atomics.add(counter, 0, 1);

/** No thread claims another chunk (after a failure). */
export const stopClaiming = (counter: Int32Array, chunks: number): void => void Atomics.store(counter, 0, chunks);

/** Run one chunk's runs to the end. */
export function runChunk(exp: Experiment, specs: RunSpec[]): RunSeries[] {
  // a shard writes scheduled changes into its experiment as it steps: each chunk starts from the
  // experiment as given
  const shard = new CpuShard(exp.changes.length ? structuredClone(exp) : exp, specs);
  while (!shard.done) shard.step();
  return shard.series;
}

/** Messages between the runner and a pooled worker (node-chunk-pool.ts). */
export type ChunkJob = { type: 'job'; job: number; exp: Experiment; chunks: RunSpec[][]; counter: SharedArrayBuffer };
export type ChunkMessage =
  | { type: 'chunk'; job: number; chunk: number; series: RunSeries[] }
  | { type: 'idle'; job: number }
  | { type: 'error'; job: number; message: string };

/** A worker's part of a job: claim chunks until none is left, posting each one's series. */
export function workChunks(m: ChunkJob, post: (m: ChunkMessage) => void): void {
  const counter = new Int32Array(m.counter);
  try {
    for (let c = claimChunk(counter); c < m.chunks.length; c = claimChunk(counter)) post({ type: 'chunk', job: m.job, chunk: c, series: runChunk(m.exp, m.chunks[c]!) });
    post({ type: 'idle', job: m.job });
  } catch (e) {
    stopClaiming(counter, m.chunks.length);
    post({ type: 'error', job: m.job, message: e instanceof Error ? e.message : String(e) });
  }
}
