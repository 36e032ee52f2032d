import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALGORITHM_IDS } from '../src/core/algo/records';
import { resolveConfig } from '../src/core/config/resolve';
import type { Rng } from '../src/core/rng';
import { iterate, type StepMetrics } from '../src/exec/cpu/iterate';
import { computeAdvantages, sampleRollouts, weighEnumeration } from '../src/exec/host/rollouts';
import { CpuShard } from '../src/exec/cpu/shard';
import { maxAbsDiff, shardFor } from './support/engine';
import { maxCurveDiff, runCpu, runTensor, useBackend, type NodeBackend } from './support/tensor';
import {
  gaeAdvantage,
  J as refJ,
  nodeOf,
  numericGradient,
  policyGradient,
  returnAdvantage,
  rewardToGo,
  scaleOf,
  scriptedRng,
  sequences,
  total,
  turnAdvantage,
  turnConfig,
  type TurnEnv,
} from './support/turn-rewards';

// Per-turn rewards (env.turnRewards, docs/math.md "Environments: multi-turn bandits", "Advantages", "Exact mode"): what the learners are fed.

const pattern = (n: number, a: number, b: number) => Array.from({ length: n }, (_, s) => ((s * a + b) % 11) / 10);
const perTurnTables = [
  [pattern(4, 3, 2), pattern(16, 4, 1)],
  [pattern(4, 2, 5), pattern(16, 9, 3)],
];
const metrics = (): StepMetrics => ({ kl: 0, clipFraction: 0, zeroVarianceGroups: 0, gradNorm: 0 });

const named = ALGORITHM_IDS.map((id) => ({ id }));
const variants = [
  { id: 'rloo-batch', preset: 'rloo', normalization: 'batch' },
  { id: 'rloo-group', preset: 'rloo', normalization: 'group' },
  { id: 'gae-none', preset: 'ppo-gae', normalization: 'none', gaeLambda: 0.7 },
  { id: 'gae-group', preset: 'ppo-gae', normalization: 'group' },
  { id: 'gae-reinforce', preset: 'reinforce', advantage: 'gae' },
  { id: 'seeupo-geo', preset: 'seeupo', turnRatio: 'geomean', mClip: 0.2 },
  { id: 'grpo-mb', preset: 'grpo', minibatches: 2 },
];
// T = 3, V = 2, L = 2, two contexts (gaussian noise on the first), γ = 0.8; every named algorithm
// and variants of its fields; terminal rewards only unless turnRewards is given.
const wideConfig = (mode: 'exact' | 'sampled', turnRewards?: unknown) => ({
  version: 1,
  env: {
    turns: 3,
    vocab: 2,
    tokensPerTurn: 2,
    contexts: 2,
    rewards: [pattern(64, 7, 1), pattern(64, 5, 4)],
    gamma: 0.8,
    noise: [{ kind: 'gaussian', sigma: 0.2 }, { kind: 'none' }],
    ...(turnRewards ? { turnRewards } : {}),
  },
  policy: { kind: 'tabular', initScale: 0.4 },
  mode,
  iterations: 12,
  seeds: 2,
  groupSize: 4,
  optimizer: { kind: 'sgd', lr: 0.5 },
  algorithms: [...named, ...variants],
});

// ── 1. The hand-worked check of docs/cli.md ────────────────────────────────────────────
// T = 2, V = 2: a first token 0 pays 0.5; the sequence 1-0 pays 0.8 at the end (J* = 0.8).
// Turn 1 compares 0.5 (token 0) with γ·0.8 (token 1 then the best turn 2): token 1 wins at
// γ = 1 and γ = 0.7 (0.56 > 0.5), token 0 at γ = 0.5 (0.4 < 0.5), where J settles at 0.5.
const handWorked = (gamma: number) => ({
  version: 1,
  env: { turns: 2, vocab: 2, tokensPerTurn: 1, turnRewards: [[[0.5, 0]]], rewards: [[0, 0, 0.8, 0]], gamma },
  mode: 'exact',
  iterations: 300,
  seeds: 1,
  optimizer: { kind: 'sgd', lr: 3 },
  algorithms: [{ id: 'reinforce' }],
});
const settlesAt: [number, number][] = [
  [1, 0.8],
  [0.7, 0.8],
  [0.5, 0.5],
];

