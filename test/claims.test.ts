import { describe, expect, it } from 'vitest';
import { presetRecord, type AlgorithmRecord } from '../src/core/algo/records';
import {
  CLAIMS_RULES,
  claimsInputOf,
  computeClaims,
  differingFields,
  effectiveLr,
  isCF,
  isGR,
  isPG,
  isREV,
  isStalled,
  isTwin,
  probabilitiesStalled,
  stallWindow,
  type Claim,
  type ClaimsInput,
} from '../src/core/claims';
import { resolveConfig } from '../src/core/config/resolve';
import { input, N, reach, rec, rising, stuck } from './support/claims-curves';
import { makeRunSeries } from '../src/core/run/series';

// Hand-made J curves over 40 iterations (41 values): J* = 1, R range = 1, so the stall window is
// w = max(10, ⌈40/10⌉) = 10, tol (at J*) 0.01, the stall tolerance 1e-4 and a drop 1e-3.
/** Reaches J* but drops once by 0.01 (iteration 3: 0.5 → 0.49): a drop (≥ 1e-3·R range). */
const oneDrop = (): number[] => [0.1, 0.3, 0.5, 0.49, 0.8, ...Array(N - 4).fill(1)];

const claimOf = (n: number, i: ClaimsInput): Claim => computeClaims(i)[n - 1];
const four = <T>(f: () => T): T[] => [f(), f(), f(), f()];

