import { parentPort, workerData } from 'node:worker_threads';
import type { ShardRequest } from './protocol';
import { runResolvedShard, seriesBuffers, type ShardMessage } from './shard-loop';

const req = workerData as ShardRequest;
const post = (m: ShardMessage) => parentPort!.postMessage(m, m.type === 'done' ? seriesBuffers(m.series) : []);

// the project's runners send the resolved experiment (run-experiment.ts), so the config schema
// is loaded only for a request that carries a raw config alone
if (req.exp) runResolvedShard(req.exp, req.specs, req.progressEvery, post);
else void import('./protocol').then(({ runShard }) => runShard(req, post));
