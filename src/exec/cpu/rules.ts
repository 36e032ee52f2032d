import { algorithmLr } from '../../core/algo/records';
import { finishAndStepSgd, optimizerStep } from '../host/optimizer';
import type { Problem } from '../host/problem';
import { nextRatioStamp, refreshRatios } from '../host/ratio-cache';
import { criticStep } from '../host/rollouts';
import type { Scratch } from '../host/scratch';
import type { RunState } from '../host/state';
import { walkIteration, type StepView } from '../host/schedule';
import { kernelOf } from './exact-kernel';
import { exactPpuApplies, exactPpuStep } from './exact-ppu';
import { clearGradient, finishGradient, finishGradientOld, markMoved, refreshStaleLogZ } from '../host/tabular';

// The update rules of docs/math.md "Update rules" on a tabular policy. Every surrogate is scaled so that
// its gradient at θ = θ_old is the policy gradient (1/(B·G)) Σ_i Σ_tok Â_i,tok ∇log π(tok).

export interface UpdateStats {
  clipNum: number; // weight of terms with |ρ − 1| > ε
  clipDen: number;
}

/** A term is the set of tokens [k0, k1) of each rollout that share one ratio. */
interface Term {
  k0: number;
  k1: number;
  /** 'token': every token is its own term; 'product' / 'geomean': one ratio over [k0, k1). */
  ratio: 'token' | 'product' | 'geomean';
  /** The term's advantage: source[i·stride + offset] ('token' terms read advTok). */
  advantage: Float64Array;
  stride: number;
  offset: number;
  /** SeeUPO's M factor per rollout, or null for 1. */
  M: Float64Array | null;
  /** Turn whose parameters move (−1: all turns). */
  turn: number;
}

/**
 * The run's learning rate now: its algorithm's own `lr`, else the experiment's optimizer.lr,
 * read at every step (a change of optimizer.lr applies from the next step on).
 */
export const runLr = (pb: Problem, run: RunState): number => algorithmLr(run.algo, pb.exp.optimizer.lr);

/** The critic's learning rate: criticLr, else the run's learning rate. */
const criticLr = (pb: Problem, run: RunState): number => run.algo.criticLr ?? runLr(pb, run);

/** The bit of turn t in Scratch.freshTurns, or every turn's bits for t = −1. */
const turnBits = (pb: Problem, t: number): number => (t < 0 ? (1 << pb.tree.T) - 1 : 1 << t);

/** Visited nodes of a turn (−1: all) are sc.batch.nodes[nodesFrom .. nodesTo). */
const nodesFrom = (sc: Scratch, turn: number) => (turn < 0 ? 0 : sc.batch.turnStart[turn]);
const nodesTo = (sc: Scratch, turn: number) => (turn < 0 ? sc.batch.nNodes : sc.batch.turnStart[turn + 1]);

/**
 * One optimizer step on Σ_i w_i · min(ρ·M·Â, clip(ρ)·M·Â) over rollouts perm[c0..c1).
 * Its gradient is w·M·Â·ρ·Σ_{tok ∈ term} ∇log π(tok) where the unclipped branch is the
 * minimum, else 0 (for `geomean` the factor n of the objective cancels the 1/n of ∇ρ).
 */
