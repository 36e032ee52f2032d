// The scaling table of `npm run bench`: cost per iteration against turns, tokens per
// turn, vocabulary, group size G and seeds, on both executors. Each row starts from the default
// experiment (9 algorithms × 16 seeds, sampled `lock`, T = 3, V = 3, L = 1, G = 8) and changes
// one factor. Sizes the `lock` preset does not allow (1 or more than 6 turns, more than one
// token per turn, vocab 2 or above 8) use a custom reward table built by the same rule (code
// 0-1-0-1… earns 1, first-turn action 2 exits with 0.3), equal to the preset's table at the
// preset's own sizes (test/bench-scaling.test.ts).
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { resolveConfig, type Experiment } from '../src/core/config/resolve';
import { LIMITS } from '../src/core/config/schema';
import { ENV_PRESETS } from '../src/core/env/presets';
import { buildTree, decodeSequence } from '../src/core/env/tree';
import { allRuns } from '../src/core/run/partition';
import { evaluateRun } from '../src/exec/cpu/iterate';
import { CpuShard } from '../src/exec/cpu/shard';

export type Factor = 'turns' | 'tokensPerTurn' | 'vocab' | 'groupSize' | 'seeds';

export interface Sizes {
  turns: number;
  vocab: number;
  tokensPerTurn: number;
}

/** The values each factor takes, the others held at the default experiment's. */
export const SCALING_VALUES: Record<Factor, number[]> = {
  turns: [1, 2, 3, 4, 6, 8],
  tokensPerTurn: [1, 2, 3],
  vocab: [2, 3, 4, 8, 16, 32],
  groupSize: [4, 8, 16, 32, 64],
  seeds: [16, 64, 256, 1024],
};

export const FACTOR_ORDER: Factor[] = ['turns', 'tokensPerTurn', 'vocab', 'groupSize', 'seeds'];

const LOCK = ENV_PRESETS.lock!;

/** Reward of one token sequence under the lock rule at any size (presets.ts, `lock`). */
function lockRule(sizes: Sizes, tokens: Int32Array): number {
  const action = (t: number) => {
    let a = 0;
    for (let k = t * sizes.tokensPerTurn; k < (t + 1) * sizes.tokensPerTurn; k++) a = a * sizes.vocab + tokens[k]!;
    return a;
  };
  if (action(0) === 2) return 0.3;
  for (let t = 0; t < sizes.turns; t++) if (action(t) !== t % 2) return 0;
  return 1;
}

/** True when the `lock` preset itself accepts these sizes. */
export function presetAllows(sizes: Sizes): boolean {
  return (['turns', 'vocab', 'tokensPerTurn'] as const).every((k) => sizes[k] >= LOCK.allowed[k].min && sizes[k] <= LOCK.allowed[k].max);
}

/** A custom one-context env whose reward table follows the lock rule at these sizes. */
export function lockTable(sizes: Sizes): Record<string, unknown> & { rewards: number[][] } {
  const tree = buildTree(sizes);
  const tokens = new Int32Array(tree.N);
  const rewards = Array.from({ length: tree.sequences }, (_, s) => lockRule(sizes, decodeSequence(tree, s, tokens)));
  return { ...sizes, rewards: [rewards] };
}

/** The `lock` preset at these sizes, or lockTable where the preset refuses them. */
export function lockEnv(sizes: Sizes): Record<string, unknown> {
  if (!presetAllows(sizes)) return lockTable(sizes);
  const env: Record<string, unknown> = { preset: 'lock' };
  for (const k of ['turns', 'vocab', 'tokensPerTurn'] as const) if (sizes[k] !== LOCK.defaults[k]) env[k] = sizes[k];
  return env;
}

export interface ScalingCase {
  factor: Factor;
  value: number;
  sizes: Sizes;
  groupSize: number;
  seeds: number;
  /** 'lock' (the preset) or 'custom' (a table by the lock rule). */
  env: 'lock' | 'custom';
  /** contexts · V^(T·L) */
  sequences: number;
  runs: number;
  config: Record<string, unknown>;
}

