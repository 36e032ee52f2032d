import { describe, expect, it } from 'vitest';
import { captionParts, captions, claimSentence, claimsInputOfLive, clusterValues, judgeLive, summarizeLive, type LiveSummary } from '../src/core/metrics/captions';
import { allTerms, claimsInputOf, computeClaims } from '../src/core/claims';
import { needsMonteCarlo, resolveConfig, type Experiment } from '../src/core/config/resolve';
import { makeRunSeries, type RunSeries } from '../src/core/run/series';

// The lock preset (3 turns, 3 tokens): rewards 0, 0.3 (safe exit) and 1 (the code); J* = 1.
const JSTAR = 1;

function experiment(over: Record<string, unknown>): Experiment {
  return resolveConfig({ version: 1, env: { preset: 'lock' }, mode: 'exact', seeds: 4, iterations: 10, ...over });
}

/** One series per (algorithm, seed) from J curves (shorter curves leave NaN after them); wallMs = 2 ms per reached iteration. */
function series(exp: Experiment, curves: number[][][]): RunSeries[] {
  const out: RunSeries[] = [];
  curves.forEach((seeds, ai) =>
    seeds.forEach((J, si) => {
      const s = makeRunSeries(exp, ai, si);
      J.forEach((v, k) => (s.J[k] = v));
      for (let k = 0; k + 1 < J.length && k < exp.iterations; k++) s.wallMs[k] = 2;
      out.push(s);
    }),
  );
  return out;
}

/** A rising curve from 0.1 that reaches `end` at iteration `at` and stays there (length iterations + 1). */
function rising(end: number, at: number, iterations = 10, start = 0.1): number[] {
  return Array.from({ length: iterations + 1 }, (_, k) => (k >= at ? end : start + ((end - start) * k) / at));
}

function run(exp: Experiment, curves: number[][][], iteration = exp.iterations, opts: { jIsEstimate?: boolean } = {}) {
  const summaries = summarizeLive(exp, JSTAR, series(exp, curves), iteration, opts);
  return { summaries, lines: captions({ exp, Jstar: JSTAR }, summaries) };
}

describe('summarizeLive', () => {
  it('summarizes each algorithm at the iteration, with wall time summed over seeds', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] });
    const { summaries } = run(exp, [
      [rising(1, 3), rising(1, 3), rising(1, 3), rising(1, 3)],
      [rising(0.3, 5), rising(0.3, 5), rising(1, 5), rising(0.3, 5)],
    ]);
    expect(summaries.map((s) => [s.id, s.label, s.seeds])).toEqual([
      ['seeupo', 'SeeUPO', 4],
      ['grpo', 'GRPO', 4],
    ]);
    expect(summaries[0].summary.finalJ.mean).toBe(1);
    expect(summaries[0].atOptimumSeeds).toBe(4);
    expect(summaries[0].summary.medianItersTo95).toBe(3);
    expect(summaries[1].atOptimumSeeds).toBe(1);
    expect(summaries[1].summary.finalJ.mean).toBeCloseTo((0.3 * 3 + 1) / 4, 12);
    expect(summaries[0].wallSeconds).toBeCloseTo((4 * 10 * 2) / 1000, 12);
  });

  it('no runs: no summaries, no captions', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }] });
    expect(summarizeLive(exp, JSTAR, [], 0)).toEqual([]);
    expect(captions({ exp, Jstar: JSTAR }, [])).toEqual([]);
  });

  it('iteration 0: nothing to say yet', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }] });
    const { lines } = run(exp, [[[0.1], [0.1], [0.1], [0.1]]], 0);
    expect(lines).toEqual([]);
  });

  it('truncates at the iteration: later values are ignored', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }] });
    const { summaries } = run(exp, [[rising(1, 8), rising(1, 8), rising(1, 8), rising(1, 8)]], 4);
    expect(summaries[0].iteration).toBe(4);
    expect(summaries[0].summary.finalJ.mean).toBeCloseTo(0.1 + (0.9 * 4) / 8, 12);
    expect(summaries[0].atOptimumSeeds).toBe(0);
    expect(summaries[0].wallSeconds).toBeCloseTo((4 * 4 * 2) / 1000, 12);
  });
});

