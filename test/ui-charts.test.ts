import { describe, expect, it } from 'vitest';
import { makeRunSeries, type RunSeries } from '../src/core/run/series';
import type { Live, TurnStep } from '../src/ui/live';
import { planExperiment, type Plan } from '../src/ui/plan';
import {
  axisAvailable,
  chartDomain,
  dropTolerance,
  GAP_FLOOR,
  gapSeries,
  logTicks,
  metricSeries,
  returnSeries,
  sampleIterations,
  seedLines,
  stepsPerIteration,
  turnHeatmap,
  turnUpdateText,
  viridis,
  xScale,
} from '../src/ui/charts/derive';

const CONFIG = { version: 1, env: { preset: 'lock' }, seeds: 3, iterations: 10, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] };
const T2 = 4.3026527; // t_{0.975, 2}

/** A Live for the plan with every run's arrays filled by `fill` (NaN elsewhere). */
function makeLive(plan: Plan, iteration: number, fill: (run: RunSeries, a: number, s: number) => void = () => {}): Live {
  const runs: RunSeries[] = [];
  for (let a = 0; a < plan.exp.algorithms.length; a++)
    for (let s = 0; s < plan.exp.seeds; s++) {
      const r = makeRunSeries(plan.exp, a, s);
      fill(r, a, s);
      runs.push(r);
    }
  return { runs, iteration, changes: [], startConfig: {} };
}

/** Seed s of every algorithm: J[k] = (base[s] + k) / 100, so J rises by 0.01 per iteration. */
const rising = (r: RunSeries, _a: number, s: number) => {
  for (let k = 0; k < r.J.length; k++) r.J[k] = ([20, 40, 90][s] + k) / 100;
};

describe('axes', () => {
  const plan = planExperiment(CONFIG, 1);

  it('maps iterations to optimizer steps per rule: grpo 4·1, seeupo 3 turns·4 epochs', () => {
    expect(xScale(plan.exp, 0, 'iterations')).toBe(1);
    expect(xScale(plan.exp, 0, 'steps')).toBe(4);
    expect(xScale(plan.exp, 1, 'steps')).toBe(12);
    expect(xScale(plan.exp, 0, 'rollouts')).toBe(plan.exp.env.contextsPerBatch * plan.exp.groupSize);
    expect(xScale(plan.exp, 0, 'rollouts')).toBe(8); // lock: 1 context, G = 8
  });

  it('counts steps per iteration by hand (minibatches count in sampled mode only)', () => {
    const configs = [
      CONFIG,
      { ...CONFIG, algorithms: [{ id: 'reinforce' }, { id: 'grpo', minibatches: 2, epochs: 3 }, { id: 'seeupo', minibatches: 4 }] },
      { ...CONFIG, mode: 'exact', algorithms: [{ id: 'rloo' }, { id: 'gspo', epochs: 2 }, { id: 'seeupo-forward' }] },
    ];
    // exact mode: rloo 1; gspo 2 epochs · 1 chunk; seeupo-forward 3 turns · 4 epochs · 1 chunk
    const exact = planExperiment(configs[2], 1);
    expect([0, 1, 2].map((a) => stepsPerIteration(exact.exp, a))).toEqual([1, 2, 12]);
    const p = planExperiment(configs[1], 1);
    expect([0, 1, 2].map((a) => xScale(p.exp, a, 'steps'))).toEqual([1, 6, 48]);
  });

  it('has no rollouts axis in exact mode and falls back to iterations', () => {
    expect(axisAvailable(plan.exp, 'rollouts')).toBeNull();
    const exact = planExperiment({ ...CONFIG, mode: 'exact' }, 1);
    expect(axisAvailable(exact.exp, 'rollouts')).toBe('exact mode samples no rollouts: it weights every sequence by its probability');
    expect(axisAvailable(exact.exp, 'steps')).toBeNull();
    expect(xScale(exact.exp, 0, 'rollouts')).toBe(1);
    const r = returnSeries(exact, makeLive(exact, 2, rising), 'rollouts')!;
    expect(r.axis).toBe('iterations');
    expect(r.algorithms[0].points.map((p) => p.x)).toEqual([0, 1, 2]);
  });
});