describe('terms', () => {
  it('stall window: max(10, ⌈iterations/10⌉)', () => {
    expect([stallWindow(40), stallWindow(100), stallWindow(101), stallWindow(200), stallWindow(5)]).toEqual([10, 10, 11, 20, 10]);
  });

  it('stalled needs w + 1 values: exactly w + 1 can stall, w cannot', () => {
    const flat = (n: number) => Array(n).fill(0.3);
    expect(isStalled(flat(11), 10, 1e-4)).toBe(true); // J_10 vs J_0
    expect(isStalled(flat(10), 10, 1e-4)).toBe(false);
    expect(isStalled([], 10, 1e-4)).toBe(false);
  });

  it('stalled compares J_end with J_(end−w) only, strictly below the tolerance', () => {
    const J = [0, 0.5, ...Array(9).fill(0.3)];
    expect(isStalled(J, 10, 1e-4)).toBe(false);
    expect(isStalled([0.3, ...J.slice(1, 10), 0.3 + 0.99e-4], 10, 1e-4)).toBe(true);
    expect(isStalled([0.3, ...J.slice(1, 10), 0.3 + 1.01e-4], 10, 1e-4)).toBe(false);
    expect(isStalled([0.3, ...J.slice(1, 10), 0.3 - 1.01e-4], 10, 1e-4)).toBe(false);
  });

  it('a streaming run ends at its last finite value (trailing NaN = not reached yet)', () => {
    expect(isStalled([...Array(11).fill(0.3), ...Array(30).fill(NaN)], 10, 1e-4)).toBe(true);
    expect(isStalled([...Array(10).fill(0.3), ...Array(31).fill(NaN)], 10, 1e-4)).toBe(false);
  });

  it('stalled on the probabilities too: every turn |ΔP| < 1e-3 over the window', () => {
    const P = (f: (k: number) => number) => Array.from({ length: N + 1 }, (_, k) => f(k));
    const flatP = P(() => 0.4);
    const climbing = P((k) => 0.4 + 1.1e-4 * k); // +1.1e-3 over w = 10
    const slow = P((k) => 0.4 + 0.9e-4 * k); // +0.9e-3 over w = 10
    expect(probabilitiesStalled({ optimalTokenProb: [flatP, flatP] }, N, 10, N)).toEqual({ stalled: true, change: 0 });
    expect(probabilitiesStalled({ optimalTokenProb: [flatP, climbing] }, N, 10, N).stalled).toBe(false);
    expect(probabilitiesStalled({ optimalTokenProb: [slow] }, N, 10, N).stalled).toBe(true);
    expect(probabilitiesStalled({}, N, 10, N).stalled).toBe(true); // no probabilities: J alone decides
    expect(probabilitiesStalled({ optimalTokenProb: [flatP] }, 9, 10, N).stalled).toBe(false); // fewer than w + 1
  });

  it('probabilities stored at a stride: the window runs from the stored value at or before end − w, never shorter', () => {
    // iterations 40 stored every 8: indices 0, 8, 16, 24, 32, 40 → slots 0..5. End 37: a = 32, b = stored ≤ 22 = 16.
    const stored = [0.1, 0.2, 0.3, 0.4, 0.4, 0.4]; // P at 0, 8, 16, 24, 32, 40
    const r = probabilitiesStalled({ optimalTokenProb: [stored], every: 8 }, 37, 10, N);
    expect(r).toEqual({ stalled: false, change: expect.closeTo(0.1, 12) }); // P_32 − P_16 = 0.1: still climbing
    // end 40 (the last is stored): a = 40, b = 24 → 0.4 vs 0.4
    expect(probabilitiesStalled({ optimalTokenProb: [stored], every: 8 }, 40, 10, N)).toEqual({ stalled: true, change: 0 });
  });

  it('a needle whose J barely moves while its probabilities still climb is not stuck', () => {
    const J = stuck(0.3);
    const P = Array.from({ length: N + 1 }, (_, k) => 0.01 * k); // +0.1 over the window
    const i = input([rec('reinforce')], [[J]], { gamma: 1 });
    (i.runs[0][0] as { optimalTokenProb?: number[][] }).optimalTokenProb = [P];
    const c = claimOf(1, i);
    expect(c.evidence.algorithms[0]).toMatchObject({ stuck: 0, settled: 0 });
    expect(c).toMatchObject({
      verdict: 'undecided',
      reason: 'Undecided: 1/1 seed of REINFORCE is still improving (its J has flattened but the probability of the optimal token is still changing); run longer.',
    });
  });

  it('evidence lists every drop with the KL of its own update, largest first', () => {
    // two seeds: drops of 0.01 at iteration 3 (KL 0.31) and of 0.05 at iteration 6 (KL 0.7)
    const J1 = Array.from({ length: N + 1 }, (_, k) => (k < 3 ? 0.5 : 0.49));
    const J2 = Array.from({ length: N + 1 }, (_, k) => (k < 6 ? 0.6 : 0.55));
    const i = input([rec('reinforce')], [[J1, J2]]);
    (i.runs[0][0] as { kl?: number[] }).kl = Array.from({ length: N }, (_, k) => (k === 2 ? 0.31 : 0.01));
    (i.runs[0][1] as { kl?: number[] }).kl = Array.from({ length: N }, (_, k) => (k === 5 ? 0.7 : 0.02));
    const e = claimOf(1, i).evidence.algorithms[0];
    expect(e.drops).toBe(2);
    expect(e.dropList).toEqual([
      { size: expect.closeTo(0.05, 12), seed: 1, iteration: 6, kl: 0.7 },
      { size: expect.closeTo(0.01, 12), seed: 0, iteration: 3, kl: 0.31 },
    ]);
  });

  it('evidence: counts, share interval, t95 as the median over seeds, final J interval, largest drop with seed, iteration and KL', () => {
    const i = input([rec('reinforce')], [[reach(10), reach(20), stuck(), rising(), oneDrop()]]);
    (i.runs[0][4] as { kl?: number[] }).kl = Array.from({ length: N }, (_, k) => (k === 2 ? 0.31 : 0.01));
    const e = claimOf(1, i).evidence.algorithms[0];
    // t95 per seed: 10, 19, never, never, 4 → sorted 4, 10, 19, ∞, ∞ → lower median 19
    expect(e).toMatchObject({ id: 'reinforce', seeds: 5, atJstar: 3, stuck: 1, settled: 4, drops: 1, seedsWithDrops: 1, violations: 1, t95: 19, diverged: 0, lr: 1 });
    expect(e.largestDrop).toEqual({ size: expect.closeTo(0.01, 12), seed: 4, iteration: 3, kl: 0.31 });
    expect(e.dropList).toEqual([e.largestDrop]);
    expect(e.atJstarInterval!.lo).toBeCloseTo(0.1466, 4); // Clopper–Pearson 3/5: [0.1466, 0.9473]
    expect(e.atJstarInterval!.hi).toBeCloseTo(0.9473, 4);
    expect(e.finalJ.mean).toBeCloseTo((1 + 1 + 0.3 + 0.6 + 1) / 5, 12);
  });

  it('a fall of less than 1e-3·R range is a §7 violation, not a drop', () => {
    const J = [0.1, 0.5, 0.5 - 0.9e-3, ...Array(N - 2).fill(1)];
    const e = claimOf(2, input([rec('grpo')], [[J]])).evidence.algorithms[0];
    expect(e).toMatchObject({ drops: 0, violations: 1 });
    expect(claimOf(2, input([rec('grpo')], [[J]], { rewardRange: 0.5 })).evidence.algorithms[0].drops).toBe(1); // drop tolerance 5e-4
  });

  it('a diverged seed is settled, stuck, never at J*, and counted', () => {
    const div = [...reach(5).slice(0, 20), ...Array(21).fill(NaN)];
    const c = claimOf(1, input([rec('reinforce')], [[reach(), reach(), reach(), div]], { diverged: [[null, null, null, 20]] }));
    expect(c.evidence.algorithms[0]).toMatchObject({ atJstar: 3, stuck: 1, settled: 4, diverged: 1 });
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toBe('REINFORCE did not reach J* in 40 iterations in 1/4 seeds (1 of them diverged) — the claim is about the limit, so a finite run can only fail to show it.');
  });

  it('at J* is relative to R range: tol = 0.01·R range', () => {
    expect(claimOf(1, input([rec('reinforce')], [[stuck(0.99)]])).verdict).toBe('observed');
    expect(claimOf(1, input([rec('reinforce')], [[stuck(0.989)]])).verdict).toBe('not observed');
    // rewards ×100: R range 100, tol 1
    const x100 = (J: number[]) => J.map((v) => v * 100);
    expect(claimOf(1, input([rec('reinforce')], [[x100(stuck(0.99))]], { Jstar: 100, rewardRange: 100 })).verdict).toBe('observed');
    expect(claimOf(1, input([rec('reinforce')], [[x100(stuck(0.989))]], { Jstar: 100, rewardRange: 100 })).verdict).toBe('not observed');
  });
});