/** The default experiment with one factor changed, one case per factor value, in FACTOR_ORDER. */
export function scalingCases(values: Partial<Record<Factor, number[]>> = SCALING_VALUES, iterations: number = DEFAULT_CONFIG.iterations): ScalingCase[] {
  const out: ScalingCase[] = [];
  for (const factor of FACTOR_ORDER) {
    for (const value of values[factor] ?? []) {
      const sizes: Sizes = { ...LOCK.defaults };
      let groupSize: number = DEFAULT_CONFIG.groupSize;
      let seeds: number = DEFAULT_CONFIG.seeds;
      if (factor === 'groupSize') groupSize = value;
      else if (factor === 'seeds') seeds = value;
      else sizes[factor] = value;
      const sequences = LOCK.contexts * Math.pow(sizes.vocab, sizes.turns * sizes.tokensPerTurn);
      if (sequences > LIMITS.maxSequences) throw new Error(`scaling case ${factor} = ${value}: ${sequences} token sequences, over the limit of ${LIMITS.maxSequences}`);
      const config = { ...DEFAULT_CONFIG, env: lockEnv(sizes), groupSize, seeds, iterations };
      out.push({
        factor,
        value,
        sizes,
        groupSize,
        seeds,
        env: presetAllows(sizes) ? 'lock' : 'custom',
        sequences,
        runs: seeds * DEFAULT_CONFIG.algorithms.length,
        config,
      });
    }
  }
  return out;
}

/** Same experiment size (so the same cost) as another case: measured once, shown in every factor's block. */
function caseKey(c: ScalingCase): string {
  return `${c.sizes.turns}/${c.sizes.vocab}/${c.sizes.tokensPerTurn}/${c.groupSize}/${c.seeds}`;
}

export interface Timing {
  /** Median ms of process CPU time per iteration (all runs), or null when not timed. */
  ms: number | null;
  /** Median wall-clock ms per iteration. */
  wallMs: number | null;
  /** Iterations per timed repetition. */
  iterations: number;
  /** CPU only: the part of `ms` spent on the exact evaluation (J, entropy, optimal-token probabilities) of every run. */
  evalShare?: number;
  note: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** ms of CPU time this process has used (user + system, every thread; the executors here run on one). */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Median of `reps` timings of `n` steps each (process CPU time, and wall time), after a warm-up of at least `warm` steps and
 * `warmMs`; n is chosen so one repetition takes about `targetMs` (from the warm-up's mean
 * step), within the steps left (keeping `afterwards` more repetitions of n).
 */
async function timeSteps(
  step: () => unknown,
  opts: { warm: number; warmMs: number; reps: number; targetMs: number; stepsLeft: number; afterwards?: number },
): Promise<{ ms: number; wallMs: number; n: number }> {
  let left = opts.stepsLeft;
  let k = 0;
  const w0 = performance.now();
  let w1 = w0;
  let lastMs = 0;
  const slots = opts.reps + (opts.afterwards ?? 0); // repetitions of n steps still to come
  while (left > slots && (k < opts.warm || w1 - w0 < opts.warmMs)) {
    await step();
    const now = performance.now();
    lastMs = now - w1;
    w1 = now;
    k++;
    left--;
  }
  const perStep = k > 1 ? Math.min(lastMs, (w1 - w0) / k) : lastMs;
  const n = Math.max(1, Math.min(Math.floor(left / slots), Math.round(opts.targetMs / Math.max(perStep, 1e-3))));
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let r = 0; r < opts.reps; r++) {
    const c0 = cpuMs();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await step();
    wall.push((performance.now() - t0) / n);
    cpu.push((cpuMs() - c0) / n);
  }
  return { ms: median(cpu), wallMs: median(wall), n };
}

/** The experiment resolved with room for the timing's iterations (fewer where the limits refuse that many). */
function forTiming(config: Record<string, unknown>, iterations: number): Experiment {
  try {
    return resolveConfig({ ...config, iterations });
  } catch {
    return resolveConfig(config);
  }
}

