import type { TensorMessage, TensorRequest } from './tensor-protocol';

/** Runs one experiment on the tensor executor in a module Web Worker; cancel() terminates it. */
export function launchTensorWorker(req: TensorRequest, onMessage: (m: TensorMessage) => void): { cancel(): void } {
  const worker = new Worker(new URL('./tensor-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-tensor' });
  let open = true;
  const stop = () => {
    open = false;
    worker.terminate();
  };
  worker.onmessage = (e: MessageEvent<TensorMessage>) => {
    if (!open) return;
    if (e.data.type === 'done' || e.data.type === 'error') stop();
    onMessage(e.data);
  };
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    if (!open) return;
    stop();
    onMessage({ type: 'error', message: `tensor worker failed: ${e.message || 'it could not be started'}` });
  };
  worker.onmessageerror = () => {
    if (!open) return;
    stop();
    onMessage({ type: 'error', message: 'tensor worker sent a message that could not be read' });
  };
  worker.postMessage(req);
  return { cancel: stop };
}
