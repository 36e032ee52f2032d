import { describe, expect, it } from 'vitest';
import { presetRecord, type AlgorithmRecord } from '../src/core/algo/records';
import {
  CLAIMS_RULES,
  claimsInputOf,
  computeClaims,
  differingFields,
  isCF,
  isGR,
  isPG,
  isREV,
  isStalled,
  isTwin,
  stallWindow,
  type Claim,
  type ClaimsInput,
} from '../src/core/claims';
import { resolveConfig } from '../src/core/config/resolve';
import { makeRunSeries } from '../src/core/run/series';

// Hand-made J curves over 40 iterations (41 values): J* = 1, R range = 1, so the stall window is
// w = max(10, ⌈40/10⌉) = 10, the stall tolerance 1e-4 and the drop tolerance 1e-6.
const N = 40;

/** Rises linearly from 0.1 to 1 by iteration `at` (t95 = ⌈0.95·at⌉), then stays at J* = 1. */
const reach = (at = 10): number[] => Array.from({ length: N + 1 }, (_, k) => (k >= at ? 1 : 0.1 + (0.9 * k) / at));
/** Rises to v by iteration 5, then flat: stalled (the last 35 iterations are equal), stuck below J*. */
const stuck = (v = 0.3): number[] => Array.from({ length: N + 1 }, (_, k) => (k >= 5 ? v : 0.1 + ((v - 0.1) * k) / 5));
/** Still rising at the end: +0.0125 per iteration, 0.1 → 0.6 (J_40 − J_30 = 0.125). */
const rising = (): number[] => Array.from({ length: N + 1 }, (_, k) => 0.1 + 0.0125 * k);
/** Reaches J* but drops once by 0.01 (iteration 3: 0.5 → 0.49). */
const oneDrop = (): number[] => [0.1, 0.3, 0.5, 0.49, 0.8, ...Array(N - 4).fill(1)];

const rec = (preset: string, over: Partial<AlgorithmRecord> = {}, id = preset): AlgorithmRecord => ({ ...presetRecord(preset, id), ...over });

/** A ClaimsInput: per algorithm, one curve per seed (seed index = position unless `seedIndices`). */
function input(algos: AlgorithmRecord[], curves: number[][][], over: Partial<ClaimsInput> & { seedIndices?: number[][]; diverged?: (number | null)[][] } = {}): ClaimsInput {
  const { seedIndices, diverged, ...rest } = over;
  return {
    algorithms: algos,
    runs: curves.map((seeds, ai) => seeds.map((J, si) => ({ seedIndex: seedIndices?.[ai]?.[si] ?? si, J, diverged: diverged?.[ai]?.[si] ?? null }))),
    mode: 'exact',
    jIsEstimate: false,
    gamma: 1,
    contexts: 2,
    iterations: N,
    Jstar: 1,
    rewardRange: 1,
    ...rest,
  };
}

const claimOf = (n: number, i: ClaimsInput): Claim => computeClaims(i)[n - 1];
const four = <T>(f: () => T): T[] => [f(), f(), f(), f()];

