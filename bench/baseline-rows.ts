// The straightforward baseline (bench/baseline: one run at a time, plain arrays, one thread)
// against the CPU executor on the default experiment (9 algorithms × 200 iterations, sampled
// `lock`, G = 8) at 16 and 256 seeds, and the executor's cost per run-iteration as seeds grow.
import { availableParallelism } from 'node:os';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig } from '../src/core/config/resolve';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';
import { nodeThreadLauncher } from '../src/exec/cpu/node-pool';
import { runBaseline } from './baseline/run';

export interface BaselineRow {
  /** 'compare': baseline vs executor at `seeds`; 'scaling': the executor, 1 thread, as seeds grow. */
  table: 'compare' | 'scaling';
  impl: 'baseline' | 'cpu executor';
  threads: number;
  seeds: number;
  runs: number;
  iterations: number;
  /** Median wall time of 3 after a warm-up, for all `seeds` (scaled linearly when timedSeeds < seeds). */
  seconds: number;
  timedSeeds: number;
}

export interface BaselineOptions {
  /** The bundled worker for the multi-thread rows (default: cpu-worker.js beside this bundle). */
  workerUrl?: URL;
  /** Above this predicted wall time per repetition, the baseline times a subset of seeds and scales. */
  maxBaselineSeconds?: number;
  seeds?: number[];
  scalingSeeds?: number[];
}

async function median3(run: () => unknown, warmUp: boolean): Promise<number> {
  if (warmUp) await run(); // JIT
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    await run();
    times.push((performance.now() - t0) / 1000);
  }
  return times.sort((a, b) => a - b)[1];
}

export async function baselineRows(opts: BaselineOptions = {}): Promise<BaselineRow[]> {
  const workerUrl = opts.workerUrl ?? new URL('./cpu-worker.js', import.meta.url);
  const maxSeconds = opts.maxBaselineSeconds ?? 60;
  const all = availableParallelism();
  const rows: BaselineRow[] = [];
  const iterations = DEFAULT_CONFIG.iterations;
  const row = (r: Omit<BaselineRow, 'iterations' | 'runs'>): BaselineRow => ({ ...r, iterations, runs: r.seeds * DEFAULT_CONFIG.algorithms.length });
  const executor = async (seeds: number, threads: number) => {
    const config = { ...DEFAULT_CONFIG, seeds };
    const exp = resolveConfig(config);
    const launch = threads === 1 ? inThisThread : nodeThreadLauncher(workerUrl);
    return median3(() => runOnCpu(exp, config, { threads, launch }), true);
  };
  let baselinePerSeed = 0; // seconds per seed from the previous measurement, to predict the next
  for (const seeds of opts.seeds ?? [16, 256]) {
    const exp = resolveConfig({ ...DEFAULT_CONFIG, seeds });
    let timedSeeds = seeds;
    while (baselinePerSeed * timedSeeds > maxSeconds && timedSeeds > 16) timedSeeds /= 2;
    timedSeeds = Math.max(1, Math.floor(timedSeeds));
    const subset = Array.from({ length: timedSeeds }, (_, i) => i);
    const t = await median3(() => runBaseline(exp, subset), baselinePerSeed === 0);
    baselinePerSeed = t / timedSeeds;
    rows.push(row({ table: 'compare', impl: 'baseline', threads: 1, seeds, seconds: (t * seeds) / timedSeeds, timedSeeds }));
    for (const threads of [...new Set([1, all])])
      rows.push(row({ table: 'compare', impl: 'cpu executor', threads, seeds, seconds: await executor(seeds, threads), timedSeeds: seeds }));
  }
  for (const seeds of opts.scalingSeeds ?? [16, 32, 64, 128, 256]) {
    const done = rows.find((r) => r.impl === 'cpu executor' && r.threads === 1 && r.seeds === seeds);
    rows.push({ ...(done ?? row({ impl: 'cpu executor', threads: 1, seeds, seconds: await executor(seeds, 1), timedSeeds: seeds, table: 'scaling' })), table: 'scaling' });
  }
  return rows;
}

const usPerRunIteration = (r: BaselineRow) => (r.seconds * 1e6) / (r.iterations * r.runs);

export function printBaselineRows(rows: BaselineRow[]): void {
  const compare = rows.filter((r) => r.table === 'compare');
  console.log('\nCPU executor against a straightforward implementation (bench/baseline: one run at a time, plain arrays, one thread)');
  console.log(`default experiment (${compare[0]?.iterations ?? 200} iterations, sampled lock, G = 8), median of 3 after a warm-up; speed-up = baseline s / executor s`);
  console.log('seeds   runs  implementation   threads     wall s   µs/run-iteration   speed-up');
  const ratios: number[] = [];
  for (const r of compare) {
    const base = compare.find((b) => b.impl === 'baseline' && b.seeds === r.seeds);
    const ratio = base && r.impl !== 'baseline' ? base.seconds / r.seconds : null;
    if (ratio !== null) ratios.push(ratio);
    const scaled = r.timedSeeds < r.seeds ? `  (timed ${r.timedSeeds} seeds, scaled ×${r.seeds / r.timedSeeds})` : '';
    console.log(
      `${String(r.seeds).padStart(5)}${String(r.runs).padStart(7)}  ${r.impl.padEnd(17)}${String(r.threads).padStart(7)}${r.seconds.toFixed(3).padStart(11)}${usPerRunIteration(r).toFixed(2).padStart(19)}${(ratio === null ? '—' : `${ratio.toFixed(2)}×`).padStart(11)}${scaled}`,
    );
  }
  if (ratios.length) console.log(`smallest speed-up ${Math.min(...ratios).toFixed(2)}×: the ≥ 2× target ${Math.min(...ratios) >= 2 ? 'holds' : 'does NOT hold'}`);
  const scaling = rows.filter((r) => r.table === 'scaling');
  if (!scaling.length) return;
  console.log('\nCPU executor, 1 thread, cost as seeds grow (linear = flat µs/run-iteration)');
  console.log('seeds   runs     wall s   µs/run-iteration   vs first row');
  const first = usPerRunIteration(scaling[0]);
  for (const r of scaling)
    console.log(`${String(r.seeds).padStart(5)}${String(r.runs).padStart(7)}${r.seconds.toFixed(3).padStart(11)}${usPerRunIteration(r).toFixed(2).padStart(19)}${(usPerRunIteration(r) / first).toFixed(2).padStart(14)}`);
}