describe('groups and twins', () => {
  it('groups by fields, not names', () => {
    const ids = ['reinforce', 'rloo', 'grpo', 'ppo-grae', 'gspo', 'ppo-gae', 'seeupo', 'seeupo-forward', 'seeupo-random'];
    const of = (f: (a: AlgorithmRecord) => boolean) => ids.filter((id) => f(presetRecord(id)));
    expect(of(isGR)).toEqual(['reinforce', 'rloo']);
    expect(of(isPG)).toEqual(['grpo', 'ppo-grae', 'gspo']);
    expect(of(isCF)).toEqual(['reinforce', 'rloo', 'grpo', 'ppo-grae', 'gspo']);
    expect(of(isREV)).toEqual(['seeupo']);
    expect(isREV(rec('seeupo', { normalization: 'none' }))).toBe(true);
    expect(isREV(rec('seeupo', { normalization: 'group' }))).toBe(false);
    expect(isREV(rec('seeupo', { mCorrection: false }))).toBe(false);
    expect(isREV(rec('seeupo', { advantage: 'rloo' }))).toBe(false);
    expect(isGR(rec('reinforce', { advantage: 'gae' }))).toBe(false);
  });

  it('twins: equal in every field that either rule reads, and in fields no rule list knows', () => {
    const s = rec('seeupo'), f = rec('seeupo-forward');
    expect(differingFields(s, f)).toEqual(['order']);
    expect(isTwin(s, f, 'order')).toBe(true);
    expect(isTwin(s, s, 'order')).toBe(false);
    expect(isTwin(s, { ...f, epochs: 2 }, 'order')).toBe(false);
    expect(isTwin(s, { ...f, lr: 0.5 }, 'order')).toBe(false);
    expect(isTwin(s, { ...f, ratio: 'sequence' }, 'order')).toBe(true);
    expect(isTwin(s, { ...f, temperature: 2 } as AlgorithmRecord, 'order')).toBe(false);
    expect(differingFields(s, { ...f, temperature: 2 } as AlgorithmRecord)).toEqual(['order', 'temperature']);
    expect(isTwin(rec('grpo'), rec('grpo', { normalization: 'batch' }, 'g2'), 'normalization')).toBe(true);
    expect(isTwin(rec('grpo'), rec('grpo', { normalization: 'batch', clip: 0.1 }, 'g2'), 'normalization')).toBe(false);
    expect(isTwin(rec('reinforce'), rec('reinforce', { normalization: 'group', clip: 0.1, epochs: 9 }, 'r2'), 'normalization')).toBe(true);
    expect(isTwin(s, f, 'order', ['3:0.1', ''])).toBe(false);
    expect(isTwin(rec('reinforce'), rec('reinforce', { normalization: 'group' }, 'r2'), 'normalization', ['3:0.1', ''])).toBe(true);
    // the critic's λ and lr are read only with gae advantages: on GRPO they are ignored (the config
    // warns), so they cannot keep two GRPOs from being twins; on a gae algorithm they count
    expect(isTwin(rec('grpo', { gaeLambda: 0.5 }), rec('grpo', { normalization: 'batch' }, 'g2'), 'normalization')).toBe(true);
    expect(isTwin(rec('grpo', { criticLr: 3 }), rec('grpo', { normalization: 'batch' }, 'g2'), 'normalization')).toBe(true);
    expect(isTwin(rec('ppo-grae'), rec('ppo-grae', { advantage: 'gae' }, 'p2'), 'advantage')).toBe(true);
    expect(isTwin(rec('ppo-grae'), rec('ppo-grae', { advantage: 'gae', gaeLambda: 0.5 }, 'p2'), 'advantage')).toBe(false);
    expect(isTwin(rec('ppo-grae', { gaeLambda: 0.5 }), rec('ppo-grae', { advantage: 'gae' }, 'p2'), 'advantage')).toBe(false);
  });

  it('effective learning rate: its own lr if set, else optimizer.lr with its scheduled changes; twins compare it', () => {
    const algos = [rec('seeupo'), rec('seeupo-forward', { lr: 0.5 }), rec('seeupo-random')];
    const i = { algorithms: algos, optimizer: { kind: 'sgd' as const, lr: 0.5 }, changes: [{ at: 5, path: 'optimizer.lr', value: 0.1 }] };
    expect(effectiveLr(i, 0)).toEqual({ value: 0.5, key: '0.5,5:0.1' });
    expect(effectiveLr(i, 1)).toEqual({ value: 0.5, key: '0.5' });
    expect(effectiveLr({ ...i, changes: [] }, 0)).toEqual({ value: 0.5, key: '0.5' });
    // lr 0.5 of its own, equal to optimizer.lr 0.5: the same step, so twins (when no change is scheduled)
    expect(differingFields(algos[0], algos[1], ['', ''], ['0.5', '0.5'])).toEqual(['order']);
    expect(differingFields(algos[0], algos[1], ['', ''], ['0.5,5:0.1', '0.5'])).toEqual(['lr', 'order']);
  });
});

