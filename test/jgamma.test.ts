import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { buildResult } from '../src/core/run/result';
import { truncateSeries } from '../src/core/run/series';
import { CpuShard } from '../src/exec/cpu/shard';
import { csvRowCount, resultsCsv } from '../src/ui/export/csv';
import { planExperiment } from '../src/ui/plan';
import { packBlock, unpackBlock } from '../src/worker/series-block';
import { makeRunSeries } from '../src/core/run/series';

// J_γ = E[Σ_t γ^(t−1)·r_t] (docs/math.md, "What is measured"), recorded beside J when γ < 1 and
// some per-turn reward is not zero. Hand-worked case: T = 2, V = 2, L = 1, γ = 0.5, turn 1 pays
// [0.2, 0.6] after its token, the terminal table is [1, 0, 0, 0.5] (sequences 00, 01, 10, 11).
//   J_γ per sequence: 00: 0.2 + 0.5·1 = 0.7, 01: 0.2, 10: 0.6, 11: 0.6 + 0.5·0.5 = 0.85 → J_γ* = 0.85 (at 11)
//   J per sequence:   00: 1.2, 01: 0.2, 10: 0.6, 11: 1.1 → J* = 1.2 (at 00): the discount moves the optimum.
//   Uniform policy: J_γ = E[r_1] + 0.5·E[r_2] = 0.4 + 0.5·0.375 = 0.5875; J = 0.775.

const config = (o: { gamma?: number; turnRewards?: number[] | null; iterations?: number; mode?: string; initScale?: number; algorithms?: unknown[] } = {}) => ({
  version: 1,
  env: {
    turns: 2,
    vocab: 2,
    tokensPerTurn: 1,
    rewards: [[1, 0, 0, 0.5]],
    ...(o.turnRewards === null ? {} : { turnRewards: [[o.turnRewards ?? [0.2, 0.6]]] }),
    gamma: o.gamma ?? 0.5,
  },
  policy: { kind: 'tabular', initScale: o.initScale ?? 0 },
  mode: o.mode ?? 'exact',
  iterations: o.iterations ?? 3,
  seeds: 2,
  optimizer: { kind: 'sgd', lr: 1 },
  algorithms: o.algorithms ?? [{ id: 'reinforce' }, { id: 'seeupo' }],
});

/** J_γ of a 2-turn, V = 2 table from its logits (root, node "0", node "1"), by hand. */
function handJgamma(theta: ArrayLike<number>): number {
  const p = (n: number, a: number) => Math.exp(theta[n * 2 + a]) / (Math.exp(theta[n * 2]) + Math.exp(theta[n * 2 + 1]));
  const value = [0.7, 0.2, 0.6, 0.85];
  let J = 0;
  for (let s = 0; s < 4; s++) J += p(0, s >> 1) * p(1 + (s >> 1), s & 1) * value[s];
  return J;
}

function run(cfg: unknown) {
  const exp = resolveConfig(cfg);
  const shard = new CpuShard(exp, allRuns(exp));
  const thetas: number[][][] = shard.runs.map((r) => [Array.from(r.theta)]);
  while (!shard.done) {
    shard.step();
    shard.runs.forEach((r, i) => thetas[i].push(Array.from(r.theta)));
  }
  return { exp, shard, thetas, result: buildResult(exp, 1.2, shard.series, { executor: 'cpu', backend: null, executorReason: '', threads: 1, wallSeconds: 0 }) };
}

describe('J_γ by enumeration against a hand computation', () => {
  it('uniform policy: J_γ = 0.5875 while J = 0.775; J_γ* = 0.85 while J* = 1.2', () => {
    const { shard, result } = run(config());
    expect(shard.series[0].Jgamma![0]).toBeCloseTo(0.5875, 15);
    expect(shard.series[0].J[0]).toBeCloseTo(0.775, 15);
    expect(result.JgammaStar).toBe(0.85);
    expect(result.Jstar).toBe(1.2);
  });

  it('at every iteration of every run, exact and sampled mode, J_γ equals the hand formula at the run’s logits', () => {
    for (const mode of ['exact', 'sampled']) {
      const { shard, thetas } = run(config({ mode, iterations: 6, initScale: 0.8 }));
      shard.series.forEach((s, r) => {
        for (let k = 0; k <= 6; k++) expect(s.Jgamma![k], `${mode} run ${r} iteration ${k}`).toBeCloseTo(handJgamma(thetas[r][k]), 14);
        expect(Math.abs(s.Jgamma![6] - s.Jgamma![0])).toBeGreaterThan(1e-3); // the policy moved
      });
    }
  });

  it('only where it is the objective: none with γ = 1, with a terminal reward only, or with all-zero turn rewards', () => {
    for (const cfg of [config({ gamma: 1 }), config({ turnRewards: null }), config({ turnRewards: [0, 0] })]) {
      const { shard, result } = run(cfg);
      expect(shard.series[0].Jgamma).toBeUndefined();
      const text = JSON.stringify(result);
      expect(text).not.toContain('Jgamma');
      expect(Object.keys(result).slice(0, 3)).toEqual(['version', 'Jstar', 'appVersion']);
    }
  });
});

