import type { Connect } from './session-client';
import type { ConnectSweep } from './sweep-client';
import type { SweepWorkerEvent } from './sweep-protocol';
import type { SessionCommand, SessionEvent } from './session-protocol';
import { resolveConfig } from '../core/config/resolve';
import { allRuns } from '../core/run/partition';
import { WorkerPool } from './worker-pool';
import { estimateWorkMs, threadsForWork } from '../exec/cpu/work';

/**
 * Web Workers the page uses for the CPU executor: one per share of the runs, at most four,
 * leaving one core to the page so that drawing never waits on the workers.
 */
export function browserThreads(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(cores - 1, 4));
}

/**
 * Workers for a CPU-executor experiment: as many as its estimated work pays for
 * (src/exec/cpu/work.ts), at most browserThreads(). Never every core: two busy workers on two
 * cores take the core from the page's own tasks in their middle, and their wall time grows past
 * 50 ms although their CPU time does not (the 512-seed lesson, paired in `npm run bench:browser`
 * on a loaded 2-core machine: the longest task 70–176 ms of wall time with two workers against
 * 52–93 ms with one, 29–36 ms of CPU time either way; its verdict came sooner with two in most pairs).
 */
export function browserThreadsFor(exp: Parameters<typeof estimateWorkMs>[0]): number {
  return threadsForWork(estimateWorkMs(exp), browserThreads(), exp.algorithms.length * exp.seedIndices.length);
}

/** A worker's messages to `onEvent`; its failures as an error event naming `what`. */
function wire<E extends { type: string }>(worker: Worker, what: string, onEvent: (e: E | { type: 'error'; message: string }) => void) {
  worker.onmessage = (e: MessageEvent<E>) => onEvent(e.data);
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    onEvent({ type: 'error', message: `${what} failed: ${e.message || 'it could not be started'}` });
  };
  worker.onmessageerror = () => onEvent({ type: 'error', message: `${what} sent a message that could not be read` });
  return { post: (msg: Parameters<Worker['postMessage']>[0]) => worker.postMessage(msg), close: () => worker.terminate() };
}

/**
 * The CPU workers' exercise (worker-pool.ts), run by a worker started ahead: the nine algorithms
 * on exact-mode lock, 2 seeds, 4 iterations (tens of ms), so the engine's code is optimized
 * before the first Run.
 */
export function cpuExercise(): SessionCommand[] {
  const config = { version: 1, env: { preset: 'lock' }, mode: 'exact', seeds: 2, iterations: 4 };
  return [
    { type: 'init', config, specs: allRuns(resolveConfig(config)) },
    { type: 'go', seq: 1, until: null },
  ];
}

/** The CPU executor's workers, kept between sessions (one per thread the page uses). */
export const cpuWorkers = new WorkerPool(() => new Worker(new URL('./cpu-session-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-cpu' }), 'CPU worker', browserThreads, cpuExercise);

export const connectCpuWorker: Connect = (onEvent) => cpuWorkers.connect(onEvent);

export const connectTensorWorker: Connect = (onEvent) =>
  wire<SessionEvent>(new Worker(new URL('./tensor-session-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-tensor' }), 'tensor worker', onEvent);

/** A sweep worker (src/worker/sweep-worker.ts) for the page's Sweep view. */
export const connectSweepWorker: ConnectSweep = (onEvent) =>
  wire<SweepWorkerEvent>(new Worker(new URL('./sweep-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-sweep' }), 'the sweep worker', onEvent);

export const connectWebGpuWorker: Connect = (onEvent) =>
  wire<SessionEvent>(new Worker(new URL('./webgpu-session-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-webgpu' }), 'WebGPU worker', onEvent);
