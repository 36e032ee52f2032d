import { stepsPerIteration } from '../../core/run/steps';
import type { Experiment } from '../../core/config/resolve';
import { needsMonteCarlo } from '../../core/config/resolve';
import { runsPerAlgorithm, type Live, type XAxis } from '../live';
import type { Plan } from '../plan';

// What every chart shares: the x axis (iterations, optimizer steps or sampled rollouts; their
// labels and titles are in core/metrics/names.ts), which iterations to draw (decimation), and the
// check that the streamed runs belong to the plan.

/** Why an axis cannot be drawn for this experiment, or null when it can. */
export function axisAvailable(exp: Experiment, axis: XAxis): string | null {
  if (axis === 'rollouts' && exp.mode === 'exact')
    return 'exact mode samples no rollouts: it weights every sequence by its probability';
  return null;
}

/** The axis actually drawn: an unavailable choice falls back to iterations. */
export function effectiveAxis(exp: Experiment, axis: XAxis): XAxis {
  return axisAvailable(exp, axis) === null ? axis : 'iterations';
}

/** Factor mapping iteration k of an algorithm to x = k·factor on the given axis. */
export function xScale(exp: Experiment, algoIndex: number, axis: XAxis): number {
  switch (effectiveAxis(exp, axis)) {
    case 'steps':
      return stepsPerIteration(exp, algoIndex);
    case 'rollouts':
      return exp.env.contextsPerBatch * exp.groupSize;
    default:
      return 1;
  }
}

/**
 * Iterations to draw out of 0..upTo: every multiple of a power-of-two stride, plus upTo, at most
 * maxPoints of them (always 0 and upTo). The stride only changes when it doubles, so points do not
 * slide along a curve as it streams in.
 */
export function sampleIterations(upTo: number, maxPoints = 300): number[] {
  const n = Math.max(0, Math.floor(upTo));
  if (n === 0) return [0];
  const m = Math.max(2, Math.floor(maxPoints));
  let stride = 1;
  while (Math.ceil(n / stride) + 1 > m) stride *= 2;
  const out: number[] = [];
  for (let k = 0; k < n; k += stride) out.push(k);
  out.push(n);
  return out;
}

/** The live runs when they belong to this plan (one per algorithm and seed), else null. */
export function liveFor(plan: Plan | null, live: Live | null): Live | null {
  if (!plan || !live) return null;
  const { exp } = plan;
  if (live.runs.length !== exp.algorithms.length * runsPerAlgorithm(exp)) return null;
  return live;
}

/** Iterations every run has completed, clamped to the experiment (−1 when nothing to draw). */
export function drawnUpTo(plan: Plan | null, live: Live | null): number {
  const l = liveFor(plan, live);
  if (!plan || !l || !(l.iteration >= 0)) return -1;
  return Math.min(Math.floor(l.iteration), plan.exp.iterations);
}

/** The y range of J: the range of the mean rewards (J lies inside it), widened when every reward is equal. */
export function chartDomain([lo, hi]: [number, number]): [number, number] {
  return hi > lo ? [lo, hi] : [lo - 0.5, hi + 0.5];
}

/** J is a Monte-Carlo estimate (an MLP policy past the exact-enumeration limit): no violations are counted. */
export function jIsEstimate(exp: Experiment): boolean {
  return exp.policy.kind === 'mlp' && needsMonteCarlo(exp.env);
}

export const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** Powers of ten from the floor's up to the first at or above the largest value (at least two). */
export function logTicks(values: ArrayLike<number | null>, floor: number): number[] {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && Number.isFinite(v) && v > max) max = v;
  }
  const e0 = Math.floor(Math.log10(floor) + 1e-9);
  const e1 = Math.max(e0 + 1, Number.isFinite(max) && max > 0 ? Math.ceil(Math.log10(max) - 1e-9) : 0);
  const out: number[] = [];
  for (let e = e0; e <= e1; e++) out.push(Number(`1e${e}`));
  return out;
}

export { stepsPerIteration };
