import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config/resolve';
import { allRuns } from '../../src/core/run/partition';
import { runShard, type ShardMessage, type ShardRequest } from '../../src/exec/cpu/protocol';
import { NodeChunkPool } from '../../src/exec/cpu/node-chunk-pool';
import { ensureBuilt, ROOT } from '../helpers/cli';

// The bundled worker thread (dist/cpu-worker.js, which runs dist/cpu-worker-bundle.js from its
// code cache): the project's runners send it the resolved experiment, and then it never loads the
// config schema; a request with a raw config alone is still validated there, as before.

beforeAll(() => ensureBuilt(), 120_000);

const config = { version: 1, env: { preset: 'lock' }, iterations: 6, seeds: 2, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] };

function inWorker(req: ShardRequest): Promise<ShardMessage[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(join(ROOT, 'dist', 'cpu-worker.js'), { workerData: req });
    const got: ShardMessage[] = [];
    w.on('message', (m: ShardMessage) => got.push(m));
    w.on('error', reject);
    w.on('exit', () => resolve(got)); // a finished worker ends by itself
  });
}

function here(req: ShardRequest): ShardMessage[] {
  const got: ShardMessage[] = [];
  runShard(req, (m) => got.push(m));
  return got;
}

const curves = (ms: ShardMessage[]) => {
  const done = ms.find((m) => m.type === 'done');
  if (!done || done.type !== 'done') throw new Error(`no result: ${JSON.stringify(ms.find((m) => m.type === 'error'))}`);
  return done.series.map((s) => Array.from(s.J));
};

describe('the bundled CPU worker', () => {
  const exp = resolveConfig(config);
  const specs = allRuns(exp);

  it('runs a shard of the resolved experiment, or of the raw config alone, to the same curves as this thread', async () => {
    const expected = curves(here({ config, specs, progressEvery: 2 }));
    expect(curves(await inWorker({ config: null, exp, specs, progressEvery: 2 }))).toEqual(expected);
    expect(curves(await inWorker({ config, specs, progressEvery: 2 }))).toEqual(expected);
  }, 60_000);

  it('a raw config alone is validated in the worker: a bad one is an error message naming the field', async () => {
    const got = await inWorker({ config: { ...config, iterations: 0 }, specs, progressEvery: 2 });
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ type: 'error' });
    expect((got[0] as { message: string }).message).toMatch(/^iterations: must be an integer from 1 to/);
  }, 60_000);
});

describe('the pooled CPU workers (runs handed out chunk by chunk)', () => {
  const big = { version: 1, env: { preset: 'lock' }, iterations: 30, seeds: 12, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }, { id: 'reinforce' }] };

  const alone = (exp: ReturnType<typeof resolveConfig>) => curves(here({ config: null, exp: structuredClone(exp), specs: allRuns(exp), progressEvery: 1000 }));

  it('gives every run the curves of one shard on this thread, in the order of the runs, job after job on the same workers', async () => {
    // every thread takes chunks, however small the batch
    const pool = new NodeChunkPool(pathToFileURL(join(ROOT, 'dist', 'cpu-worker.js')), 3, (_, threads) => threads);
    try {
      const withChanges = resolveConfig({ ...big, changes: [{ at: 10, path: 'optimizer.lr', value: 0.05 }] });
      for (const exp of [resolveConfig(big), withChanges, resolveConfig({ ...big, seeds: 1, algorithms: [{ id: 'grpo' }] })]) {
        const specs = allRuns(exp);
        let reported = 0;
        const series = await pool.run(exp, specs, (done) => (reported += done.length));
        expect(series.map((s) => [s.algoIndex, s.seedIndex])).toEqual(specs.map((s) => [s.algoIndex, s.seedIndex]));
        expect(series.map((s) => Array.from(s.J))).toEqual(alone(exp));
        expect(reported).toBe(specs.length);
      }
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('a chunk that fails rejects the batch with its message, and the pool still runs the next batch', async () => {
    const pool = new NodeChunkPool(pathToFileURL(join(ROOT, 'dist', 'cpu-worker.js')), 2, (_, threads) => threads);
    try {
      const exp = resolveConfig(big);
      const broken = { ...structuredClone(exp), policy: { ...exp.policy, kind: 'mlp' } } as typeof exp;
      await expect(pool.run(broken, allRuns(broken))).rejects.toThrow(/tabular policies only/);
      expect((await pool.run(exp, allRuns(exp))).map((s) => Array.from(s.J))).toEqual(alone(exp));
    } finally {
      await pool.close();
    }
  }, 120_000);
});
