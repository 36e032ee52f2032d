import type { Env } from './types';
import { discountedReturns, usesDiscountedObjective } from './discounted';
import type { Tree } from './tree';

/**
 * J* and the optimal policy, by backward induction (= best sequence per context). With a table
 * shared across contexts (`shared`), the policy cannot see x, so the optimum is backward
 * induction on the context-weighted mean table (docs/math.md, "Policies"): one "context" whose
 * optimal tokens and path serve every context.
 */
export interface Optimum {
  Jstar: number;
  /** Per context (shared: one entry, the mean table's), best achievable mean reward. */
  best: Float64Array;
  /** optimal[x·nodes·V + n·V + a] = 1 when token a at node n keeps the optimum reachable (shared: x = 0 only). */
  optimal: Uint8Array;
  /** Per context (shared: one entry), the local node ids along the first (lowest-token) optimal path. */
  path: Int32Array[];
  /** One policy table for every context: probabilities and `optimal` are indexed without x. */
  shared: boolean;
}

const TIE = 1e-12;

/** The mean over contexts of every sequence's total return: what a shared table is judged on. */
export function meanReturns(env: Pick<Env, 'returns'>): Float64Array {
  const C = env.returns.length;
  const out = new Float64Array(env.returns[0].length);
  for (const r of env.returns) for (let s = 0; s < out.length; s++) out[s] += r[s];
  for (let s = 0; s < out.length; s++) out[s] /= C;
  return out;
}

export function computeOptimum(env: Env, tree: Tree, shared = false): Optimum {
  const { V, N, nodesPerContext: nodes, offset } = tree;
  const tables = shared ? [meanReturns(env)] : env.returns;
  const C = tables.length;
  const optimal = new Uint8Array(C * nodes * V);
  const best = new Float64Array(C);
  const path: Int32Array[] = [];
  const value = new Float64Array(nodes);
  for (let x = 0; x < C; x++) {
    const R = tables[x];
    for (let p = N - 1; p >= 0; p--) {
      for (let q = 0; q < offset[p + 1] - offset[p]; q++) {
        const n = offset[p] + q;
        let m = -Infinity;
        for (let a = 0; a < V; a++) {
          const c = p === N - 1 ? R[q * V + a] : value[offset[p + 1] + q * V + a];
          if (c > m) m = c;
        }
        value[n] = m;
        for (let a = 0; a < V; a++) {
          const c = p === N - 1 ? R[q * V + a] : value[offset[p + 1] + q * V + a];
          if (c >= m - TIE * Math.max(1, Math.abs(m))) optimal[(x * nodes + n) * V + a] = 1;
        }
      }
    }
    best[x] = value[0];
    const pth = new Int32Array(N);
    let q = 0;
    for (let p = 0; p < N; p++) {
      const n = offset[p] + q;
      pth[p] = n;
      let a = 0;
      while (!optimal[(x * nodes + n) * V + a]) a++;
      q = q * V + a;
    }
    path.push(pth);
  }
  let Jstar = 0;
  for (let x = 0; x < C; x++) Jstar += best[x] / C;
  return { Jstar, best, optimal, path, shared };
}

/** Softmax of every node's logits: probs and log-normalizers, in place. */
export function softmaxTable(logits: Float64Array, V: number, probs: Float64Array, logZ: Float64Array): void {
  const nodes = logZ.length;
  for (let n = 0; n < nodes; n++) {
    const o = n * V;
    let m = -Infinity;
    for (let a = 0; a < V; a++) if (logits[o + a] > m) m = logits[o + a];
    let s = 0;
    for (let a = 0; a < V; a++) {
      const d = logits[o + a] - m;
      s += d === 0 ? 1 : Math.exp(d); // the largest logit's term is exp(0) = 1 exactly: one exp fewer per node
    }
    const lz = m + Math.log(s);
    logZ[n] = lz;
    for (let a = 0; a < V; a++) probs[o + a] = Math.exp(logits[o + a] - lz);
  }
}

export interface PolicyValue {
  J: number;
  /** Mean per-token entropy along trajectories of the policy (nats). */
  entropy: number;
  /** Per turn: probability of the optimal turn response along the optimal path, mean over contexts. */
  optimalProb: Float64Array;
  /**
   * Per context x (written only when there are several): the exact J of context x, E over τ of
   * the total return given x; J is their mean. Allocated by evaluatePolicy when absent.
   */
  Jcontext?: Float64Array;
  /** The discounted return J_γ = E[Σ_t γ^(t−1)·r_t] (docs/math.md, "What is measured"): written only when it is the learners' objective (γ < 1 and per-turn rewards). */
  Jgamma?: number;
}

export interface EvalScratch {
  reach: Float64Array; // nodesPerContext
  /** Optional: leaf probabilities P(s | x), contexts · sequences, written when given. */
  leafProb?: Float64Array;
}