describe('no data: nothing but undecided or not testable', () => {
  it('before any run every testable check is undecided ("no runs yet"), never "not observed … 0/0 seeds"', () => {
    const algos = [rec('reinforce'), rec('grpo'), rec('ppo-gae'), rec('grpo', { normalization: 'batch' }, 'grpo-batch'), rec('seeupo'), rec('seeupo-forward')];
    const none = computeClaims(input(algos, algos.map(() => [])));
    expect(none.map((c) => c.verdict)).toEqual(['undecided', 'undecided', 'undecided', 'undecided', 'undecided']);
    expect(none[0].reason).toBe('Undecided: REINFORCE has no runs yet.');
    expect(none[3].parts!.map((p) => p.verdict)).toEqual(['undecided', 'undecided', 'undecided']);
    // only J_0 (no completed iteration) is no data either
    const j0 = computeClaims(input(algos, algos.map(() => [[0.1], [0.1]])));
    expect(j0.map((c) => c.verdict)).toEqual(['undecided', 'undecided', 'undecided', 'undecided', 'undecided']);
    // one completed iteration decides what it can: never observed/not observed before there is a window
    const one = computeClaims(input(algos, algos.map(() => [[0.1, 0.2], [0.1, 0.2]])));
    expect(one.every((c) => c.verdict === 'undecided')).toBe(true);
  });
});

describe('claim 1: GRAE-REINFORCE reaches J* when undiscounted', () => {
  it('observed: every seed of every GR algorithm at J*, with the share interval', () => {
    const c = claimOf(1, input([rec('reinforce'), rec('rloo'), rec('grpo')], [four(reach), four(reach), four(stuck)]));
    expect(c).toMatchObject({ claim: 1, verdict: 'observed', reason: 'REINFORCE reached J* in 4/4 seeds (95% interval 0.40–1.00), RLOO in 4/4 seeds (95% interval 0.40–1.00).' });
    expect(c.evidence.algorithms.map((a) => a.id)).toEqual(['reinforce', 'rloo']);
  });

  it('not observed: a seed is stuck — "not reached in N iterations", the claim is about the limit', () => {
    const c = claimOf(1, input([rec('reinforce')], [[reach(), stuck(), stuck(0.32), rising()]]));
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toBe(
      'REINFORCE did not reach J* in 40 iterations in 2/4 seeds (they stopped moving at J 0.31 ± 0.13, J* = 1.00) — the claim is about the limit, so a finite run can only fail to show it.',
    );
  });

  it('undecided: no seed stuck, some still improving', () => {
    expect(claimOf(1, input([rec('reinforce')], [[reach(), reach(), reach(), rising()]]))).toMatchObject({
      verdict: 'undecided',
      reason: 'Undecided: 1/4 seeds of REINFORCE is still improving; run longer.',
    });
  });

  it('undecided while streaming: fewer than w + 1 values cannot be stalled', () => {
    expect(claimOf(1, input([rec('reinforce')], [[stuck().slice(0, 10), reach().slice(0, 10)]])).verdict).toBe('undecided');
    expect(claimOf(1, input([rec('reinforce')], [[stuck().slice(0, 16)]])).verdict).toBe('not observed');
    expect(claimOf(1, input([rec('reinforce')], [[stuck().slice(0, 15)]])).verdict).toBe('undecided');
  });

  it('not testable: no GR algorithm, or γ ≠ 1', () => {
    const c = claimOf(1, input([rec('grpo'), rec('reinforce', { advantage: 'gae' }, 'reinforce-gae')], [four(reach), four(reach)]));
    expect(c).toMatchObject({ verdict: 'not testable', reason: 'Not testable here: the experiment has no GRAE-REINFORCE algorithm (rule reinforce with advantage grae or rloo).' });
    const g = claimOf(1, input([rec('reinforce')], [[reach(), stuck(), stuck(), stuck()]], { gamma: 0.9 }));
    expect(g.verdict).toBe('not testable');
    expect(g.reason).toContain('γ = 0.9');
    expect(g.evidence.algorithms[0].atJstar).toBe(1);
  });
});

