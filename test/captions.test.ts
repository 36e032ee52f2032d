import { describe, expect, it } from 'vitest';
import { captionParts, captions, clusterValues, summarizeLive, type LiveSummary } from '../src/core/metrics/captions';
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

describe('captions', () => {
  it('all seeds at J*: reached, monotonic improvement and global optimum observed', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }] });
    const { lines } = run(exp, [[rising(1, 3), rising(1, 3), rising(1, 4), rising(1, 3)]]);
    expect(lines).toEqual([
      'SeeUPO reached J* (within 0.01) in 4/4 seeds, 95% of the way after a median 3 iterations.',
      'Monotonic improvement: observed for SeeUPO (no drop of J in 4 seeds × 10 iterations).',
      'Global optimum: observed for SeeUPO (4/4 seeds within 0.01 of J* = 1.00).',
    ]);
  });

  it('a stalled cluster at a reward level of the table', () => {
    const exp = experiment({ algorithms: [{ id: 'grpo' }] });
    const { lines } = run(exp, [[rising(0.3, 2), rising(0.301, 2), rising(1, 6), rising(0.299, 2)]]);
    // the median over {6, ∞, ∞, ∞} is ∞: no "95% of the way" clause
    expect(lines).toEqual(['GRPO reached J* (within 0.01) in 1/4 seeds; stalled at J ≈ 0.30 (a reward level of the table) in 3/4 seeds; J* = 1.00.']);
  });

  it('a mixed case: at J*, a cluster off the reward levels, a lone seed', () => {
    const exp = experiment({ seeds: 5, algorithms: [{ id: 'ppo-grae' }] });
    const { lines } = run(exp, [[rising(1, 2), rising(0.5, 3), rising(1, 4), rising(0.52, 3), rising(0.7, 3)]]);
    expect(lines).toEqual([
      'PPO+GRAE reached J* (within 0.01) in 2/5 seeds; stalled at J ≈ 0.51 in 2/5 seeds; ended at J = 0.70 in 1/5 seeds; J* = 1.00.',
    ]);
  });

  it('global optimum not observed and partly observed', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }, { id: 'reinforce' }] });
    const { lines } = run(exp, [
      [rising(0.3, 2), rising(0.3, 2), rising(0.3, 2), rising(0.3, 2)],
      [rising(1, 5), rising(1, 5), rising(0.2, 2), rising(1, 5)],
    ]);
    expect(lines).toContain('Global optimum: not observed for SeeUPO (0/4 seeds within 0.01 of J* = 1.00; final J 0.30 ± 0.00).');
    expect(lines).toContain('Global optimum: partly observed for REINFORCE (3/4 seeds within 0.01 of J* = 1.00; final J 0.80 ± 0.64).');
  });

  it('counts monotonic-improvement violations, with the sampled-mode caveat', () => {
    const exp = experiment({ mode: 'sampled', seeds: 3, algorithms: [{ id: 'seeupo' }] });
    const a = [0.1, 0.4, 0.35, 0.6, 0.5, 0.9, 1, 1, 1, 1, 1]; // drops at 2 and 4
    const b = [0.1, 0.4, 0.6, 0.59, 0.9, 1, 1, 1, 1, 1, 1]; // drop at 3
    const c = rising(1, 5);
    const { summaries, lines } = run(exp, [[a, b, c]]);
    expect(summaries[0].summary.violations).toBe(3);
    expect(summaries[0].summary.seedsWithViolations).toBe(2);
    expect(lines).toContain(
      "Monotonic improvement: not observed for SeeUPO: J dropped 3 times in 2/3 seeds; in sampled mode drops can come from sampling noise (the paper's guarantee is for exact updates).",
    );
  });

  it('exact mode: no sampling caveat on a drop', () => {
    const exp = experiment({ seeds: 1, algorithms: [{ id: 'seeupo' }] });
    const { lines } = run(exp, [[[0.1, 0.5, 0.4, 1, 1, 1, 1, 1, 1, 1, 1]]]);
    expect(lines).toContain('Monotonic improvement: not observed for SeeUPO: J dropped 1 time in 1/1 seed.');
    // a single seed: no interval
    expect(lines[0]).toBe('SeeUPO reached J* (within 0.01) in 1/1 seed, 95% of the way after a median 3 iterations.');
  });

  it('a Monte-Carlo J: violations not checked', () => {
    const exp = experiment({ mode: 'sampled', seeds: 2, algorithms: [{ id: 'seeupo' }] });
    const a = [0.1, 0.4, 0.35, 0.6, 0.5, 0.9, 1, 1, 1, 1, 1];
    const { summaries, lines } = run(exp, [[a, a]], 10, { jIsEstimate: true });
    expect(summaries[0].jIsEstimate).toBe(true);
    expect(summaries[0].summary.violations).toBe(0);
    expect(lines).toContain('Monotonic improvement: not checked for SeeUPO (J is a Monte-Carlo estimate).');
    expect(lines.join(' ')).not.toContain('dropped');
  });

  it('a Monte-Carlo J is the default past the exact-enumeration limit', () => {
    const exp = resolveConfig({
      version: 1,
      env: { preset: 'lock', turns: 6, vocab: 8 },
      policy: { kind: 'mlp' },
      mode: 'sampled',
      seeds: 1,
      iterations: 2,
      algorithms: [{ id: 'seeupo' }],
    });
    expect(needsMonteCarlo(exp.env)).toBe(true);
    const s = summarizeLive(exp, JSTAR, series(exp, [[[0.1, 0.05, 0.2]]]), 2);
    expect(s[0].jIsEstimate).toBe(true);
    expect(s[0].summary.violations).toBe(0);
  });

  it('reverse order helped: medians and final intervals', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }, { id: 'seeupo-forward' }] });
    const { lines } = run(exp, [
      [rising(1, 3), rising(1, 3), rising(1, 3), rising(1, 3)],
      [rising(0.95, 8), rising(0.96, 8), rising(0.96, 8), rising(0.97, 8)],
    ]);
    // forward: mean 0.96, sd 0.008165, 95% half-width t₃·sd/2 = 0.0130
    expect(lines).toContain(
      'Reverse order helped here: SeeUPO reached 95% of the way to J* after a median 3 iterations vs 8 for SeeUPO (forward); final J 1.00 ± 0.00 vs 0.96 ± 0.01.',
    );
  });

  it('reverse order: no difference observed, and the fields that differ are named', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }, { id: 'seeupo-forward', epochs: 2 }] });
    const { lines } = run(exp, [
      [rising(1, 3), rising(1, 3), rising(1, 3), rising(1, 3)],
      [rising(1, 4), rising(1, 4), rising(1, 4), rising(1, 4)],
    ]);
    expect(lines).toContain(
      'Reverse order: no difference observed between SeeUPO and SeeUPO (forward) ' +
        '(final J 1.00 ± 0.00 vs 1.00 ± 0.00, intervals overlap; median iterations to 95% of the way to J*: 3 vs 4); the two also differ in epochs, not only in order.',
    );
  });

  it('reverse order did not help when the other order is higher', () => {
    const exp = experiment({ algorithms: [{ id: 'seeupo' }, { id: 'seeupo-random' }] });
    const { lines } = run(exp, [
      [rising(0.3, 2), rising(0.3, 2), rising(0.3, 2), rising(0.3, 2)],
      [rising(1, 5), rising(1, 5), rising(1, 5), rising(1, 5)],
    ]);
    expect(lines).toContain(
      'Reverse order did not help here: most SeeUPO seeds never reached 95% of the way to J*, while SeeUPO (random) did after a median 5 iterations; final J 0.30 ± 0.00 vs 1.00 ± 0.00.',
    );
  });

  it('in progress: "So far (iteration k of N):" and "is at" instead of "stalled at"', () => {
    const exp = experiment({ iterations: 200, algorithms: [{ id: 'grpo' }] });
    const curve = rising(0.3, 2, 200);
    const { summaries, lines } = run(exp, [[curve, curve, curve, curve]], 40);
    expect(lines[0]).toBe('So far (iteration 40 of 200): GRPO is at J ≈ 0.30 (a reward level of the table) in 4/4 seeds; J* = 1.00.');
    const parts = captionParts({ exp, Jstar: JSTAR }, summaries);
    expect(parts.prefix).toBe('So far (iteration 40 of 200):');
    expect(parts.sentences[0]).toBe('GRPO is at J ≈ 0.30 (a reward level of the table) in 4/4 seeds; J* = 1.00.');
  });

  it('finished runs carry no prefix', () => {
    const exp = experiment({ algorithms: [{ id: 'grpo' }] });
    const curve = rising(0.3, 2);
    const { lines } = run(exp, [[curve, curve, curve, curve]]);
    expect(lines[0]).toBe('GRPO stalled at J ≈ 0.30 (a reward level of the table) in 4/4 seeds; J* = 1.00.');
  });

  it('diverged seeds are named, and break monotonic improvement', () => {
    const exp = experiment({ seeds: 3, algorithms: [{ id: 'seeupo' }] });
    const runs = series(exp, [[rising(1, 3), rising(1, 3), [0.1, 0.3, 0.5, 0.6, 0.7]]]);
    runs[2].diverged = 5; // J[5] was not finite
    const summaries = summarizeLive(exp, JSTAR, runs, 10);
    expect(summaries[0].divergedSeeds).toBe(1);
    const lines = captions({ exp, Jstar: JSTAR }, summaries);
    expect(lines[0]).toBe('SeeUPO reached J* (within 0.01) in 2/3 seeds, 95% of the way after a median 3 iterations; diverged in 1/3 seeds; J* = 1.00.');
    expect(lines).toContain('Monotonic improvement: not observed for SeeUPO: diverged in 1/3 seeds.');
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