function clippedStep(pb: Problem, run: RunState, sc: Scratch, term: Term, c0: number, c1: number, chunkScale: number, stats: UpdateStats): void {
  const b = sc.batch;
  const { V, N } = pb.tree;
  const theta = run.theta;
  const eps = run.algo.clip;
  const n0 = nodesFrom(sc, term.turn);
  const n1 = nodesTo(sc, term.turn);
  // locals, so the loops below read the arrays without reloading them from their objects
  const { node, param, logpOld, weight } = b;
  const { logZ, grad, gsum, perm } = sc;
  const M = term.M;
  // the first step on these nodes in this iteration finds θ_old there: logZOld and probsOld are current
  const fresh = (sc.freshTurns & turnBits(pb, term.turn)) !== 0;
  if (fresh)
    for (let j = n0; j < n1; j++) {
      logZ[b.nodes[j]] = sc.logZOld[b.nodes[j]];
      sc.logZAt[b.nodes[j]] = sc.iterationStamp;
    }
  // nodes the previous step left where they were (every gradient entry 0) keep their logZ
  else refreshStaleLogZ(theta, V, b.nodes, n0, n1, sc);
  let clipNum = stats.clipNum;
  let clipDen = stats.clipDen;
  // ratios keyed by parameter, computed once in this step (host/ratio-cache.ts)
  const { ratioOf, ratioAt } = sc;
  const stamp = nextRatioStamp(sc);
  if (term.ratio === 'token') {
    const advTok = b.advTok;
    const { k0, k1 } = term; // locals: the loop below stores to typed arrays, which makes V8 reload object fields
    const lo = 1 - eps;
    const hi = 1 + eps;
    // exact mode visits every token of every node in scope: every ratio is needed, kept per node,
    // and the loop reads them without a stamp test (its own loop: V8 does not split a loop on an invariant)
    if (pb.exact) {
      refreshRatios(theta, V, b.nodes, n0, n1, sc);
      for (let c = c0; c < c1; c++) {
        const i = perm[c];
        const w = weight[i] * chunkScale;
        if (w === 0) continue;
        const Mi = M === null ? 1 : M[i];
        const j1 = i * N + k1;
        for (let j = i * N + k0; j < j1; j++) {
          const g = param[j];
          const ratio = ratioOf[g];
          const A = advTok[j] * Mi;
          const clipped = Math.min(Math.max(ratio, lo), hi);
          clipDen += w;
          if (Math.abs(ratio - 1) > eps) clipNum += w;
          if (ratio * A <= clipped * A) {
            const u = w * A * ratio;
            grad[g] += u;
            gsum[node[j]] += u;
          }
        }
      }
    } else
      for (let c = c0; c < c1; c++) {
        const i = perm[c];
        const w = weight[i] * chunkScale;
        if (w === 0) continue;
        const Mi = M === null ? 1 : M[i];
        const j1 = i * N + k1;
        for (let j = i * N + k0; j < j1; j++) {
          const g = param[j];
          let ratio: number;
          if (ratioAt[g] === stamp) ratio = ratioOf[g];
          else {
            const d = theta[g] - logZ[node[j]] - logpOld[j];
            ratio = d === 0 ? 1 : Math.exp(d); // exp(±0) is exactly 1: the first step on a turn (θ = θ_old) costs no exp
            ratioOf[g] = ratio;
            ratioAt[g] = stamp;
          }
          const A = advTok[j] * Mi;
          const clipped = Math.min(Math.max(ratio, lo), hi);
          clipDen += w;
          if (Math.abs(ratio - 1) > eps) clipNum += w;
          if (ratio * A <= clipped * A) {
            const u = w * A * ratio;
            grad[g] += u;
            gsum[node[j]] += u;
          }
        }
      }
  } else {
    const { k0, k1, advantage, stride, offset } = term;
    const geomean = term.ratio === 'geomean';
    for (let c = c0; c < c1; c++) {
      const i = perm[c];
      const w = weight[i] * chunkScale;
      if (w === 0) continue;
      const Mi = M === null ? 1 : M[i]; // a null test: V8 tests an object's truthiness at more cost
      // the term's tokens are fixed by its last one (its node fixes the prefix): the ratio is keyed by that token
      const key = param[i * N + k1 - 1];
      let ratio: number;
      if (ratioAt[key] === stamp) ratio = ratioOf[key];
      else {
        let logRatio = 0;
        for (let k = k0; k < k1; k++) {
          const j = i * N + k;
          logRatio += theta[param[j]] - logZ[node[j]] - logpOld[j];
        }
        ratio = logRatio === 0 ? 1 : Math.exp(geomean ? logRatio / (k1 - k0) : logRatio); // exp(±0) = 1, as above
        ratioOf[key] = ratio;
        ratioAt[key] = stamp;
        sc.ratiosAt[node[i * N + k1 - 1]] = -1; // ratioOf[key] holds a term's ratio now, not its node's token ratio (refreshRatios)
      }
      const A = advantage[i * stride + offset] * Mi;
      const clipped = Math.min(Math.max(ratio, 1 - eps), 1 + eps);
      clipDen += w;
      if (Math.abs(ratio - 1) > eps) clipNum += w;
      if (ratio * A <= clipped * A) {
        const coef = w * A * ratio;
        for (let k = k0; k < k1; k++) {
          const j = i * N + k;
          grad[param[j]] += coef;
          gsum[node[j]] += coef;
        }
      }
    }
  }
  stats.clipNum = clipNum;
  stats.clipDen = clipDen;
  if (pb.exp.optimizer.kind === 'sgd') sc.probe += finishAndStepSgd(V, runLr(pb, run), theta, grad, gsum, fresh ? sc.probsOld : null, logZ, b.nodes, n0, n1, sc);
  else {
    if (fresh) finishGradientOld(sc.probsOld, V, grad, gsum, b.nodes, n0, n1);
    else finishGradient(theta, V, logZ, grad, gsum, b.nodes, n0, n1);
    sc.probe += optimizerStep(pb, pb.exp.optimizer.kind, runLr(pb, run), theta, grad, run.opt, term.turn, b.nodes, n0, n1);
    clearGradient(grad, V, b.nodes, n0, n1);
    markMoved(b.nodes, n0, n1, sc); // Adam moves every parameter in scope
  }
  sc.freshTurns &= ~turnBits(pb, term.turn);
}