describe('the hand-worked check (T = 2, V = 2, exact REINFORCE, SGD lr 3, 300 iterations)', () => {
  for (const [gamma, target] of settlesAt) {
    it(`CPU executor: γ = ${gamma} settles at J = ${target}`, async () => {
      const res = await runCpu(handWorked(gamma));
      expect(res.Jstar).toBeCloseTo(0.8, 15);
      const J = res.algorithms[0].runs[0].J as number[];
      expect(J[0]).toBeCloseTo(0.45, 15); // uniform: (0.5 + 0.5 + 0.8 + 0) / 4
      expect(Math.abs(J[300] - target), `final J ${J[300]}`).toBeLessThan(0.005);
      // settled: still moving towards the target, by less than 1e-3 over the last 50 iterations
      expect(Math.abs(J[300] - J[250])).toBeLessThan(1e-3);
      expect(Math.abs(J[300] - target)).toBeLessThan(Math.abs(J[250] - target));
    });
  }
  it('J at γ = 0.5 is not J*: turn 1 keeps token 0 (the discounted optimum), turn 2 after token 1 still learns 1-0', () => {
    const shard = shardFor(handWorked(0.5));
    while (!shard.done) shard.step();
    const th = shard.runs[0].theta; // node 0 = root, node 2 = after token 1
    expect(th[0] - th[1]).toBeGreaterThan(3);
    expect(th[4] - th[5]).toBeGreaterThan(0); // never weighted much, but the right way
  });

  for (const backend of ['cpu', 'wasm'] as NodeBackend[]) {
    describe(`tensor executor on tfjs ${backend}`, () => {
      beforeAll(() => useBackend(backend));
      for (const [gamma, target] of settlesAt) {
        it(`γ = ${gamma}: the same curve as the CPU executor within float32 tolerance, final J ≈ ${target}`, async () => {
          const [a, b] = [await runCpu(handWorked(gamma)), await runTensor(handWorked(gamma))];
          expect(b.executor).toBe('tensor');
          const Ja = a.algorithms[0].runs[0].J as number[];
          const Jb = b.algorithms[0].runs[0].J as number[];
          expect(maxAbsDiff(Ja, Jb)).toBeLessThan(1e-4);
          expect(Math.abs(Jb[300] - target)).toBeLessThan(0.005);
        });
      }
    });
  }
});

describe('tensor executor (tfjs wasm) with per-turn rewards: every named algorithm as on the CPU executor', () => {
  beforeAll(() => useBackend('wasm'));
  for (const mode of ['exact', 'sampled'] as const) {
    it(`${mode}: T = 3, L = 2, two contexts, γ = 0.8, noise on one: J curves within 1e-3`, async () => {
      const config = { ...wideConfig(mode, perTurnTables), iterations: 30, algorithms: [...named, { id: 'rloo-batch', preset: 'rloo', normalization: 'batch' }] };
      const { diff, where } = maxCurveDiff(await runCpu(config), await runTensor(config));
      expect(diff, where).toBeLessThan(1e-3);
    });
  }
});

// ── 2. Exact gradients ─────────────────────────────────────────────────────────────────────
// Two contexts, T = 3, V = 2, L = 2 (so a turn has two tokens), rewards at every turn.
const envAt = (gamma: number): TurnEnv => ({
  T: 3,
  V: 2,
  L: 2,
  gamma,
  terminal: [pattern(64, 7, 1), pattern(64, 5, 4)],
  turn: perTurnTables,
});