describe('clusterValues', () => {
  it('takes the largest window within 0.02 first', () => {
    const c = clusterValues([0.3, 0.31, 0.29, 0.7, 0.5, 0.51]);
    expect(c.map((x) => x.count)).toEqual([3, 2, 1]);
    expect(c[0].value).toBeCloseTo(0.3, 12);
    expect(c[1].value).toBeCloseTo(0.505, 12);
    expect(c[2].value).toBe(0.7);
  });
});

// Claim sentences come from the claims engine (test/claims.test.ts checks its rules); here: which
// are shown, how, and that outcome sentences use §8's terms. With 40 iterations the stall window
// is w = 10: a curve flat over its last 10 iterations is stuck (or at J*).
const T = 40;
const flat = (end: number, at = 2) => rising(end, at, T);
const C4 = 'Claim 4 (SeeUPO in reverse order improves monotonically and reaches J*; forward or random order need not)';

describe('captions', () => {
  it('all seeds at J*: reached; claim 4 undecided without a twin (c), other claims not shown', () => {
    const exp = experiment({ iterations: T, algorithms: [{ id: 'seeupo' }] });
    const { lines } = run(exp, [[flat(1, 3), flat(1, 3), flat(1, 4), flat(1, 3)]]);
    expect(lines).toEqual([
      'SeeUPO reached J* (within 0.01) in 4/4 seeds, 95% of the way after a median 3 iterations.',
      // the guarantee (a and b) decides claim 4; (c) has a verdict of its own, not folded in
      `${C4}: observed — Monotone and at J*: (a) SeeUPO's J never dropped in 4 seeds; (b) SeeUPO reached J* in 4/4 seeds (95% interval 0.40–1.00).`,
    ]);
  });

  it('a stuck cluster at a reward level of the table; claim 2 not observed (no drop, all settled)', () => {
    const exp = experiment({ iterations: T, algorithms: [{ id: 'grpo' }] });
    const { lines } = run(exp, [[flat(0.3), flat(0.301), flat(1, 6), flat(0.299)]]);
    // the median over {6, ∞, ∞, ∞} is ∞: no "95% of the way" clause
    expect(lines).toEqual([
      'GRPO reached J* (within 0.01) in 1/4 seeds; stuck at J ≈ 0.30 (a reward level of the table) in 3/4 seeds; J* = 1.00.',
      "Claim 2 (PPO with GRAE can decrease J, where PPO with the true advantage would not): not observed — GRPO's J never dropped in 4 seeds, and every seed has settled.",
    ]);
  });

  it('a mixed case: at J*, a stuck cluster off the reward levels, a seed still improving', () => {
    const exp = experiment({ iterations: T, seeds: 5, algorithms: [{ id: 'ppo-grae' }] });
    const { lines } = run(exp, [[flat(1, 2), flat(0.5, 3), flat(0.7, 4), flat(0.52, 3), rising(0.7, T, T)]]);
    expect(lines[0]).toBe(
      'PPO+GRAE reached J* (within 0.01) in 1/5 seeds; stuck at J ≈ 0.51 in 2/5 seeds; stuck at J = 0.70 in 1/5 seeds; still improving at J ≈ 0.70 in 1/5 seeds; J* = 1.00.',
    );
    expect(lines[1]).toBe('Claim 2 (PPO with GRAE can decrease J, where PPO with the true advantage would not): undecided — no drop of J so far, but 1/5 seeds of PPO+GRAE is still improving; run longer.');
  });

  it('a finished run whose curves still rise is "still improving", not stalled', () => {
    const exp = experiment({ iterations: T, algorithms: [{ id: 'grpo' }] });
    const up = rising(0.6, T, T); // +0.0125 per iteration up to the end
    const { lines } = run(exp, [[up, up, up, up]]);
    expect(lines[0]).toBe('GRPO (its 4 seeds are identical: one curve, as exact mode from a uniform start has no randomness) still improving at J ≈ 0.60 in 4/4 seeds; J* = 1.00.');
    expect(lines.join(' ')).not.toMatch(/stuck|stalled/);
  });

  it('a curve that falls over the last w iterations is "still moving"', () => {
    const exp = experiment({ iterations: T, seeds: 1, algorithms: [{ id: 'grpo' }] });
    const down = Array.from({ length: T + 1 }, (_, k) => 0.8 - 0.01 * k);
    expect(run(exp, [[down]]).lines[0]).toBe('GRPO still moving at J ≈ 0.40 in 1/1 seed; J* = 1.00.');
  });

  it('in progress: fewer than w + 1 values is still improving; later the same plateau is stuck', () => {
    const exp = experiment({ iterations: 200, algorithms: [{ id: 'grpo' }] }); // w = 20
    const curve = rising(0.3, 2, 200);
    const early = run(exp, [[curve, curve, curve, curve]], 15);
    expect(early.lines[0]).toBe('So far (iteration 15 of 200): GRPO (its 4 seeds are identical: one curve, as exact mode from a uniform start has no randomness) still improving at J ≈ 0.30 (a reward level of the table) in 4/4 seeds; J* = 1.00.');
    expect(early.lines[1]).toBe('Claim 2 (PPO with GRAE can decrease J, where PPO with the true advantage would not): undecided — no drop of J so far, but 4/4 seeds of GRPO are still improving; run longer.');
    const { summaries, lines } = run(exp, [[curve, curve, curve, curve]], 40);
    expect(lines[0]).toBe('So far (iteration 40 of 200): GRPO (its 4 seeds are identical: one curve, as exact mode from a uniform start has no randomness) stuck at J ≈ 0.30 (a reward level of the table) in 4/4 seeds; J* = 1.00.');
    const parts = captionParts({ exp, Jstar: JSTAR }, summaries);
    expect(parts.prefix).toBe('So far (iteration 40 of 200):');
    expect(parts.sentences[0]).toBe('GRPO (its 4 seeds are identical: one curve, as exact mode from a uniform start has no randomness) stuck at J ≈ 0.30 (a reward level of the table) in 4/4 seeds; J* = 1.00.');
    expect(parts.claims?.map((c) => c.verdict)).toEqual(['not testable', 'not observed', 'not testable', 'not testable', 'not testable']);
  });

  // (the curves above are copies of one curve, as exact mode from a uniform start gives: the caption says so)
  it('finished runs carry no prefix', () => {
    const exp = experiment({ iterations: T, algorithms: [{ id: 'grpo' }] });
    const curve = flat(0.3);
    const { lines } = run(exp, [[curve, curve, curve, curve]]);
    expect(lines[0]).toBe('GRPO (its 4 seeds are identical: one curve, as exact mode from a uniform start has no randomness) stuck at J ≈ 0.30 (a reward level of the table) in 4/4 seeds; J* = 1.00.');
  });

  it('the claims of reverse order with a forward twin, and critic-free methods that miss J*', () => {
    const exp = experiment({ iterations: T, algorithms: [{ id: 'seeupo' }, { id: 'seeupo-forward' }, { id: 'grpo' }] });
    const { lines } = run(exp, [
      [flat(1, 3), flat(1, 3), flat(1, 3), flat(1, 3)],
      [flat(1, 12), flat(1, 12), flat(1, 12), flat(1, 12)],
      [flat(0.3), flat(0.3), flat(1, 5), flat(1, 5)],
    ]);
    expect(lines).toContain(
      `${C4}: observed — Monotone and at J*: (a) SeeUPO's J never dropped in 4 seeds; (b) SeeUPO reached J* in 4/4 seeds (95% interval 0.40–1.00).`,
    );
    // (c), the order effect, is claim 4's part c (its own verdict: the page shows it beside claim 4)
    const live = computeClaims(claimsInputOf(exp, JSTAR, series(exp, [
      [flat(1, 3), flat(1, 3), flat(1, 3), flat(1, 3)],
      [flat(1, 12), flat(1, 12), flat(1, 12), flat(1, 12)],
      [flat(0.3), flat(0.3), flat(1, 5), flat(1, 5)],
    ])));
    expect(live[3].parts![2]).toMatchObject({ verdict: 'observed', reason: expect.stringContaining('was clearly slower') });
    expect(lines).toContain(
      'Claim 3 (Critic-free simultaneous methods can miss J* where reverse-order SeeUPO reaches it): observed — GRPO did not reach J* in 40 iterations in 2/4 seeds (they stopped moving at J 0.30 ± 0.00, J* = 1.00), while SeeUPO, at the same learning rate 0.3 (they also differ in normalization: group vs batch), reached it in seeds 0, 1.',
    );
    expect(lines.join(' ')).toMatch(/[Rr]everse order/);
  });

  it('reverse order: the twin does as well: claim 4 observed (the guarantee), its part (c) not observed', () => {
    const exp = experiment({ iterations: T, algorithms: [{ id: 'seeupo' }, { id: 'seeupo-random' }] });
    const { lines } = run(exp, [
      [flat(1, 3), flat(1, 3), flat(1, 3), flat(1, 3)],
      [flat(1, 4), flat(1, 4), flat(1, 4), flat(1, 4)],
    ]);
    expect(lines.find((l) => l.startsWith('Claim 4'))).toMatch(/: observed — Monotone and at J\*/);
    const c = computeClaims(claimsInputOf(exp, JSTAR, series(exp, [
      [flat(1, 3), flat(1, 3), flat(1, 3), flat(1, 3)],
      [flat(1, 4), flat(1, 4), flat(1, 4), flat(1, 4)],
    ])))[3];
    expect(c.parts![2].verdict).toBe('not observed');
    expect(c.parts![2].reason).toBe(
      'SeeUPO (random), in random order but otherwise equal to SeeUPO, did about as well: at J* 4/4 seeds (95% interval 0.40–1.00) vs 4/4 seeds (95% interval 0.40–1.00), median iterations to 95% of the way 4 vs 3.',
    );
  });

  it('a forward order that differs in another field is no twin: nothing said about order', () => {
    const exp = experiment({ iterations: T, algorithms: [{ id: 'seeupo' }, { id: 'seeupo-forward', epochs: 2 }] });
    const { lines } = run(exp, [
      [flat(1, 3), flat(1, 3), flat(1, 3), flat(1, 3)],
      [flat(0.3), flat(0.3), flat(0.3), flat(0.3)],
    ]);
    const c = computeClaims(claimsInputOf(exp, JSTAR, series(exp, [
      [flat(1, 3), flat(1, 3), flat(1, 3), flat(1, 3)],
      [flat(0.3), flat(0.3), flat(0.3), flat(0.3)],
    ])))[3];
    expect(c.parts![2].verdict).toBe('not testable');
    expect(lines.find((l) => l.startsWith('Claim 4'))!.split(' — ')[1]).not.toMatch(/order/i);
  });

  it('exact mode: a drop of J makes claim 4 not observed', () => {
    const exp = experiment({ iterations: T, seeds: 1, algorithms: [{ id: 'seeupo' }] });
    const J = [0.1, 0.5, 0.4, ...Array(T - 2).fill(1)];
    const { lines } = run(exp, [[J]]);
    expect(lines[0]).toBe('SeeUPO reached J* (within 0.01) in 1/1 seed, 95% of the way after a median 3 iterations.');
    expect(lines).toContain(`${C4}: not observed — Part (a) not observed: J fell: SeeUPO had drops in 1/1 seed (1 in all; the largest, 0.10 at iteration 2 of seed 0: its KL was not stored).`);
  });

  it('sampled mode: drop-based parts are not testable (never "not observed" for a drop)', () => {
    const exp = experiment({ iterations: T, mode: 'sampled', seeds: 3, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] });
    const a = [0.1, 0.4, 0.35, 0.6, 0.5, 0.9, ...Array(T - 5).fill(1)]; // drops at 2 and 4
    const { summaries, lines } = run(exp, [[a, flat(1, 5), flat(1, 5)], [a, a, a]]);
    expect(summaries[0].summary.violations).toBe(2);
    // (a) is not testable, so claim 4 is (never "not observed" for a drop), and like claim 2 it is not shown beside testable ones
    const c4 = computeClaims(claimsInputOf(exp, JSTAR, series(exp, [[a, flat(1, 5), flat(1, 5)], [a, a, a]])))[3];
    expect(c4.verdict).toBe('not testable');
    expect(c4.parts!.map((p) => p.verdict)).toEqual(['not testable', 'observed', 'not testable']);
    expect(c4.reason).toContain('part (a), monotone improvement, is not testable: in sampled mode a drop may be sampling noise');
    expect(lines.find((l) => l.startsWith('Claim 2'))).toBeUndefined();
    expect(lines.find((l) => l.startsWith('Claim 4'))).toBeUndefined();
  });

  it('a Monte-Carlo J: no drops counted, drop-based parts not testable', () => {
    const exp = experiment({ iterations: T, mode: 'sampled', seeds: 2, algorithms: [{ id: 'seeupo' }] });
    const a = [0.1, 0.4, 0.35, 0.6, 0.5, 0.9, ...Array(T - 5).fill(1)];
    const { summaries, lines } = run(exp, [[a, a]], T, { jIsEstimate: true });
    expect(summaries[0].jIsEstimate).toBe(true);
    expect(summaries[0].summary.violations).toBe(0);
    expect(lines.find((l) => l.startsWith('Claim 4'))).toContain('part (a), monotone improvement, is not testable: J is a Monte-Carlo estimate');
    expect(lines.join(' ')).not.toContain('dropped');
  });

  it('nothing testable: every claim says what it lacks', () => {
    const exp = experiment({ iterations: T, algorithms: [{ id: 'seeupo-forward' }] });
    const { lines } = run(exp, [[flat(1, 3), flat(1, 3), flat(1, 3), flat(1, 3)]]);
    expect(lines.slice(1).map((l) => l.slice(0, 8))).toEqual(['Claim 1 ', 'Claim 2 ', 'Claim 3 ', 'Claim 4 ', 'Claim 5 ']);
    expect(lines[1]).toBe(
      'Claim 1 (GRAE-REINFORCE reaches J* when undiscounted): not testable here — the experiment has no GRAE-REINFORCE algorithm (rule reinforce with advantage grae or rloo).',
    );
  });

  it('the claims are those of the claims engine on the same runs', () => {
    const exp = experiment({ iterations: T, algorithms: [{ id: 'seeupo' }, { id: 'reinforce' }, { id: 'grpo' }] });
    const runs = series(exp, [
      [flat(1, 3), flat(1, 3), flat(0.3), flat(1, 3)],
      [flat(1, 5), flat(1, 5), rising(0.6, T, T), flat(1, 5)],
      [flat(0.3), flat(1, 5), flat(1, 5), flat(1, 5)],
    ]);
    for (const it of [12, T]) {
      const summaries = summarizeLive(exp, JSTAR, runs, it);
      const parts = captionParts({ exp, Jstar: JSTAR }, summaries);
      const claims = computeClaims(claimsInputOf(exp, JSTAR, runs, { upTo: it }));
      expect(parts.claims).toEqual(claims);
      for (const c of claims) if (c.verdict !== 'not testable') expect(parts.sentences).toContain(claimSentence(c));
    }
    const lines = captions({ exp, Jstar: JSTAR }, summarizeLive(exp, JSTAR, runs, T));
    expect(lines).toContain('Claim 1 (GRAE-REINFORCE reaches J* when undiscounted): undecided — 1/4 seeds of REINFORCE is still improving; run longer.');
    expect(lines[1]).toBe('REINFORCE reached J* (within 0.01) in 3/4 seeds, 95% of the way after a median 5 iterations; still improving at J ≈ 0.60 in 1/4 seeds; J* = 1.00.');
  });

  it('diverged seeds are named, and are stuck for the claims', () => {
    const exp = experiment({ iterations: T, seeds: 3, algorithms: [{ id: 'seeupo' }] });
    const runs = series(exp, [[flat(1, 3), flat(1, 3), [0.1, 0.3, 0.5, 0.6, 0.7]]]);
    runs[2].diverged = 5; // J[5] was not finite
    const summaries = summarizeLive(exp, JSTAR, runs, T);
    expect(summaries[0].divergedSeeds).toBe(1);
    const lines = captions({ exp, Jstar: JSTAR }, summaries);
    expect(summaries[0].summary.diverged).toEqual([null, null, 5]);
    expect(lines[0]).toBe('SeeUPO reached J* (within 0.01) in 2/3 seeds, 95% of the way after a median 3 iterations; diverged (at iteration 5) in 1/3 seeds; J* = 1.00.');
    expect(lines).toContain(
      `${C4}: not observed — Part (b) not observed: SeeUPO did not reach J* in 40 iterations in 1/3 seeds (1 of them diverged) — the claim is about the limit, so a finite run can only fail to show it.`,
    );
  });

  it('NaN everywhere (nothing reported) is said, not summarized', () => {
    const exp = experiment({ seeds: 2, algorithms: [{ id: 'seeupo' }] });
    const summaries: LiveSummary[] = summarizeLive(exp, JSTAR, series(exp, [[rising(1, 3), []]]), 10);
    expect(summaries[0].summary.finalJ.n).toBe(1);
    expect(captions({ exp, Jstar: JSTAR }, summaries)[0]).toBe(
      // the median of {3, ∞} is the lower one: 3
      'SeeUPO reached J* (within 0.01) in 1/2 seeds, 95% of the way after a median 3 iterations; has no J yet in 1/2 seeds; J* = 1.00.',
    );
  });
});

