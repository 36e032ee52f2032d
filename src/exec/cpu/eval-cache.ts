import { evaluatePolicy, nodeEntropy, softmaxTable, type PolicyValue } from '../../core/env/exact';
import type { Problem } from '../host/problem';
import type { ExactTables, PolicyTables } from '../host/rollouts';
import type { Scratch } from '../host/scratch';
import { logNormalizer } from '../host/tabular';

// The evaluation after every iteration (docs/math.md "What is measured") without recomputing
// the whole table. Under SGD in sampled mode an iteration moves only nodes its batch visited, and
// of those only the ones with a nonzero gradient entry (host/optimizer.ts, finishAndStepSgd marks
// them), so each run keeps its probabilities, log-normalizers and per-node entropies and
// refreshes those nodes alone, from the log-normalizers KL has just brought up to date at the new
// θ (the same logNormalizer arithmetic as softmaxTable). J, entropy and the optimal-token
// probabilities are the numbers a full softmaxTable + evaluatePolicy gives, bit for bit. The next
// iteration samples from the same θ, so its π_old and log-normalizers are read from here too
// (`tables`).

/** Most probabilities (doubles, over every run of a shard) the cache keeps; past it, full evaluations. */
export const EVAL_CACHE_MAX = 1 << 22;

export class EvalCache {
  private readonly probs: Float64Array[];
  private readonly logZ: Float64Array[];
  private readonly entropies: Float64Array[];
  /** Per run: its probabilities and log-normalizers at its current θ (valid after its latest evaluation). */
  readonly tables: PolicyTables[];

  static applies(pb: Problem, runs: number): boolean {
    return !pb.exact && pb.exp.optimizer.kind === 'sgd' && pb.params * runs <= EVAL_CACHE_MAX;
  }

  constructor(pb: Problem, runs: number) {
    const probs = new Float64Array(pb.params * runs);
    const entropies = new Float64Array(pb.nodes * runs);
    const logZ = new Float64Array(pb.nodes * runs);
    this.probs = Array.from({ length: runs }, (_, r) => probs.subarray(r * pb.params, (r + 1) * pb.params));
    this.logZ = Array.from({ length: runs }, (_, r) => logZ.subarray(r * pb.nodes, (r + 1) * pb.nodes));
    this.tables = this.probs.map((p, r) => ({ probs: p, logZ: this.logZ[r] }));
    this.entropies = Array.from({ length: runs }, (_, r) => entropies.subarray(r * pb.nodes, (r + 1) * pb.nodes));
  }

  /** Run r's evaluation from its whole table (the first one). */
  full(pb: Problem, r: number, theta: Float64Array, sc: Scratch): PolicyValue {
    const V = pb.tree.V;
    const probs = this.probs[r];
    const h = this.entropies[r];
    softmaxTable(theta, V, probs, this.logZ[r]);
    for (let n = 0; n < pb.nodes; n++) h[n] = nodeEntropy(probs, n * V, V);
    return evaluatePolicy(pb.env, pb.tree, pb.opt, probs, sc.evalScratch, sc.value, h);
  }

  /** Run r's evaluation after an iteration: only the batch's nodes that a step moved (Scratch.movedAt) changed; sc.logZ holds their log-normalizers at θ. */
  afterIteration(pb: Problem, r: number, theta: Float64Array, sc: Scratch): PolicyValue {
    const V = pb.tree.V;
    const probs = this.probs[r];
    const h = this.entropies[r];
    const logZ = this.logZ[r];
    const b = sc.batch;
    for (let j = 0; j < b.nNodes; j++) {
      const n = b.nodes[j];
      if (sc.movedAt[n] !== sc.iterationStamp) continue; // θ[n] as at the last evaluation: its numbers stand
      const o = n * V;
      const lz = (logZ[n] = sc.logZ[n]);
      for (let a = 0; a < V; a++) probs[o + a] = Math.exp(theta[o + a] - lz);
      h[n] = nodeEntropy(probs, o, V);
    }
    return evaluatePolicy(pb.env, pb.tree, pb.opt, probs, sc.evalScratch, sc.value, h);
  }
}

