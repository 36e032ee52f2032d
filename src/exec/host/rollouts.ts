import { advantageStd, groupAdvantages, NORM_EPS, standardize, type GroupScratch, type Normalization } from '../../core/algo/advantages';
import { evaluatePolicy, softmaxTable } from '../../core/env/exact';
import { rewardsToGo } from '../../core/env/returns';
import { noiseVariance } from '../../core/env/types';
import { stepDiscount } from '../../core/env/tree';
import { collectNodes } from './batch';
import type { Problem } from './problem';
import type { Scratch } from './scratch';
import type { RunState } from './state';
import { logNormalizer } from './tabular';

/** A run's softmax at its current θ: probabilities exp(θ − logZ) and log-normalizers, per node. */
export interface PolicyTables {
  probs: Float64Array;
  logZ: Float64Array;
}

/**
 * Sample B·G rollouts from π_old token by token (docs/math.md "One iteration"), recording log π_old, the
 * rewards by turn (noise on the terminal one only), their total R and, with per-turn rewards,
 * the discounted rewards-to-go G_t (§1). `known`: the run's softmax at θ, already computed (the
 * executor's evaluation of θ), read instead of computed again: the same numbers.
 */
export function sampleRollouts(pb: Problem, run: RunState, sc: Scratch, known: PolicyTables | null = null): void {
  const { tree, env } = pb;
  const { V, N, L, T, offset, nodesPerContext } = tree;
  const b = sc.batch;
  const G = pb.exp.groupSize;
  const B = env.contextsPerBatch;
  const rng = run.sampleRng;
  const theta = run.theta;
  const ctxs = sc.batchContexts;
  const { probsOld, thetaOld, logZOld, stamp } = sc;
  const { tok, node, param, logpOld, contextNode } = b;
  const ownContextNodes = contextNode !== node;
  const w = 1 / b.n;
  for (let x = 0; x < env.contexts; x++) ctxs[x] = x;
  if (B < env.contexts) for (let j = 0; j < B; j++) {
    const r = j + rng.int(env.contexts - j);
    const t = ctxs[j];
    ctxs[j] = ctxs[r];
    ctxs[r] = t;
  }
  const mark = ++sc.mark;
  for (let g0 = 0; g0 < B; g0++) {
    const x = ctxs[g0];
    const noise = env.noise[x];
    const R = env.rewards[x];
    const turnTables = env.turnRewards ? env.turnRewards[x] : null;
    for (let j = 0; j < G; j++) {
      const i = g0 * G + j;
      b.ctx[i] = x;
      b.group[i] = g0;
      b.weight[i] = w;
      let q = 0;
      const base = pb.shared ? 0 : x * nodesPerContext; // a shared table: one node for every context
      for (let k = 0; k < N; k++) {
        const n = base + offset[k] + q;
        if (ownContextNodes) contextNode[i * N + k] = x * nodesPerContext + offset[k] + q;
        const o = n * V;
        if (stamp[n] !== mark) {
          stamp[n] = mark;
          if (known) {
            logZOld[n] = known.logZ[n];
            for (let a = 0; a < V; a++) {
              thetaOld[o + a] = theta[o + a];
              probsOld[o + a] = known.probs[o + a];
            }
          } else {
            const lz = (logZOld[n] = logNormalizer(theta, V, n));
            for (let a = 0; a < V; a++) {
              thetaOld[o + a] = theta[o + a];
              probsOld[o + a] = Math.exp(theta[o + a] - lz);
            }
          }
        }
        const lz = logZOld[n];
        const u = rng.uniform();
        let a = 0;
        let cum = probsOld[o];
        while (u >= cum && a < V - 1) cum += probsOld[o + ++a];
        tok[i * N + k] = a;
        node[i * N + k] = n;
        param[i * N + k] = o + a;
        logpOld[i * N + k] = theta[o + a] - lz;
        q = q * V + a;
        // the reward of turn t < T, paid after its last token, indexed by the (t+1)-turn prefix q
        if (turnTables && k < N - 1 && (k + 1) % L === 0) b.turnReward[i * T + (k + 1) / L - 1] = turnTables[(k + 1) / L - 1][q];
      }
      const mean = R[q];
      const terminal =
        noise.kind === 'gaussian' ? mean + noise.sigma * rng.normal() : noise.kind === 'bernoulli' ? (rng.uniform() < mean ? 1 : 0) : mean;
      if (!turnTables) {
        b.reward[i] = terminal; // b.terminal is the same array
        continue;
      }
      b.terminal[i] = terminal;
      b.turnReward[i * T + T - 1] = terminal;
      // the total in the order of env.returns (terminal, then turns 1..T−1), so without noise R = R̄ exactly
      let total = terminal;
      for (let t = 0; t < T - 1; t++) total += b.turnReward[i * T + t];
      b.reward[i] = total;
      rewardsToGo(b.turnReward, i * T, T, env.gamma, b.togo, i * T);
    }
  }
  collectNodes(pb, b, sc.stamp, ++sc.mark);
}

