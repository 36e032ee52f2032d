// npm run bench — wall time of the CPU executor on the default experiment (9 algorithms ×
// 16 seeds × 200 iterations, sampled, lock, G = 8) and at 256 seeds, one thread and all threads;
// the straightforward baseline against it (bench/baseline-rows.ts); then the tensor executor on
// the Node tfjs backends (bench/tensor.ts).
import { availableParallelism } from 'node:os';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';
import { nodeThreadLauncher } from '../src/exec/cpu/node-pool';
import { printTensorRows, tensorRow, type TensorRow } from './tensor';
import { baselineRows, printBaselineRows } from './baseline-rows';

const workerUrl = new URL('./cpu-worker.js', import.meta.url);
const all = availableParallelism();

interface Row {
  name: string;
  threads: number;
  runs: number;
  seconds: number;
}

async function time(name: string, config: Record<string, unknown>, threads: number): Promise<Row> {
  const exp = resolveConfig(config);
  const launch = threads === 1 ? inThisThread : nodeThreadLauncher(workerUrl);
  await runOnCpu(exp, config, { threads, launch }); // warm-up (JIT)
  const reps = 3;
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    await runOnCpu(exp, config, { threads, launch });
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return { name, threads, runs: exp.algorithms.length * exp.seeds, seconds: times[Math.floor(reps / 2)] };
}

const rows: Row[] = [];
const iterations = DEFAULT_CONFIG.iterations;
for (const seeds of [16, 256]) {
  const config = { ...DEFAULT_CONFIG, seeds };
  for (const threads of [...new Set([1, all])]) rows.push(await time(`default, ${seeds} seeds`, config, threads));
}
const exact = { ...DEFAULT_CONFIG, mode: 'exact', seeds: 1 };
rows.push(await time('default in exact mode, 1 seed', exact, 1));

console.log(`CPU executor, ${all} hardware threads, median of 3 after a warm-up, ${iterations} iterations per run\n`);
console.log('experiment                        threads   runs   wall s   ms/iteration   µs/run-iteration');
for (const r of rows)
  console.log(
    `${r.name.padEnd(34)}${String(r.threads).padStart(7)}${String(r.runs).padStart(7)}${r.seconds.toFixed(3).padStart(9)}${((r.seconds * 1000) / iterations).toFixed(3).padStart(15)}${((r.seconds * 1e6) / iterations / r.runs).toFixed(2).padStart(19)}`,
  );

// the straightforward baseline (bench/baseline/: one run at a time, plain arrays, one thread) against the CPU executor
console.log('');
printBaselineRows(await baselineRows({ workerUrl }));

const tensorRows: TensorRow[] = [];
for (const backend of ['wasm', 'cpu'] as const)
  for (const seeds of [16, 256])
    for (const [name, policy] of [['tabular', { kind: 'tabular' }], ['mlp [32] tanh', { kind: 'mlp' }]] as const)
      tensorRows.push(await tensorRow(backend, { ...DEFAULT_CONFIG, seeds, policy }, name, seeds > 16 ? 2 : 5));
printTensorRows(tensorRows);