describe('claim 2: PPO with GRAE can decrease J, where PPO with the true advantage would not', () => {
  const gae = () => rec('grpo', { advantage: 'gae' }, 'grpo-gae'); // GRPO's exact-advantage twin
  const drop4 = () => four(oneDrop);

  it('observed: X drops in 4/4 seeds, its exact-advantage twin in 0/4 (Fisher p = 1/70)', () => {
    const c = claimOf(2, input([rec('grpo'), gae()], [drop4(), four(reach)]));
    expect(c.verdict).toBe('observed');
    expect(c.reason).toBe(
      "GRPO's J dropped in 4/4 seeds (4 drops in all; the largest, 0.01 at iteration 3 of seed 0: its KL was not stored), while its control grpo-gae (the same with the exact advantage) had no drop in 4 seeds: the drops come from GRAE.",
    );
    expect(c.evidence.controls).toEqual([expect.objectContaining({ id: 'grpo-gae', drops: 0 })]);
  });

  it('control of last resort: reverse-order SeeUPO at the same learning rate, clip and epochs', () => {
    expect(claimOf(2, input([rec('ppo-grae'), rec('seeupo')], [drop4(), four(reach)])).verdict).toBe('observed');
    // another learning rate: no control
    const c = claimOf(2, input([rec('ppo-grae'), rec('seeupo', { lr: 0.5 })], [drop4(), four(reach)]));
    expect(c.verdict).toBe('undecided');
    expect(c.reason).toMatch(/drops seen, but no control is in the experiment — add the control/);
  });

  it('undecided: the control dropped about as often (3/4 vs 2/4: gap 0.25 would count, 2/4 vs 2/4 does not)', () => {
    const some = (k: number) => [...Array(k).fill(0).map(oneDrop), ...Array(4 - k).fill(0).map(() => reach())];
    const same = claimOf(2, input([rec('grpo'), gae()], [some(2), some(2)]));
    expect(same.verdict).toBe('undecided');
    expect(same.reason).toContain('not clearly fewer drops (one-sided Fisher test p = 0.76,'); // 53/70
    expect(claimOf(2, input([rec('grpo'), gae()], [some(3), some(2)])).verdict).toBe('observed'); // gap exactly 0.25
  });

  it('not observed: no drop and every seed settled', () => {
    expect(claimOf(2, input([rec('grpo')], [[reach(), stuck(), reach(), stuck()]]))).toMatchObject({
      verdict: 'not observed',
      reason: "GRPO's J never dropped in 4 seeds, and every seed has settled.",
    });
  });

  it('undecided: no drop so far, a seed still moving', () => {
    expect(claimOf(2, input([rec('grpo')], [[reach(), rising(), reach(), reach()]]))).toMatchObject({
      verdict: 'undecided',
      reason: 'Undecided: no drop of J so far, but 1/4 seeds of GRPO is still improving; run longer.',
    });
  });

  it('not testable: sampled mode, Monte-Carlo J, or no PG algorithm with token ratios', () => {
    expect(claimOf(2, input([rec('grpo')], [[oneDrop()]], { mode: 'sampled' }))).toMatchObject({
      verdict: 'not testable',
      reason: 'Not testable here: in sampled mode a drop may be sampling noise (drop-based checks need exact updates).',
    });
    const mc = claimOf(2, input([rec('grpo')], [[oneDrop()]], { jIsEstimate: true }));
    expect(mc.reason).toContain('Monte-Carlo');
    expect(mc.evidence.algorithms[0].drops).toBe(0);
    expect(claimOf(2, input([rec('gspo'), rec('ppo-gae')], [[oneDrop()], [oneDrop()]])).reason).toContain('no PPO-style algorithm with GRAE and token ratios');
  });
});

describe('claim 3: critic-free methods can miss J* where reverse-order SeeUPO reaches it', () => {
  it('observed: the same seed index stuck for CF and at J* for REV', () => {
    const c = claimOf(3, input([rec('grpo', { normalization: 'batch' }, 'grpo-b'), rec('seeupo')], [[stuck(), stuck(), reach(), reach()], four(reach)]));
    expect(c.verdict).toBe('observed');
    expect(c.reason).toBe(
      'grpo-b did not reach J* in 40 iterations in 2/4 seeds (they stopped moving at J 0.30 ± 0.00, J* = 1.00), while SeeUPO, at the same learning rate 1, reached it in seeds 0, 1.',
    );
    expect(c.evidence.seedIndices).toEqual([0, 1]);
  });

  it('a difference in normalization is allowed and named', () => {
    const c = claimOf(3, input([rec('grpo'), rec('seeupo')], [[stuck(), reach()], [reach(), reach()]]));
    expect(c.reason).toContain('(they also differ in normalization: group vs batch)');
  });

  it('pairs only at the same effective learning rate: none → not testable', () => {
    const c = claimOf(3, input([rec('grpo', { lr: 0.1 }), rec('seeupo')], [four(stuck), four(reach)]));
    expect(c.verdict).toBe('not testable');
    expect(c.reason).toBe('Not testable here: no critic-free algorithm has the same learning rate as SeeUPO (learning rates GRPO · lr 0.1: 0.1 and SeeUPO: 1); the comparison needs equal steps.');
    // the same lr given as the algorithm's own equals optimizer.lr: paired
    expect(claimOf(3, input([rec('grpo', { lr: 1 }), rec('seeupo')], [four(stuck), four(reach)])).verdict).toBe('observed');
  });

  it('seeds are matched by seed index, not position; not observed once everything has settled', () => {
    const i = input([rec('grpo'), rec('seeupo')], [[stuck(), reach()], [reach(), stuck()]], { seedIndices: [[5, 7], [7, 5]] });
    const c = claimOf(3, i);
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toBe(
      'Every seed has settled, and in no seed did GRPO stay below J* where SeeUPO reached it (at J*: GRPO 1/2 seeds and SeeUPO 1/2 seeds); running longer will not change that.',
    );
    const i2 = input([rec('grpo'), rec('seeupo')], [[stuck(), reach()], [stuck(), reach()]], { seedIndices: [[5, 7], [7, 5]] });
    expect(claimOf(3, i2)).toMatchObject({ verdict: 'observed', evidence: { seedIndices: [5] } });
  });

  it('not observed: every paired CF seed at J*', () => {
    expect(claimOf(3, input([rec('grpo'), rec('reinforce'), rec('seeupo')], [four(reach), four(reach), four(stuck)]))).toMatchObject({
      verdict: 'not observed',
      reason: 'GRPO reached J* in 4/4 seeds (95% interval 0.40–1.00), REINFORCE in 4/4 seeds (95% interval 0.40–1.00): no critic-free method missed it.',
    });
  });

  it('undecided: a seed still moving', () => {
    expect(claimOf(3, input([rec('grpo'), rec('seeupo')], [[reach(), rising()], [reach(), reach()]]))).toMatchObject({
      verdict: 'undecided',
      reason: 'Undecided: 1/2 seeds of GRPO is still improving; run longer.',
    });
    // the CF seed is stuck but REV's is still moving: undecided, not "not observed"
    expect(claimOf(3, input([rec('grpo'), rec('seeupo')], [[stuck()], [rising()]])).verdict).toBe('undecided');
  });

  it('not testable: no CF, or no REV', () => {
    expect(claimOf(3, input([rec('seeupo')], [four(reach)])).reason).toContain('no critic-free simultaneous algorithm');
    const noRev = input([rec('grpo'), rec('seeupo-forward'), rec('seeupo', { mCorrection: false }, 's1')], [four(stuck), four(reach), four(reach)]);
    expect(claimOf(3, noRev)).toMatchObject({ verdict: 'not testable', reason: expect.stringContaining('no reverse-order SeeUPO') });
  });
});