/** A run's softmax at θ and, exact mode, its sequences' probabilities P(τ|x) (evaluatePolicy's leafProb). */
export type ExactTables = PolicyTables & { leafProb: Float64Array };

/**
 * Exact mode: weights p(x)·P_old(τ|x) and log π_old for the fixed enumeration (§5). `known`: the
 * run's softmax and leaf probabilities at θ from its latest evaluation (the executor's), read
 * instead of computed again: the same numbers.
 */
export function weighEnumeration(pb: Problem, run: RunState, sc: Scratch, known: ExactTables | null = null): void {
  const b = sc.batch;
  const V = pb.tree.V;
  sc.thetaOld.set(run.theta);
  if (known) {
    sc.logZOld.set(known.logZ);
    sc.probsOld.set(known.probs);
  } else {
    softmaxTable(run.theta, V, sc.probs, sc.logZOld);
    sc.probsOld.set(sc.probs); // exp(θ − logZ), as sampleRollouts computes π_old
    evaluatePolicy(pb.env, pb.tree, pb.opt, sc.probs, sc.evalScratch, sc.value);
  }
  const leaf = known ? known.leafProb : sc.evalScratch.leafProb!;
  for (let i = 0; i < b.n; i++) b.weight[i] = leaf[i] / pb.env.contexts;
  for (let j = 0; j < b.n * b.N; j++) b.logpOld[j] = run.theta[b.node[j] * V + b.tok[j]] - sc.logZOld[b.node[j]];
}

/**
 * Exact per-context mean V_old(x) and variance of the total return R (the terminal reward's
 * noise variance included: it depends on the terminal mean, not the total) under the batch
 * weights; with per-turn rewards also E_old[G_t | x] in sc.turnMean.
 */
function exactContextMoments(pb: Problem, sc: Scratch): void {
  const b = sc.batch;
  const C = pb.env.contexts;
  const T = pb.tree.T;
  // loops, not fill(): a typed array's fill is a call into the runtime
  for (let x = 0; x < C; x++) {
    sc.ctxMean[x] = 0;
    sc.ctxVar[x] = 0;
  }
  for (let i = 0; i < b.n; i++) sc.ctxMean[b.ctx[i]] += b.weight[i] * C * b.reward[i];
  for (let i = 0; i < b.n; i++) {
    const x = b.ctx[i];
    const d = b.reward[i] - sc.ctxMean[x];
    sc.ctxVar[x] += b.weight[i] * C * (d * d + noiseVariance(pb.env.noise[x], b.terminal[i]));
  }
  if (!pb.env.turnRewards) return;
  const m = sc.turnMean;
  for (let j = 0; j < C * T; j++) m[j] = 0;
  for (let i = 0; i < b.n; i++) {
    const w = b.weight[i] * C;
    const o = b.ctx[i] * T;
    for (let t = 0; t < T; t++) m[o + t] += w * b.togo[i * T + t];
  }
}

/**
 * Advantages Â_i and the advantage fed to each token (§3.2–3.3): grae/rloo with the turn
 * discount γ^(T−t) (with per-turn rewards: from the rewards-to-go G_t, turnAdvantages), or GAE
 * per token. Returns the fraction of groups with zero reward variance.
 *
 * Adds to the finiteness probe (sc.probe): every Â_i and token advantage, and the reward
 * statistics that scale them (a group's or the context's variance under `group`, the batch σ
 * under `batch`): a σ that overflowed to ∞ would turn every advantage into a silent 0.
 */
