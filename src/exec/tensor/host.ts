import { algorithmLr } from '../../core/algo/records';
import type { Problem } from '../host/problem';
import { computeAdvantages, criticStep, sampleRollouts, weighEnumeration } from '../host/rollouts';
import type { Scratch } from '../host/scratch';
import type { RunState } from '../host/state';
import { logNormalizer, nodeKl } from '../host/tabular';
import type { RowEncoder } from './features';
import { planIteration, type PlannedStep } from './schedule';

// The host half of the tensor executor's iteration: rollouts, rewards and advantages in
// float64 with the CPU executor's own code (docs/math.md "One iteration": reward statistics on the host),
// reading the run's policy from a mirror of its log-probability table (read back every
// iteration). The device half (update.ts) takes the batch from here.

/** One iteration's batch for every run of a shard, flat, run-major. */
export interface HostBatch {
  R: number;
  S: number; // rollouts per run
  P: number; // tokens per rollout
  Q: number; // rows of logits per run
  index: Int32Array; // [R·S·P] ((r·Q + row)·V + token)
  advTok: Float32Array; // [R·S·P]
  adv: Float32Array; // [R·S]
  weight: Float32Array; // [R·S]
  node: Int32Array; // [R·S·P] for KL on the host
  weight64: Float64Array; // [R·S]
  X: Float32Array | null; // MLP, sampled: inputs [R·S·P, in]
  encoder: RowEncoder | null;
  zeroVar: Float64Array; // [R]
  plans: PlannedStep[][];
}

/** `encoder`: the MLP's per-rollout input rows in sampled mode (null: rows are the nodes). */
export function makeHostBatch(pb: Pick<Problem, 'rollouts' | 'tree' | 'nodes'>, R: number, encoder: RowEncoder | null): HostBatch {
  const S = pb.rollouts;
  const P = pb.tree.N;
  return {
    R,
    S,
    P,
    Q: encoder ? S * P : pb.nodes,
    index: new Int32Array(R * S * P),
    advTok: new Float32Array(R * S * P),
    adv: new Float32Array(R * S),
    weight: new Float32Array(R * S),
    node: new Int32Array(R * S * P),
    weight64: new Float64Array(R * S),
    X: encoder ? new Float32Array(R * S * P * encoder.width) : null,
    encoder,
    zeroVar: new Float64Array(R),
    plans: [],
  };
}

/** Run r takes no part in the device's update: zero weights and advantages, no steps. */
export function idleRun(hb: HostBatch, r: number): void {
  hb.weight.fill(0, r * hb.S, (r + 1) * hb.S);
  hb.weight64.fill(0, r * hb.S, (r + 1) * hb.S);
  hb.adv.fill(0, r * hb.S, (r + 1) * hb.S);
  hb.advTok.fill(0, r * hb.S * hb.P, (r + 1) * hb.S * hb.P);
  hb.plans[r] = [];
}

/**
 * Rollouts, advantages, critic and step plan of run r from its π_old mirror. Returns false when
 * a number of the host's half is not finite (the CPU executor's probe, iterate.ts: advantages
 * and the reward statistics they are scaled by, the critic; and the advantages once in float32,
 * where 1e39 is already ∞): the run then diverges at the next iteration and sits this update
 * out, like a run that diverged before (idleRun), so nothing non-finite reaches the device.
 */
export function prepareRun(pb: Problem, run: RunState, sc: Scratch, hb: HostBatch, r: number): boolean {
  if (run.diverged !== null) {
    idleRun(hb, r);
    return true;
  }
  sc.probe = 0;
  if (pb.exact) weighEnumeration(pb, run, sc);
  else sampleRollouts(pb, run, sc);
  hb.zeroVar[r] = computeAdvantages(pb, run, sc);
  const a = run.algo;
  if (run.critic) {
    const steps = a.rule === 'reinforce' ? 1 : a.epochs; // one critic step per epoch (sequential: per epoch, not per turn)
    for (let e = 0; e < steps; e++) criticStep(pb, run, sc, a.criticLr ?? algorithmLr(a, pb.exp.optimizer.lr));
  }
  const b = sc.batch;
  const { S, P, Q } = hb;
  const V = pb.tree.V;
  let probe = sc.probe;
  for (let i = 0; i < S; i++) {
    hb.weight[r * S + i] = b.weight[i];
    hb.weight64[r * S + i] = b.weight[i];
    hb.adv[r * S + i] = b.adv[i];
    probe += hb.adv[r * S + i] * 0; // the float32 value (an assignment's value is the float64 one)
    for (let k = 0; k < P; k++) {
      const j = i * P + k;
      const row = hb.X ? j : b.node[j];
      hb.index[r * S * P + j] = (r * Q + row) * V + b.tok[j];
      hb.advTok[r * S * P + j] = b.advTok[j];
      probe += hb.advTok[r * S * P + j] * 0;
      hb.node[r * S * P + j] = b.node[j];
      if (hb.encoder) hb.encoder.encode(b.ctx[i], k, b.tok, i * P, b.node[j], hb.X!, (r * S * P + j) * hb.encoder.width);
    }
  }
  if (!Number.isFinite(probe)) {
    idleRun(hb, r);
    return false;
  }
  hb.plans[r] = planIteration(pb, run, sc.order);
  return true;
}

/** KL(π_old ‖ π_new) averaged over run r's node visits, weighted like the batch. */
export function visitKl(pb: Problem, hb: HostBatch, r: number, old: Float64Array, cur: Float64Array): number {
  const V = pb.tree.V;
  const { S, P } = hb;
  let kl = 0;
  for (let i = 0; i < S; i++) {
    const w = hb.weight64[r * S + i] / P;
    if (w === 0) continue;
    for (let k = 0; k < P; k++) {
      const n = hb.node[(r * S + i) * P + k];
      kl += w * nodeKl(old, logNormalizer(old, V, n), cur, logNormalizer(cur, V, n), n * V, V);
    }
  }
  return kl;
}