describe('exact REINFORCE (normalization none, γ = 1) is gradient ascent on J with per-turn rewards', () => {
  it('step = lr × ∇J by finite differences of J on the total returns', () => {
    const e = envAt(1);
    const lr = 0.05;
    const shard = shardFor(turnConfig(e, { algorithms: [{ id: 'reinforce' }], lr, initScale: 1 }));
    const init = Array.from(shard.runs[0].theta);
    expect(shard.series[0].J[0]).toBeCloseTo(refJ(e, init), 13);
    const gradJ = numericGradient((th) => refJ(e, th), init);
    shard.step();
    const step = Array.from(shard.runs[0].theta, (v, i) => (v - init[i]) / lr);
    expect(maxAbsDiff(step, gradJ)).toBeLessThan(1e-8);
    expect(Math.max(...gradJ.map(Math.abs))).toBeGreaterThan(1e-2);
  });

  it('GAE (exact Q_old − V_old, none, one epoch) too', () => {
    const e = envAt(1);
    const lr = 0.05;
    const shard = shardFor(turnConfig(e, { algorithms: [{ id: 'ppo-gae', normalization: 'none', epochs: 1 }], lr, initScale: 1 }));
    const init = Array.from(shard.runs[0].theta);
    const gradJ = numericGradient((th) => refJ(e, th), init);
    shard.step();
    const step = Array.from(shard.runs[0].theta, (v, i) => (v - init[i]) / lr);
    expect(maxAbsDiff(step, gradJ)).toBeLessThan(1e-8);
  });
});

describe('scaling principle with per-turn rewards: the first step at θ = θ_old is the plain policy gradient', () => {
  type Norm = 'none' | 'group' | 'batch';
  const cases: [string, Record<string, unknown>, Norm, 'turn' | 'return'][] = [
    ['reinforce', { id: 'reinforce' }, 'none', 'turn'],
    ['reinforce, batch', { id: 'r', preset: 'reinforce', normalization: 'batch' }, 'batch', 'turn'],
    ['rloo (= grae in exact mode)', { id: 'rloo' }, 'none', 'turn'],
    ['ppu token, none', { id: 'ppo-grae', epochs: 1 }, 'none', 'turn'],
    ['ppu token, group (GRPO)', { id: 'grpo', epochs: 1 }, 'group', 'turn'],
    ['ppu sequence (GSPO): the undiscounted rollout advantage on every token', { id: 'gspo', epochs: 1 }, 'group', 'return'],
    ['sequential reverse, M off', { id: 's', preset: 'seeupo', epochs: 1, mCorrection: false }, 'batch', 'turn'],
    ['sequential forward, geomean, M off', { id: 's', preset: 'seeupo-forward', epochs: 1, turnRatio: 'geomean', mCorrection: false }, 'batch', 'turn'],
  ];
  for (const gamma of [1, 0.6]) {
    const e = envAt(gamma);
    for (const [name, algo, norm, kind] of cases) {
      it(`γ = ${gamma}, ${name}`, () => {
        const lr = 0.3;
        const shard = shardFor(turnConfig(e, { algorithms: [algo], lr, initScale: 0.8 }));
        const init = Array.from(shard.runs[0].theta);
        const pg = policyGradient(e, init, (x, s, k) => (kind === 'turn' ? turnAdvantage(e, init, norm, x, s, Math.floor(k / e.L)) : returnAdvantage(e, init, norm, x, s)));
        shard.step();
        const step = Array.from(shard.runs[0].theta, (v, i) => (v - init[i]) / lr);
        expect(maxAbsDiff(step, pg)).toBeLessThan(1e-12);
        expect(Math.max(...pg.map(Math.abs))).toBeGreaterThan(1e-2);
      });
    }
    it(`γ = ${gamma}, sequential reverse with M (SeeUPO): the first step (turn T) exactly; the whole step as lr → 0`, () => {
      const norm: Norm = 'batch';
      const lr = 0.3;
      const shard = shardFor(turnConfig(e, { algorithms: [{ id: 'seeupo', epochs: 1 }], lr, initScale: 0.8 }));
      const init = Array.from(shard.runs[0].theta);
      const pg = policyGradient(e, init, (x, s, k) => turnAdvantage(e, init, norm, x, s, Math.floor(k / e.L)));
      const turnOfParam = (i: number) => {
        const local = Math.floor(i / e.V) % 63; // 63 nodes per context: positions 0..5
        const p = Math.floor(Math.log2(local + 1));
        return Math.floor(p / e.L);
      };
      const snapshots: number[][] = [];
      iterate(shard.pb, shard.runs[0], shard.sc, metrics(), () => snapshots.push(Array.from(shard.runs[0].theta)));
      expect(snapshots.length).toBe(3);
      const first = snapshots[0].map((v, i) => (v - init[i]) / lr);
      const onTurn3 = (a: number[]) => a.filter((_, i) => turnOfParam(i) === 2);
      expect(maxAbsDiff(onTurn3(first), onTurn3(pg))).toBeLessThan(1e-12);
      expect(maxAbsDiff(first.filter((_, i) => turnOfParam(i) < 2), new Array(first.length).fill(0))).toBe(0);
      // the turns after it carry M = 1 + O(lr)
      const tiny = 1e-7;
      const s2 = shardFor(turnConfig(e, { algorithms: [{ id: 'seeupo', epochs: 1 }], lr: tiny, initScale: 0.8 }));
      s2.step();
      const step = Array.from(s2.runs[0].theta, (v, i) => (v - init[i]) / tiny);
      expect(maxAbsDiff(step, pg)).toBeLessThan(1e-6);
    });
  }
});

