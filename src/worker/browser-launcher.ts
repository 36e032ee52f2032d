import type { ShardLauncher } from '../exec/cpu/run-experiment';
import type { ShardMessage } from '../exec/cpu/protocol';
import { attachWorker } from './attach';

/** Threads the page asks for: one Web Worker per shard, at most four. */
export function browserThreads(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(cores, 4));
}

/** Runs each shard in its own module Web Worker; cancel() (or the shard ending) terminates it. */
export const launchInWebWorker: ShardLauncher = (req, onMessage) => {
  const worker = new Worker(new URL('./shard-worker.ts', import.meta.url), { type: 'module', name: 'seeupo-shard' });
  return attachWorker<ShardMessage>(worker, 'shard worker', req, (m) => m.type !== 'progress', onMessage);
};
