// An independent, deliberately naive reference for per-turn rewards in exact mode (docs/math.md
// §1, §3, §5), over any number of contexts: every quantity is recomputed from its definition by
// enumerating token sequences, with plain arrays. Nothing here calls the code under test.

export interface TurnEnv {
  T: number;
  V: number;
  L: number;
  gamma: number;
  /** terminal[x][s]: the mean terminal reward r_T of sequence s of context x. */
  terminal: number[][];
  /** turn[x][t][q]: the reward paid at the end of turn t + 1 (t < T − 1) after the (t + 1)-turn prefix q. */
  turn: number[][][];
}

/** The experiment config of a TurnEnv (tabular, SGD). */
export function turnConfig(e: TurnEnv, opts: { algorithms: Record<string, unknown>[]; mode?: 'exact' | 'sampled'; iterations?: number; seeds?: number; lr?: number; initScale?: number; groupSize?: number; noise?: unknown; turnRewards?: unknown }) {
  return {
    version: 1,
    env: {
      turns: e.T,
      vocab: e.V,
      tokensPerTurn: e.L,
      contexts: e.terminal.length,
      rewards: e.terminal,
      turnRewards: opts.turnRewards ?? e.turn,
      gamma: e.gamma,
      ...(opts.noise ? { noise: opts.noise } : {}),
    },
    policy: { kind: 'tabular', initScale: opts.initScale ?? 0 },
    mode: opts.mode ?? 'exact',
    iterations: opts.iterations ?? 1,
    seeds: opts.seeds ?? 1,
    groupSize: opts.groupSize ?? 8,
    optimizer: { kind: 'sgd', lr: opts.lr ?? 1 },
    algorithms: opts.algorithms,
  };
}

const N = (e: TurnEnv) => e.T * e.L;
export const sequences = (e: TurnEnv) => Math.pow(e.V, N(e));
export const contexts = (e: TurnEnv) => e.terminal.length;
/** Local node index of (position p, prefix q): (V^p − 1)/(V − 1) + q. */
const local = (e: TurnEnv, p: number, q: number) => (Math.pow(e.V, p) - 1) / (e.V - 1) + q;
const nodesPerContext = (e: TurnEnv) => local(e, N(e), 0);
/** Global node: x · nodesPerContext + local. */
export const nodeOf = (e: TurnEnv, x: number, p: number, q: number) => x * nodesPerContext(e) + local(e, p, q);
export const paramCount = (e: TurnEnv) => contexts(e) * nodesPerContext(e) * e.V;

export function tokensOf(e: TurnEnv, s: number): number[] {
  const out: number[] = [];
  for (let k = N(e) - 1; k >= 0; k--) {
    out[k] = s % e.V;
    s = Math.floor(s / e.V);
  }
  return out;
}

/** Index of the first k tokens of s among the V^k prefixes. */
const prefix = (e: TurnEnv, s: number, k: number) => Math.floor(s / Math.pow(e.V, N(e) - k));

/** Rewards r_1..r_T along sequence s of context x. */
export function rewardsAlong(e: TurnEnv, x: number, s: number): number[] {
  const r: number[] = [];
  for (let t = 0; t < e.T - 1; t++) r.push(e.turn[x][t][prefix(e, s, (t + 1) * e.L)]);
  r.push(e.terminal[x][s]);
  return r;
}

/** G_t = Σ_{k≥t} γ^(k−t) r_k, written as the sum of its definition. */
export function rewardToGo(e: TurnEnv, x: number, s: number, t: number): number {
  const r = rewardsAlong(e, x, s);
  let g = 0;
  for (let k = t; k < e.T; k++) g += Math.pow(e.gamma, k - t) * r[k];
  return g;
}

export const total = (e: TurnEnv, x: number, s: number) => rewardsAlong(e, x, s).reduce((a, b) => a + b, 0);

function policyAt(e: TurnEnv, theta: ArrayLike<number>, node: number): number[] {
  const o = node * e.V;
  const logits = Array.from({ length: e.V }, (_, a) => theta[o + a]);
  const m = Math.max(...logits);
  const z = logits.reduce((acc, l) => acc + Math.exp(l - m), 0);
  return logits.map((l) => Math.exp(l - m) / z);
}

/** P_θ(first k tokens of s | x). */
export function prefixProb(e: TurnEnv, theta: ArrayLike<number>, x: number, s: number, k: number): number {
  const toks = tokensOf(e, s);
  let p = 1;
  let q = 0;
  for (let j = 0; j < k; j++) {
    p *= policyAt(e, theta, nodeOf(e, x, j, q))[toks[j]];
    q = q * e.V + toks[j];
  }
  return p;
}

export const seqProb = (e: TurnEnv, theta: ArrayLike<number>, x: number, s: number) => prefixProb(e, theta, x, s, N(e));

/** J = E_x Σ_s P(s|x) · (sum of the rewards along s): the undiscounted objective. */
export function J(e: TurnEnv, theta: ArrayLike<number>): number {
  let j = 0;
  for (let x = 0; x < contexts(e); x++) for (let s = 0; s < sequences(e); s++) j += (seqProb(e, theta, x, s) * total(e, x, s)) / contexts(e);
  return j;
}