/** CPU executor, one thread: every run in one shard on this thread, as runOnCpu with threads = 1. */
export async function timeCpu(exp: Experiment, opts: { targetMs?: number; warmMs?: number; reps?: number } = {}): Promise<Timing> {
  const shard = new CpuShard(exp, allRuns(exp));
  const { ms, wallMs, n } = await timeSteps(() => shard.step(), {
    warm: 2,
    warmMs: opts.warmMs ?? 150,
    reps: opts.reps ?? 5,
    targetMs: opts.targetMs ?? 250,
    stepsLeft: exp.iterations,
    afterwards: 3,
  });
  // the exact evaluation every step ends with (CpuShard.record), alone on the policies reached,
  // each timing next to a timing of steps so both see the same load; the share is a median of ratios
  const shares: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = cpuMs();
    for (let i = 0; i < n; i++) shard.step();
    const t1 = cpuMs();
    for (let i = 0; i < n; i++) for (const run of shard.runs) evaluateRun(shard.pb, run, shard.sc);
    shares.push((cpuMs() - t1) / Math.max(t1 - t0, 1e-3));
  }
  return { ms, wallMs, iterations: n, evalShare: median(shares), note: '' };
}

/** Tensor executor on a Node backend: TensorShards grouped by update shape (as runOnTensor), the iteration is every shard's step. */
export async function timeTensor(exp: Experiment, opts: { backend?: 'wasm' | 'cpu'; targetMs?: number; maxStepMs?: number } = {}): Promise<Timing> {
  const [{ nodeBackend }, { groupByShape }, { TensorShard }] = await Promise.all([
    import('../src/exec/tensor/register-node'),
    import('../src/exec/tensor/run-experiment'),
    import('../src/exec/tensor/shard'),
  ]);
  await nodeBackend(opts.backend ?? 'wasm');
  const shards: InstanceType<typeof TensorShard>[] = [];
  try {
    for (const specs of groupByShape(exp)) shards.push(new TensorShard(exp, specs));
  } catch (e) {
    shards.forEach((s) => s.dispose());
    return { ms: null, wallMs: null, iterations: 0, note: `skipped: ${e instanceof Error ? e.message.replace(/:.*$/, '') : String(e)}` };
  }
  try {
    for (const s of shards) await s.init();
    const step = async () => {
      for (const s of shards) await s.step();
    };
    // first step: kernels compiled, buffers sized; too slow a second step and the row is skipped
    await step();
    const t0 = performance.now();
    await step();
    const once = performance.now() - t0;
    const maxStepMs = opts.maxStepMs ?? 4000;
    if (once > maxStepMs) return { ms: null, wallMs: null, iterations: 0, note: `skipped: one iteration took ${(once / 1000).toFixed(1)} s (over ${maxStepMs / 1000} s)` };
    const { ms, wallMs, n } = await timeSteps(step, { warm: 1, warmMs: 0, reps: 3, targetMs: opts.targetMs ?? 300, stepsLeft: exp.iterations - 2 });
    return { ms, wallMs, iterations: n, note: '' };
  } finally {
    shards.forEach((s) => s.dispose());
  }
}

export interface ScalingRow extends Omit<ScalingCase, 'config'> {
  cpu: Timing;
  tensor: Timing | null;
}

export interface ScalingOptions {
  values?: Partial<Record<Factor, number[]>>;
  /** Time the tensor executor too (default true). */
  tensor?: boolean;
  backend?: 'wasm' | 'cpu';
  /** Called after each row is measured (progress on stderr). */
  onRow?: (row: ScalingRow) => void;
}

export async function scalingRows(opts: ScalingOptions = {}): Promise<ScalingRow[]> {
  const cases = scalingCases(opts.values ?? SCALING_VALUES);
  const done = new Map<string, Pick<ScalingRow, 'cpu' | 'tensor'>>();
  // warm the JIT on a few shapes so the first rows are not charged for it
  for (const c of scalingCases({ turns: [1, 3], tokensPerTurn: [2] })) await timeCpu(forTiming(c.config, 400), { targetMs: 50, warmMs: 200, reps: 1 });
  const rows: ScalingRow[] = [];
  for (const c of cases) {
    const key = caseKey(c);
    let t = done.get(key);
    if (!t) {
      const exp = forTiming(c.config, 1000);
      t = { cpu: await timeCpu(exp), tensor: opts.tensor === false ? null : await timeTensor(exp, { backend: opts.backend }) };
      done.set(key, t);
    }
    const { config: _config, ...rest } = c;
    const row: ScalingRow = { ...rest, ...t };
    opts.onRow?.(row);
    rows.push(row);
  }
  return rows;
}