// ── 3. Sampled mode, a tiny batch worked by hand ───────────────────────────────────────────
// Two contexts, G = 3, T = 2, V = 2, L = 1, γ = 0.5, uniform policy, the tokens scripted:
//   context 0: turn 1 pays [0.5, 0]; the end pays [00: 0, 01: 0.2, 10: 0.8, 11: 0.4]
//   context 1: turn 1 pays [0, 1];   the end pays [00: 1, 01: 0, 10: 0, 11: 0.6]
// rollouts  ctx  seq  r1   r2   R    G1 = r1 + r2/2  G2
//   0        0    00   0.5  0    0.5  0.5             0
//   1        0    01   0.5  0.2  0.7  0.6             0.2
//   2        0    10   0    0.8  0.8  0.4             0.8
//   3        1    00   0    1    1    0.5             1
//   4, 5     1    11   1    0.6  1.6  1.3             0.6
// group means: context 0: R 2/3, G1 1/2, G2 1/3; context 1: R 1.4, G1 31/30, G2 22/30.
const tinyEnv: TurnEnv = {
  T: 2,
  V: 2,
  L: 1,
  gamma: 0.5,
  terminal: [
    [0, 0.2, 0.8, 0.4],
    [1, 0, 0, 0.6],
  ],
  turn: [[[0.5, 0]], [[0, 1]]],
};
const script = [0.1, 0.1, 0.1, 0.9, 0.9, 0.1, 0.1, 0.1, 0.9, 0.9, 0.9, 0.9];

function tinyBatch(algo: Record<string, unknown>, lr = 1) {
  const shard = shardFor(turnConfig(tinyEnv, { algorithms: [algo], mode: 'sampled', groupSize: 3, lr }));
  const run = shard.runs[0];
  const rng = scriptedRng(script);
  run.sampleRng = rng as unknown as Rng;
  return { shard, run, rng };
}

function tinyAdvantages(algo: Record<string, unknown>) {
  const { shard, run, rng } = tinyBatch(algo);
  sampleRollouts(shard.pb, run, shard.sc);
  expect(rng.used()).toBe(12);
  computeAdvantages(shard.pb, run, shard.sc);
  const b = shard.sc.batch;
  return { b, turn: (i: number, t: number) => b.advTok[i * 2 + t] };
}

// grae, no normalization: [turn 1, turn 2] per rollout
const graeNone = [
  [0, -1 / 3],
  [0.1, -2 / 15],
  [-0.1, 7 / 15],
  [-8 / 15, 4 / 15],
  [4 / 15, -2 / 15],
  [4 / 15, -2 / 15],
];
// rloo: G − mean of the other two, e.g. rollout 3, turn 1: 0.5 − (1.3 + 1.3)/2 = −0.8
const rlooNone = [
  [0, -0.5],
  [0.15, -0.2],
  [-0.15, 0.7],
  [-0.8, 0.4],
  [0.4, -0.2],
  [0.4, -0.2],
];
// std of R per group (unbiased): context 0: deviations (−5, 1, 4)/30 → √(42/900/2) = √21/30;
// context 1: (−0.4, 0.2, 0.2) → √(0.24/2) = √0.12. Batch: the six deviations → √(258/900/5).
const sdGroup = [Math.sqrt(21) / 30, Math.sqrt(0.12)];
const sdBatch = Math.sqrt(258 / 900 / 5);
const EPS = 1e-6;