describe('terms', () => {
  it('stall window: max(10, ⌈iterations/10⌉)', () => {
    expect([stallWindow(40), stallWindow(100), stallWindow(101), stallWindow(200), stallWindow(5)]).toEqual([10, 10, 11, 20, 10]);
  });

  it('stalled needs w + 1 values: exactly w + 1 can stall, w cannot', () => {
    const flat = (n: number) => Array(n).fill(0.3);
    expect(isStalled(flat(11), 10, 1e-4)).toBe(true); // J_10 vs J_0
    expect(isStalled(flat(10), 10, 1e-4)).toBe(false); // fewer than w + 1 values: can still move
    expect(isStalled([], 10, 1e-4)).toBe(false);
  });

  it('stalled compares J_end with J_(end−w) only, strictly below the tolerance', () => {
    const J = [0, 0.5, ...Array(9).fill(0.3)]; // J_10 = J_0 + 0.3: moved over the window
    expect(isStalled(J, 10, 1e-4)).toBe(false);
    expect(isStalled([0.3, ...J.slice(1, 10), 0.3 + 0.99e-4], 10, 1e-4)).toBe(true);
    expect(isStalled([0.3, ...J.slice(1, 10), 0.3 + 1.01e-4], 10, 1e-4)).toBe(false);
    expect(isStalled([0.3, ...J.slice(1, 10), 0.3 - 1.01e-4], 10, 1e-4)).toBe(false);
  });

  it('a streaming run ends at its last finite value (trailing NaN = not reached yet)', () => {
    const J = [...Array(11).fill(0.3), ...Array(30).fill(NaN)];
    expect(isStalled(J, 10, 1e-4)).toBe(true);
    expect(isStalled([...Array(10).fill(0.3), ...Array(31).fill(NaN)], 10, 1e-4)).toBe(false);
  });

  it('evidence: counts, t95 as the median over seeds (never = ∞ → null), final J interval', () => {
    const c = claimOf(1, input([rec('reinforce')], [[reach(10), reach(20), stuck(), rising()]]));
    const e = c.evidence.algorithms[0];
    // t95 per seed: 10 (k ≥ 9.5), 19, never, never → sorted 10, 19, ∞, ∞ → lower median 19
    expect(e).toMatchObject({ id: 'reinforce', seeds: 4, atJstar: 2, stuck: 1, settled: 3, drops: 0, seedsWithDrops: 0, t95: 19, diverged: 0 });
    expect(e.finalJ.mean).toBeCloseTo((1 + 1 + 0.3 + 0.6) / 4, 12);
    const e2 = claimOf(1, input([rec('reinforce')], [[stuck(), stuck(), stuck(), reach()]])).evidence.algorithms[0];
    expect(e2.t95).toBeNull(); // 10, ∞, ∞, ∞: most never got there
    expect(e2.finalJ).toEqual({ mean: expect.closeTo(0.475, 12), lo: expect.any(Number), hi: expect.any(Number) });
  });

  it('a diverged seed is settled, stuck, never at J*, and counted', () => {
    const div = [...reach(5).slice(0, 20), ...Array(21).fill(NaN)]; // at J* until it diverged at 20
    const c = claimOf(1, input([rec('reinforce')], [[reach(), reach(), reach(), div]], { diverged: [[null, null, null, 20]] }));
    expect(c.evidence.algorithms[0]).toMatchObject({ atJstar: 3, stuck: 1, settled: 4, diverged: 1 });
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toBe('REINFORCE stayed stuck below J* in 1/4 seeds (1 of them diverged).');
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
    // `ratio` is not read by the sequential rule: it cannot change a run, so it does not break twins
    expect(isTwin(s, { ...f, ratio: 'sequence' }, 'order')).toBe(true);
    // a field added to records later is compared (generically, by key)
    expect(isTwin(s, { ...f, temperature: 2 } as AlgorithmRecord, 'order')).toBe(false);
    expect(differingFields(s, { ...f, temperature: 2 } as AlgorithmRecord)).toEqual(['order', 'temperature']);
    // GRPO and a batch-normalized GRPO: twins for normalization; REINFORCE ignores clip and epochs
    expect(isTwin(rec('grpo'), rec('grpo', { normalization: 'batch' }, 'g2'), 'normalization')).toBe(true);
    expect(isTwin(rec('grpo'), rec('grpo', { normalization: 'batch', clip: 0.1 }, 'g2'), 'normalization')).toBe(false);
    expect(isTwin(rec('reinforce'), rec('reinforce', { normalization: 'group', clip: 0.1, epochs: 9 }, 'r2'), 'normalization')).toBe(true);
    // different scheduled clip changes break twins when the rule reads clip
    expect(isTwin(s, f, 'order', ['3:0.1', ''])).toBe(false);
    expect(isTwin(rec('reinforce'), rec('reinforce', { normalization: 'group' }, 'r2'), 'normalization', ['3:0.1', ''])).toBe(true);
  });
});

