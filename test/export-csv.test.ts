import { describe, expect, it } from 'vitest';
import { allRuns } from '../src/core/run/partition';
import { buildResult } from '../src/core/run/result';
import { CpuShard } from '../src/exec/cpu/shard';
import { CSV_HEADER, csvField, csvRowCount, resultsCsv } from '../src/ui/export/csv';
import type { Live } from '../src/ui/live';
import { planExperiment, type Plan } from '../src/ui/plan';
import { customConfig } from './support/engine';

// The CSV export (long format) of a tiny experiment computed by the real CPU engine:
// one turn of one token from {0, 1} with rewards (0, 1), uniform start, exact mode:
// J_0 = 0.5, entropy_0 = ln 2, P(optimal token)_0 = 0.5, for both seeds.

const CONFIG = customConfig({ T: 1, V: 2, L: 1, rewards: [0, 1], iterations: 3, seeds: 2, algorithms: [{ id: 'reinforce' }] });

function computed(config: unknown = CONFIG): { plan: Plan; live: Live } {
  const plan = planExperiment(config, 1);
  const shard = new CpuShard(plan.exp, allRuns(plan.exp));
  while (!shard.done) shard.step();
  return { plan, live: { runs: shard.series, iteration: plan.exp.iterations, changes: [], startConfig: structuredClone(plan.config) as Record<string, unknown> } };
}

const lines = (csv: string) => {
  expect(csv.endsWith('\n')).toBe(true);
  return csv.slice(0, -1).split('\n');
};

