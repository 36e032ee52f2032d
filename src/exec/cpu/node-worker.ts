import { parentPort, workerData } from 'node:worker_threads';
import type { ShardRequest } from './protocol';
import { runResolvedShard, seriesBuffers, type ShardMessage } from './shard-loop';
import { workChunks, type ChunkJob, type ChunkMessage } from './chunks';

const req = workerData as ShardRequest | { pool: true };

if ('pool' in req) {
  // a pooled worker (node-chunk-pool.ts): takes chunks of each job it is sent until it is ended
  const post = (m: ChunkMessage) => parentPort!.postMessage(m, m.type === 'chunk' ? seriesBuffers(m.series) : []);
  parentPort!.on('message', (m: ChunkJob) => workChunks(m, post));
} else {
  const post = (m: ShardMessage) => parentPort!.postMessage(m, m.type === 'done' ? seriesBuffers(m.series) : []);
  // the project's runners send the resolved experiment (run-experiment.ts), so the config schema
  // is loaded only for a request that carries a raw config alone
  if (req.exp) runResolvedShard(req.exp, req.specs, req.progressEvery, post);
  else void import('./protocol').then(({ runShard }) => runShard(req, post));
}
