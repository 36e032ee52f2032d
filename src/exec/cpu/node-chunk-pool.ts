import type { Worker } from 'node:worker_threads';
import type { Experiment } from '../../core/config/resolve';
import type { RunSpec } from '../../core/run/partition';
import type { RunSeries } from '../../core/run/series';
import { chunkRuns, claimChunk, runChunk, stopClaiming, type ChunkJob, type ChunkMessage } from './chunks';
import { estimateRunsWorkMs, threadsForWork } from './work';

/**
 * Node worker threads that stay up between batches and take a batch's runs chunk by chunk
 * (chunks.ts) beside this thread. A worker is started when a batch first needs it and ended by
 * close(): the caller closes the pool when its batches are done (or failed).
 */
export class NodeChunkPool {
  private readonly workers: Worker[] = [];
  private jobs = 0;
  private onMessage: (m: ChunkMessage) => void = () => {};
  private closing = false;
  private readonly threads: number;

  /**
   * `threads`: this thread and up to threads − 1 workers running `workerUrl` (the bundled
   * cpu-worker.js; null: this thread alone); `threadsFor`: how many a batch of `workMs` estimated
   * work is worth.
   */
  constructor(
    private readonly workerUrl: URL | null,
    threads: number,
    private readonly threadsFor: (workMs: number, threads: number, runs: number) => number = threadsForWork,
  ) {
    this.threads = workerUrl ? threads : 1;
  }

  /**
   * Run `specs` of `exp` to the end on as many threads as the batch's work is worth (work.ts);
   * `onChunk(series)`: a chunk's runs finished (chunks finish in any order). The promise gives
   * every series, in the order of `specs`.
   */
  run(exp: Experiment, specs: RunSpec[], onChunk?: (series: RunSeries[]) => void): Promise<RunSeries[]> {
    const workMs = estimateRunsWorkMs(exp, specs.length);
    const threads = this.threadsFor(workMs, this.threads, specs.length);
    const chunks = chunkRuns(specs, threads, workMs);
    const counter = new Int32Array(new SharedArrayBuffer(4));
    const job = ++this.jobs;
    const parts: RunSeries[][] = new Array(chunks.length);
    let got = 0;
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (message: string) => {
        if (settled) return;
        settled = true;
        stopClaiming(counter, chunks.length);
        reject(new Error(message));
      };
      const take = (c: number, series: RunSeries[]) => {
        if (settled) return;
        parts[c] = series;
        try {
          onChunk?.(series);
        } catch (e) {
          fail(e instanceof Error ? e.message : String(e));
          return;
        }
        if (++got === chunks.length) {
          settled = true;
          resolve(parts.flat());
        }
      };
      this.onMessage = (m) => {
        if (m.job !== job) return;
        if (m.type === 'chunk') take(m.chunk, m.series);
        else if (m.type === 'error') fail(m.message);
      };
      const message: ChunkJob = { type: 'job', job, exp, chunks, counter: counter.buffer as SharedArrayBuffer };
      for (let w = 0; w < threads - 1; w++) this.worker(w, fail).postMessage(message);
      // this thread's lane: a chunk at a time, letting the workers' messages in between
      const lane = () => {
        if (settled) return;
        const c = claimChunk(counter);
        if (c >= chunks.length) return;
        let series: RunSeries[];
        try {
          series = runChunk(exp, chunks[c]!);
        } catch (e) {
          fail(e instanceof Error ? e.message : String(e));
          return;
        }
        take(c, series);
        setImmediate(lane);
      };
      // after the workers' start has begun
      setImmediate(lane);
    });
  }

  /** End every worker. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private worker(w: number, fail: (message: string) => void): Worker {
    if (!this.workers[w]) {
      // loaded on the first worker: a sweep that stays on this thread does not load worker_threads
      const { Worker } = process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads');
      const worker = new Worker(this.workerUrl!, { workerData: { pool: true } });
      worker.on('message', (m: ChunkMessage) => this.onMessage(m));
      worker.on('error', (e) => this.failRunning(e.message));
      // a worker that ends while the pool is open would leave its claimed chunk unfinished
      worker.on('exit', (code) => this.closing || this.failRunning(`a worker thread stopped (exit code ${code})`));
      this.workers[w] = worker;
    }
    this.failRunning = fail;
    return this.workers[w]!;
  }

  private failRunning: (message: string) => void = () => {};
}