describe('claim 1: GRAE-REINFORCE reaches J* when undiscounted', () => {
  it('observed: every seed of every GR algorithm at J*', () => {
    const c = claimOf(1, input([rec('reinforce'), rec('rloo'), rec('grpo')], [four(reach), four(reach), four(stuck)]));
    expect(c).toMatchObject({ claim: 1, verdict: 'observed', reason: 'REINFORCE reached J* in 4/4 seeds, RLOO in 4/4 seeds.' });
    expect(c.evidence.algorithms.map((a) => a.id)).toEqual(['reinforce', 'rloo']);
  });

  it('at J* is final J ≥ J* − 0.01: 0.99 is, 0.989 is not (and it is stuck there)', () => {
    expect(claimOf(1, input([rec('reinforce')], [[stuck(0.99)]])).verdict).toBe('observed');
    expect(claimOf(1, input([rec('reinforce')], [[stuck(0.989)]])).verdict).toBe('not observed');
  });

  it('not observed: a seed is stuck', () => {
    const c = claimOf(1, input([rec('reinforce')], [[reach(), stuck(), stuck(0.32), rising()]]));
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toBe('REINFORCE stayed stuck below J* in 2/4 seeds (final J 0.31 ± 0.13).');
  });

  it('undecided: no seed stuck, some still improving', () => {
    const c = claimOf(1, input([rec('reinforce')], [[reach(), reach(), reach(), rising()]]));
    expect(c).toMatchObject({ verdict: 'undecided', reason: 'Undecided: 1/4 seeds of REINFORCE is still improving; run longer.' });
  });

  it('undecided while streaming: fewer than w + 1 values cannot be stalled', () => {
    const c = claimOf(1, input([rec('reinforce')], [[stuck().slice(0, 10), reach().slice(0, 10)]]));
    expect(c.verdict).toBe('undecided');
    expect(c.evidence.algorithms[0].stuck).toBe(0);
    // stuck() is flat from iteration 5: J_15 = J_5 (16 values) is stalled, J_14 ≠ J_4 (15 values) is not
    expect(claimOf(1, input([rec('reinforce')], [[stuck().slice(0, 16)]])).verdict).toBe('not observed');
    expect(claimOf(1, input([rec('reinforce')], [[stuck().slice(0, 15)]])).verdict).toBe('undecided');
  });

  it('not testable: no GR algorithm', () => {
    const c = claimOf(1, input([rec('grpo'), rec('reinforce', { advantage: 'gae' }, 'reinforce-gae')], [four(reach), four(reach)]));
    expect(c).toMatchObject({ verdict: 'not testable', reason: 'Not testable here: the experiment has no GRAE-REINFORCE algorithm (rule reinforce with advantage grae or rloo).' });
    expect(c.evidence.algorithms).toEqual([]);
  });

  it('not testable when γ ≠ 1, with GR share as evidence', () => {
    const c = claimOf(1, input([rec('reinforce')], [[reach(), stuck(), stuck(), stuck()]], { gamma: 0.9 }));
    expect(c.verdict).toBe('not testable');
    expect(c.reason).toContain('γ = 0.9');
    expect(c.reason).toContain('at J*: REINFORCE 1/4 seeds');
    expect(c.evidence.algorithms[0].atJstar).toBe(1);
  });
});

