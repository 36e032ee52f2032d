// The sweep rows of `npm run bench`: the default experiment's 9 algorithms over
// 8 learning rates × 3 normalizations (16 seeds × 200 iterations each: 3,456 runs) as one batched
// sweep, on one thread and on two, beside the same cells run one at a time as experiments of their
// own (the same work unbatched) and the default experiment alone. SWEEP_BENCH_SEEDS=N runs it with
// N seeds per cell.
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { cellConfig, parseSweep, resolveCell } from '../src/core/sweep/cells';
import { estimateWorkMs, threadsForWork } from '../src/exec/cpu/work';
import { shardCells } from '../src/core/sweep/document';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';
import { nodeThreadLauncher } from '../src/exec/cpu/node-pool';
import { runSweepCellsInNode as runSweepCells } from '../src/cli/sweep-run';

export interface SweepRow {
  name: string;
  threads: number;
  runs: number;
  seconds: number;
}

const dist = new URL('./', import.meta.url);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The benchmark sweep: lr on a log grid 0.03 … 10 (8 points) × normalization none|group|batch over the default experiment. */
export function benchSweep(seeds: number) {
  return {
    version: 1,
    base: { ...DEFAULT_CONFIG, seeds },
    axes: [
      { path: 'optimizer.lr', grid: { from: 0.03, to: 10, count: 8, scale: 'log' } },
      { path: 'algorithms.*.normalization', values: ['none', 'group', 'batch'] },
    ],
  };
}

async function timeSweep(seeds: number, threads: number, reps: number): Promise<SweepRow> {
  const sweep = parseSweep(benchSweep(seeds));
  const cells = shardCells(sweep.cells, null);
  const opts = { threads, workers: threads > 1 ? dist : null, shard: null };
  await runSweepCells(parseSweep(benchSweep(2)), cells, opts); // warm-up (JIT)
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    await runSweepCells(sweep, cells, opts);
    times.push((performance.now() - t0) / 1000);
  }
  return { name: `sweep 8 lr × 3 norm, ${seeds} seeds`, threads, runs: sweep.cells * DEFAULT_CONFIG.algorithms.length * seeds, seconds: median(times) };
}

/**
 * The same cells run one at a time, each as an experiment of its own (what the batching replaces),
 * on as many of `threads` as each cell's work pays for (the rule `run` follows: work.ts): one pass.
 */
async function timeLooped(seeds: number, threads: number): Promise<SweepRow> {
  const sweep = parseSweep(benchSweep(seeds));
  const launch = threads === 1 ? inThisThread : nodeThreadLauncher(new URL('./cpu-worker.js', dist));
  const t0 = performance.now();
  for (const c of shardCells(sweep.cells, null)) {
    const exp = resolveCell(sweep, c);
    const use = threadsForWork(estimateWorkMs(exp), threads, exp.algorithms.length * exp.seedIndices.length);
    await runOnCpu(exp, cellConfig(sweep, c), { threads: use, launch: use === 1 ? inThisThread : launch });
  }
  return { name: `the same cells one at a time`, threads, runs: sweep.cells * DEFAULT_CONFIG.algorithms.length * seeds, seconds: (performance.now() - t0) / 1000 };
}

async function timeExperiment(threads: number, reps: number): Promise<SweepRow> {
  const config = { ...DEFAULT_CONFIG };
  const exp = resolveConfig(config);
  const launch = threads === 1 ? inThisThread : nodeThreadLauncher(new URL('./cpu-worker.js', dist));
  await runOnCpu(exp, config, { threads, launch });
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    await runOnCpu(exp, config, { threads, launch });
    times.push((performance.now() - t0) / 1000);
  }
  return { name: 'default experiment, 16 seeds', threads, runs: exp.algorithms.length * exp.seeds, seconds: median(times) };
}

export async function sweepRows(allThreads: number): Promise<void> {
  const seeds = Number(process.env.SWEEP_BENCH_SEEDS ?? 16);
  if (!Number.isInteger(seeds) || seeds < 2 || seeds > 1024) throw new Error(`SWEEP_BENCH_SEEDS must be an integer from 2 to 1024, got ${process.env.SWEEP_BENCH_SEEDS}`);
  const iterations = DEFAULT_CONFIG.iterations;
  const perRunIt = (r: SweepRow) => (r.seconds * 1e6) / iterations / r.runs;
  console.log(`Sweeps, batched (cells × algorithms × seeds in one experiment's shards; on several threads, chunks of runs taken as each thread frees up): median of 3 after a warm-up, ${iterations} iterations per run;`);
  console.log('the same cells one at a time as experiments of their own (one pass, in this process: no process start-ups), and the default experiment alone for scale');
  console.log('experiment                              threads    runs   wall s   µs/run-iteration   batched vs one at a time');
  for (const threads of [...new Set([1, Math.min(2, allThreads)])]) {
    const one = await timeExperiment(threads, 3);
    const sweep = await timeSweep(seeds, threads, 3);
    const looped = await timeLooped(seeds, threads);
    for (const r of [one, looped, sweep]) {
      const ratio = r === sweep ? `${(looped.seconds / sweep.seconds).toFixed(2)}× faster` : '';
      console.log(`${r.name.padEnd(40)}${String(r.threads).padStart(7)}${String(r.runs).padStart(8)}${r.seconds.toFixed(3).padStart(9)}${perRunIt(r).toFixed(2).padStart(19)}${ratio.padStart(27)}`);
    }
  }
}