describe('judgeLive', () => {
  it('decides once per array of summaries, the same verdicts as the claims engine on a fresh input; the caption reads them', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] });
    const { summaries } = run(exp, [
      [rising(1, 3), rising(1, 3), rising(0.3, 4), rising(1, 3)],
      [rising(0.3, 5), [0.1, 0.5, 0.4, 0.6, 1, 1, 1, 1, 1, 1, 1], rising(1, 5), rising(0.3, 5)],
    ]);
    const judged = judgeLive(exp, JSTAR, summaries);
    expect(judgeLive(exp, JSTAR, summaries)).toBe(judged);
    expect(judged.claims).toEqual(computeClaims(claimsInputOfLive(exp, JSTAR, summaries)));
    expect(captionParts({ exp, Jstar: JSTAR }, summaries).claims).toBe(judged.claims);
    // another array of the same runs, another J* or another experiment: decided again
    const again = summarizeLive(exp, JSTAR, summaries.flatMap((s) => s.series), exp.iterations);
    expect(judgeLive(exp, JSTAR, again)).not.toBe(judged);
    expect(judgeLive(exp, JSTAR, again).claims).toEqual(judged.claims);
    expect(judgeLive(exp, 0.9, summaries)).not.toBe(judged);
    expect(judgeLive(exp, 0.9, summaries).claims).toEqual(computeClaims(claimsInputOfLive(exp, 0.9, summaries)));
  });

  it('computeClaims with the terms given gives what it computes without them', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }, { id: 'ppo-grae' }] });
    const { summaries } = run(exp, [[rising(1, 3), rising(0.3, 2)], [[0.1, 0.5, 0.4, 1], rising(1, 6)]]);
    const input = claimsInputOfLive(exp, JSTAR, summaries);
    expect(computeClaims(input, allTerms(input))).toEqual(computeClaims(input));
  });
});