/**
 * Per context, every sequence's discounted return Σ_t γ^(t−1)·r_t when J_γ is the learners'
 * objective (γ < 1 and per-turn rewards), else null; computed once per environment, so every
 * executor that evaluates a policy here records J_γ beside J by the same enumeration.
 */
const discountedTables = new WeakMap<Env, Float64Array[] | null>();
/** The environment discountedOf answered last, and its tables: an executor evaluates one environment over and over (no WeakMap look-up each time). */
let lastEnv: Env | null = null;
let lastTables: Float64Array[] | null = null;
function discountedOf(env: Env): Float64Array[] | null {
  if (env === lastEnv) return lastTables;
  let d = discountedTables.get(env);
  if (d === undefined) discountedTables.set(env, (d = usesDiscountedObjective(env) ? discountedReturns(env) : null));
  lastEnv = env;
  lastTables = d;
  return d;
}

export function makeEvalScratch(tree: Tree): EvalScratch {
  return { reach: new Float64Array(tree.nodesPerContext) };
}

/** Entropy −Σ_a π(a) log π(a) of the V probabilities at probs[o..o+V) (nats). */
export function nodeEntropy(probs: Float64Array, o: number, V: number): number {
  let h = 0;
  for (let a = 0; a < V; a++) {
    const pa = probs[o + a];
    if (pa > 0) h -= pa * Math.log(pa);
  }
  return h;
}

/**
 * Exact J (docs/math.md, "Environments"), entropy and optimal-action probabilities of a policy
 * given as a table of per-node probabilities (contexts · nodes · V; shared: nodes · V), by one
 * pass down the tree. `entropies`, when given, holds nodeEntropy of every node of the table
 * (an executor that keeps them across iterations recomputes only the nodes that moved).
 */
export function evaluatePolicy(
  env: Env,
  tree: Tree,
  opt: Optimum,
  probs: Float64Array,
  scratch: EvalScratch,
  out: PolicyValue,
  entropies: Float64Array | null = null,
): PolicyValue {
  const { V, N, L, T, nodesPerContext: nodes, offset, sequences: S } = tree;
  const reach = scratch.reach;
  const leaf = scratch.leafProb;
  const disc = discountedOf(env);
  let J = 0;
  let Jg = 0;
  let H = 0;
  for (let t = 0; t < out.optimalProb.length; t++) out.optimalProb[t] = 0; // not fill(): a call into the runtime per evaluation
  const C = env.contexts;
  const perContext = C > 1 ? (out.Jcontext?.length === C ? out.Jcontext : (out.Jcontext = new Float64Array(C))) : null;
  for (let x = 0; x < env.contexts; x++) {
    const R = env.returns[x];
    const D = disc ? disc[x] : null;
    const base = opt.shared ? 0 : x * nodes; // a shared table: every context reads the same probabilities
    reach[0] = 1;
    let jx = 0;
    let jgx = 0;
    let hx = 0;
    for (let p = 0; p < N; p++) {
      const last = p === N - 1;
      for (let n = offset[p]; n < offset[p + 1]; n++) {
        const r = reach[n];
        const o = (base + n) * V;
        hx += r * (entropies ? entropies[base + n] : nodeEntropy(probs, o, V));
        const q = n - offset[p];
        if (last) {
          for (let a = 0; a < V; a++) {
            const pr = r * probs[o + a];
            jx += pr * R[q * V + a];
            if (D) jgx += pr * D[q * V + a];
            if (leaf) leaf[x * S + q * V + a] = pr;
          }
        } else {
          const c0 = offset[p + 1] + q * V;
          for (let a = 0; a < V; a++) reach[c0 + a] = r * probs[o + a];
        }
      }
    }
    J += jx / env.contexts;
    Jg += jgx / env.contexts;
    if (perContext) perContext[x] = jx;
    H += hx / (N * env.contexts);
    const pth = opt.path[opt.shared ? 0 : x];
    for (let t = 0; t < T; t++) {
      let prod = 1;
      for (let p = t * L; p < (t + 1) * L; p++) {
        const o = (base + pth[p]) * V;
        let mass = 0;
        for (let a = 0; a < V; a++) if (opt.optimal[o + a]) mass += probs[o + a];
        prod *= mass;
      }
      out.optimalProb[t] += prod / env.contexts;
    }
  }
  out.J = J;
  if (disc) out.Jgamma = Jg;
  out.entropy = H;
  return out;
}

/** `contexts` > 1: with its per-context J (evaluatePolicy allocates it otherwise on first use). */
export function makePolicyValue(T: number, contexts = 1): PolicyValue {
  return { J: 0, entropy: 0, optimalProb: new Float64Array(T), ...(contexts > 1 ? { Jcontext: new Float64Array(contexts) } : {}) };
}
