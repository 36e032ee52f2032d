import { turnOrder } from '../../core/algo/orders';
import type { Problem } from './problem';
import type { RunState } from './state';

// The optimizer steps of one run's iteration (docs/math.md "Update rules"), in order: the one schedule every
// executor walks, so the same steps draw the same random numbers everywhere.
//
//   REINFORCE   one step along the policy gradient (every turn).
//   PPU         `epochs` passes; each pass splits the rollouts into `minibatches` chunks, after a
//               seeded shuffle (exact mode: one chunk, no shuffle). Every turn moves at once.
//   sequential  SeeUPO / HAML: the turns one at a time in `order` (reverse = backward induction);
//               each turn takes the PPU passes on its own tokens, then M takes its ratio.

/** One optimizer step. `perm[from..to)` are its rollouts (the whole batch, in order, when not chunked). */
export interface StepView {
  /** Turn whose parameters move (−1: every turn). */
  turn: number;
  perm: Int32Array;
  from: number;
  to: number;
  /** The batch is split into chunks (perm is a shuffle); each rollout then weighs `scale` times its batch weight. */
  chunked: boolean;
  scale: number;
  /** Token terms (each token its own ratio), or one ratio over tokens [k0, k1). */
  grouped: boolean;
  /** 1 / tokens for a geometric-mean ratio, else 1. */
  geo: number;
  /** A grouped term's advantage: the rollout's Â ('adv') or the token advantage at k0 ('advTok'). */
  advFrom: 'adv' | 'advTok';
  k0: number;
  k1: number;
  /** The clip statistics count this step (every rule but REINFORCE). */
  counted: boolean;
  /** The last chunk of a pass over the batch (a GAE critic steps after each pass). */
  lastOfEpoch: boolean;
  /** The last step of a sequential turn: M multiplies in this turn's ratio, the turn is done. */
  lastOfTurn: boolean;
}

export type PlanProblem = Pick<Problem, 'tree' | 'exact'> & { rollouts: number };
export type PlanRun = Pick<RunState, 'algo' | 'shuffleRng' | 'orderRng'>;
/** Reused buffers: `perm` holds at least `rollouts` entries, `order` the turn order. */
export interface PlanScratch {
  perm: Int32Array;
  order: Int32Array;
  /** The view walkIteration fills, kept between iterations (set on first use). */
  view?: StepView;
}

/** Calls `step` for each optimizer step of the iteration, in order. `step` reads the view at once (it is reused). */
export function walkIteration(pb: PlanProblem, run: PlanRun, sc: PlanScratch, step: (s: Readonly<StepView>) => void): void {
  const a = run.algo;
  const { N, L, T } = pb.tree;
  const view = (sc.view ??= { turn: -1, perm: sc.perm, from: 0, to: 0, chunked: false, scale: 1, grouped: false, geo: 1, advFrom: 'advTok', k0: 0, k1: 0, counted: false, lastOfEpoch: true, lastOfTurn: false });
  // the whole view as a fresh one would be (field by field: nothing allocated per iteration)
  view.perm = sc.perm;
  view.from = 0;
  view.to = pb.rollouts;
  view.chunked = false;
  view.scale = 1;
  setTerm(view, -1, 0, N, false, 1, 'advTok');
  view.counted = false;
  view.lastOfEpoch = true;
  view.lastOfTurn = false;
  if (a.rule === 'reinforce') {
    for (let i = 0; i < pb.rollouts; i++) sc.perm[i] = i;
    step(view);
    return;
  }
  view.counted = true;
  if (a.rule === 'ppu') {
    const sequence = a.ratio === 'sequence';
    setTerm(view, -1, 0, N, sequence, sequence ? 1 / N : 1, sequence ? 'adv' : 'advTok');
    passes(pb, run, view, step, false);
    return;
  }
  // sequential: turn by turn in `order`, each turn's passes on its own tokens
  const order = turnOrder(a.order, T, run.orderRng, sc.order);
  for (let o = 0; o < T; o++) {
    const t = order[o]; // an index loop: for…of makes an iterator per iteration
    setTerm(view, t, t * L, (t + 1) * L, true, a.turnRatio === 'geomean' ? 1 / L : 1, 'advTok');
    passes(pb, run, view, step, true);
  }
}

/** The view's term fields (no object per turn). */
function setTerm(view: StepView, turn: number, k0: number, k1: number, grouped: boolean, geo: number, advFrom: StepView['advFrom']): void {
  view.turn = turn;
  view.k0 = k0;
  view.k1 = k1;
  view.grouped = grouped;
  view.geo = geo;
  view.advFrom = advFrom;
}

/** `epochs` passes over the batch, each split into `minibatches` seeded-shuffled chunks (exact mode: one chunk). */
function passes(pb: PlanProblem, run: PlanRun, view: StepView, step: (s: Readonly<StepView>) => void, endsTurn: boolean): void {
  const n = pb.rollouts;
  const chunks = pb.exact ? 1 : run.algo.minibatches;
  const size = n / chunks;
  const epochs = run.algo.epochs;
  view.chunked = chunks > 1;
  view.scale = chunks;
  for (let i = 0; i < n; i++) view.perm[i] = i;
  for (let e = 0; e < epochs; e++) {
    if (chunks > 1) run.shuffleRng.shuffle(view.perm, n);
    for (let c = 0; c < chunks; c++) {
      view.from = c * size;
      view.to = (c + 1) * size;
      view.lastOfEpoch = c === chunks - 1;
      view.lastOfTurn = endsTurn && e === epochs - 1 && c === chunks - 1;
      step(view);
    }
  }
}