export function computeAdvantages(pb: Problem, run: RunState, sc: Scratch): number {
  const zeroVar = advantagesOf(pb, run, sc);
  const b = sc.batch;
  let probe = 0;
  for (let i = 0; i < b.n; i++) probe += b.adv[i] * 0;
  for (let j = 0; j < b.n * b.N; j++) probe += b.advTok[j] * 0;
  if (run.algo.normalization === 'group') {
    if (pb.exact) for (let x = 0; x < pb.env.contexts; x++) probe += sc.ctxVar[x] * 0;
    else for (let g = 0; g < b.groups; g++) probe += sc.groups.sumSq[g] * 0;
  }
  sc.probe += probe;
  return zeroVar;
}

/**
 * Group advantages (docs/math.md "Advantages") as core/algo/advantages' groupAdvantages computes them,
 * bit for bit, returning the finiteness probe of the statistics it normalized by (`batch`: σ;
 * `group`: each group's Σ(R − R̄)²); the caller probes the advantages themselves.
 */
export function checkedGroupAdvantages(
  rewards: ArrayLike<number>,
  group: ArrayLike<number>,
  n: number,
  estimator: 'grae' | 'rloo',
  normalization: Normalization,
  out: Float64Array,
  gs: GroupScratch,
): number {
  groupAdvantages(rewards, group, n, estimator, normalization === 'batch' ? 'none' : normalization, out, gs);
  if (normalization === 'batch') return standardize(out, n) * 0;
  let probe = 0;
  if (normalization === 'group') for (let g = 0; g < gs.sumSq.length; g++) probe += gs.sumSq[g] * 0;
  return probe;
}

function advantagesOf(pb: Problem, run: RunState, sc: Scratch): number {
  const b = sc.batch;
  const { N, L } = pb.tree;
  const a = run.algo;
  let zeroVar = 0;
  if (pb.exact) {
    exactContextMoments(pb, sc);
    for (let x = 0; x < pb.env.contexts; x++) if (sc.ctxVar[x] <= 1e-12) zeroVar++;
    zeroVar /= pb.env.contexts;
  } else {
    sc.probe += checkedGroupAdvantages(b.reward, b.group, b.n, a.advantage === 'rloo' ? 'rloo' : 'grae', a.advantage === 'gae' ? 'none' : a.normalization, b.adv, sc.groups);
    for (let g = 0; g < b.groups; g++) if (sc.groups.sumSq[g] === 0) zeroVar++;
    zeroVar /= b.groups;
  }
  if (a.advantage === 'gae') {
    gaeAdvantages(pb, run, sc);
    return zeroVar;
  }
  if (pb.exact) {
    // rloo = grae in exact mode; group std → exact std given x; batch σ² = E_x Var(R|x).
    let sigma = 0;
    if (a.normalization === 'batch') for (let x = 0; x < pb.env.contexts; x++) sigma += sc.ctxVar[x] / pb.env.contexts;
    sigma = Math.sqrt(sigma);
    sc.probe += sigma * 0;
    for (let i = 0; i < b.n; i++) {
      const x = b.ctx[i];
      const d = b.reward[i] - sc.ctxMean[x];
      b.adv[i] = a.normalization === 'group' ? d / (Math.sqrt(sc.ctxVar[x]) + NORM_EPS) : a.normalization === 'batch' ? d / (sigma + NORM_EPS) : d;
    }
  }
  if (pb.env.turnRewards) {
    turnAdvantages(pb, run, sc);
    return zeroVar;
  }
  const disc = pb.turnDiscount;
  const T = pb.tree.T;
  const { adv, advTok } = b;
  // turn by turn (token k is in turn ⌊k / L⌋): no division per token
  for (let i = 0; i < b.n; i++) {
    const A = adv[i];
    for (let t = 0, j = i * N; t < T; t++) {
      const d = disc[t];
      for (let l = 0; l < L; l++, j++) advTok[j] = d * A;
    }
  }
  return zeroVar;
}

/**
 * Per-turn rewards (§3.2): turn t's tokens are fed Â_i,t = (G_i,t − baseline of G_t) / s, the
 * baseline being the group mean of G_t (rloo: of the other members; exact: E_old[G_t | x]) and
 * s one constant per group or batch from the total return R: 1 (`none`), the group's std of R
 * + ε (`group`; exact: the population std given x, noise included), or the batch's std of the
 * rollout advantages Â_i of R + ε (`batch`; exact: √E_x Var_old(R | x) + ε). With a terminal
 * reward only, G_t = γ^(T−t)·R and this is the turn-discounted rule. b.adv (GSPO) stays Â of R.
 */