describe('claim 2: PPO with GRAE can decrease J', () => {
  it('observed: a seed of a token-ratio PG algorithm drops (REV beside it)', () => {
    const c = claimOf(2, input([rec('ppo-grae'), rec('seeupo')], [[reach(), oneDrop(), reach(), reach()], four(reach)]));
    expect(c.verdict).toBe('observed');
    expect(c.reason).toBe("PPO+GRAE's J dropped 1 time in 1/4 seeds (largest drop 0.010); beside it, SeeUPO had no drop in 4 seeds.");
    expect(c.evidence.algorithms[0]).toMatchObject({ id: 'ppo-grae', drops: 1, seedsWithDrops: 1 });
    expect((c.evidence.rev as { id: string; drops: number }[])[0]).toMatchObject({ id: 'seeupo', drops: 0 });
  });

  it('a fall below the tolerance 1e-6·R range is not a drop', () => {
    const J = [0.1, 0.5, 0.5 - 0.9e-6, ...Array(N - 2).fill(1)];
    expect(claimOf(2, input([rec('grpo')], [[J]])).verdict).toBe('not observed');
    expect(claimOf(2, input([rec('grpo')], [[J]], { rewardRange: 0.5 })).verdict).toBe('observed'); // tolerance 5e-7
  });

  it('not observed: no drop and every seed settled', () => {
    const c = claimOf(2, input([rec('grpo')], [[reach(), stuck(), reach(), stuck()]]));
    expect(c).toMatchObject({ verdict: 'not observed', reason: 'No drop of J in GRPO (4 seeds), and every seed has settled.' });
  });

  it('undecided: no drop so far, a seed still moving', () => {
    const c = claimOf(2, input([rec('grpo')], [[reach(), rising(), reach(), reach()]]));
    expect(c).toMatchObject({ verdict: 'undecided', reason: 'Undecided: no drop of J so far, but 1/4 seeds of GRPO is still improving; run longer.' });
  });

  it('not testable: sampled mode, Monte-Carlo J, or no PG algorithm with token ratios', () => {
    const algos = [rec('grpo')];
    const sampled = claimOf(2, input(algos, [[oneDrop()]], { mode: 'sampled' }));
    expect(sampled).toMatchObject({ verdict: 'not testable', reason: 'Not testable here: in sampled mode a drop may be sampling noise (drop-based checks need exact updates).' });
    expect(sampled.evidence.algorithms[0].drops).toBe(1); // J is exact: the drop is still counted as evidence
    const mc = claimOf(2, input(algos, [[oneDrop()]], { jIsEstimate: true }));
    expect(mc.verdict).toBe('not testable');
    expect(mc.reason).toContain('Monte-Carlo');
    expect(mc.evidence.algorithms[0].drops).toBe(0); // no drops are counted on a Monte-Carlo J (§7)
    const gspo = claimOf(2, input([rec('gspo'), rec('ppo-gae')], [[oneDrop()], [oneDrop()]]));
    expect(gspo.verdict).toBe('not testable');
    expect(gspo.reason).toContain('no PPO-style algorithm with GRAE and token ratios');
  });
});