describe('resultsCsv', () => {
  it('writes a header and one row per (algorithm, seed, iteration, metric): 1 × 2 × (4·3 + 3·5) = 54', () => {
    const { plan, live } = computed();
    const rows = lines(resultsCsv(plan, live));
    expect(rows[0]).toBe('algorithm,seed,iteration,metric,value');
    expect(rows[0]).toBe(CSV_HEADER);
    // per run: 4 evaluations (J_0..J_3) × 3 metrics (J, entropy, optimalTokenProb_turn1) + 3 updates × 5 metrics
    expect(rows.length - 1).toBe(54);
    expect(csvRowCount(plan, 3)).toBe(54);
    expect(rows.every((r) => r.split(',').length === 5)).toBe(true);
  });

  it('starts with the untrained policy: J 0.5, entropy ln 2, P(optimal) 0.5, then the first update', () => {
    const { plan, live } = computed();
    const rows = lines(resultsCsv(plan, live));
    expect(rows.slice(1, 4)).toEqual(['reinforce,0,0,J,0.5', `reinforce,0,0,entropy,${Math.LN2}`, 'reinforce,0,0,optimalTokenProb_turn1,0.5']);
    expect(rows.slice(4, 9).map((r) => r.split(',').slice(0, 4).join(','))).toEqual([
      'reinforce,0,0,kl',
      'reinforce,0,0,clipFraction',
      'reinforce,0,0,zeroVarianceGroups',
      'reinforce,0,0,gradNorm',
      'reinforce,0,0,wallMs',
    ]);
    // the last iteration has evaluations only; then seed 1 starts
    expect(rows.slice(25, 29)).toEqual([
      `reinforce,0,3,J,${live.runs[0].J[3]}`,
      `reinforce,0,3,entropy,${live.runs[0].entropy[3]}`,
      `reinforce,0,3,optimalTokenProb_turn1,${live.runs[0].optimalTokenProb[0][3]}`,
      'reinforce,1,0,J,0.5',
    ]);
    expect(live.runs[0].J[3]).toBeGreaterThan(0.5); // it learned
  });

  it('writes full precision and indexes every metric as the CLI result JSON does', () => {
    const { plan, live } = computed();
    const result = buildResult(plan.exp, plan.Jstar, live.runs, { executor: 'cpu', backend: null, executorReason: '', threads: 1, wallSeconds: 0 });
    const csv = lines(resultsCsv(plan, live)).slice(1);
    const value = (seed: number, k: number, metric: string) => {
      const row = csv.find((r) => r.startsWith(`reinforce,${seed},${k},${metric},`));
      expect(row, `${seed} ${k} ${metric}`).toBeDefined();
      return Number(row!.split(',')[4]);
    };
    for (const seed of [0, 1]) {
      const run = result.algorithms[0].runs[seed];
      for (let k = 0; k <= 3; k++) {
        expect(value(seed, k, 'J')).toBe(run.J[k]);
        expect(value(seed, k, 'optimalTokenProb_turn1')).toBe(run.optimalTokenProb[0][k]);
      }
      for (let k = 0; k < 3; k++) {
        expect(value(seed, k, 'kl')).toBe(run.kl[k]);
        expect(value(seed, k, 'gradNorm')).toBe(run.gradNorm[k]);
      }
      expect(csv.some((r) => r.startsWith(`reinforce,${seed},3,kl,`))).toBe(false);
    }
    // full precision: String(v) reads back as the same double
    expect(String(live.runs[0].J[2]).length).toBeGreaterThan(10);
  });

  it('writes a diverged run’s values as empty cells and keeps its rows', () => {
    const { plan, live } = computed();
    const r = live.runs[1];
    // seed 1 diverged at iteration 2: J_2, J_3 and what follows are not finite
    r.diverged = 2;
    for (const a of [r.J, r.entropy, r.optimalTokenProb[0]]) a.fill(NaN, 2);
    for (const a of [r.kl, r.clipFraction, r.zeroVarianceGroups, r.gradNorm, r.wallMs]) a.fill(NaN, 2);
    r.gradNorm[1] = Infinity;
    const rows = lines(resultsCsv(plan, live));
    expect(rows.length - 1).toBe(54);
    expect(rows).toContain('reinforce,1,2,J,');
    expect(rows).toContain('reinforce,1,3,optimalTokenProb_turn1,');
    expect(rows).toContain('reinforce,1,2,kl,');
    expect(rows).toContain('reinforce,1,1,gradNorm,');
    expect(rows).toContain(`reinforce,1,1,J,${r.J[1]}`);
    expect(rows.filter((x) => x.startsWith('reinforce,1,') && x.endsWith(',')).length).toBe(2 * 3 + 5 + 1);
  });

  it('stops at the iteration the page has computed', () => {
    const { plan, live } = computed();
    live.iteration = 1; // the arrays hold more (a shard ran ahead), the page shows up to 1
    const rows = lines(resultsCsv(plan, live));
    // per run: 2 evaluations × 3 + 1 update × 5 = 11
    expect(rows.length - 1).toBe(22);
    expect(csvRowCount(plan, 1)).toBe(22);
    expect(rows.some((x) => /^reinforce,\d,2,/.test(x))).toBe(false);
    expect(rows.some((x) => /^reinforce,\d,1,kl,/.test(x))).toBe(false);
    expect(rows[rows.length - 1]).toBe(`reinforce,1,1,optimalTokenProb_turn1,${live.runs[1].optimalTokenProb[0][1]}`);
    live.iteration = 0;
    expect(lines(resultsCsv(plan, live)).length - 1).toBe(2 * 3);
    expect(resultsCsv(plan, null)).toBe(CSV_HEADER + '\n');
  });

  it('names a turn by its number and escapes fields per RFC 4180', () => {
    const config = { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 1, seeds: 1, algorithms: [{ id: 'seeupo' }, { id: 'grpo.b+1', preset: 'grpo' }] };
    const { plan, live } = computed(config);
    const rows = lines(resultsCsv(plan, live));
    expect(rows.filter((r) => r.startsWith('seeupo,0,0,optimalTokenProb_turn')).map((r) => r.split(',')[3])).toEqual([
      'optimalTokenProb_turn1',
      'optimalTokenProb_turn2',
      'optimalTokenProb_turn3',
    ]);
    // 2 algorithms × 1 seed × (2 evaluations × (2 + 3 turns) + 1 update × 5)
    expect(rows.length - 1).toBe(2 * (2 * 5 + 5));
    expect(rows.some((r) => r.startsWith('grpo.b+1,0,1,J,'))).toBe(true);
    expect(csvField('plain-id_1.2+x')).toBe('plain-id_1.2+x');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });
});

describe('resultsCsv of a long run (metrics other than J stored every 4th iteration at 5000)', () => {
  it('writes J at every iteration and the other metrics at the stored ones; csvRowCount agrees', () => {
    const config = customConfig({ T: 1, V: 2, L: 1, rewards: [0, 1], iterations: 5000, seeds: 1, algorithms: [{ id: 'reinforce' }] });
    const plan = planExperiment(config, 1);
    const every = 4; // storageStride(5000)
    const shard = new CpuShard(plan.exp, allRuns(plan.exp), every);
    while (!shard.done) shard.step();
    const live: Live = { runs: shard.series, iteration: 5000, changes: [], startConfig: {} };
    const rows = lines(resultsCsv(plan, live)).slice(1);
    const count = (metric: string) => rows.filter((r) => r.split(',')[3] === metric).length;
    expect(count('J')).toBe(5001);
    expect(count('entropy')).toBe(1251); // 0, 4, …, 5000
    expect(count('kl')).toBe(1251); // 0, 4, …, 4996, 4999
    expect(rows.some((r) => r.startsWith('reinforce,0,4999,kl,'))).toBe(true);
    expect(rows.some((r) => r.startsWith('reinforce,0,4998,kl,'))).toBe(false);
    expect(rows.length).toBe(csvRowCount(plan, 5000));
    expect(rows.length).toBe(5001 + 1251 * 2 + 1251 * 5);
  });
});