describe('sampled mode, per-turn advantages by hand (γ = 0.5)', () => {
  it('rewards: R is the total, rewards by turn and rewards-to-go as in the table', () => {
    const { b } = tinyAdvantages({ id: 'reinforce' });
    const R = [0.5, 0.7, 0.8, 1, 1.6, 1.6];
    const G = [[0.5, 0], [0.6, 0.2], [0.4, 0.8], [0.5, 1], [1.3, 0.6], [1.3, 0.6]];
    R.forEach((r, i) => expect(b.reward[i]).toBeCloseTo(r, 15));
    G.forEach((g, i) => g.forEach((v, t) => expect(b.togo[i * 2 + t]).toBeCloseTo(v, 15)));
    expect(Array.from(b.ctx)).toEqual([0, 0, 0, 1, 1, 1]);
    expect(Array.from(b.tok)).toEqual([0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1]);
    // the rollout-level advantage (GSPO's) stays the advantage of R
    [-1 / 6, 1 / 30, 2 / 15, -0.4, 0.2, 0.2].forEach((a, i) => expect(b.adv[i]).toBeCloseTo(a, 14));
  });

  const check = (algo: Record<string, unknown>, expected: number[][], scale: (i: number) => number) => () => {
    const { turn } = tinyAdvantages(algo);
    expected.forEach((row, i) => row.forEach((v, t) => expect(turn(i, t), `rollout ${i} turn ${t + 1}`).toBeCloseTo(v / scale(i), 12)));
  };
  it('grae, none', check({ id: 'reinforce' }, graeNone, () => 1));
  it('grae, group: each group by the std of its R', check({ id: 'r', preset: 'reinforce', normalization: 'group' }, graeNone, (i) => sdGroup[i < 3 ? 0 : 1] + EPS));
  it('grae, batch: one constant, the batch std of R − group mean', check({ id: 'r', preset: 'reinforce', normalization: 'batch' }, graeNone, () => sdBatch + EPS));
  it('rloo, none', check({ id: 'rloo' }, rlooNone, () => 1));
  it('rloo, group', check({ id: 'r', preset: 'rloo', normalization: 'group' }, rlooNone, (i) => sdGroup[i < 3 ? 0 : 1] + EPS));
  it('rloo, batch: the batch std of the rloo advantages of R (= 3/2 of grae\'s), as the terminal-only rule', check({ id: 'r', preset: 'rloo', normalization: 'batch' }, rlooNone, () => 1.5 * sdBatch + EPS));

  it('the first REINFORCE step is (1/6) Σ_i Σ_t Â_i,t ∇log π (uniform policy: ∇ = e_a − ½)', () => {
    const lr = 0.5;
    const { shard } = tinyBatch({ id: 'reinforce' }, lr);
    shard.step();
    const seqs = [[0, 0], [0, 1], [1, 0], [0, 0], [1, 1], [1, 1]];
    const expected = new Array(2 * 3 * 2).fill(0);
    seqs.forEach((sq, i) => {
      const x = i < 3 ? 0 : 1;
      const nodes = [nodeOf(tinyEnv, x, 0, 0), nodeOf(tinyEnv, x, 1, sq[0])];
      sq.forEach((a, t) => {
        for (let c = 0; c < 2; c++) expected[nodes[t] * 2 + c] += (lr / 6) * graeNone[i][t] * ((c === a ? 1 : 0) - 0.5);
      });
    });
    expect(maxAbsDiff(shard.runs[0].theta, expected)).toBeLessThan(1e-15);
  });

  it('GAE, zero critic: δ carries each turn\'s reward; λ = 1 gives G_t, λ = 0.5 gives r1 + γλ·r2', () => {
    const one = tinyAdvantages({ id: 'g', preset: 'ppo-gae', normalization: 'none', gaeLambda: 1 });
    const G = [[0.5, 0], [0.6, 0.2], [0.4, 0.8], [0.5, 1], [1.3, 0.6], [1.3, 0.6]];
    G.forEach((g, i) =>
      g.forEach((v, t) => {
        expect(one.turn(i, t)).toBeCloseTo(v, 15);
        expect(one.b.target[i * 2 + t]).toBeCloseTo(v, 15); // the critic's λ-return target
      }),
    );
    const half = tinyAdvantages({ id: 'g', preset: 'ppo-gae', normalization: 'none', gaeLambda: 0.5 });
    [[0.5, 0], [0.55, 0.2], [0.2, 0.8], [0.25, 1], [1.15, 0.6], [1.15, 0.6]].forEach((g, i) => g.forEach((v, t) => expect(half.turn(i, t)).toBeCloseTo(v, 15)));
  });
});