describe('sampleIterations', () => {
  it('keeps every iteration while they fit', () => {
    expect(sampleIterations(0)).toEqual([0]);
    expect(sampleIterations(10, 300)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(sampleIterations(10, 11)).toHaveLength(11);
  });

  it('decimates on a power-of-two stride, with both endpoints, at most maxPoints', () => {
    const a = sampleIterations(1000, 300); // stride 4: 251 points
    expect(a).toHaveLength(251);
    expect(a.slice(0, 3)).toEqual([0, 4, 8]);
    expect(a[a.length - 1]).toBe(1000);
    const b = sampleIterations(1001, 300);
    expect(b).toHaveLength(252);
    expect(b.slice(-2)).toEqual([1000, 1001]);
    expect(sampleIterations(10, 3)).toEqual([0, 8, 10]);
    expect(sampleIterations(10, 2)).toEqual([0, 10]);
    for (const n of [1, 2, 7, 299, 300, 301, 4095, 100_000])
      for (const m of [2, 3, 50, 300]) {
        const ks = sampleIterations(n, m);
        expect(ks[0]).toBe(0);
        expect(ks[ks.length - 1]).toBe(n);
        expect(ks.length).toBeLessThanOrEqual(m);
        for (let i = 1; i < ks.length; i++) expect(ks[i]).toBeGreaterThan(ks[i - 1]);
      }
  });
});

describe('returnSeries', () => {
  const plan = planExperiment(CONFIG, 1);

  it('is empty without runs and has one point at iteration 0', () => {
    const none = returnSeries(plan, null, 'iterations')!;
    expect(none.algorithms.map((a) => a.points)).toEqual([[], []]);
    expect(returnSeries(null, null, 'iterations')).toBeNull();
    const zero = returnSeries(plan, makeLive(plan, 0, rising), 'iterations')!;
    expect(zero.algorithms[0].points).toHaveLength(1);
    expect(zero.algorithms[0].points[0].mean).toBeCloseTo(0.5, 12);
    expect(zero.algorithms[0].markers).toEqual([]);
    expect(zero.Jstar).toBe(1);
    expect(zero.domain).toEqual([0, 1]);
  });

  it('draws the mean with the 95% t-interval over 3 seeds', () => {
    const r = returnSeries(plan, makeLive(plan, 10, rising), 'iterations')!;
    // at iteration 5 the seeds are 0.25, 0.45, 0.95: mean 0.55, sample variance 0.13
    const p = r.algorithms[0].points[5];
    const half = T2 * Math.sqrt(0.13 / 3);
    expect(p.k).toBe(5);
    expect(p.n).toBe(3);
    expect(p.mean).toBeCloseTo(0.55, 12);
    expect(p.lo).toBeCloseTo(0.55 - half, 6);
    expect(p.hi).toBeCloseTo(0.55 + half, 6);
    expect(p.band![0]).toBeCloseTo(0.55 - half, 6);
    expect(p.band![1]).toBeCloseTo(0.55 + half, 6);
    expect(r.algorithms.every((a) => a.markers.length === 0)).toBe(true);
  });

  it('puts x on the steps axis per algorithm', () => {
    const r = returnSeries(plan, makeLive(plan, 10, rising), 'steps')!;
    expect(r.algorithms[0].points[10].x).toBe(40);
    expect(r.algorithms[1].points[10].x).toBe(120);
    const ro = returnSeries(plan, makeLive(plan, 10, rising), 'rollouts')!;
    expect(ro.algorithms[1].points[3].x).toBe(24);
  });

  it('gives a single seed a zero-width band', () => {
    const one = planExperiment({ ...CONFIG, seeds: 1 }, 1);
    const p = returnSeries(one, makeLive(one, 4, rising), 'iterations')!.algorithms[1].points[4];
    expect(p).toMatchObject({ mean: 0.24, lo: 0.24, hi: 0.24, band: [0.24, 0.24], n: 1 });
  });

  it('skips NaN seeds (diverged) and says how many seeds a point averages', () => {
    const live = makeLive(plan, 10, (r, a, s) => {
      rising(r, a, s);
      if (s === 1) { r.J.fill(NaN, 4); r.diverged = 4; }
      if (a === 1) r.J.fill(NaN, 6);
    });
    const r = returnSeries(plan, live, 'iterations')!;
    expect(r.algorithms[0].points[3].n).toBe(3);
    const p = r.algorithms[0].points[4]; // seeds 0.24 and 0.94
    expect(p.n).toBe(2);
    expect(p.mean).toBeCloseTo(0.59, 12);
    expect(p.hi! - p.mean!).toBeCloseTo(12.7062047 * Math.sqrt(0.245 / 2), 6);
    expect(r.algorithms[1].points[6]).toMatchObject({ mean: null, band: null, n: 0 });
    expect(r.algorithms.every((a) => a.markers.length === 0)).toBe(true);
  });

  it('marks violations where a seed\'s J dropped, counting seeds', () => {
    const drops = (r: RunSeries, a: number, s: number) => {
      rising(r, a, s);
      if (a !== 0) return;
      if (s === 0) r.J[3] = 0.1; // 0.22 → 0.10: a drop at 3 (and the rise at 4 is none)
      if (s === 2) { r.J[3] = 0.5; r.J[7] = 0.5; } // 0.92 → 0.50 at 3, 0.96 → 0.50 at 7
      if (s === 1) r.J[5] = r.J[4] - 1e-9; // below the tolerance 1e-6 · (1 − 0): not a violation
    };
    const live = makeLive(plan, 5, drops);
    const early = returnSeries(plan, live, 'iterations')!;
    expect(early.algorithms[0].markers.map((m) => [m.k, m.seeds, m.drops])).toEqual([[3, 2, 2]]);
    expect(early.algorithms[0].markers[0].y).toBeCloseTo((0.1 + 0.43 + 0.5) / 3, 12);
    live.iteration = 10; // the scan picks up where it stopped
    const r = returnSeries(plan, live, 'steps')!;
    expect(r.algorithms[0].markers.map((m) => [m.k, m.x, m.seeds, m.drops])).toEqual([[3, 12, 2, 2], [7, 28, 1, 1]]);
    expect(r.algorithms[1].markers).toEqual([]);
    // decimated to iterations 0, 8, 10: both drops fall in the bucket (0, 8], from seeds 0 and 2
    const coarse = returnSeries(plan, makeLive(plan, 10, drops), 'iterations', 3)!;
    expect(coarse.algorithms[0].points.map((p) => p.k)).toEqual([0, 8, 10]);
    expect(coarse.algorithms[0].markers).toMatchObject([{ k: 8, from: 1, to: 8, seeds: 2, drops: 3 }]);
    // markers on their own coarser grid (maxMarkers) while every point is drawn
    const fewer = returnSeries(plan, makeLive(plan, 10, drops), 'iterations', 300, 3)!;
    expect(fewer.algorithms[0].points).toHaveLength(11);
    expect(fewer.algorithms[0].markers).toMatchObject([{ k: 8, seeds: 2, drops: 3 }]);
  });

  it('scans each iteration for drops once (later frames read only new iterations)', () => {
    const live = makeLive(plan, 6, rising);
    expect(returnSeries(plan, live, 'iterations')!.algorithms[0].markers).toEqual([]);
    live.runs[0].J[2] = 0; // already scanned: not looked at again
    live.runs[0].J[8] = 0; // new: found
    live.iteration = 10;
    expect(returnSeries(plan, live, 'iterations')!.algorithms[0].markers.map((m) => m.k)).toEqual([8]);
  });

  it('counts no violations when J is a Monte-Carlo estimate', () => {
    const mc = planExperiment({ ...CONFIG, env: { preset: 'lock', turns: 6, vocab: 8 }, policy: { kind: 'mlp' } }, 1);
    expect(dropTolerance(mc)).toBe(Infinity);
    expect(dropTolerance(plan)).toBeCloseTo(1e-6, 15);
    const live = makeLive(mc, 4, (r) => r.J.set([0.5, 0.2, 0.6, 0.1, 0.7]));
    const r = returnSeries(mc, live, 'iterations')!;
    expect(r.jIsEstimate).toBe(true);
    expect(r.algorithms[0].markers).toEqual([]);
  });

  it('draws hot changes at each algorithm\'s x', () => {
    const live = makeLive(plan, 10, rising);
    live.changes.push({ iteration: 5, path: 'optimizer.lr', from: 0.3, to: 0.1 }, { iteration: 8, path: 'algorithms[1].clip', from: 0.2, to: 0.1 });
    const it = returnSeries(plan, live, 'iterations')!.changes;
    expect(it.map((c) => [c.x, c.label])).toEqual([[5, 'lr 0.3→0.1'], [8, 'SeeUPO clip 0.2→0.1']]);
    const steps = returnSeries(plan, live, 'steps')!.changes;
    expect(steps.map((c) => [c.x, c.label])).toEqual([[20, 'lr 0.3→0.1'], [60, ''], [96, 'SeeUPO clip 0.2→0.1']]);
  });

  it('ignores runs of another plan', () => {
    const other = planExperiment({ ...CONFIG, seeds: 2 }, 1);
    expect(returnSeries(plan, makeLive(other, 3, rising), 'iterations')!.algorithms[0].points).toEqual([]);
  });
});

describe('seedLines and gapSeries', () => {
  const plan = planExperiment(CONFIG, 1);

  it('draws the first maxSeeds seeds and the mean over all seeds', () => {
    const s = seedLines(plan, makeLive(plan, 10, rising), 1, 'steps', 2)!;
    expect(s.drawn).toBe(2);
    expect(s.total).toBe(3);
    expect(s.rows).toHaveLength(11);
    expect(s.rows[2].x).toBe(24);
    expect(s.rows[2].seeds).toEqual([0.22, 0.42]);
    expect(s.rows[2].mean).toBeCloseTo(0.52, 12);
    expect(seedLines(plan, null, 0, 'iterations')!.rows).toEqual([]);
    const d = seedLines(plan, makeLive(plan, 3, (r, a, s) => { rising(r, a, s); if (s === 0) r.J.fill(NaN); }), 0, 'iterations')!;
    expect(d.rows[1].seeds).toEqual([null, 0.41, 0.91]);
    expect(d.rows[1].n).toBe(2);
  });

  it('gives J* − mean J, floored at 1e-6', () => {
    const live = makeLive(plan, 2, (r, _a, s) => r.J.set([[0.5, 0.9, 1][s], [0.5, 1, 1][s], 1]));
    const g = gapSeries(plan, live, 'iterations');
    expect(g[0].points.map((p) => p.k)).toEqual([0, 1, 2]);
    expect(g[0].points[0].gap).toBeCloseTo(1 - 0.8, 12);
    expect(g[0].points[1].gap).toBeCloseTo(1 - 2.5 / 3, 12);
    expect(g[0].points[2].gap).toBe(GAP_FLOOR);
  });

  it('ticks the log axis at powers of ten from the floor up past the largest gap', () => {
    expect(logTicks([0.5, null, 1e-6], GAP_FLOOR)).toEqual([1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1]);
    expect(logTicks([], GAP_FLOOR)).toEqual([1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1]);
    expect(logTicks([3], 1e-2)).toEqual([0.01, 0.1, 1, 10]);
    expect(logTicks([1e-7], 1e-6)).toEqual([1e-6, 1e-5]);
    expect(chartDomain([0, 1])).toEqual([0, 1]);
    expect(chartDomain([0.3, 0.3])).toEqual([-0.2, 0.8]);
  });
});

describe('turnHeatmap', () => {
  const plan = planExperiment(CONFIG, 1);
  const live = makeLive(plan, 10, (r, a, s) => {
    for (let t = 0; t < 3; t++) for (let k = 0; k <= 10; k++) r.optimalTokenProb[t][k] = (s + 1) * 0.1 + t * 0.01 + k * 0.001 + a;
    if (s === 2) r.optimalTokenProb[1][4] = NaN;
  });

  it('averages the optimal token\'s probability over seeds per turn and sampled iteration', () => {
    const h = turnHeatmap(plan, live, 0, 120)!;
    expect(h.turns).toBe(3);
    expect(h.ks).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(h.values[2][7]).toBeCloseTo(0.2 + 0.02 + 0.007, 12); // mean of 0.1, 0.2, 0.3 is 0.2
    expect(h.values[1][4]).toBeCloseTo(0.15 + 0.01 + 0.004, 12); // seed 2 is NaN: mean of 0.1, 0.2
    expect(turnHeatmap(plan, live, 1, 120)!.values[0][0]).toBeCloseTo(1.2, 12);
    const coarse = turnHeatmap(plan, live, 0, 3)!;
    expect(coarse.ks).toEqual([0, 8, 10]);
    expect(coarse.values[0][1]).toBeCloseTo(0.2 + 0.008, 12);
    expect(h.now).toBeNull();
    expect(h.updated).toBeNull();
    expect(h.highlight).toEqual([false, false, false]);
    expect(turnHeatmap(plan, null, 0)!.ks).toEqual([]);
  });

  it('outlines the turns updated in the latest turn step', () => {
    const step: TurnStep = {
      iteration: 4,
      done: 1,
      turns: 3,
      algorithms: [
        { updated: ['all', 'all', 'all'], J: 0.4, optimalProb: [0.3, 0.4, 0.5] },
        { updated: [2, 2, 2], J: 0.4, optimalProb: [0.3, 0.4, 0.9] },
      ],
    };
    const seeupo = turnHeatmap(plan, live, 1, 120, step)!;
    expect(seeupo.highlight).toEqual([false, false, true]);
    expect(seeupo.spans).toEqual([[2, 1]]);
    expect(seeupo.updated).toBe('iteration 4, turn step 1/3: updated turn 3');
    expect(seeupo.now).toEqual([0.3, 0.4, 0.9]);
    expect(turnHeatmap(plan, live, 0, 120, step)!.highlight).toEqual([true, true, true]);
    expect(turnHeatmap(plan, live, 0, 120, step)!.spans).toEqual([[0, 3]]);
    expect(turnHeatmap(plan, live, 1, 120, { ...step, algorithms: [step.algorithms[0], { ...step.algorithms[1], updated: [0, 2, 2] }] })!.spans).toEqual([[0, 1], [2, 1]]);
    const later: TurnStep = { ...step, done: 2, algorithms: [{ ...step.algorithms[0], updated: [null, null, null] }, { ...step.algorithms[1], updated: [1, 0, 1] }] };
    expect(turnUpdateText(later, 0)).toMatch(/^iteration 4, turn step 2\/3: waiting/);
    expect(turnUpdateText(later, 1)).toMatch(/^iteration 4, turn step 2\/3: updated turns 1, 2/);
    expect(turnHeatmap(plan, live, 0, 120, later)!.highlight).toEqual([false, false, false]);
  });

  it('colours with viridis from 0 to 1', () => {
    expect(viridis(0)).toEqual([68, 1, 84]);
    expect(viridis(1)).toEqual([253, 231, 37]);
    expect(viridis(0.5)).toEqual([33, 145, 140]);
    expect(viridis(0.125)).toEqual([64, 42, 112]);
    expect(viridis(2)).toEqual([253, 231, 37]);
  });
});

describe('metricSeries', () => {
  const plan = planExperiment(CONFIG, 1);
  const live = makeLive(plan, 4, (r, a, s) => {
    for (let k = 0; k < 4; k++) r.kl[k] = (k + 1) * (s + 1) * 0.01;
    for (let k = 0; k <= 4; k++) r.entropy[k] = 1 - k * 0.1 + s * 0.01;
    r.clipFraction.fill(0, 0, 4);
    if (a === 1 && s === 0) r.gradNorm[2] = 5;
  });

  it('draws per-iteration metrics at k + 1', () => {
    const kl = metricSeries(plan, live, 'kl', 'iterations');
    expect(kl[0].points.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    expect(kl[0].points[0].value).toBeCloseTo(0.02, 12); // kl[0] of seeds: 0.01, 0.02, 0.03
    expect(kl[0].points[3].value).toBeCloseTo(0.08, 12); // kl[3]: 0.04, 0.08, 0.12
    const steps = metricSeries(plan, live, 'kl', 'steps');
    expect(steps[1].points[0].x).toBe(12);
    expect(metricSeries(plan, live, 'clipFraction', 'iterations')[0].points.every((p) => p.value === 0)).toBe(true);
    const g = metricSeries(plan, live, 'gradNorm', 'iterations')[1].points;
    expect(g[2]).toMatchObject({ k: 3, value: 5, n: 1 });
    expect(g[0]).toMatchObject({ value: null, n: 0 });
  });

  it('draws entropy at k from iteration 0', () => {
    const e = metricSeries(plan, live, 'entropy', 'iterations');
    expect(e[0].points.map((p) => p.k)).toEqual([0, 1, 2, 3, 4]);
    expect(e[0].points[2].value).toBeCloseTo(0.81, 12);
  });

  it('has no per-iteration points at iteration 0', () => {
    expect(metricSeries(plan, makeLive(plan, 0), 'kl', 'iterations')[0].points).toEqual([]);
    expect(metricSeries(plan, makeLive(plan, 0), 'entropy', 'iterations')[0].points).toEqual([{ k: 0, x: 0, value: null, n: 0 }]);
    expect(metricSeries(plan, null, 'kl', 'iterations').map((a) => a.points)).toEqual([[], []]);
  });
});

describe('the first point (J[0]) arrives after the charts first drew', () => {
  it('a live run with nothing yet (iteration −1) draws nothing and caches nothing; J[0] then shows at x = 0', () => {
    const plan = planExperiment(CONFIG, 1);
    const live = makeLive(plan, -1);
    expect(returnSeries(plan, live, 'iterations')!.algorithms[0].points).toEqual([]);
    rising(live.runs[0], 0, 0);
    rising(live.runs[1], 0, 1);
    rising(live.runs[2], 0, 2);
    live.iteration = 0;
    const first = returnSeries(plan, live, 'iterations')!.algorithms[0].points[0];
    expect(first.k).toBe(0);
    expect(first.x).toBe(0);
    expect(first.mean).toBeCloseTo((0.2 + 0.4 + 0.9) / 3, 12);
  });
});
