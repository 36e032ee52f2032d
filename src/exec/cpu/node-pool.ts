import { Worker } from 'node:worker_threads';
import type { ShardLauncher } from './run-experiment';
import type { ShardMessage } from './protocol';

/** Launch each shard in a Node worker thread running the bundled cpu-worker.js. */
export function nodeThreadLauncher(workerUrl: URL): ShardLauncher {
  return (req, onMessage) => {
    const w = new Worker(workerUrl, { workerData: req });
    w.on('message', (m: ShardMessage) => {
      onMessage(m);
      if (m.type !== 'progress') void w.terminate();
    });
    w.on('error', (e) => onMessage({ type: 'error', message: e.message }));
    return { cancel: () => void w.terminate() };
  };
}
