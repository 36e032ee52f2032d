// An independent, deliberately naive reference for exact mode on one context: every
// quantity is recomputed from its definition in docs/math.md, and every gradient is a
// central finite difference of the literal surrogate. Slow, allocation-happy, obviously right.

export interface RefEnv {
  T: number;
  V: number;
  L: number;
  rewards: number[]; // one context
  gamma: number;
}

export interface RefAlgo {
  rule: 'reinforce' | 'ppu' | 'sequential';
  normalization: 'none' | 'group' | 'batch';
  ratio?: 'token' | 'sequence';
  order?: 'reverse' | 'forward';
  turnRatio?: 'product' | 'geomean';
  mCorrection?: boolean;
  mClip?: number | null;
  clip: number;
  epochs: number;
}

const N = (e: RefEnv) => e.T * e.L;

/** Node index of (position p, prefix q): (V^p − 1)/(V − 1) + q. */
export function nodeIndex(e: RefEnv, p: number, q: number): number {
  return (Math.pow(e.V, p) - 1) / (e.V - 1) + q;
}

export function paramCount(e: RefEnv): number {
  return nodeIndex(e, N(e), 0) * e.V;
}

function tokensOf(e: RefEnv, s: number): number[] {
  const out: number[] = [];
  for (let k = N(e) - 1; k >= 0; k--) {
    out[k] = s % e.V;
    s = Math.floor(s / e.V);
  }
  return out;
}

/** log π(a_k | prefix) for each token of sequence s. */
function tokenLogProbs(e: RefEnv, theta: number[], s: number): number[] {
  const toks = tokensOf(e, s);
  const out: number[] = [];
  let q = 0;
  for (let k = 0; k < N(e); k++) {
    const o = nodeIndex(e, k, q) * e.V;
    const logits = theta.slice(o, o + e.V);
    const m = Math.max(...logits);
    const lz = m + Math.log(logits.reduce((a, l) => a + Math.exp(l - m), 0));
    out.push(logits[toks[k]] - lz);
    q = q * e.V + toks[k];
  }
  return out;
}

export function seqProb(e: RefEnv, theta: number[], s: number): number {
  return Math.exp(tokenLogProbs(e, theta, s).reduce((a, b) => a + b, 0));
}

export function J(e: RefEnv, theta: number[]): number {
  let j = 0;
  for (let s = 0; s < e.rewards.length; s++) j += seqProb(e, theta, s) * e.rewards[s];
  return j;
}

export function numericGradient(f: (th: number[]) => number, theta: number[], h = 1e-6): number[] {
  return theta.map((_, i) => {
    const p = theta.slice();
    const m = theta.slice();
    p[i] += h;
    m[i] -= h;
    return (f(p) - f(m)) / (2 * h);
  });
}

const clip = (r: number, eps: number) => Math.min(Math.max(r, 1 - eps), 1 + eps);
const clippedTerm = (ratio: number, A: number, eps: number) => Math.min(ratio * A, clip(ratio, eps) * A);

/** Exact-mode advantages per sequence (one context): R̄ − V_old, then normalized. */
export function exactAdvantages(e: RefEnv, thetaOld: number[], norm: RefAlgo['normalization']): number[] {
  const S = e.rewards.length;
  const P = Array.from({ length: S }, (_, s) => seqProb(e, thetaOld, s));
  const mean = P.reduce((a, p, s) => a + p * e.rewards[s], 0);
  const variance = P.reduce((a, p, s) => a + p * (e.rewards[s] - mean) ** 2, 0);
  const sd = Math.sqrt(variance);
  // one context: group std and batch σ coincide (population, exact mode)
  return e.rewards.map((r) => (norm === 'none' ? r - mean : (r - mean) / (sd + 1e-6)));
}

/** One iteration of a rule in exact mode, SGD with learning rate lr. Returns the new logits. */
export function referenceIteration(e: RefEnv, algo: RefAlgo, thetaOld: number[], lr: number): number[] {
  const S = e.rewards.length;
  const n = N(e);
  const w = Array.from({ length: S }, (_, s) => seqProb(e, thetaOld, s));
  const adv = exactAdvantages(e, thetaOld, algo.normalization);
  const advTok = (s: number, k: number) => Math.pow(e.gamma, e.T - 1 - Math.floor(k / e.L)) * adv[s];
  const oldLp = Array.from({ length: S }, (_, s) => tokenLogProbs(e, thetaOld, s));
  const step = (theta: number[], L: (th: number[]) => number) => {
    const g = numericGradient(L, theta);
    return theta.map((v, i) => v + lr * g[i]);
  };
  let theta = thetaOld.slice();
  if (algo.rule === 'reinforce') {
    return step(theta, (th) => {
      let l = 0;
      for (let s = 0; s < S; s++) tokenLogProbs(e, th, s).forEach((lp, k) => (l += w[s] * advTok(s, k) * lp));
      return l;
    });
  }
  if (algo.rule === 'ppu') {
    const L = (th: number[]) => {
      let l = 0;
      for (let s = 0; s < S; s++) {
        const lp = tokenLogProbs(e, th, s);
        if (algo.ratio === 'sequence') {
          const rho = Math.exp(lp.reduce((a, x, k) => a + x - oldLp[s][k], 0) / n);
          l += w[s] * n * clippedTerm(rho, adv[s], algo.clip);
        } else {
          lp.forEach((x, k) => (l += w[s] * clippedTerm(Math.exp(x - oldLp[s][k]), advTok(s, k), algo.clip)));
        }
      }
      return l;
    };
    for (let ep = 0; ep < algo.epochs; ep++) theta = step(theta, L);
    return theta;
  }
  const M = new Array<number>(S).fill(1);
  const turns = Array.from({ length: e.T }, (_, i) => (algo.order === 'reverse' ? e.T - 1 - i : i));
  for (const t of turns) {
    const k0 = t * e.L;
    const k1 = k0 + e.L;
    const L = (th: number[]) => {
      let l = 0;
      for (let s = 0; s < S; s++) {
        const lp = tokenLogProbs(e, th, s);
        let logRatio = 0;
        for (let k = k0; k < k1; k++) logRatio += lp[k] - oldLp[s][k];
        const geo = algo.turnRatio === 'geomean';
        const rho = Math.exp(geo ? logRatio / e.L : logRatio);
        const m = algo.mCorrection === false ? 1 : M[s];
        l += w[s] * (geo ? e.L : 1) * Math.min(rho * m * advTok(s, k0), clip(rho, algo.clip) * m * advTok(s, k0));
      }
      return l;
    };
    for (let ep = 0; ep < algo.epochs; ep++) theta = step(theta, L);
    for (let s = 0; s < S; s++) {
      const lp = tokenLogProbs(e, theta, s);
      let logRatio = 0;
      for (let k = k0; k < k1; k++) logRatio += lp[k] - oldLp[s][k];
      M[s] *= Math.exp(logRatio);
      if (algo.mClip != null) M[s] = clip(M[s], algo.mClip);
    }
  }
  return theta;
}