describe('claim 3: critic-free methods can miss J* where reverse-order SeeUPO reaches it', () => {
  it('observed: the same seed index stuck for CF and at J* for REV', () => {
    const c = claimOf(3, input([rec('grpo'), rec('seeupo')], [[stuck(), stuck(), reach(), reach()], four(reach)]));
    expect(c.verdict).toBe('observed');
    expect(c.reason).toBe('GRPO stayed stuck below J* in 2/4 seeds (final J 0.30 ± 0.00) while SeeUPO reached it in the same seeds.');
    expect(c.evidence.seedIndices).toEqual([0, 1]);
    expect(c.evidence.cfStuck).toEqual([{ id: 'grpo', seedIndices: [0, 1] }]);
    expect(c.evidence.revAtJstar).toEqual([{ id: 'seeupo', seedIndices: [0, 1, 2, 3] }]);
  });

  it('seeds are matched by seed index, not position', () => {
    // GRPO runs seeds 5 and 7 (stuck in 5); SeeUPO runs 7 and 5 (at J* in 7 only)
    const i = input([rec('grpo'), rec('seeupo')], [[stuck(), reach()], [reach(), stuck()]], { seedIndices: [[5, 7], [7, 5]] });
    const c = claimOf(3, i);
    expect(c.verdict).toBe('undecided');
    expect(c.reason).toBe('Undecided: GRPO is stuck in seed 5, but SeeUPO did not reach J* there either; every seed has settled, so running longer will not decide it.');
    const i2 = input([rec('grpo'), rec('seeupo')], [[stuck(), reach()], [stuck(), reach()]], { seedIndices: [[5, 7], [7, 5]] });
    expect(claimOf(3, i2)).toMatchObject({ verdict: 'observed', evidence: { seedIndices: [5] } });
  });

  it('partial overlap names the seeds', () => {
    const c = claimOf(3, input([rec('reinforce'), rec('seeupo')], [[stuck(), stuck(), reach()], [reach(), stuck(), reach()]]));
    expect(c.reason).toBe('REINFORCE stayed stuck below J* in 2/3 seeds (final J 0.30 ± 0.00) while SeeUPO reached it in 1 of those seeds (0).');
  });

  it('not observed: every CF seed at J*', () => {
    const c = claimOf(3, input([rec('grpo'), rec('reinforce'), rec('seeupo')], [four(reach), four(reach), four(stuck)]));
    expect(c).toMatchObject({ verdict: 'not observed', reason: 'GRPO reached J* in 4/4 seeds, REINFORCE in 4/4 seeds: no critic-free method missed it.' });
  });

  it('undecided: a CF seed still moving', () => {
    const c = claimOf(3, input([rec('grpo'), rec('seeupo')], [[reach(), rising()], [reach(), reach()]]));
    expect(c).toMatchObject({ verdict: 'undecided', reason: 'Undecided: 1/2 seeds of GRPO is still improving; run longer.' });
  });

  it('not testable: no CF, or no REV (forward order, no M correction, group normalization)', () => {
    expect(claimOf(3, input([rec('seeupo')], [four(reach)])).reason).toContain('no critic-free simultaneous algorithm');
    const noRev = input(
      [rec('grpo'), rec('seeupo-forward'), rec('seeupo', { mCorrection: false }, 's1'), rec('seeupo', { normalization: 'group' }, 's2')],
      [four(stuck), four(reach), four(reach), four(reach)],
    );
    const c = claimOf(3, noRev);
    expect(c.verdict).toBe('not testable');
    expect(c.reason).toContain('no reverse-order SeeUPO');
  });
});

