/// <reference lib="webworker" />
// Web Worker entry: runs one shard of an experiment on the CPU executor and posts its messages back.
import { runShard, seriesBuffers, type ShardMessage, type ShardRequest } from '../exec/cpu/protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;

function post(m: ShardMessage): void {
  if (m.type === 'done') scope.postMessage(m, seriesBuffers(m.series));
  else if (m.type === 'progress') scope.postMessage(m, [m.J.buffer as ArrayBuffer]);
  else scope.postMessage(m);
}

scope.onmessage = (e: MessageEvent<ShardRequest>) => runShard(e.data, post);