function turnAdvantages(pb: Problem, run: RunState, sc: Scratch): void {
  const b = sc.batch;
  const { N, L, T } = pb.tree;
  const norm = run.algo.normalization;
  const m = sc.turnMean;
  const Gt = b.togo;
  if (pb.exact) {
    let sigma = 0;
    if (norm === 'batch') for (let x = 0; x < pb.env.contexts; x++) sigma += sc.ctxVar[x] / pb.env.contexts;
    sigma = Math.sqrt(sigma);
    sc.probe += sigma * 0;
    for (let i = 0; i < b.n; i++) {
      const x = b.ctx[i];
      const s = norm === 'group' ? Math.sqrt(sc.ctxVar[x]) + NORM_EPS : norm === 'batch' ? sigma + NORM_EPS : 1;
      for (let t = 0; t < T; t++) {
        const v = (Gt[i * T + t] - m[x * T + t]) / s;
        for (let j = i * N + t * L; j < i * N + t * L + L; j++) b.advTok[j] = v;
      }
    }
    return;
  }
  const gs = sc.groups; // sum, sumSq and count of R per group, from groupAdvantages
  const rloo = run.algo.advantage === 'rloo';
  for (let j = 0; j < b.groups * T; j++) m[j] = 0;
  for (let i = 0; i < b.n; i++) for (let t = 0; t < T; t++) m[b.group[i] * T + t] += Gt[i * T + t];
  const sigma = norm === 'batch' ? advantageStd(b.reward, b.group, b.n, rloo ? 'rloo' : 'grae', gs) : 0;
  sc.probe += sigma * 0;
  for (let i = 0; i < b.n; i++) {
    const g = b.group[i];
    const c = gs.count[g];
    const s = norm === 'group' ? Math.sqrt(gs.sumSq[g] / (c - 1)) + NORM_EPS : norm === 'batch' ? sigma + NORM_EPS : 1;
    for (let t = 0; t < T; t++) {
      const G = Gt[i * T + t];
      const sum = m[g * T + t];
      const d = rloo ? G - (sum - G) / (c - 1) : G - sum / c;
      const v = d / s;
      for (let j = i * N + t * L; j < i * N + t * L + L; j++) b.advTok[j] = v;
    }
  }
}

/**
 * GAE with γ_step (γ between turns, 1 within) and λ, each turn's reward r_t at its last token
 * (the terminal one, with its noise, at the last token); exact mode uses Q_old − V_old.
 */
function gaeAdvantages(pb: Problem, run: RunState, sc: Scratch): void {
  const b = sc.batch;
  const { N, V, L, T, nodesPerContext, offset } = pb.tree;
  const perTurn = pb.env.turnRewards !== null;
  const gamma = pb.env.gamma;
  const lambda = run.algo.gaeLambda;
  if (pb.exact) {
    // V_old(node) by a backward pass over the tree, with the turn discounts.
    // Vn is per context (x · nodesPerContext + local): the environment knows x even when the policy does not
    const Vn = sc.nodeValue;
    for (let x = 0; x < pb.env.contexts; x++) {
      const base = x * nodesPerContext;
      const pbase = pb.shared ? 0 : base; // the parameter node of (x, n)
      const R = pb.env.rewards[x];
      for (let p = N - 1; p >= 0; p--) {
        const disc = stepDiscount(pb.tree, gamma, p);
        // the end of turn t < T: its reward, indexed by the (t+1)-turn prefix q·V + a
        const paid = perTurn && p < N - 1 && (p + 1) % L === 0 ? pb.env.turnRewards![x][(p + 1) / L - 1] : null;
        for (let n = offset[p]; n < offset[p + 1]; n++) {
          const o = (pbase + n) * V;
          const q = n - offset[p];
          let v = 0;
          for (let a = 0; a < V; a++) {
            const pa = Math.exp(sc.thetaOld[o + a] - sc.logZOld[pbase + n]);
            const next = base + offset[p + 1] + q * V + a;
            v += pa * (p === N - 1 ? R[q * V + a] : paid ? paid[q * V + a] + disc * Vn[next] : disc * Vn[next]);
          }
          Vn[base + n] = v;
        }
      }
    }
    const cn = b.contextNode;
    for (let i = 0; i < b.n; i++) {
      for (let k = 0; k < N; k++) {
        const j = i * N + k;
        const disc = stepDiscount(pb.tree, gamma, k);
        const q =
          k === N - 1
            ? b.terminal[i]
            : perTurn && (k + 1) % L === 0
              ? b.turnReward[i * T + (k + 1) / L - 1] + disc * Vn[cn[j + 1]]
              : disc * Vn[cn[j + 1]];
        b.advTok[j] = q - Vn[cn[j]];
      }
    }
  } else {
    const Vc = run.critic!;
    for (let i = 0; i < b.n; i++) {
      let next = 0;
      let acc = 0;
      for (let k = N - 1; k >= 0; k--) {
        const j = i * N + k;
        const disc = stepDiscount(pb.tree, gamma, k);
        const v = Vc[b.contextNode[j]];
        const r = k === N - 1 ? b.terminal[i] : perTurn && (k + 1) % L === 0 ? b.turnReward[i * T + (k + 1) / L - 1] : 0;
        const delta = r + disc * next - v;
        acc = delta + disc * lambda * (k === N - 1 ? 0 : acc);
        b.advTok[j] = acc;
        b.target[j] = acc + v;
        next = v;
      }
    }
  }
  normalizeTokenAdvantages(pb, run, sc);
}