const FACTOR_LABEL: Record<Factor, string> = { turns: 'turns T', tokensPerTurn: 'tokens/turn L', vocab: 'vocab V', groupSize: 'group size G', seeds: 'seeds' };

/** The default experiment's row (T = 3, V = 3, L = 1, G = 8, 16 seeds), the reference of the "×" columns. */
function defaultRow(rows: ScalingRow[]): ScalingRow | undefined {
  const d = LOCK.defaults;
  return rows.find(
    (r) =>
      r.sizes.turns === d.turns && r.sizes.vocab === d.vocab && r.sizes.tokensPerTurn === d.tokensPerTurn && r.groupSize === DEFAULT_CONFIG.groupSize && r.seeds === DEFAULT_CONFIG.seeds,
  );
}

export function printScalingRows(rows: ScalingRow[], opts: { backend?: string; seconds?: number } = {}): void {
  const backend = opts.backend ?? 'wasm';
  const base = defaultRow(rows);
  const tensorRuns = rows.some((r) => r.tensor !== null);
  console.log('Scaling: the default experiment (9 algorithms × 16 seeds, sampled lock, T = 3, V = 3, L = 1, G = 8) with one factor changed.');
  console.log(
    `Per iteration of all runs: CPU executor on 1 thread (median of 5), tensor executor on ${backend} (TensorShard per update shape, median of 3), ` +
      'each after a warm-up, a few iterations per repetition. ms/it: process CPU time, which other load on the machine does not inflate ' +
      '(both executors run on one thread here, so it matches wall time on an idle machine); wall: wall-clock ms/it. ' +
      '×: ms/it over the default row\'s. exact J: share of the CPU executor\'s iteration spent on the exact evaluation of every run ' +
      '(J, entropy, optimal-token probabilities over the whole tree). custom table: sizes the lock preset refuses, with a reward table by the same rule.',
  );
  console.log('');
  console.log('                                           ---------------- CPU executor ----------------  ------------ tensor executor -------------');
  console.log('factor          value    runs  sequences     ms/it     wall  µs/run-it       ×  exact J      ms/it     wall  µs/run-it       ×  note');
  const x = (v: number | null, b: number | null | undefined) => (v !== null && b ? `${(v / b).toFixed(2)}` : '—');
  const f = (v: number | null | undefined, digits: number) => (v === null || v === undefined ? '—' : v.toFixed(digits));
  let last: Factor | null = null;
  for (const r of rows) {
    if (last !== null && r.factor !== last) console.log('');
    last = r.factor;
    const cpu = r.cpu.ms!;
    const tens = r.tensor?.ms ?? null;
    const notes = [r.env === 'custom' ? 'custom table' : '', r.tensor === null ? 'tensor not run' : r.tensor.note].filter(Boolean).join('; ');
    console.log(
      `${FACTOR_LABEL[r.factor].padEnd(14)}${String(r.value).padStart(7)}${String(r.runs).padStart(8)}${r.sequences.toLocaleString('en-US').padStart(11)}` +
        `${f(cpu, 2).padStart(10)}${f(r.cpu.wallMs, 2).padStart(9)}${f((cpu * 1000) / r.runs, 2).padStart(11)}${x(cpu, base?.cpu.ms).padStart(8)}` +
        `${(r.cpu.evalShare === undefined ? '—' : `${Math.min(100, 100 * r.cpu.evalShare).toFixed(0)}%`).padStart(9)}` +
        `${f(tens, 1).padStart(11)}${f(r.tensor?.wallMs, 1).padStart(9)}${f(tens === null ? null : (tens * 1000) / r.runs, 1).padStart(11)}` +
        `${x(tens, base?.tensor?.ms).padStart(8)}  ${notes}`,
    );
  }
  if (!tensorRuns) console.log('(tensor executor not run)');
  if (opts.seconds !== undefined) console.log(`\nscaling section: ${opts.seconds.toFixed(0)} s`);
}
