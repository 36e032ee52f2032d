import { turnOrder } from '../../core/algo/orders';
import type { Problem } from '../host/problem';
import type { RunState } from '../host/state';

/**
 * One optimizer step of one run, in the order the CPU executor takes them (rules.ts): the
 * same rules, the same chunks, the same random streams drawn in the same order.
 */
export interface PlannedStep {
  /** Turn whose parameters move (−1: every turn). */
  turn: number;
  /** Rollouts in this step's chunk (null: all), each weighted by its batch weight · scale. */
  rollouts: Int32Array | null;
  scale: number;
  /** Token terms (each token its own ratio) or one ratio over tokens [k0, k1). */
  grouped: boolean;
  /** 1 / tokens for a geometric-mean ratio, else 1. */
  geo: number;
  /** A grouped term's advantage: the rollout's Â ('adv') or the token advantage at k0 ('advTok'). */
  advFrom: 'adv' | 'advTok';
  k0: number;
  k1: number;
  /** The last step of a turn under the M correction: M takes this turn's ratio afterwards. */
  endsTurn: boolean;
  /** Clip statistics count (every rule but REINFORCE). */
  counted: boolean;
}

export type PlanProblem = Pick<Problem, 'tree' | 'rollouts' | 'exact'>;
export type PlanRun = Pick<RunState, 'algo' | 'shuffleRng' | 'orderRng'>;

export function planIteration(pb: PlanProblem, run: PlanRun, orderScratch: Int32Array): PlannedStep[] {
  const a = run.algo;
  const { N, L, T } = pb.tree;
  const all = { turn: -1, k0: 0, k1: N, endsTurn: false };
  if (a.rule === 'reinforce')
    return [{ ...all, rollouts: null, scale: 1, grouped: false, geo: 1, advFrom: 'advTok', counted: false }];
  if (a.rule === 'ppu') {
    const seq = a.ratio === 'sequence';
    return epochs(pb, run, { ...all, grouped: seq, geo: seq ? 1 / N : 1, advFrom: seq ? 'adv' : 'advTok' });
  }
  const steps: PlannedStep[] = [];
  for (const t of turnOrder(a.order, T, run.orderRng, orderScratch)) {
    const turnSteps = epochs(pb, run, { turn: t, k0: t * L, k1: (t + 1) * L, grouped: true, geo: a.turnRatio === 'geomean' ? 1 / L : 1, advFrom: 'advTok', endsTurn: false });
    if (a.mCorrection) turnSteps[turnSteps.length - 1].endsTurn = true;
    steps.push(...turnSteps);
  }
  return steps;
}

type Term = Omit<PlannedStep, 'rollouts' | 'scale' | 'counted'>;

/** `epochs` passes, each split into `minibatches` seeded-shuffled chunks (exact mode: one chunk). */
function epochs(pb: PlanProblem, run: PlanRun, term: Term): PlannedStep[] {
  const n = pb.rollouts;
  const chunks = pb.exact ? 1 : run.algo.minibatches;
  const out: PlannedStep[] = [];
  if (chunks === 1) {
    for (let e = 0; e < run.algo.epochs; e++) out.push(planned(term, null, 1));
    return out;
  }
  const size = n / chunks;
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let e = 0; e < run.algo.epochs; e++) {
    run.shuffleRng.shuffle(perm, n);
    for (let c = 0; c < chunks; c++) out.push(planned(term, perm.slice(c * size, (c + 1) * size), chunks));
  }
  return out;
}

const planned = (t: Term, rollouts: Int32Array | null, scale: number): PlannedStep => ({
  turn: t.turn,
  rollouts,
  scale,
  grouped: t.grouped,
  geo: t.geo,
  advFrom: t.advFrom,
  k0: t.k0,
  k1: t.k1,
  endsTurn: t.endsTurn,
  counted: true,
});

/** Steps each turn's parameters take (Adam's per-turn counts; −1 counts for every turn). */
export function countSteps(step: PlannedStep, counts: Int32Array): void {
  if (step.turn < 0) for (let t = 0; t < counts.length; t++) counts[t]++;
  else counts[step.turn]++;
}