/** GAE advantages are per token: `group` divides by the group's reward std, `batch` standardizes over tokens. */
function normalizeTokenAdvantages(pb: Problem, run: RunState, sc: Scratch): void {
  const b = sc.batch;
  const N = b.N;
  const norm = run.algo.normalization;
  if (norm === 'none') return;
  if (norm === 'group') {
    for (let i = 0; i < b.n; i++) {
      const sd = pb.exact
        ? Math.sqrt(sc.ctxVar[b.ctx[i]])
        : Math.sqrt(sc.groups.sumSq[b.group[i]] / (sc.groups.count[b.group[i]] - 1));
      for (let k = 0; k < N; k++) b.advTok[i * N + k] /= sd + NORM_EPS;
    }
    return;
  }
  if (!pb.exact) {
    sc.probe += standardize(b.advTok, b.n * N) * 0;
    return;
  }
  let mu = 0;
  for (let i = 0; i < b.n; i++) for (let k = 0; k < N; k++) mu += (b.weight[i] / N) * b.advTok[i * N + k];
  let v = 0;
  for (let i = 0; i < b.n; i++) {
    const nv = noiseVariance(pb.env.noise[b.ctx[i]], b.terminal[i]); // the terminal reward's noise enters the last token's advantage
    for (let k = 0; k < N; k++) {
      const d = b.advTok[i * N + k] - mu;
      v += (b.weight[i] / N) * (d * d + (k === N - 1 ? nv : 0));
    }
  }
  const sd = Math.sqrt(v);
  sc.probe += sd * 0;
  for (let j = 0; j < b.n * N; j++) b.advTok[j] = (b.advTok[j] - mu) / (sd + NORM_EPS);
}

/**
 * One SGD step of the critic on ½·mean over rollouts of Σ_tokens (V − λ-return)². Adds the new
 * values (the only ones that moved: the batch's nodes) to the finiteness probe.
 */
export function criticStep(pb: Problem, run: RunState, sc: Scratch, lr: number): void {
  const Vc = run.critic;
  if (!Vc) return;
  const b = sc.batch;
  const g = sc.criticGrad;
  const cn = b.contextNode; // the critic sees the context, even when the policy's table is shared
  for (let j = 0; j < b.n * b.N; j++) g[cn[j]] = 0;
  for (let j = 0; j < b.n * b.N; j++) g[cn[j]] += (Vc[cn[j]] - b.target[j]) / b.n;
  let probe = 0;
  if (cn === b.node) for (let j = 0; j < b.nNodes; j++) probe += (Vc[b.nodes[j]] -= lr * g[b.nodes[j]]) * 0;
  else
    for (let j = 0; j < b.n * b.N; j++) {
      // each visited node once: its gradient is cleared once applied
      const n = cn[j];
      if (g[n] === 0) continue;
      probe += (Vc[n] -= lr * g[n]) * 0;
      g[n] = 0;
    }
  sc.probe += probe;
}