describe('claim 4: the guarantee (a and b); the order effect (c) its own verdict', () => {
  const parts = (c: Claim) => Object.fromEntries((c.parts ?? []).map((p) => [p.part, p.verdict]));

  it('observed: no drop and every seed at J*, whatever (c) says', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward')], [four(reach), four(reach)]));
    expect(parts(c)).toEqual({ a: 'observed', b: 'observed', c: 'not observed' });
    expect(c.verdict).toBe('observed'); // (c) is never folded in
    expect(c.reason).toBe("Monotone and at J*: (a) SeeUPO's J never dropped in 4 seeds; (b) SeeUPO reached J* in 4/4 seeds (95% interval 0.40–1.00).");
  });

  it('(c) observed: the twin reaches J* in clearly fewer seeds (Fisher or a gap ≥ 0.25)', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward')], [four(reach), [reach(), stuck(), reach(), reach()]]));
    expect(c.parts![2]).toEqual({
      part: 'c',
      verdict: 'observed',
      reason:
        'SeeUPO (forward), in forward order but otherwise equal to SeeUPO, reached J* in clearly fewer seeds: at J* 3/4 seeds (95% interval 0.19–0.99) vs 4/4 seeds (95% interval 0.40–1.00), median iterations to 95% of the way 10 vs 10.',
    });
    expect(c.evidence.twins).toEqual([{ rev: 'seeupo', twin: 'seeupo-forward', field: 'order', values: ['reverse', 'forward'], verdict: 'observed' }]);
  });

  it('(c) slower: a median t95 ≥ 1.5× REV\'s and ≥ 3 more (boundary)', () => {
    const c4 = (revAt: number, twinAt: number) => claimOf(4, input([rec('seeupo'), rec('seeupo-random')], [four(() => reach(revAt)), four(() => reach(twinAt))])).parts![2];
    expect(c4(6, 9)).toMatchObject({ verdict: 'observed', reason: expect.stringContaining('was clearly slower') });
    expect(c4(6, 8).verdict).toBe('not observed');
    expect(c4(2, 3).verdict).toBe('not observed'); // 1.5× but not 3 more
  });

  it('(c) undecided until every seed of both has settled, even when the shares already differ', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward')], [four(reach), [rising(), rising(), rising(), reach()]]));
    expect(c.parts![2].verdict).toBe('undecided');
    expect(c.parts![2].reason).toBe('Undecided until every seed of both has settled: 3/4 seeds of SeeUPO (forward) are still improving.');
  });

  it('(c) not testable without a twin that differs only in order', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward', { epochs: 2 })], [four(reach), four(stuck)]));
    expect(c.parts![2]).toMatchObject({ verdict: 'not testable', reason: 'Not testable here: no algorithm equals SeeUPO in every field but order (a forward- or random-order twin).' });
    expect(c.verdict).toBe('observed');
  });

  it('not observed: a drop (a)', () => {
    const c = claimOf(4, input([rec('seeupo')], [[reach(), oneDrop(), reach(), reach()]]));
    expect(parts(c)).toEqual({ a: 'not observed', b: 'observed', c: 'not testable' });
    expect(c.reason).toBe(
      'Part (a) not observed: J fell: SeeUPO had drops in 1/4 seeds (1 in all; the largest, 0.01 at iteration 3 of seed 1: its KL was not stored).',
    );
  });

  it('not observed: a REV seed stuck (b)', () => {
    const c = claimOf(4, input([rec('seeupo')], [[reach(), stuck(), reach(), reach()]]));
    expect(parts(c)).toEqual({ a: 'observed', b: 'not observed', c: 'not testable' });
    expect(c.reason).toBe(
      'Part (b) not observed: SeeUPO did not reach J* in 40 iterations in 1/4 seeds (it stopped moving at J 0.30, J* = 1.00) — the claim is about the limit, so a finite run can only fail to show it.',
    );
  });

  it('undecided: (a) no drop so far and (b) still moving', () => {
    const c = claimOf(4, input([rec('seeupo')], [[reach(), rising()]]));
    expect(parts(c)).toEqual({ a: 'undecided', b: 'undecided', c: 'not testable' });
    expect(c.reason).toBe('Undecided: (a) no drop of J so far in 2 seeds, but 1/2 seeds of SeeUPO is still improving; (b) 1/2 seeds of SeeUPO is still improving; run longer.');
  });

  it('not testable in sampled mode ((a) needs exact updates) unless (b) is not observed', () => {
    expect(claimOf(4, input([rec('seeupo')], [four(reach)], { mode: 'sampled' }))).toMatchObject({ verdict: 'not testable' });
    expect(claimOf(4, input([rec('seeupo')], [four(stuck)], { mode: 'sampled' })).verdict).toBe('not observed');
  });

  it('not testable: no REV algorithm (all parts)', () => {
    const c = claimOf(4, input([rec('seeupo-forward'), rec('grpo')], [four(reach), four(reach)]));
    expect(c.verdict).toBe('not testable');
    expect(parts(c)).toEqual({ a: 'not testable', b: 'not testable', c: 'not testable' });
  });

  it('several twins: observed if any is; scheduled clip changes break twins, a shared lr change does not', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward'), rec('seeupo-random')], [four(() => reach(6)), four(() => reach(6)), four(() => reach(20))]));
    expect(c.parts![2].verdict).toBe('observed');
    expect((c.evidence.twins as { twin: string; verdict: string }[]).map((t) => [t.twin, t.verdict])).toEqual([
      ['seeupo-forward', 'not observed'],
      ['seeupo-random', 'observed'],
    ]);
    const clip = input([rec('seeupo'), rec('seeupo-forward')], [four(reach), four(stuck)], { changes: [{ at: 5, path: 'algorithms[1].clip', value: 0.1 }] });
    expect(claimOf(4, clip).parts![2].verdict).toBe('not testable');
    const lr = input([rec('seeupo'), rec('seeupo-forward')], [four(reach), four(stuck)], { changes: [{ at: 5, path: 'optimizer.lr', value: 0.1 }] });
    expect(claimOf(4, lr).parts![2].verdict).toBe('observed');
  });
});