/** E[f(s) | x, the first k tokens of s0] under θ. */
export function conditional(e: TurnEnv, theta: ArrayLike<number>, x: number, s0: number, k: number, f: (s: number) => number): number {
  let num = 0;
  let den = 0;
  for (let s = 0; s < sequences(e); s++) {
    if (prefix(e, s, k) !== prefix(e, s0, k)) continue;
    const p = seqProb(e, theta, x, s);
    num += p * f(s);
    den += p;
  }
  return num / den;
}

/**
 * The exact-mode normalization scale of §5 for context x: 1, the population std of R given x + ε,
 * or √(E_x Var(R | x)) + ε (no noise).
 */
export function scaleOf(e: TurnEnv, theta: ArrayLike<number>, norm: 'none' | 'group' | 'batch', x: number): number {
  if (norm === 'none') return 1;
  const variance = (c: number) => {
    const mean = conditional(e, theta, c, 0, 0, (s) => total(e, c, s));
    return conditional(e, theta, c, 0, 0, (s) => (total(e, c, s) - mean) ** 2);
  };
  if (norm === 'group') return Math.sqrt(variance(x)) + 1e-6;
  let v = 0;
  for (let c = 0; c < contexts(e); c++) v += variance(c) / contexts(e);
  return Math.sqrt(v) + 1e-6;
}

/** Exact per-turn advantage of turn t on sequence s: (G_t − E[G_t | x]) / scale (§3, §5). */
export function turnAdvantage(e: TurnEnv, theta: ArrayLike<number>, norm: 'none' | 'group' | 'batch', x: number, s: number, t: number): number {
  const base = conditional(e, theta, x, 0, 0, (s2) => rewardToGo(e, x, s2, t));
  return (rewardToGo(e, x, s, t) - base) / scaleOf(e, theta, norm, x);
}

/** Exact rollout-level advantage of R (undiscounted, GSPO's): (R − E[R | x]) / scale. */
export function returnAdvantage(e: TurnEnv, theta: ArrayLike<number>, norm: 'none' | 'group' | 'batch', x: number, s: number): number {
  const base = conditional(e, theta, x, 0, 0, (s2) => total(e, x, s2));
  return (total(e, x, s) - base) / scaleOf(e, theta, norm, x);
}

/**
 * Exact GAE advantage of token k of s: Q_old − V_old = E[G_t | first k+1 tokens] − E[G_t | first k
 * tokens], t the turn of token k (the discount of later turns measured from turn t).
 */
export function gaeAdvantage(e: TurnEnv, theta: ArrayLike<number>, x: number, s: number, k: number): number {
  const t = Math.floor(k / e.L);
  const G = (s2: number) => rewardToGo(e, x, s2, t);
  return conditional(e, theta, x, s, k + 1, G) - conditional(e, theta, x, s, k, G);
}

/**
 * The plain policy gradient of §3's scaling principle in exact mode:
 * E_x Σ_s P(s|x) Σ_k A(x, s, k) ∇log π(token k), with ∇log π(a | node) = e_a − π(·|node).
 */
export function policyGradient(e: TurnEnv, theta: ArrayLike<number>, A: (x: number, s: number, k: number) => number): number[] {
  const g = new Array<number>(paramCount(e)).fill(0);
  for (let x = 0; x < contexts(e); x++) {
    for (let s = 0; s < sequences(e); s++) {
      const w = seqProb(e, theta, x, s) / contexts(e);
      const toks = tokensOf(e, s);
      let q = 0;
      for (let k = 0; k < N(e); k++) {
        const node = nodeOf(e, x, k, q);
        const pi = policyAt(e, theta, node);
        const a = A(x, s, k);
        for (let b = 0; b < e.V; b++) g[node * e.V + b] += w * a * ((b === toks[k] ? 1 : 0) - pi[b]);
        q = q * e.V + toks[k];
      }
    }
  }
  return g;
}

export function numericGradient(f: (th: number[]) => number, theta: ArrayLike<number>, h = 1e-6): number[] {
  const base = Array.from(theta);
  return base.map((_, i) => {
    const p = base.slice();
    const m = base.slice();
    p[i] += h;
    m[i] -= h;
    return (f(p) - f(m)) / (2 * h);
  });
}

/**
 * A scripted stand-in for a run's sampling stream: uniform() returns the listed values in order
 * (so with a uniform policy over V = 2, u < 0.5 samples token 0 and u ≥ 0.5 token 1).
 */
export function scriptedRng(uniforms: number[]) {
  let i = 0;
  return {
    uniform: () => {
      if (i >= uniforms.length) throw new Error('scripted stream exhausted');
      return uniforms[i++];
    },
    int: () => {
      throw new Error('scripted stream: int() not expected');
    },
    normal: () => {
      throw new Error('scripted stream: normal() not expected');
    },
    used: () => i,
  };
}