/** clippedStep where exactPpuApplies: its stamps and fresh turns, the step itself by exactPpuStep. */
function exactClippedStep(pb: Problem, run: RunState, sc: Scratch, turn: number, stats: UpdateStats): void {
  const fresh = (sc.freshTurns & turnBits(pb, turn)) !== 0; // θ = θ_old at these nodes: logZOld and probsOld are current
  nextRatioStamp(sc); // the stamp clippedStep takes (host/ratio-cache.ts), taken alike
  exactPpuStep(pb, run.theta, sc, run.algo.clip, runLr(pb, run), fresh, stats);
  sc.freshTurns &= ~turnBits(pb, turn);
}

/** REINFORCE: one step along Σ_tok Â·∇log π(tok); the gradient is already in sc.grad (policyGradient). */
export function reinforceUpdate(pb: Problem, run: RunState, sc: Scratch): void {
  const b = sc.batch;
  sc.probe += optimizerStep(pb, pb.exp.optimizer.kind, runLr(pb, run), run.theta, sc.grad, run.opt, -1, b.nodes, 0, b.nNodes);
  markMoved(b.nodes, 0, b.nNodes, sc);
  criticStep(pb, run, sc, criticLr(pb, run));
}

/** The one Term every step fills (clippedStep reads it at once): no object per step. */
const stepTerm: Term = { k0: 0, k1: 0, ratio: 'token', advantage: new Float64Array(0), stride: 1, offset: 0, M: null, turn: -1 };

/** The clipped objective a planned step takes (host/schedule.ts), on this executor's batch. */
function termOf(s: Readonly<StepView>, b: Scratch['batch'], N: number, M: Float64Array | null): Term {
  const t = stepTerm;
  t.k0 = s.k0;
  t.k1 = s.k1;
  t.ratio = !s.grouped ? 'token' : s.geo !== 1 ? 'geomean' : 'product';
  const perRollout = s.advFrom === 'adv';
  t.advantage = perRollout ? b.adv : b.advTok;
  t.stride = perRollout ? 1 : N;
  t.offset = perRollout ? 0 : s.k0;
  t.M = M;
  t.turn = s.turn;
  return t;
}

// The steps of an iteration are walked by one function per rule (no closure made per run-iteration,
// one call target per rule at walkIteration's call site); the run they step is read from here.
const walking: { pb: Problem; run: RunState; sc: Scratch; stats: UpdateStats; onTurn: ((turn: number) => void) | undefined } = {
  pb: null as unknown as Problem,
  run: null as unknown as RunState,
  sc: null as unknown as Scratch,
  stats: null as unknown as UpdateStats,
  onTurn: undefined,
};

function walk(pb: Problem, run: RunState, sc: Scratch, stats: UpdateStats, onTurn: ((turn: number) => void) | undefined, step: (s: Readonly<StepView>) => void): void {
  const w = walking;
  w.pb = pb;
  w.run = run;
  w.sc = sc;
  w.stats = stats;
  w.onTurn = onTurn;
  walkIteration(pb, run, sc, step); // pb.rollouts = b.n
  w.onTurn = undefined; // a finished shard's callback is not kept alive from here
}

/** PPU, all turns at once: token-level (PPO/GRPO) or sequence-level (GSPO) ratios; a GAE critic steps after each pass. */
export function ppuUpdate(pb: Problem, run: RunState, sc: Scratch, stats: UpdateStats): void {
  // exact mode's PPO / GRPO steps in the shard's kernel (exact-ppu.ts) where it applies: chosen once per iteration, so the other steps run as before
  walk(pb, run, sc, stats, undefined, pb.exact ? exactStepOf(run, sc) : ppuStep);
}

/** Exact mode's step function for a PPU iteration: exactPpuStepView where the shard has a kernel and the ratios are per token. */
function exactStepOf(run: RunState, sc: Scratch): (s: Readonly<StepView>) => void {
  return run.algo.ratio !== 'sequence' && kernelOf(sc) !== undefined ? exactPpuStepView : ppuStep;
}