describe('claim 5: group normalization moves where training ends; batch does not', () => {
  const g = () => rec('grpo');
  const b = () => rec('grpo', { normalization: 'batch' }, 'grpo-batch');
  const n = () => rec('grpo', { normalization: 'none' }, 'grpo-none');

  it('observed: shares differ, every seed settled, and batch agrees with none', () => {
    const c = claimOf(5, input([g(), b(), n()], [four(stuck), four(reach), four(reach)]));
    expect(c.verdict).toBe('observed');
    expect(c.reason).toBe(
      'Training ended in different places: GRPO (group) at J* in 0/4 seeds (95% interval 0.00–0.60), final J 0.30 ± 0.00, but grpo-batch (batch) at J* in 4/4 seeds (95% interval 0.40–1.00), final J 1.00 ± 0.00; batch agrees with no normalization (grpo-none (none) at J* in 4/4 seeds (95% interval 0.40–1.00), final J 1.00 ± 0.00).',
    );
  });

  it('not observed: batch normalization moved it as well', () => {
    const c = claimOf(5, input([g(), b(), n()], [four(() => stuck(0.3)), four(() => stuck(0.5)), four(reach)]));
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toMatch(/^Group and batch normalization ended in different places, but batch normalization moved it as well/);
  });

  it('differ: means ≥ tol apart with disjoint intervals; tol scales with R range', () => {
    expect(claimOf(5, input([g(), b()], [[stuck(0.3)], [stuck(0.31)]])).verdict).toBe('observed');
    expect(claimOf(5, input([g(), b()], [[stuck(0.3)], [stuck(0.309)]])).verdict).toBe('not observed');
    expect(claimOf(5, input([g(), b()], [[stuck(0.3)], [stuck(0.31)]], { rewardRange: 2 })).verdict).toBe('not observed'); // tol 0.02
  });

  it('not observed: same place (same share, overlapping intervals)', () => {
    const c = claimOf(5, input([g(), b()], [[stuck(0.3), stuck(0.5)], [stuck(0.31), stuck(0.52)]]));
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toMatch(/^Every seed has settled and group and batch normalization ended in the same place: GRPO \(group\)/);
  });

  it('undecided: a seed of either still moving', () => {
    expect(claimOf(5, input([g(), b()], [four(stuck), [reach(), reach(), reach(), rising()]]))).toMatchObject({
      verdict: 'undecided',
      reason: 'Undecided: 1/4 seeds of grpo-batch is still improving: where training ends is not known yet; run longer.',
    });
  });

  it('not testable: a plain table, one context, sampled with one context per batch, or no group/batch twins', () => {
    const d = [four(stuck), four(reach)];
    expect(claimOf(5, input([g(), b()], d, { policy: { kind: 'tabular' } })).reason).toContain('the policy is a plain table, which shares no parameters across contexts');
    expect(claimOf(5, input([g(), b()], d, { policy: { kind: 'mlp' } })).verdict).toBe('observed');
    expect(claimOf(5, input([g(), b()], d, { contexts: 1 })).reason).toContain('with one context, group and batch normalization coincide exactly');
    expect(claimOf(5, input([g(), b()], d, { mode: 'sampled', contextsPerBatch: 1 })).reason).toContain('contextsPerBatch 1');
    expect(claimOf(5, input([g(), b()], d, { mode: 'sampled', contextsPerBatch: 2 })).verdict).toBe('observed');
    expect(claimOf(5, input([g(), n()], d))).toMatchObject({ verdict: 'not testable', reason: 'Not testable here: no two algorithms differ only in normalization, one group and the other batch.' });
  });

  it('several pairs: observed if any is, else undecided if any is', () => {
    const g2 = rec('grpo', { epochs: 2 }, 'g2'), b2 = rec('grpo', { epochs: 2, normalization: 'batch' }, 'b2');
    expect(claimOf(5, input([g(), b(), g2, b2], [four(reach), four(reach), four(stuck), four(reach)])).verdict).toBe('observed');
    expect(claimOf(5, input([g(), b(), g2, b2], [four(reach), four(reach), four(stuck), four(rising)])).verdict).toBe('undecided');
  });
});

