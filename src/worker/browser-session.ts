import type { Connect } from './session-client';
import type { ConnectSweep } from './sweep-client';
import type { SweepWorkerEvent } from './sweep-protocol';
import type { SessionEvent } from './session-protocol';
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

/** Estimated single-thread work (ms) from which a run takes every core, the page's included (below: one left to the page). */
export const ALL_CORES_FROM_MS = 2000;

/**
 * Workers for a CPU-executor experiment: as many as its estimated work pays for
 * (src/exec/cpu/work.ts), at most browserThreads(); an experiment of several seconds of work (512
 * seeds of a lesson) takes every core, at most four: the page does little while it streams (its
 * charts, verdicts and caption are paced to their cost, charts/common.tsx), and on two cores one
 * worker would leave half the machine idle for seconds.
 */
export function browserThreadsFor(exp: Parameters<typeof estimateWorkMs>[0]): number {
  const work = estimateWorkMs(exp);
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  const available = work >= ALL_CORES_FROM_MS ? Math.min(cores, 4) : browserThreads();
  return threadsForWork(work, available, exp.algorithms.length * exp.seedIndices.length);
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

/** The CPU executor's workers, kept between sessions (one per thread the page uses). */
export const cpuWorkers = new WorkerPool(() => new Worker(new URL('./cpu-session-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-cpu' }), 'CPU worker', () => Math.min(navigator.hardwareConcurrency || 2, 4));

export const connectCpuWorker: Connect = (onEvent) => cpuWorkers.connect(onEvent);

export const connectTensorWorker: Connect = (onEvent) =>
  wire<SessionEvent>(new Worker(new URL('./tensor-session-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-tensor' }), 'tensor worker', onEvent);

/** A sweep worker (src/worker/sweep-worker.ts) for the page's Sweep view. */
export const connectSweepWorker: ConnectSweep = (onEvent) =>
  wire<SweepWorkerEvent>(new Worker(new URL('./sweep-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-sweep' }), 'the sweep worker', onEvent);

export const connectWebGpuWorker: Connect = (onEvent) =>
  wire<SessionEvent>(new Worker(new URL('./webgpu-session-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-webgpu' }), 'WebGPU worker', onEvent);
