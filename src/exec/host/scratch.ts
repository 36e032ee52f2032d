import { makeGroupScratch, type GroupScratch } from '../../core/algo/advantages';
import { makeEvalScratch, makePolicyValue, type EvalScratch, type PolicyValue } from '../../core/env/exact';
import { makeBatch, type Batch } from './batch';
import type { Problem } from './problem';

/** Buffers one shard reuses for every run and iteration: nothing is allocated per step. */
export interface Scratch {
  batch: Batch;
  grad: Float64Array; // params
  gsum: Float64Array; // nodes
  logZ: Float64Array; // nodes, current θ
  logZOld: Float64Array; // nodes, θ_old
  thetaOld: Float64Array; // params (only visited nodes are current)
  /** π_old(a|n) = exp(θ_old[n,a] − logZOld[n]) at the visited nodes: computed once per node and iteration, read wherever π_old is needed. */
  probsOld: Float64Array; // params
  /**
   * Turns (bit t) whose visited nodes still hold θ_old: no optimizer step has moved them in this
   * iteration, so logZOld and probsOld are their current log-normalizers and probabilities.
   */
  freshTurns: number;
  /**
   * Per node, the iteration stamp (`iterationStamp`) when logZ[n] holds log Z at the current θ
   * (computed, or copied from logZOld, since θ[n] last moved); anything else means stale.
   */
  logZAt: Int32Array;
  /** Per node, the iteration stamp when an optimizer step of this iteration changed θ[n]. */
  movedAt: Int32Array;
  iterationStamp: number;
  /**
   * A per-step cache of probability ratios (host/ratio-cache.ts): ratioOf[g] holds the ratio
   * keyed by parameter g while ratioAt[g] equals ratioStamp, the stamp of the step computing it.
   */
  ratioOf: Float64Array; // params
  ratioAt: Int32Array; // params
  ratioStamp: number;
  /**
   * Exact mode (ratio-cache.ts, refreshRatios): per node, the iteration stamp when ratioOf holds
   * its tokens' ratios at the current θ; −1 (stale) wherever a step moves θ[n] (logZAt likewise).
   */
  ratiosAt: Int32Array; // nodes
  probs: Float64Array; // params, for exact evaluation
  evalLogZ: Float64Array;
  evalScratch: EvalScratch;
  value: PolicyValue;
  stamp: Int32Array;
  mark: number;
  perm: Int32Array;
  order: Int32Array;
  groups: GroupScratch;
  ctxMean: Float64Array;
  ctxVar: Float64Array;
  /** With env.turnRewards, per context (exact: E_old[G_t | x]) or group (sampled: Σ G_t) and turn, at [·T + t]; else empty. */
  turnMean: Float64Array;
  nodeValue: Float64Array; // context nodes: exact V_old for GAE
  criticGrad: Float64Array; // context nodes
  klNode: Float64Array; // nodes
  batchContexts: Int32Array;
  /**
   * The finiteness probe of the run being stepped: Σ x·0 over the numbers of its iteration that
   * no reported metric shows (iterate.ts says which). x·0 is ±0 for a finite x and NaN for a NaN
   * or ±∞, so the probe stays 0 exactly while every x is finite and never overflows.
   */
  probe: number;
}

export function makeScratch(pb: Problem): Scratch {
  const { nodes, params, tree, env } = pb;
  const evalScratch = makeEvalScratch(tree);
  // the sequences' probabilities: only exact mode weighs its enumeration by them (rollouts.ts, weighEnumeration); sampled mode would write them every evaluation for nothing
  if (pb.exact) evalScratch.leafProb = new Float64Array(env.contexts * tree.sequences);
  const batch = makeBatch(pb);
  return {
    batch,
    grad: new Float64Array(params),
    gsum: new Float64Array(nodes),
    logZ: new Float64Array(nodes),
    logZOld: new Float64Array(nodes),
    thetaOld: new Float64Array(params),
    probsOld: new Float64Array(params),
    freshTurns: 0,
    logZAt: new Int32Array(nodes),
    movedAt: new Int32Array(nodes),
    iterationStamp: 0,
    ratioOf: new Float64Array(params),
    ratioAt: new Int32Array(params),
    ratioStamp: 0,
    ratiosAt: new Int32Array(nodes),
    probs: new Float64Array(params),
    evalLogZ: new Float64Array(nodes),
    evalScratch,
    value: makePolicyValue(tree.T),
    stamp: new Int32Array(nodes),
    mark: 1,
    perm: new Int32Array(batch.n),
    order: new Int32Array(tree.T),
    groups: makeGroupScratch(batch.groups),
    ctxMean: new Float64Array(env.contexts),
    ctxVar: new Float64Array(env.contexts),
    turnMean: new Float64Array(env.turnRewards ? Math.max(env.contexts, batch.groups) * tree.T : 0),
    nodeValue: new Float64Array(pb.contextNodes),
    criticGrad: new Float64Array(pb.contextNodes),
    klNode: new Float64Array(nodes),
    batchContexts: new Int32Array(env.contexts),
    probe: 0,
  };
}
