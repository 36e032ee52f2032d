import { attachWorker } from './attach';
import type { TensorMessage, TensorRequest } from './tensor-protocol';

/** Runs one experiment on the tensor executor in a module Web Worker; cancel() terminates it. */
export function launchTensorWorker(req: TensorRequest, onMessage: (m: TensorMessage) => void): { cancel(): void } {
  const worker = new Worker(new URL('./tensor-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-tensor' });
  return attachWorker<TensorMessage>(worker, 'tensor worker', req, (m) => m.type === 'done' || m.type === 'error', onMessage);
}
