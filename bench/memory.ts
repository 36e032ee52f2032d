// The `memory` section of `npm run bench`: a 10,000-iteration run keeps memory flat apart from
// its stored results, which are allocated up front and bounded (series.ts: J at every iteration,
// the other metrics at most STORED_POINTS per run, as the page stores them). Prints the heap after
// a full GC every 1,000 iterations on the CPU executor, and the heap plus tf.memory() on the
// tensor executor.
import v8 from 'node:v8';
import vm from 'node:vm';
import * as tf from '@tensorflow/tfjs-core';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { storageStride, type RunSeries } from '../src/core/run/series';
import { CpuShard } from '../src/exec/cpu/shard';
import { groupByShape } from '../src/exec/tensor/run-experiment';
import { TensorShard } from '../src/exec/tensor/shard';
import { nodeBackend } from '../src/exec/tensor/register-node';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const ITERATIONS = 10_000;
const EVERY = 1_000;

const heapMB = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** Bytes of the stored results: every Float64Array of the series. */
const storedMB = (series: RunSeries[]) =>
  series.reduce((b, s) => b + [s.J, s.entropy, s.kl, s.clipFraction, s.zeroVarianceGroups, s.gradNorm, s.wallMs, ...s.optimalTokenProb].reduce((x, a) => x + a.byteLength, 0), 0) / 2 ** 20;

interface Sample {
  k: number;
  heap: number;
  buffers: number;
  rss: number;
  tensors?: number;
  tensorKB?: number;
}

const memorySample = (k: number): Sample => {
  const heap = heapMB();
  const m = process.memoryUsage();
  return { k, heap, buffers: m.arrayBuffers / 2 ** 20, rss: m.rss / 2 ** 20 };
};

/** The same series at every iteration (J, entropy, T optimal-token probabilities; five update metrics). */
const fullMB = (runs: number, turns: number) => (runs * ((ITERATIONS + 1) * (2 + turns) + ITERATIONS * 5) * 8) / 2 ** 20;

function printSamples(title: string, stored: number, full: number, samples: Sample[]): void {
  console.log(`\n${title}`);
  console.log(`stored results ${stored.toFixed(1)} MB, allocated before iteration 1 (every metric at every iteration would be ${full.toFixed(1)} MB)`);
  console.log('iteration   heap MB (after GC)   ArrayBuffers MB   RSS MB' + (samples[0].tensors !== undefined ? '   tensors   tensor KB' : ''));
  for (const s of samples)
    console.log(
      `${String(s.k).padStart(9)}${s.heap.toFixed(1).padStart(21)}${s.buffers.toFixed(1).padStart(18)}${s.rss.toFixed(0).padStart(9)}` +
        (s.tensors !== undefined ? `${String(s.tensors).padStart(10)}${s.tensorKB!.toFixed(1).padStart(12)}` : ''),
    );
  const after = samples.filter((s) => s.k >= EVERY).map((s) => s.heap);
  console.log(`heap from iteration ${EVERY} on: ${Math.min(...after).toFixed(1)}–${Math.max(...after).toFixed(1)} MB (growth ${(after[after.length - 1] - after[0]).toFixed(1)} MB over ${ITERATIONS - EVERY} iterations)`);
}

export async function memoryRows(): Promise<void> {
  const config = { ...DEFAULT_CONFIG, iterations: ITERATIONS };
  const every = storageStride(ITERATIONS);
  {
    const exp = resolveConfig(config);
    const shard = new CpuShard(exp, allRuns(exp), every);
    const samples: Sample[] = [memorySample(0)];
    const t0 = performance.now();
    while (!shard.done) {
      shard.step();
      if (shard.iteration % EVERY === 0) samples.push(memorySample(shard.iteration));
    }
    const seconds = (performance.now() - t0) / 1000;
    const runs = shard.series.length;
    printSamples(
      `CPU executor, default experiment (${exp.algorithms.length} algorithms × ${exp.seeds} seeds) for ${ITERATIONS} iterations, one thread, metrics other than J every ${every} (${seconds.toFixed(0)} s)`,
      storedMB(shard.series),
      fullMB(runs, exp.env.turns),
      samples,
    );
  }
  {
    await nodeBackend('wasm');
    const exp = resolveConfig({ ...config, seeds: 1 });
    const shards = groupByShape(exp).map((specs) => new TensorShard(exp, specs, { every }));
    for (const s of shards) await s.init();
    const sample = (k: number): Sample => ({ ...memorySample(k), tensors: tf.memory().numTensors, tensorKB: tf.memory().numBytes / 2 ** 10 });
    const samples = [sample(0)];
    const t0 = performance.now();
    while (!shards[0].done) {
      for (const s of shards) await s.step();
      if (shards[0].iteration % EVERY === 0) samples.push(sample(shards[0].iteration));
    }
    const seconds = (performance.now() - t0) / 1000;
    printSamples(
      `Tensor executor (wasm), default experiment with 1 seed (${exp.algorithms.length} runs, ${shards.length} shards) for ${ITERATIONS} iterations (${seconds.toFixed(0)} s)`,
      storedMB(shards.flatMap((s) => s.series)),
      fullMB(exp.algorithms.length, exp.env.turns),
      samples,
    );
    shards.forEach((s) => s.dispose());
  }
}