describe('claim 4: reverse-order SeeUPO improves monotonically and reaches J*; other orders need not', () => {
  const parts = (c: Claim) => Object.fromEntries((c.parts ?? []).map((p) => [p.part, p.verdict]));

  it('observed: no drops, every seed at J*, a forward twin with a lower share', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward')], [four(reach), [reach(), stuck(), reach(), reach()]]));
    expect(parts(c)).toEqual({ a: 'observed', b: 'observed', c: 'observed' });
    expect(c.verdict).toBe('observed');
    expect(c.parts?.[2].reason).toBe(
      'SeeUPO (forward), in forward order but otherwise equal to SeeUPO, did worse (a lower share at J*): J* in 3/4 seeds vs 4/4 seeds, median iterations to 95% 10 vs 10.',
    );
    expect(c.evidence.twins).toEqual([{ rev: 'seeupo', twin: 'seeupo-forward', field: 'order', values: ['reverse', 'forward'], verdict: 'observed' }]);
    expect(c.evidence.algorithms.map((a) => a.id)).toEqual(['seeupo', 'seeupo-forward']);
  });

  it('4c: slower means a median t95 ≥ 1.5× REV\'s and ≥ 3 more (boundary)', () => {
    // t95 of reach(at) = ⌈0.95·at⌉: reach(6) → 6; reach(9) → 9 (≥ 1.5·6 and ≥ 6 + 3); reach(8) → 8
    const c4 = (twinAt: number) => claimOf(4, input([rec('seeupo'), rec('seeupo-random')], [four(() => reach(6)), four(() => reach(twinAt))])).parts![2];
    expect(c4(9).verdict).toBe('observed');
    expect(c4(9).reason).toContain('did worse (slower)');
    expect(c4(8).verdict).toBe('not observed');
    // REV 2 → 3 ≥ 1.5·2 but not ≥ 2 + 3
    expect(claimOf(4, input([rec('seeupo'), rec('seeupo-random')], [four(() => reach(2)), four(() => reach(3))])).parts![2].verdict).toBe('not observed');
  });

  it('4c: twin never reaching 95% is slower; both never reaching is not', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward')], [four(reach), four(() => stuck(0.9))]));
    expect(c.evidence.algorithms[1].t95).toBeNull();
    expect(c.parts![2].verdict).toBe('observed'); // lower share, and ∞ ≥ 1.5·10
    const both = claimOf(4, input([rec('seeupo'), rec('seeupo-forward')], [four(stuck), four(stuck)]));
    expect(both.parts![2].verdict).toBe('not observed');
    expect(both.parts![2].reason).toContain('median iterations to 95% never vs never');
  });

  it('not observed: a drop (part a), and (c) not observed when the twin does as well', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward')], [[reach(), oneDrop(), reach(), reach()], four(reach)]));
    expect(parts(c)).toEqual({ a: 'not observed', b: 'observed', c: 'not observed' });
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toBe("Part (a) not observed: SeeUPO's J dropped 1 time in 1/4 seeds.");
  });

  it('not observed: a REV seed stuck (part b)', () => {
    const c = claimOf(4, input([rec('seeupo')], [[reach(), stuck(), reach(), reach()]]));
    expect(parts(c)).toEqual({ a: 'observed', b: 'not observed', c: 'not testable' });
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toBe('Part (b) not observed: SeeUPO stayed stuck below J* in 1/4 seeds (final J 0.30 (1 seed)).');
  });

  it('undecided: (b) still moving; (c) not testable without a twin', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward', { epochs: 2 })], [[reach(), rising()], four(stuck)]));
    expect(parts(c)).toEqual({ a: 'observed', b: 'undecided', c: 'not testable' });
    expect(c.verdict).toBe('undecided');
    expect(c.parts![2].reason).toBe('Not testable here: no algorithm equals SeeUPO in every field but order (a forward- or random-order twin).');
    expect(c.reason).toContain('(a) observed, (b) undecided, (c) not testable');
  });

  it('undecided in sampled mode even when (b) and (c) are observed: (a) is not testable', () => {
    const c = claimOf(4, input([rec('seeupo'), rec('seeupo-forward')], [four(reach), four(stuck)], { mode: 'sampled' }));
    expect(parts(c)).toEqual({ a: 'not testable', b: 'observed', c: 'observed' });
    expect(c.verdict).toBe('undecided');
  });

  it('not testable: no REV algorithm (all parts)', () => {
    const c = claimOf(4, input([rec('seeupo-forward'), rec('grpo')], [four(reach), four(reach)]));
    expect(c.verdict).toBe('not testable');
    expect(parts(c)).toEqual({ a: 'not testable', b: 'not testable', c: 'not testable' });
  });

  it('several twins: observed if any is', () => {
    const i = input([rec('seeupo'), rec('seeupo-forward'), rec('seeupo-random')], [four(() => reach(6)), four(() => reach(6)), four(() => reach(20))]);
    const c = claimOf(4, i);
    expect(c.parts![2].verdict).toBe('observed');
    expect((c.evidence.twins as { twin: string; verdict: string }[]).map((t) => [t.twin, t.verdict])).toEqual([
      ['seeupo-forward', 'not observed'],
      ['seeupo-random', 'observed'],
    ]);
    expect(c.parts![2].reason).toMatch(/^SeeUPO \(random\)/); // only the pair that decided it
  });

  it('twins with different scheduled clip changes are not twins', () => {
    const i = input([rec('seeupo'), rec('seeupo-forward')], [four(reach), four(stuck)], { changes: [{ at: 5, path: 'algorithms[1].clip', value: 0.1 }] });
    expect(claimOf(4, i).parts![2].verdict).toBe('not testable');
    const lr = input([rec('seeupo'), rec('seeupo-forward')], [four(reach), four(stuck)], { changes: [{ at: 5, path: 'optimizer.lr', value: 0.1 }] });
    expect(claimOf(4, lr).parts![2].verdict).toBe('observed');
  });
});

