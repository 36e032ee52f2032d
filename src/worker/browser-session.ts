import type { Connect } from './session-client';
import type { SessionEvent } from './session-protocol';

/**
 * Web Workers the page uses for the CPU executor: one per share of the runs, at most four,
 * leaving one core to the page so that drawing never waits on the workers.
 */
export function browserThreads(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(cores - 1, 4));
}

function wire(worker: Worker, what: string, onEvent: (e: SessionEvent) => void) {
  worker.onmessage = (e: MessageEvent<SessionEvent>) => onEvent(e.data);
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    onEvent({ type: 'error', message: `${what} failed: ${e.message || 'it could not be started'}` });
  };
  worker.onmessageerror = () => onEvent({ type: 'error', message: `${what} sent a message that could not be read` });
  return { post: (cmd: Parameters<Worker['postMessage']>[0]) => worker.postMessage(cmd), close: () => worker.terminate() };
}

export const connectCpuWorker: Connect = (onEvent) =>
  wire(new Worker(new URL('./cpu-session-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-cpu' }), 'CPU worker', onEvent);

export const connectTensorWorker: Connect = (onEvent) =>
  wire(new Worker(new URL('./tensor-session-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-tensor' }), 'tensor worker', onEvent);
