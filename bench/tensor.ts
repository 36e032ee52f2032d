// Tensor executor rows of `npm run bench`: ms per iteration (all runs of the experiment, every
// shard) and tfjs kernel launches ("ops") per iteration, per backend, at 16 and 256 seeds.
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
}

export async function tensorRow(backend: 'cpu' | 'wasm', config: Record<string, unknown>, policy: string, timed: number): Promise<TensorRow> {
  await nodeBackend(backend);
  const exp = resolveConfig({ ...config, iterations: timed + 3 });
  const shards = groupByShape(exp).map((specs) => new TensorShard(exp, specs));
  for (const s of shards) await s.init();
  for (const s of shards) await s.step(); // warm-up: kernels compiled, buffers sized
  let ops = 0;
  for (const s of shards) ops += (await tf.profile(() => s.step().then(() => []))).kernels.length;
  const t0 = performance.now();
  for (let k = 0; k < timed; k++) for (const s of shards) await s.step();
  const ms = (performance.now() - t0) / timed;
  shards.forEach((s) => s.dispose());
  return { backend, policy, seeds: exp.seeds, runs: exp.seeds * exp.algorithms.length, shards: shards.length, msPerIteration: ms, opsPerIteration: ops };
}

export function printTensorRows(rows: TensorRow[]): void {
  console.log('\nTensor executor (Node; webgpu/webgl run in the browser only), default experiment per iteration');
  console.log('backend  policy          seeds   runs  shards   ms/iteration   ops/iteration');
  for (const r of rows)
    console.log(
      `${r.backend.padEnd(9)}${r.policy.padEnd(16)}${String(r.seeds).padStart(5)}${String(r.runs).padStart(7)}${String(r.shards).padStart(8)}${r.msPerIteration.toFixed(1).padStart(15)}${String(r.opsPerIteration).padStart(16)}`,
    );
}
