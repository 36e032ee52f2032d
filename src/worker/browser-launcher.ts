import type { ShardLauncher } from '../exec/cpu/run-experiment';
import type { ShardMessage } from '../exec/cpu/protocol';

/** Threads the page asks for: one Web Worker per shard, at most four. */
export function browserThreads(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(cores, 4));
}

/** Runs each shard in its own module Web Worker; cancel() (or the shard ending) terminates it. */
export const launchInWebWorker: ShardLauncher = (req, onMessage) => {
  const worker = new Worker(new URL('./shard-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-shard' });
  let open = true;
  const stop = () => {
    open = false;
    worker.terminate();
  };
  worker.onmessage = (e: MessageEvent<ShardMessage>) => {
    if (!open) return;
    if (e.data.type !== 'progress') stop();
    onMessage(e.data);
  };
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    if (!open) return;
    stop();
    onMessage({ type: 'error', message: `shard worker failed: ${e.message || 'it could not be started'}` });
  };
  worker.onmessageerror = () => {
    if (!open) return;
    stop();
    onMessage({ type: 'error', message: 'shard worker sent a message that could not be read' });
  };
  worker.postMessage(req);
  return { cancel: stop };
};