describe('claim 5: group normalization moves where training ends', () => {
  const g = () => rec('grpo');
  const b = () => rec('grpo', { normalization: 'batch' }, 'grpo-batch');

  it('observed: shares differ by ≥ 0.25 with every seed settled', () => {
    const c = claimOf(5, input([g(), b()], [[reach(), stuck(), stuck(), reach()], four(reach)]));
    expect(c.verdict).toBe('observed');
    expect(c.reason).toBe('Training ended in different places: GRPO (group) vs grpo-batch (batch): J* in 2/4 seeds vs 4/4 seeds, final J 0.65 ± 0.64 vs 1.00 ± 0.00.');
    expect(c.evidence.pairs).toEqual([
      { group: 'grpo', other: 'grpo-batch', field: 'normalization', values: ['group', 'batch'], verdict: 'observed', shareDiff: 0.5, meanDiff: expect.closeTo(0.35, 12), intervalsApart: false },
    ]);
  });

  it('share difference boundary: exactly 0.25 is enough', () => {
    expect(claimOf(5, input([g(), b()], [[stuck(), reach(), reach(), reach()], four(reach)])).verdict).toBe('observed');
  });

  it('observed: means ≥ 0.01 apart with non-overlapping intervals (one seed: its value)', () => {
    expect(claimOf(5, input([g(), b()], [four(() => stuck(0.3)), four(() => stuck(0.5))])).verdict).toBe('observed');
    expect(claimOf(5, input([g(), b()], [[stuck(0.3)], [stuck(0.31)]])).verdict).toBe('observed');
    expect(claimOf(5, input([g(), b()], [[stuck(0.3)], [stuck(0.309)]])).verdict).toBe('not observed'); // < 0.01
  });

  it('not observed: both settled, same share, overlapping intervals', () => {
    const c = claimOf(5, input([g(), b()], [[stuck(0.3), stuck(0.5)], [stuck(0.31), stuck(0.52)]]));
    expect(c.verdict).toBe('not observed');
    expect(c.reason).toMatch(/^Every seed has settled and training ended in the same place: GRPO \(group\) vs grpo-batch \(batch\)/);
  });

  it('undecided: a seed of either still moving', () => {
    const c = claimOf(5, input([g(), b()], [four(stuck), [reach(), reach(), reach(), rising()]]));
    expect(c).toMatchObject({ verdict: 'undecided', reason: 'Undecided: 1/4 seeds of grpo-batch is still improving; run longer.' });
  });

  it('not testable: no pair of twins for normalization', () => {
    const c = claimOf(5, input([g(), rec('grpo', { normalization: 'batch', epochs: 2 }, 'g2'), rec('seeupo')], [four(reach), four(stuck), four(reach)]));
    expect(c).toMatchObject({ verdict: 'not testable', reason: 'Not testable here: no two algorithms differ only in normalization (one group, the other batch or none).' });
  });

  it('not testable with one context and batch: group and batch coincide', () => {
    const c = claimOf(5, input([g(), b()], [four(stuck), four(reach)], { contexts: 1 }));
    expect(c.verdict).toBe('not testable');
    expect(c.reason).toBe(
      'Not testable here: with one context, group and batch normalization coincide exactly (GRPO and grpo-batch compare them); the difference needs several contexts.',
    );
    // with one context, group vs none is still a comparison
    const none = rec('grpo', { normalization: 'none' }, 'grpo-none');
    expect(claimOf(5, input([g(), b(), none], [four(stuck), four(reach), four(reach)], { contexts: 1 })).verdict).toBe('observed');
  });

  it('several pairs: observed if any is, else undecided if any is', () => {
    const none = rec('grpo', { normalization: 'none' }, 'grpo-none');
    const obs = claimOf(5, input([g(), b(), none], [four(reach), four(reach), four(stuck)]));
    expect(obs.verdict).toBe('observed');
    expect((obs.evidence.pairs as { verdict: string }[]).map((p) => p.verdict)).toEqual(['not observed', 'observed']);
    const und = claimOf(5, input([g(), b(), none], [four(reach), four(reach), four(rising)]));
    expect((und.evidence.pairs as { verdict: string }[]).map((p) => p.verdict)).toEqual(['not observed', 'undecided']);
    expect(und.verdict).toBe('undecided');
  });
});

