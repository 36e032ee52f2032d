import { parentPort, workerData } from 'node:worker_threads';
import { runShard, seriesBuffers, type ShardRequest } from './protocol';

runShard(workerData as ShardRequest, (m) => parentPort!.postMessage(m, m.type === 'done' ? seriesBuffers(m.series) : []));