// ── 4. Terminal rewards only: nothing changes ──────────────────────────────────────────────
const zeroTables = [
  [new Array(4).fill(0), new Array(16).fill(0)],
  [new Array(4).fill(0), new Array(16).fill(0)],
];

function curves(shard: CpuShard) {
  while (!shard.done) shard.step();
  return shard.series.map((s, r) => ({ J: Array.from(s.J), theta: Array.from(shard.runs[r].theta) }));
}

describe('terminal rewards only', () => {
  for (const mode of ['exact', 'sampled'] as const) {
    it(`${mode}: turnRewards of zeros give bit-identical curves and parameters (every rule, GAE too)`, () => {
      expect(curves(shardFor(wideConfig(mode, zeroTables)))).toEqual(curves(shardFor(wideConfig(mode))));
    });

    it(`${mode}: the per-turn path fed zero tables (forced on) is the turn-discounted rule: G_t = γ^(T−t)·R`, () => {
      const exp = resolveConfig(wideConfig(mode));
      expect(exp.env.turnRewards).toBeNull();
      const forced = resolveConfig(wideConfig(mode));
      forced.env.turnRewards = zeroTables.map((ctx) => ctx.map((t) => Float64Array.from(t)));
      const specs = exp.algorithms.flatMap((_, a) => [0, 1].map((s) => ({ algoIndex: a, seedIndex: s })));
      const a = curves(new CpuShard(exp, specs));
      const b = curves(new CpuShard(forced, specs));
      let d = 0;
      a.forEach((r, i) => (d = Math.max(d, maxAbsDiff(r.J, b[i].J), maxAbsDiff(r.theta, b[i].theta))));
      expect(d).toBeLessThan(1e-9);
    });
  }

  // sha256 (first 24 hex digits) of every run's J curve and final logits, computed on the commit
  // before per-turn rewards reached the learners (c624c17): the terminal-only engine is bit-identical.
  const golden: [string, unknown, string][] = [
    ['two-prompts exact γ=0.9', { version: 1, env: { preset: 'two-prompts', gamma: 0.9 }, policy: { kind: 'tabular', initScale: 0.5 }, mode: 'exact', iterations: 12, seeds: 1, algorithms: [...named, ...variants.slice(0, -1)] }, 'd7ea6b38467094fdaeb20578'],
    ['tokens sampled, noise', { version: 1, env: { preset: 'tokens', gamma: 0.8, noise: { kind: 'gaussian', sigma: 0.2 } }, mode: 'sampled', iterations: 12, seeds: 2, groupSize: 6, algorithms: [...named, ...variants] }, '59e92da4bcc1fbca9452553e'],
  ];
  const bern = { version: 1, env: { turns: 2, vocab: 3, tokensPerTurn: 1, contexts: 2, rewards: [[0.1, 0.9, 0.2, 0.3, 0.5, 0.7, 0, 1, 0.4], [0.6, 0.2, 0.8, 0.1, 0.3, 0.9, 0.5, 0.5, 0.2]], noise: { kind: 'bernoulli' }, gamma: 0.7 }, policy: { kind: 'tabular', initScale: 0.3 }, mode: 'exact', iterations: 10, seeds: 1, algorithms: [...named, ...variants.slice(0, -1)] };
  golden.push(['bernoulli exact', bern, 'a1f740e520dbc3861911c4a1'], ['bernoulli sampled', { ...bern, mode: 'sampled', seeds: 2, groupSize: 4 }, '428c860929737c80ffefa572']);
  for (const [name, config, hash] of golden) {
    it(`unchanged curves: ${name}`, () => {
      const shard = shardFor(config);
      while (!shard.done) shard.step();
      const h = createHash('sha256');
      shard.series.forEach((s, r) => {
        h.update(Buffer.from(Float64Array.from(s.J).buffer));
        h.update(Buffer.from(Float64Array.from(shard.runs[r].theta).buffer));
      });
      expect(h.digest('hex').slice(0, 24)).toBe(hash);
    });
  }
});