describe('computeClaims', () => {
  it('always five claims in order, rules version 1', () => {
    expect(CLAIMS_RULES).toBe(1);
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
    for (const c of back as Claim[])
      for (const a of c.evidence.algorithms) {
        for (const k of ['seeds', 'atJstar', 'stuck', 'settled', 'drops', 'seedsWithDrops', 'diverged'] as const) expect(typeof a[k], `${c.claim} ${a.id}.${k}`).toBe('number');
        expect(a.t95 === null || typeof a.t95 === 'number').toBe(true);
        if (a.finalJ.mean === null) expect([a.finalJ.lo, a.finalJ.hi]).toEqual([null, null]);
      }
    const r = cs[0].evidence.algorithms[0];
    expect(r).toMatchObject({ seeds: 3, diverged: 1, atJstar: 1, stuck: 1, settled: 2 });
    expect(cs[2].evidence.algorithms.find((a) => a.id === 'grpo')?.t95).toBeNull();
  });
});

describe('claimsInputOf', () => {
  const exp = resolveConfig({ version: 1, env: { preset: 'lock' }, mode: 'exact', seeds: 2, iterations: N, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] });
  const series = (curves: number[][][]) =>
    curves.flatMap((seeds, ai) =>
      seeds.map((J, si) => {
        const s = makeRunSeries(exp, ai, si);
        J.forEach((v, k) => (s.J[k] = v));
        return s;
      }),
    );

  it('takes the experiment and series (seed order, mode, γ, contexts, R range)', () => {
    const i = claimsInputOf(exp, 1, series([[stuck(), reach()], [reach(), reach()]]));
    expect(i).toMatchObject({ mode: 'exact', jIsEstimate: false, gamma: 1, contexts: 1, iterations: N, Jstar: 1, rewardRange: 1 });
    expect(i.runs.map((r) => r.map((x) => x.seedIndex))).toEqual([[0, 1], [0, 1]]);
    expect(claimOf(3, i).verdict).toBe('observed');
  });

  it('truncates at upTo: a run that stalls later is still moving earlier, a later divergence is ignored', () => {
    const s = series([[stuck(), stuck()], [reach(30), reach(30)]]);
    s[1].diverged = 35;
    const early = claimsInputOf(exp, 1, s, { upTo: 12 });
    expect(early.runs[0][0].J.length).toBe(13);
    expect(early.runs[0][1].diverged).toBeNull();
    expect(claimOf(3, early).verdict).toBe('undecided'); // SeeUPO not at J* yet and still rising
    expect(claimsInputOf(exp, 1, s).runs[0][1].diverged).toBe(35);
    // iterations not reached yet (NaN) end the values: 4 values → nothing stalled
    const streaming = series([[stuck().slice(0, 4), stuck().slice(0, 4)], [reach().slice(0, 4), reach().slice(0, 4)]]);
    expect(claimOf(3, claimsInputOf(exp, 1, streaming)).evidence.cfStuck).toEqual([{ id: 'grpo', seedIndices: [] }]);
    expect(claimOf(3, claimsInputOf(exp, 1, streaming)).verdict).toBe('undecided');
  });
});
