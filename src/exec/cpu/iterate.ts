import { evaluatePolicy, softmaxTable } from '../../core/env/exact';
import type { Problem } from '../host/problem';
import { computeAdvantages, sampleRollouts, weighEnumeration, type ExactTables, type PolicyTables } from '../host/rollouts';
import { policyGradient, ppuUpdate, reinforceUpdate, sequentialUpdate, type UpdateStats } from './rules';
import type { Scratch } from '../host/scratch';
import type { RunState } from '../host/state';
import { clearGradient, nodeKlOld, refreshStaleLogZ } from '../host/tabular';

export interface StepMetrics {
  kl: number;
  clipFraction: number;
  zeroVarianceGroups: number;
  gradNorm: number;
  /** Set by iterate: every number of the iteration that the metrics above do not show was finite (below). */
  finite?: boolean;
}

// Divergence (series.ts, markDiverged): the run diverged at k + 1 when any number of its update
// k → k + 1 is not finite. Checked without a pass over the parameters:
// - reported: gradNorm, kl, clipFraction, zeroVarianceGroups (the shard checks them), then J,
//   entropy, optimal-token probabilities and per-context J at k + 1 (recordEvaluation);
// - not reported, through the probe sc.probe = Σ x·0 (NaN iff some x is NaN or ±∞, never an
//   overflow of the sum), each x added where it is written anyway:
//   · the advantages Â_i and every token's advantage, and the reward statistics they are divided
//     by (computeAdvantages: a group's variance, the batch σ; an ∞ there gives silent zeros);
//   · the critic's new values (criticStep: only the batch's nodes move);
//   · every M_i after every turn (sequentialUpdate);
//   · every parameter an optimizer step writes, and Adam's m and v (optimizerStep).
// Why that covers every parameter, every Adam moment and the whole critic: all start finite
// (initial logits initScale·N(0, 1), zero moments, a zero critic), and a value changes only
// where one of these steps writes it, which probes the value written. The gradients of the
// steps (sc.grad) enter θ (SGD) or m and v (Adam) through a positive learning rate, so a
// non-finite gradient entry makes a probed value non-finite (∞·0 and NaN stay NaN). A −∞ logit
// (a probability of exactly 0, invisible to J) is caught here too.

/** The clip statistics of the iteration being stepped, reused (read into `out` before iterate returns). */
const clipStats: UpdateStats = { clipNum: 0, clipDen: 0 };

/**
 * One iteration of docs/math.md "One iteration" for one tabular run: rollouts, advantages, update.
 * `onTurn` (sequential rules) is called after each turn's update, with the turn just updated.
 * `known`: the run's softmax at its current θ (exact mode: and its sequence probabilities), where
 * the executor keeps it (sampleRollouts, weighEnumeration).
 */
export function iterate(pb: Problem, run: RunState, sc: Scratch, out: StepMetrics, onTurn?: (turn: number) => void, known: PolicyTables | ExactTables | null = null): void {
  sc.probe = 0;
  if (pb.exact) weighEnumeration(pb, run, sc, known && 'leafProb' in known ? known : null);
  else sampleRollouts(pb, run, sc, known);
  sc.freshTurns = (1 << pb.tree.T) - 1; // θ = θ_old at every node (rules.ts, clippedStep)
  sc.iterationStamp++; // no logZ entry is current, no node has moved yet
  const b = sc.batch;
  out.zeroVarianceGroups = computeAdvantages(pb, run, sc);
  out.gradNorm = policyGradient(pb, run, sc);
  const stats = clipStats;
  stats.clipNum = 0;
  stats.clipDen = 0;
  switch (run.algo.rule) {
    case 'reinforce':
      reinforceUpdate(pb, run, sc);
      clearGradient(sc.grad, pb.tree.V, b.nodes, 0, b.nNodes);
      break;
    case 'ppu':
      clearGradient(sc.grad, pb.tree.V, b.nodes, 0, b.nNodes);
      ppuUpdate(pb, run, sc, stats);
      break;
    case 'sequential':
      clearGradient(sc.grad, pb.tree.V, b.nodes, 0, b.nNodes);
      sequentialUpdate(pb, run, sc, stats, onTurn);
      break;
  }
  out.clipFraction = stats.clipDen > 0 ? stats.clipNum / stats.clipDen : 0;
  out.kl = visitKl(pb, run, sc);
  out.finite = Number.isFinite(sc.probe);
}

/** KL(π_old ‖ π_new) averaged over the batch's node visits (exact mode: weighted by P_old). */
function visitKl(pb: Problem, run: RunState, sc: Scratch): number {
  const b = sc.batch;
  const { V, N } = pb.tree;
  // logZ at the final θ: entries computed since their node last moved are current already
  refreshStaleLogZ(run.theta, V, b.nodes, 0, b.nNodes, sc);
  for (let j = 0; j < b.nNodes; j++) {
    const n = b.nodes[j];
    sc.klNode[n] = nodeKlOld(sc.probsOld, sc.thetaOld, sc.logZOld[n], run.theta, sc.logZ[n], n * V, V);
  }
  let kl = 0;
  for (let i = 0; i < b.n; i++) {
    const w = b.weight[i] / N;
    if (w === 0) continue;
    for (let k = 0; k < N; k++) kl += w * sc.klNode[b.node[i * N + k]];
  }
  return kl;
}

/** Exact J, entropy and optimal-action probabilities of the run's current policy. */
export function evaluateRun(pb: Problem, run: RunState, sc: Scratch) {
  softmaxTable(run.theta, pb.tree.V, sc.probs, sc.evalLogZ);
  return evaluatePolicy(pb.env, pb.tree, pb.opt, sc.probs, sc.evalScratch, sc.value);
}