/** ppuStep with clippedStep's step taken by exactPpuStep where exactPpuApplies (every step of an exact PPO / GRPO iteration under SGD). */
function exactPpuStepView(s: Readonly<StepView>): void {
  const { pb, run, sc, stats } = walking;
  const term = termOf(s, sc.batch, pb.tree.N, null);
  if (term.ratio === 'token' && exactPpuApplies(pb, sc, null, term.turn, term.k0, term.k1, s.from, s.to, s.scale)) exactClippedStep(pb, run, sc, term.turn, stats);
  else clippedStep(pb, run, sc, term, s.from, s.to, s.scale, stats);
  if (run.algo.advantage === 'gae' && s.lastOfEpoch) criticStep(pb, run, sc, criticLr(pb, run));
}

function ppuStep(s: Readonly<StepView>): void {
  const { pb, run, sc, stats } = walking;
  clippedStep(pb, run, sc, termOf(s, sc.batch, pb.tree.N, null), s.from, s.to, s.scale, stats);
  if (run.algo.advantage === 'gae' && s.lastOfEpoch) criticStep(pb, run, sc, criticLr(pb, run));
}

/**
 * Sequential update (HAML / SeeUPO): the turns are updated one at a time in `order`
 * (reverse = backward induction; the schedule is host/schedule.ts), each turn's clipped
 * objective multiplied by M, the product of the probability ratios of the turns already updated.
 */
export function sequentialUpdate(pb: Problem, run: RunState, sc: Scratch, stats: UpdateStats, onTurn?: (turn: number) => void): void {
  const b = sc.batch;
  const M = b.M;
  for (let i = 0; i < b.n; i++) M[i] = 1; // loops, not fill(): a typed array's fill is a call into the runtime
  walk(pb, run, sc, stats, onTurn, sequentialStep);
  // GAE's critic: one step per epoch (§3), as for the simultaneous rules
  for (let e = 0; e < run.algo.epochs; e++) criticStep(pb, run, sc, criticLr(pb, run));
}

function sequentialStep(s: Readonly<StepView>): void {
  const { pb, run, sc, stats, onTurn } = walking;
  const b = sc.batch;
  const { V, N } = pb.tree;
  const { mCorrection, mClip } = run.algo;
  const M = b.M;
  clippedStep(pb, run, sc, termOf(s, b, N, mCorrection ? M : null), s.from, s.to, s.scale, stats);
  if (!s.lastOfTurn) return;
  if (mCorrection) {
    // M ← M · (π_θ / π_old)(a_t): the whole turn's true ratio at the parameters just reached.
    // (marked current: later turns' steps leave this turn's parameters as they are, so KL reuses it)
    refreshStaleLogZ(run.theta, V, b.nodes, nodesFrom(sc, s.turn), nodesTo(sc, s.turn), sc);
    // the turn's ratio keyed by its last token, as in clippedStep (host/ratio-cache.ts)
    const { ratioOf, ratioAt } = sc;
    const stamp = nextRatioStamp(sc);
    for (let i = 0; i < b.n; i++) {
      const key = b.param[i * N + s.k1 - 1];
      let ratio: number;
      if (ratioAt[key] === stamp) ratio = ratioOf[key];
      else {
        let logRatio = 0;
        for (let k = s.k0; k < s.k1; k++) {
          const j = i * N + k;
          logRatio += run.theta[b.param[j]] - sc.logZ[b.node[j]] - b.logpOld[j];
        }
        ratio = ratioOf[key] = Math.exp(logRatio);
        ratioAt[key] = stamp;
        sc.ratiosAt[b.node[i * N + s.k1 - 1]] = -1; // as in clippedStep: no longer the node's token ratio
      }
      M[i] *= ratio;
      if (mClip !== null) M[i] = Math.min(Math.max(M[i], 1 - mClip), 1 + mClip);
      sc.probe += M[i] * 0;
    }
  }
  onTurn?.(s.turn);
}

/** sc.grad ← the policy-gradient estimate at θ_old (full batch); returns its L2 norm. */
export function policyGradient(pb: Problem, run: RunState, sc: Scratch): number {
  const b = sc.batch;
  const { V, N } = pb.tree;
  // θ is θ_old here: π_old (probsOld) is the policy the gradient is taken at
  for (let i = 0; i < b.n; i++) {
    const w = b.weight[i];
    if (w === 0) continue;
    for (let k = 0; k < N; k++) {
      const j = i * N + k;
      const c = w * b.advTok[j];
      sc.grad[b.param[j]] += c;
      sc.gsum[b.node[j]] += c;
    }
  }
  finishGradientOld(sc.probsOld, V, sc.grad, sc.gsum, b.nodes, 0, b.nNodes);
  let s = 0;
  for (let j = 0; j < b.nNodes; j++) {
    const o = b.nodes[j] * V;
    for (let a = 0; a < V; a++) s += sc.grad[o + a] * sc.grad[o + a];
  }
  return Math.sqrt(s);
}
