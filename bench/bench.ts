// npm run bench [-- SECTION…] — sections (all of them, in this order, when none is named):
//   cpu       wall time of the CPU executor on the default experiment (9 algorithms × 16 seeds ×
//             200 iterations, sampled, lock, G = 8) and at 256 seeds, one thread and all threads
//   sweep     a batched sweep (9 algorithms × 8 learning rates × 3 normalizations × 16 seeds × 200
//             iterations: 3,456 runs) on one and two threads, µs per run-iteration beside the
//             single experiment's (bench/sweep.ts; SWEEP_BENCH_SEEDS=N for another seed count)
//   baseline  the straightforward baseline against it (bench/baseline-rows.ts)
//   tensor    the tensor executor on the Node tfjs backends (bench/tensor.ts)
//   scaling   cost per iteration against turns, tokens per turn, vocab, G and seeds, both executors (bench/scaling.ts)
//   startup   a 1-iteration, 1-seed CLI run against a bare `node -e 0`, whole process (bench/versus.ts)
//   versus    the CLI against the scalar implementation (bench/scalar), whole process, paired, at 16, 64, 256 seeds (bench/versus.ts)
//   write     the result written by the CLI's streaming writer against JSON.stringify (bench/write.ts)
//   memory    heap (and tf.memory()) over a 10,000-iteration run, both executors (bench/memory.ts)
// e.g. `npm run bench -- scaling`, `npm run bench -- cpu tensor`; an unknown name exits 2.
import { availableParallelism } from 'node:os';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';
import { nodeThreadLauncher } from '../src/exec/cpu/node-pool';

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

async function cpuSection(): Promise<void> {
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
}

async function sweepSection(): Promise<void> {
  const { sweepRows } = await import('./sweep');
  await sweepRows(all);
}

// the straightforward baseline (bench/baseline/: one run at a time, plain arrays, one thread) against the CPU executor
async function baselineSection(): Promise<void> {
  const { baselineRows, printBaselineRows } = await import('./baseline-rows');
  console.log('');
  printBaselineRows(await baselineRows({ workerUrl }));
}

async function tensorSection(): Promise<void> {
  const { printTensorRows, tensorRow } = await import('./tensor');
  const tensorRows: Awaited<ReturnType<typeof tensorRow>>[] = [];
  for (const backend of ['wasm', 'cpu'] as const)
    for (const seeds of [16, 256])
      for (const [name, policy] of [['tabular', { kind: 'tabular' }], ['mlp [32] tanh', { kind: 'mlp' }]] as const)
        tensorRows.push(await tensorRow(backend, { ...DEFAULT_CONFIG, seeds, policy }, name, seeds > 16 ? 2 : 5));
  printTensorRows(tensorRows);
}

async function scalingSection(): Promise<void> {
  const { scalingRows, printScalingRows } = await import('./scaling');
  const t0 = performance.now();
  const rows = await scalingRows({
    backend: 'wasm',
    onRow: process.stderr.isTTY ? (r) => process.stderr.write(`  scaling: ${r.factor} = ${r.value} done\n`) : undefined,
  });
  printScalingRows(rows, { backend: 'wasm', seconds: (performance.now() - t0) / 1000 });
}

async function startupSection(): Promise<void> {
  const { startupRows } = await import('./versus');
  await startupRows();
}

async function versusSection(): Promise<void> {
  const { versusRows } = await import('./versus');
  await versusRows();
}

async function writeSection(): Promise<void> {
  const { writeRows } = await import('./write');
  await writeRows();
}

// imported only when asked for: it sets V8 flags (--expose-gc) as it loads
async function memorySection(): Promise<void> {
  const { memoryRows } = await import('./memory');
  await memoryRows();
}

const SECTIONS: Record<string, () => Promise<void>> = {
  cpu: cpuSection,
  sweep: sweepSection,
  baseline: baselineSection,
  tensor: tensorSection,
  scaling: scalingSection,
  startup: startupSection,
  versus: versusSection,
  write: writeSection,
  memory: memorySection,
};

const asked = process.argv.slice(2);
const unknown = asked.filter((s) => !Object.hasOwn(SECTIONS, s));
if (unknown.length) {
  console.error(`bench: unknown section${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `"${s}"`).join(', ')}; valid sections: ${Object.keys(SECTIONS).join(', ')} (none: all of them)`);
  process.exit(2);
}
const chosen = asked.length ? Object.keys(SECTIONS).filter((s) => asked.includes(s)) : Object.keys(SECTIONS);
for (const [i, name] of chosen.entries()) {
  if (i > 0) console.log('');
  await SECTIONS[name]!();
}