// ── 5. GAE in exact mode: Q_old − V_old by direct enumeration ──────────────────────────────
describe('exact GAE with per-turn rewards', () => {
  for (const gamma of [1, 0.7]) {
    it(`γ = ${gamma}: every token's advantage is E[G_t | prefix + token] − E[G_t | prefix]`, () => {
      const e = envAt(gamma);
      for (const norm of ['none', 'group'] as const) {
        const shard = shardFor(turnConfig(e, { algorithms: [{ id: 'g', preset: 'ppo-gae', normalization: norm }], initScale: 0.9 }));
        const run = shard.runs[0];
        const theta = Array.from(run.theta);
        weighEnumeration(shard.pb, run, shard.sc);
        computeAdvantages(shard.pb, run, shard.sc);
        const b = shard.sc.batch;
        let d = 0;
        let big = 0;
        for (let x = 0; x < 2; x++)
          for (let s = 0; s < sequences(e); s++)
            for (let k = 0; k < 6; k++) {
              const want = gaeAdvantage(e, theta, x, s, k) / scaleOf(e, theta, norm, x);
              d = Math.max(d, Math.abs(b.advTok[(x * 64 + s) * 6 + k] - want));
              big = Math.max(big, Math.abs(want));
            }
        expect(d, norm).toBeLessThan(1e-12);
        expect(big).toBeGreaterThan(0.1);
      }
    });
  }
});

describe('exact mode: rewards, means and noise', () => {
  it('b.reward is the total mean return; the group mean of G_t is E_old[G_t | x]', () => {
    const e = envAt(0.6);
    const shard = shardFor(turnConfig(e, { algorithms: [{ id: 'reinforce' }], initScale: 0.5 }));
    const b = shard.sc.batch;
    for (let x = 0; x < 2; x++) for (let s = 0; s < 64; s++) expect(b.reward[x * 64 + s]).toBeCloseTo(total(e, x, s), 14);
    const theta = Array.from(shard.runs[0].theta);
    weighEnumeration(shard.pb, shard.runs[0], shard.sc);
    computeAdvantages(shard.pb, shard.runs[0], shard.sc);
    for (const [x, s] of [[0, 5], [1, 40]])
      for (let t = 0; t < 3; t++) {
        const want = rewardToGo(e, x, s, t) - turnAdvantage(e, theta, 'none', x, s, t);
        expect(shard.sc.turnMean[x * 3 + t]).toBeCloseTo(want, 13);
      }
  });

  it('bernoulli noise: the group std adds the variance r_T(1 − r_T) of the terminal mean, not of the total', () => {
    // one context, T = 2, V = 2; turn 1 pays [0.3, 0.6]; terminal success probabilities:
    const terminal = [0.2, 0.9, 0.5, 0.4];
    const e: TurnEnv = { T: 2, V: 2, L: 1, gamma: 1, terminal: [terminal], turn: [[[0.3, 0.6]]] };
    const shard = shardFor(turnConfig(e, { algorithms: [{ id: 'grpo' }], noise: { kind: 'bernoulli' } }));
    weighEnumeration(shard.pb, shard.runs[0], shard.sc);
    computeAdvantages(shard.pb, shard.runs[0], shard.sc);
    // uniform policy: totals [0.5, 1.2, 1.1, 1.0], mean 0.95; Var of the mean total = (0.2025 + 0.0625 + 0.0225 + 0.0025)/4
    const meanVar = (0.2025 + 0.0625 + 0.0225 + 0.0025) / 4;
    const noiseVar = terminal.reduce((a, r) => a + r * (1 - r), 0) / 4;
    const s = Math.sqrt(meanVar + noiseVar) + 1e-6;
    // turn 2's advantage of sequence 01: G_2 = 0.9, E[G_2] = 0.5 → 0.4 / s
    expect(shard.sc.batch.advTok[1 * 2 + 1]).toBeCloseTo(0.4 / s, 14);
    // turn 1's of sequence 10: G_1 = 1.1, E[G_1] = 0.95 → 0.15 / s
    expect(shard.sc.batch.advTok[2 * 2 + 0]).toBeCloseTo(0.15 / s, 14);
  });
});