/**
 * Exact mode: each run's softmax and sequence probabilities from its latest evaluation, which are
 * the π_old and P_old(τ|x) its next iteration weighs the enumeration by (host/rollouts.ts,
 * weighEnumeration): θ does not move between the two, so they are the same numbers, computed once.
 * After an iteration only the nodes a step moved (Scratch.movedAt) are computed again, from the
 * log-normalizers KL has just brought up to date at the new θ (as EvalCache above): the numbers
 * softmaxTable and evaluatePolicy would give from the whole table.
 */
export class ExactEvalCache {
  readonly tables: ExactTables[];
  private readonly entropies: Float64Array[];
  /** Per run: whether its tables hold an evaluation (else the next is from the whole table). */
  private readonly kept: Uint8Array;

  static applies(pb: Problem, runs: number): boolean {
    return pb.exact && (pb.params + 2 * pb.nodes + pb.rollouts) * runs <= EVAL_CACHE_MAX;
  }

  constructor(pb: Problem, runs: number) {
    const probs = new Float64Array(pb.params * runs);
    const logZ = new Float64Array(pb.nodes * runs);
    const leafProb = new Float64Array(pb.rollouts * runs);
    const entropies = new Float64Array(pb.nodes * runs);
    this.tables = Array.from({ length: runs }, (_, r) => ({
      probs: probs.subarray(r * pb.params, (r + 1) * pb.params),
      logZ: logZ.subarray(r * pb.nodes, (r + 1) * pb.nodes),
      leafProb: leafProb.subarray(r * pb.rollouts, (r + 1) * pb.rollouts),
    }));
    this.entropies = Array.from({ length: runs }, (_, r) => entropies.subarray(r * pb.nodes, (r + 1) * pb.nodes));
    this.kept = new Uint8Array(runs);
  }

  /** Run r's evaluation (as iterate.ts's evaluateRun computes it), its tables kept: from the whole table the first time, else right after its iteration (afterIteration). */
  evaluate(pb: Problem, r: number, theta: Float64Array, sc: Scratch): PolicyValue {
    return this.kept[r] ? this.afterIteration(pb, r, theta, sc) : this.full(pb, r, theta, sc);
  }

  /** Run r's evaluation from its whole table (θ set from outside: CpuShard.thetaSet), its tables kept. */
  full(pb: Problem, r: number, theta: Float64Array, sc: Scratch): PolicyValue {
    this.kept[r] = 1;
    const t = this.tables[r];
    const V = pb.tree.V;
    const h = this.entropies[r];
    softmaxTable(theta, V, t.probs, t.logZ);
    for (let n = 0; n < pb.nodes; n++) h[n] = nodeEntropy(t.probs, n * V, V);
    return this.finish(pb, t, h, sc);
  }

  /** Run r's evaluation right after its iteration: only the nodes a step of it moved changed; sc.logZ holds theirs at θ where current (logZAt). */
  private afterIteration(pb: Problem, r: number, theta: Float64Array, sc: Scratch): PolicyValue {
    // only the batch's nodes are marked when they move (an Adam step moves every node of its turn): exact mode's batch is every node
    if (sc.batch.nNodes !== pb.nodes) return this.full(pb, r, theta, sc);
    const t = this.tables[r];
    const V = pb.tree.V;
    const h = this.entropies[r];
    const { probs, logZ } = t;
    const now = sc.iterationStamp;
    for (let n = 0; n < pb.nodes; n++) {
      if (sc.movedAt[n] !== now) continue; // θ[n] as at the last evaluation: its numbers stand
      const o = n * V;
      const lz = (logZ[n] = sc.logZAt[n] === now ? sc.logZ[n] : logNormalizer(theta, V, n));
      for (let a = 0; a < V; a++) probs[o + a] = Math.exp(theta[o + a] - lz);
      h[n] = nodeEntropy(probs, o, V);
    }
    return this.finish(pb, t, h, sc);
  }

  private finish(pb: Problem, t: ExactTables, h: Float64Array, sc: Scratch): PolicyValue {
    const v = evaluatePolicy(pb.env, pb.tree, pb.opt, t.probs, sc.evalScratch, sc.value, h);
    t.leafProb.set(sc.evalScratch.leafProb!);
    return v;
  }
}