describe('computeClaims', () => {
  it('always five claims in order, rules version 2', () => {
    expect(CLAIMS_RULES).toBe(2);
    const cs = computeClaims(input([], []));
    expect(cs.map((c) => c.claim)).toEqual([1, 2, 3, 4, 5]);
    expect(cs.every((c) => c.verdict === 'not testable')).toBe(true);
  });

  it('plain JSON: no NaN or Infinity, null only where a number may be undefined', () => {
    const div = [0.1, 0.2, NaN, NaN];
    const i = input(
      [rec('reinforce'), rec('grpo'), rec('grpo', { normalization: 'batch' }, 'grpo-batch'), rec('seeupo'), rec('seeupo-forward')],
      [[reach(), div, []], four(stuck), four(rising), four(reach), four(stuck)],
      { diverged: [[null, 2, null]] },
    );
    const cs = computeClaims(i);
    const back = JSON.parse(JSON.stringify(cs));
    expect(back).toEqual(cs);
    const walk = (v: unknown, path: string): void => {
      if (typeof v === 'number') expect(Number.isFinite(v), path).toBe(true);
      else if (Array.isArray(v)) v.forEach((x, k) => walk(x, `${path}[${k}]`));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    };
    walk(cs, 'claims');
    expect(cs[0].evidence.algorithms[0]).toMatchObject({ seeds: 3, diverged: 1, atJstar: 1, stuck: 1, settled: 2 });
  });
});

describe('claimsInputOf', () => {
  const exp = resolveConfig({ version: 1, env: { preset: 'lock' }, mode: 'exact', seeds: 2, iterations: N, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] });
  const series = (curves: number[][][]) =>
    curves.flatMap((seeds, ai) =>
      seeds.map((J, si) => {
        const s = makeRunSeries(exp, ai, si);
        J.forEach((v, k) => (s.J[k] = v));
        for (const p of s.optimalTokenProb) p.fill(0.5);
        return s;
      }),
    );

  it('takes the experiment and series (seed order, mode, γ, contexts, R range, optimizer, policy)', () => {
    const i = claimsInputOf(exp, 1, series([[stuck(), reach()], [reach(), reach()]]));
    expect(i).toMatchObject({ mode: 'exact', jIsEstimate: false, gamma: 1, contexts: 1, iterations: N, Jstar: 1, rewardRange: 1, JgammaStar: null, policy: { kind: 'tabular', shareContexts: false } });
    expect(i.optimizer).toEqual(exp.optimizer);
    expect(i.runs.map((r) => r.map((x) => x.seedIndex))).toEqual([[0, 1], [0, 1]]);
    expect(i.runs[0][0].optimalTokenProb).toHaveLength(exp.env.turns);
    expect(claimOf(3, i).verdict).toBe('observed');
  });

  it('truncates at upTo: a run that stalls later is still moving earlier, a later divergence is ignored', () => {
    const s = series([[stuck(), stuck()], [reach(30), reach(30)]]);
    s[1].diverged = 35;
    const early = claimsInputOf(exp, 1, s, { upTo: 12 });
    expect(early.runs[0][0].J.length).toBe(13);
    expect(early.runs[0][1].diverged).toBeNull();
    expect(claimOf(3, early).verdict).toBe('undecided');
    expect(claimsInputOf(exp, 1, s).runs[0][1].diverged).toBe(35);
    const streaming = series([[stuck().slice(0, 4), stuck().slice(0, 4)], [reach().slice(0, 4), reach().slice(0, 4)]]);
    expect(claimOf(3, claimsInputOf(exp, 1, streaming)).verdict).toBe('undecided');
  });
});

describe('a verdict’s reason is one sentence', () => {
  it('several pairs’ reasons join into one, numbered', async () => {
    const { oneSentence } = await import('../src/core/claims/rules-twins');
    expect(oneSentence(['Training ended in different places: A, but B.'], 'group/batch pairs')).toBe('Training ended in different places: A, but B.');
    const two = oneSentence(['Training ended in different places: A, but B.', 'Every seed has settled: C; D.'], 'group/batch pairs');
    expect(two).toBe('In 2 group/batch pairs: (1) Training ended in different places: A, but B; (2) Every seed has settled: C; D.');
    expect(two.match(/\.(\s|$)/g)).toHaveLength(1);
  });
});