describe('J_γ in the result, the exports and the page protocol', () => {
  it('the result carries JgammaStar after Jstar and Jgamma after J, like J', () => {
    const { shard, result } = run(config());
    expect(Object.keys(result).slice(0, 3)).toEqual(['version', 'Jstar', 'JgammaStar']);
    const r = result.algorithms[1].runs[1];
    expect(Object.keys(r).slice(0, 3)).toEqual(['seed', 'J', 'Jgamma']);
    expect(r.Jgamma).toEqual(Array.from(shard.series[3].Jgamma!));
    expect(r.Jgamma).toHaveLength(4);
  });

  it('the CSV has a Jgamma row after each J row, and its row count says so', () => {
    const plan = planExperiment(config(), 1);
    const { shard } = run(config());
    const csv = resultsCsv(plan, { runs: shard.series, iteration: 3, changes: [], startConfig: {} });
    const rows = csv.trim().split('\n').slice(1);
    expect(rows).toHaveLength(csvRowCount(plan, 3));
    const first = rows.slice(0, 2);
    expect(first).toEqual([`reinforce,0,0,J,${shard.series[0].J[0]}`, `reinforce,0,0,Jgamma,${shard.series[0].Jgamma![0]}`]);
    expect(rows.filter((l) => l.split(',')[3] === 'Jgamma')).toHaveLength(2 * 2 * 4);
  });

  it('the worker’s data blocks carry it to the page’s copies; a truncated series keeps it up to the cut', () => {
    const { exp, shard } = run(config());
    const targets = shard.series.map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex));
    unpackBlock(packBlock(shard.series, -1, 3, 2), targets, -1, 3, 2);
    targets.forEach((t, i) => expect(Array.from(t.Jgamma!)).toEqual(Array.from(shard.series[i].Jgamma!)));
    const cut = truncateSeries(shard.series[0], 1);
    expect(Array.from(cut.Jgamma!.subarray(0, 2))).toEqual(Array.from(shard.series[0].Jgamma!.subarray(0, 2)));
    expect(Number.isNaN(cut.Jgamma![2])).toBe(true);
  });

  it('the tensor executor records the same J_γ (exact mode, within float32)', async () => {
    const { runCpu, runTensor, useBackend } = await import('./support/tensor');
    await useBackend('cpu');
    const cfg = config({ iterations: 10, initScale: 0.5, algorithms: [{ id: 'reinforce' }, { id: 'grpo' }, { id: 'seeupo' }] });
    const [a, b] = [await runCpu(cfg), await runTensor(cfg)];
    expect(b.JgammaStar).toBe(a.JgammaStar);
    a.algorithms.forEach((alg, i) =>
      alg.runs.forEach((r, s) => r.Jgamma!.forEach((v, k) => expect(Math.abs(v! - b.algorithms[i].runs[s].Jgamma![k]!)).toBeLessThan(1e-3))),
    );
  });
});

describe('J_γ with a table shared across prompts', () => {
  it('J_γ* is the best of the mean discounted table, and J_γ at every iteration is the mean over contexts of the hand formula', () => {
    // context 0 is the hand-worked case (discounted values 0.7, 0.2, 0.6, 0.85); context 1 pays
    // turn 1 [0, 0] and terminal [0, 1, 0, 0] (values 0, 0.5, 0, 0): mean 0.35, 0.35, 0.3, 0.425
    const cfg = {
      ...config({ iterations: 4, initScale: 0.6 }),
      env: { turns: 2, vocab: 2, tokensPerTurn: 1, contexts: 2, rewards: [[1, 0, 0, 0.5], [0, 1, 0, 0]], turnRewards: [[[0.2, 0.6]], [[0, 0]]], gamma: 0.5 },
      policy: { kind: 'tabular', initScale: 0.6, shareContexts: true },
    };
    const { shard, thetas, result } = run(cfg);
    expect(result.JgammaStar).toBeCloseTo(0.425, 15);
    const other = (th: number[]) => {
      const p = (n: number, a: number) => Math.exp(th[n * 2 + a]) / (Math.exp(th[n * 2]) + Math.exp(th[n * 2 + 1]));
      return p(0, 0) * p(1, 1) * 0.5;
    };
    shard.series.forEach((s, r) => {
      for (let k = 0; k <= 4; k++) expect(s.Jgamma![k]).toBeCloseTo((handJgamma(thetas[r][k]) + other(thetas[r][k])) / 2, 14);
    });
  });
});
