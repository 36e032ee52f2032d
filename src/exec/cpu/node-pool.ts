import type { ShardLauncher } from './run-experiment';
import { runShard, type ShardMessage } from './protocol';

/**
 * Launch shards in Node worker threads running the bundled cpu-worker.js, except the first shard
 * of each batch of launches (the shards one experiment deals out together), which runs on this
 * thread once the workers are started: this thread would only wait otherwise, and a worker
 * costs a start (a fresh engine, the bundle compiled, its first iterations unoptimized).
 * `inThisThread: false` sends every shard to a worker.
 */
export function nodeThreadLauncher(workerUrl: URL, opts: { inThisThread?: boolean } = {}): ShardLauncher {
  const here = opts.inThisThread ?? true;
  let batchHasLocal = false;
  return (req, onMessage) => {
    if (here && !batchHasLocal) {
      // the launches of one batch happen in one synchronous loop: this shard starts after it,
      // when every other shard's worker is already starting
      batchHasLocal = true;
      let cancelled = false;
      setImmediate(() => {
        batchHasLocal = false;
        if (!cancelled) runShard(req, onMessage);
      });
      return { cancel: () => void (cancelled = true) };
    }
    // loaded on the first worker: a run that stays on this thread does not load worker_threads
    const { Worker } = process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads');
    const w = new Worker(workerUrl, { workerData: req });
    w.on('message', (m: ShardMessage) => {
      onMessage(m);
      // a finished worker ends by itself (after writing its code cache, when the build asks it
      // to: bin/code-cache.js); one that failed is ended here
      if (m.type === 'error') void w.terminate();
    });
    w.on('error', (e) => onMessage({ type: 'error', message: e.message }));
    return { cancel: () => void w.terminate() };
  };
}
