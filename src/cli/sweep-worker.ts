import { parentPort, workerData } from 'node:worker_threads';
import { seriesBuffers } from '../exec/cpu/protocol';
import { runBatchShard, type BatchShardRequest } from './sweep-shard';

// A worker thread of `seeupo-explorer sweep` (bundled as dist/sweep-worker.js): one share of a batch.
runBatchShard(workerData as BatchShardRequest, (m) => parentPort!.postMessage(m, m.type === 'done' ? seriesBuffers(m.series) : []));
