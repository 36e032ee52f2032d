// Tensor executor rows of `npm run bench`: per iteration (all runs of the experiment, every
// shard), per backend, at 16 and 256 seeds: wall ms, tfjs kernel launches ("ops", tf.profile),
// uploads (tensors made from host values: tf.tensor*, tf.scalar, tf.zeros/ones, numbers passed
// to ops) and reads back to the host (data()/dataSync()).
import * as tf from '@tensorflow/tfjs-core';
import { resolveConfig } from '../src/core/config/resolve';
import { groupByShape } from '../src/exec/tensor/run-experiment';
import { TensorShard } from '../src/exec/tensor/shard';
import { nodeBackend } from '../src/exec/tensor/register-node';

export interface TensorRow {
  backend: string;
  policy: string;
  seeds: number;
  runs: number;
  shards: number;
  msPerIteration: number;
  opsPerIteration: number;
  uploadsPerIteration: number;
  readsPerIteration: number;
}

/** Host↔device traffic while `f` runs: tensors made from host values, and reads back to the host. */
export async function countTraffic(f: () => Promise<void>): Promise<{ uploads: number; reads: number }> {
  // tfjs keeps these on its engine; they are patched for the duration of f only
  const engine = tf.engine() as unknown as Record<'makeTensor' | 'read' | 'readSync', (...a: unknown[]) => unknown>;
  const saved = { makeTensor: engine.makeTensor, read: engine.read, readSync: engine.readSync };
  const n = { uploads: 0, reads: 0 };
  engine.makeTensor = function (this: unknown, ...a: unknown[]) {
    n.uploads++;
    return saved.makeTensor.apply(this, a);
  };
  engine.read = function (this: unknown, ...a: unknown[]) {
    n.reads++;
    return saved.read.apply(this, a);
  };
  engine.readSync = function (this: unknown, ...a: unknown[]) {
    n.reads++;
    return saved.readSync.apply(this, a);
  };
  try {
    await f();
  } finally {
    Object.assign(engine, saved);
  }
  return n;
}

/** Kernels launched while `f` runs (tf.profile). */
export async function countOps(f: () => Promise<void>): Promise<number> {
  return (await tf.profile(() => f().then(() => []))).kernels.length;
}

export async function tensorRow(backend: 'cpu' | 'wasm', config: Record<string, unknown>, policy: string, timed: number): Promise<TensorRow> {
  await nodeBackend(backend);
  const exp = resolveConfig({ ...config, iterations: timed + 4 });
  const shards = groupByShape(exp).map((specs) => new TensorShard(exp, specs));
  const iteration = async () => {
    for (const s of shards) await s.step();
  };
  for (const s of shards) await s.init();
  await iteration(); // warm-up: kernels compiled, buffers sized
  const ops = await countOps(iteration);
  const { uploads, reads } = await countTraffic(iteration);
  const t0 = performance.now();
  for (let k = 0; k < timed; k++) await iteration();
  const ms = (performance.now() - t0) / timed;
  shards.forEach((s) => s.dispose());
  return { backend, policy, seeds: exp.seeds, runs: exp.seeds * exp.algorithms.length, shards: shards.length, msPerIteration: ms, opsPerIteration: ops, uploadsPerIteration: uploads, readsPerIteration: reads };
}

export function printTensorRows(rows: TensorRow[]): void {
  console.log('\nTensor executor (Node; webgpu/webgl run in the browser only), default experiment, per iteration (every shard)');
  console.log('backend  policy          seeds   runs  shards   ms/iteration   ops/iteration   uploads/iteration   reads/iteration');
  for (const r of rows)
    console.log(
      `${r.backend.padEnd(9)}${r.policy.padEnd(16)}${String(r.seeds).padStart(5)}${String(r.runs).padStart(7)}${String(r.shards).padStart(8)}${r.msPerIteration.toFixed(1).padStart(15)}${String(r.opsPerIteration).padStart(16)}${String(r.uploadsPerIteration).padStart(20)}${String(r.readsPerIteration).padStart(18)}`,
    );
}
