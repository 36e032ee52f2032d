// The WebGPU executor's kernel (WGSL): a whole iteration of one tabular run per invocation, K
// iterations per dispatch, every run of the experiment in one dispatch. It follows the CPU
// executor step for step (src/exec/cpu/iterate.ts, rules.ts; src/exec/host/*), in f32:
//   1. θ_old ← θ, log Z_old;
//   2. the batch, its weights and advantages Â_i (kernel-batch.ts: exact enumeration, or sampled
//      groups); token advantage γ^(T−1−t)·Â_i;
//   3. the policy gradient at θ_old and its norm (reported);
//   4. the rule: REINFORCE (one step along it); PPU (`epochs` passes on every turn, token or sequence
//      ratios, each pass `minibatches` shuffled chunks in sampled mode); sequential (the turns one
//      at a time in reverse, forward or random order, each with its passes on its own tokens times
//      M, then M ← M·ratio of the turn, clipped by mClip);
//   5. KL(π_old ‖ π_new) over the visits, then exact J, entropy, P(optimal token) per turn and J per
//      context of the new policy, written as one record of the iteration.
// Sizes are baked into the source (one pipeline per experiment shape).

import { batchSource } from './kernel-batch';
import { mlpSource, mlpWords, type MlpKernelShape } from './kernel-mlp';

export interface KernelShape {
  /** Sampled groups (B contexts × G rollouts), or the exact enumeration. */
  sampled: boolean;
  /** Contexts per batch and group size (sampled mode). */
  B: number;
  G: number;
  contexts: number;
  V: number;
  N: number;
  L: number;
  T: number;
  /** Decision nodes per context, and their offsets by position (N + 1 entries). */
  nodesPerContext: number;
  offset: readonly number[];
  /** Sequences per context. */
  S: number;
  /** γ between turns (GAE's step discount, the rewards-to-go). */
  gamma: number;
  /** Rewards at the end of every turn (env.turnRewards), not only the terminal one. */
  perTurn: boolean;
  /** The shared MLP (kernel-mlp.ts), or null: a tabular policy. */
  mlp: MlpKernelShape | null;
  /** Invocations (runs) per workgroup: workgroupSize(runs); 64 when not given. */
  workgroup?: number;
}

/**
 * Runs per workgroup: the largest power of two from 4 to 64 that still leaves at least 64
 * workgroups (4 below that). One invocation runs one run from start to end, and an adapter runs a
 * workgroup's invocations together on one of its cores or compute units, so with few runs small
 * workgroups spread them over more of them (SwiftShader: one CPU thread per workgroup; a
 * hardware GPU has tens to a hundred-odd compute units).
 */
export function workgroupSize(runs: number): number {
  let wg = 64;
  while (wg > 4 && Math.ceil(runs / wg) < 64) wg /= 2;
  return wg;
}

/** Per context, the offset of turn t's reward table (t < T − 1: V^((t+1)·L) entries, by prefix), and their total. */
export function turnTableOffsets(s: Pick<KernelShape, 'V' | 'L' | 'T'>): { offsets: number[]; total: number } {
  const offsets: number[] = [];
  let total = 0;
  for (let t = 0; t < s.T - 1; t++) {
    offsets.push(total);
    total += s.V ** ((t + 1) * s.L);
  }
  return { offsets, total };
}

/** f32 words of one run's algorithm record (ALGO_* below). */
export const ALGO_WORDS = 16;
export const ALGO = { rule: 0, ratioSeq: 1, order: 2, norm: 3, mCorr: 4, mClip: 5, geo: 6, epochs: 7, lr: 8, clip: 9, adam: 10, minibatches: 11, rloo: 12, gae: 13, lambda: 14, criticLr: 15 } as const;

/** f32 words of one iteration's record: kl, clip fraction, zero-variance share, gradient norm, J, entropy, P(opt) per turn, J per context. */
export const recordWords = (s: Pick<KernelShape, 'T' | 'contexts'>) => 6 + s.T + (s.contexts > 1 ? s.contexts : 0);

/** Rollouts of one iteration's batch: B·G sampled, or every sequence of every context. */
export const rollouts = (s: Pick<KernelShape, 'sampled' | 'B' | 'G' | 'contexts' | 'S'>) => (s.sampled ? s.B * s.G : s.contexts * s.S);

/**
 * Words of one run's scratch: θ_old, grad (P each), logZ, logZ_old, gsum, reach (per node); w, adv,
 * M, perm (per rollout); mean and var (per context); token advantages and GAE targets (N per
 * rollout), node values (exact V_old, or the critic, kept across iterations) and the critic's
 * gradient (per node), each group's Σ(R − R̄)² (B); sampled mode also tokens, nodes (N per
 * rollout), rewards (per rollout) and the batch's contexts (C).
 */
export function scratchWords(s: KernelShape): number {
  return tabularScratchWords(s) + (s.mlp ? mlpWords(s.mlp) : 0); // the MLP: its weights' gradient last
}

function tabularScratchWords(s: KernelShape): number {
  const G = s.contexts * s.nodesPerContext;
  const R = rollouts(s);
  const perTurn = 3 * R * s.T + Math.max(s.contexts, s.B) * s.T + 1; // turn rewards, rewards-to-go, terminal (sampled); turn means; σ
  return 2 * G * s.V + 4 * G + 4 * R + 2 * s.contexts + 2 * R * s.N + 2 * G + s.B + perTurn + (s.sampled ? 2 * R * s.N + R + s.contexts : 0);
}

/** Words of one run in \`theta\`: its node logits, then (MLP) its weights. */
export const thetaWords = (s: KernelShape) => s.contexts * s.nodesPerContext * s.V + (s.mlp ? mlpWords(s.mlp) : 0);

/** Words of one run's Adam block: m and v of every parameter, then the step counts (tabular: one per turn; MLP: one). */
export const adamWords = (s: KernelShape) => (s.mlp ? 2 * mlpWords(s.mlp) + 1 : 2 * s.contexts * s.nodesPerContext * s.V + s.T);

/** Where the nodes' active inputs (the MLP's, N + 2 per node) start in itab: after the enumeration, the optimal actions and paths. */
export const activeInputsAt = (s: KernelShape) => 2 * (s.sampled ? 0 : rollouts(s)) * s.N + s.contexts * s.nodesPerContext * s.V + s.contexts * s.N;

/** A number as a WGSL f32 literal (always with a decimal point or exponent). */
const wgslFloat = (v: number) => (Number.isInteger(v) ? `${v}.0` : String(v));

export function kernelSource(s: KernelShape): string {
  const G = s.contexts * s.nodesPerContext;
  const P = G * s.V;
  const R = rollouts(s);
  const CS = s.contexts * s.S;
  const REC = recordWords(s);
  const ENUM = s.sampled ? 0 : R; // rollouts listed in itab (exact mode's enumeration)
  const turnTables = turnTableOffsets(s);
  const toff = `array<u32, ${Math.max(1, s.T - 1)}>(${(turnTables.offsets.length ? turnTables.offsets : [0]).map((o) => `${o}u`).join(', ')})`;
  const off = `array<u32, ${s.N + 1}>(${s.offset.map((o) => `${o}u`).join(', ')})`;
  return /* wgsl */ `
const C = ${s.contexts}u; const V = ${s.V}u; const N = ${s.N}u; const L = ${s.L}u; const T = ${s.T}u;
const NP = ${s.nodesPerContext}u; const G = ${G}u; const P = ${P}u; const S = ${s.S}u; const RS = ${R}u;
const CS = ${CS}u; const NOISE = ${2 * CS + s.T}u; const TERM0 = NOISE + 2u * C; const TT0 = TERM0 + CS;
const TTS = ${turnTables.total}u; const TOFF = ${toff}; const PER_TURN = ${s.perTurn};
// exact mode: the rewards-to-go and mean rewards by turn of every sequence
const TG0 = TT0 + C * TTS; const TR0 = TG0 + ${s.sampled ? 0 : R * s.T}u;
const B = ${s.B}u; const GS = ${s.G}u; const ENUM = ${ENUM}u;
const SAMPLED = ${s.sampled}; const REC = ${REC}u; const AW = ${ALGO_WORDS}u; const SW = ${scratchWords(s)}u;
const A_NORM = ${ALGO.norm}u; const A_RLOO = ${ALGO.rloo}u; const A_GAE = ${ALGO.gae}u; const A_LAMBDA = ${ALGO.lambda}u; const A_CLR = ${ALGO.criticLr}u; const A_LR = ${ALGO.lr}u;
const GAMMA = ${wgslFloat(s.gamma)}; const A_ADAM = ${ALGO.adam}u;
const TH = ${thetaWords(s)}u; const ADAMW = ${adamWords(s)}u;
const NORM_EPS = 1e-6; const B1 = 0.9; const B2 = 0.999; const ADAM_EPS = 1e-8;
const OFFSET = ${off};
// scratch layout (per run)
const S_OLD = 0u; const S_GRAD = P; const S_LZ = 2u * P; const S_LZO = 2u * P + G; const S_GSUM = 2u * P + 2u * G;
const S_REACH = 2u * P + 3u * G; const S_W = 2u * P + 4u * G; const S_ADV = S_W + RS; const S_M = S_ADV + RS;
const S_PERM = S_M + RS; const S_MEAN = S_PERM + RS; const S_VAR = S_MEAN + C;
const S_ADVT = S_VAR + C; const S_TGT = S_ADVT + RS * N; const S_VAL = S_TGT + RS * N; const S_CG = S_VAL + G; const S_GSS = S_CG + G;
const S_TRW = S_GSS + B; const S_TGO = S_TRW + RS * T; const S_TERM = S_TGO + RS * T; const S_TM = S_TERM + RS * T;
const S_SIG = S_TM + ${Math.max(s.contexts, s.B) * s.T}u;
const S_TOK = S_SIG + 1u; const S_NODE = S_TOK + RS * N; const S_R = S_NODE + RS * N; const S_CTXS = S_R + RS;
const S_WG = ${tabularScratchWords(s)}u; // the MLP's weight gradient

struct Params { runs: u32, K: u32, start: u32, first: u32 } // runs [first, runs) of this dispatch
// tables: returns[CS], noiseVar[CS], disc[T], noise (kind, σ)[C], terminal[CS], turn tables[C·TTS], (exact) togo, turn rewards[RS·T]   itab: node[ENUM·N], tok[ENUM·N], optimal[P], path[C·N]
// runInfo: per run (seed key, stream key) of its random numbers
@group(0) @binding(0) var<storage, read> tables: array<f32>;
@group(0) @binding(1) var<storage, read> itab: array<u32>;
@group(0) @binding(2) var<storage, read> algos: array<f32>;
@group(0) @binding(3) var<storage, read_write> theta: array<f32>;
@group(0) @binding(4) var<storage, read_write> adam: array<f32>;
@group(0) @binding(5) var<storage, read_write> scr: array<f32>;
@group(0) @binding(6) var<storage, read_write> rec: array<f32>;
@group(0) @binding(7) var<uniform> params: Params;
@group(0) @binding(8) var<storage, read> runInfo: array<u32>;

var<private> run: u32;  // this run's index
var<private> th: u32;   // this run's θ base (its node logits, then the MLP's weights)
var<private> sb: u32;   // this run's scratch base
var<private> ab: u32;   // this run's algorithm record base
var<private> clipNum: f32;
var<private> key: vec3<u32>;   // (seed key, stream key, iteration) of this run's draws
var<private> ctr: u32;         // draws so far this iteration
var<private> clipDen: f32;

fn algo(i: u32) -> f32 { return algos[ab + i]; }
fn disc(t: u32) -> f32 { return tables[2u * CS + t]; }

// pcg4d (Jarzynski & Olano 2020): a counter-based hash, four 32-bit words in and out
fn pcg4d(v0: vec4<u32>) -> vec4<u32> {
  var v = v0 * 1664525u + 1013904223u;
  v.x += v.y * v.w; v.y += v.z * v.x; v.z += v.x * v.y; v.w += v.y * v.z;
  v = v ^ (v >> vec4<u32>(16u));
  v.x += v.y * v.w; v.y += v.z * v.x; v.z += v.x * v.y; v.w += v.y * v.z;
  return v;
}
/** The next uniform draw in [0, 1) of this run and iteration (24 bits). */
fn rand01() -> f32 {
  let h = pcg4d(vec4<u32>(key, ctr));
  ctr += 1u;
  return f32(h.x >> 8u) / 16777216.0;
}
/** A standard normal draw (Box–Muller). */
fn randNormal() -> f32 {
  let u1 = max(rand01(), 1e-7);
  let u2 = rand01();
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

fn logNorm(g: u32) -> f32 {
  var m = -3.4e38;
  for (var a = 0u; a < V; a++) { m = max(m, theta[th + g * V + a]); }
  var z = 0.0;
  for (var a = 0u; a < V; a++) { z += exp(theta[th + g * V + a] - m); }
  return m + log(z);
}
/** logZ at the nodes of positions [p0, p1) of every context. */
fn refreshLogZ(p0: u32, p1: u32) {
${s.mlp ? '  mlpRefresh(p0, p1); // the MLP: first the logits there, if a step moved the weights since\n' : ''}  for (var x = 0u; x < C; x++) {
    for (var n = OFFSET[p0]; n < OFFSET[p1]; n++) { let g = x * NP + n; scr[sb + S_LZ + g] = logNorm(g); }
  }
}
${batchSource(s.sampled)}
${s.mlp ? mlpSource(s.mlp, activeInputsAt(s)) : ''}
fn logpOld(i: u32, k: u32) -> f32 {
  let g = nodeOf(i, k);
  return scr[sb + S_OLD + g * V + tokOf(i, k)] - scr[sb + S_LZO + g];
}
fn logpNow(i: u32, k: u32) -> f32 {
  let g = nodeOf(i, k);
  return theta[th + g * V + tokOf(i, k)] - scr[sb + S_LZ + g];
}
/** g[n,·] −= gsum[n]·π(·|n) at positions [p0, p1); clears gsum there. */
fn finishGradient(p0: u32, p1: u32) {
  for (var x = 0u; x < C; x++) {
    for (var n = OFFSET[p0]; n < OFFSET[p1]; n++) {
      let g = x * NP + n;
      let s = scr[sb + S_GSUM + g];
      if (s == 0.0) { continue; }
      let lz = scr[sb + S_LZ + g];
      for (var a = 0u; a < V; a++) { scr[sb + S_GRAD + g * V + a] -= s * exp(theta[th + g * V + a] - lz); }
      scr[sb + S_GSUM + g] = 0.0;
    }
  }
}
fn addGrad(g: u32, a: u32, c: f32) {
  scr[sb + S_GRAD + g * V + a] += c;
  scr[sb + S_GSUM + g] += c;
}
/** θ ← θ + lr·g on turn \`turn\` (T: every turn) at positions [p0, p1), then clears the gradient there. */
fn optimizerStep(turn: u32, p0: u32, p1: u32) {
${s.mlp ? '  mlpBackward(p0, p1);\n  mlpStep();\n  return;\n' : ''}  let lr = algo(${ALGO.lr}u);
  if (algo(${ALGO.adam}u) == 0.0) {
    for (var x = 0u; x < C; x++) {
      for (var j = (x * NP + OFFSET[p0]) * V; j < (x * NP + OFFSET[p1]) * V; j++) {
        theta[th + j] += lr * scr[sb + S_GRAD + j];
        scr[sb + S_GRAD + j] = 0.0;
      }
    }
    return;
  }
  let mb = run * ADAMW; // this run's Adam block: m[P], v[P], steps[T]
  for (var t = 0u; t < T; t++) { if (turn == T || t == turn) { adam[mb + 2u * P + t] += 1.0; } }
  for (var x = 0u; x < C; x++) {
    for (var t = 0u; t < T; t++) {
      if (turn != T && t != turn) { continue; }
      let k = adam[mb + 2u * P + t];
      let c1 = 1.0 - pow(B1, k);
      let c2 = 1.0 - pow(B2, k);
      for (var j = (x * NP + OFFSET[t * L]) * V; j < (x * NP + OFFSET[(t + 1u) * L]) * V; j++) {
        adamMove(mb + j, mb + P + j, th + j, scr[sb + S_GRAD + j], lr, c1, c2);
        scr[sb + S_GRAD + j] = 0.0;
      }
    }
  }
}
/** Adam's moments at m[mi], v[vi] after gradient gr, and the parameter at theta[ti] moved up (bias corrections c1, c2). */
fn adamMove(mi: u32, vi: u32, ti: u32, gr: f32, lr: f32, c1: f32, c2: f32) {
  let m = B1 * adam[mi] + (1.0 - B1) * gr;
  let v = B2 * adam[vi] + (1.0 - B2) * gr * gr;
  adam[mi] = m;
  adam[vi] = v;
  theta[ti] += (lr * (m / c1)) / (sqrt(v / c2) + ADAM_EPS);
}
/**
 * One clipped step on Σ_i w_i·min(ρ·M·A, clip(ρ)·M·A) over tokens [k0, k1): token ratios
 * (grouped = false) or one ratio over the tokens (geo: 1 or 1/tokens), A the rollout's Â (advSeq)
 * or its token advantage at k0.
 */
fn clippedStep(turn: u32, k0: u32, k1: u32, grouped: bool, geo: f32, advSeq: bool, useM: bool, c0: u32, c1: u32, scale: f32) {
  let eps = algo(${ALGO.clip}u);
  refreshLogZ(k0, k1);
  for (var c = c0; c < c1; c++) {
    let i = u32(scr[sb + S_PERM + c]);
    let w = scr[sb + S_W + i] * scale;
    if (w == 0.0) { continue; }
    var M = 1.0;
    if (useM) { M = scr[sb + S_M + i]; }
    let adv = scr[sb + S_ADV + i];
    if (!grouped) {
      for (var k = k0; k < k1; k++) {
        let ratio = exp(logpNow(i, k) - logpOld(i, k));
        let A = scr[sb + S_ADVT + i * N + k] * M;
        let clipped = min(max(ratio, 1.0 - eps), 1.0 + eps);
        clipDen += w;
        if (abs(ratio - 1.0) > eps) { clipNum += w; }
        if (ratio * A <= clipped * A) { addGrad(nodeOf(i, k), tokOf(i, k), w * A * ratio); }
      }
      continue;
    }
    var lr = 0.0;
    for (var k = k0; k < k1; k++) { lr += logpNow(i, k) - logpOld(i, k); }
    let ratio = exp(lr * geo);
    var A = scr[sb + S_ADVT + i * N + k0] * M;
    if (advSeq) { A = adv * M; }
    let clipped = min(max(ratio, 1.0 - eps), 1.0 + eps);
    clipDen += w;
    if (abs(ratio - 1.0) > eps) { clipNum += w; }
    if (ratio * A <= clipped * A) {
      let coef = w * A * ratio;
      for (var k = k0; k < k1; k++) { addGrad(nodeOf(i, k), tokOf(i, k), coef); }
    }
  }
  finishGradient(k0, k1);
  optimizerStep(turn, k0, k1);
}

/**
 * \`epochs\` passes over the batch on one term, each split into \`minibatches\` chunks after a shuffle
 * (sampled mode; exact mode: one chunk, no shuffle), as src/exec/host/schedule.ts walks them.
 */
fn passes(turn: u32, k0: u32, k1: u32, grouped: bool, geo: f32, advSeq: bool, useM: bool) {
  var chunks = 1u;
  if (SAMPLED) { chunks = u32(algo(${ALGO.minibatches}u)); }
  let size = RS / chunks;
  for (var j = 0u; j < RS; j++) { scr[sb + S_PERM + j] = f32(j); }
  let epochs = u32(algo(${ALGO.epochs}u));
  for (var e = 0u; e < epochs; e++) {
    if (chunks > 1u) {
      for (var j = RS - 1u; j > 0u; j--) {
        let r = min(u32(rand01() * f32(j + 1u)), j);
        let t = scr[sb + S_PERM + j];
        scr[sb + S_PERM + j] = scr[sb + S_PERM + r];
        scr[sb + S_PERM + r] = t;
      }
    }
    for (var c = 0u; c < chunks; c++) { clippedStep(turn, k0, k1, grouped, geo, advSeq, useM, c * size, (c + 1u) * size, f32(chunks)); }
    if (turn == T) { criticStep(); } // PPU: the critic steps after each pass (sequential: after every turn, below)
  }
}

fn iteration(r: u32, it: u32) {
  key = vec3<u32>(runInfo[2u * r], runInfo[2u * r + 1u], params.start + it);
  ctr = 0u;
  // 1. θ_old, log Z_old; 2. the batch, its weights and advantages
  for (var j = 0u; j < P; j++) { scr[sb + S_OLD + j] = theta[th + j]; }
  refreshLogZ(0u, N);
  for (var g = 0u; g < G; g++) { scr[sb + S_LZO + g] = scr[sb + S_LZ + g]; }
  let zero = fillBatch();
  tokenAdvantages();
  // 3. the policy gradient at θ_old and its norm
  for (var j = 0u; j < P; j++) { scr[sb + S_GRAD + j] = 0.0; }
  for (var g = 0u; g < G; g++) { scr[sb + S_GSUM + g] = 0.0; }
  for (var i = 0u; i < RS; i++) {
    let w = scr[sb + S_W + i];
    if (w == 0.0) { continue; }
    for (var k = 0u; k < N; k++) { addGrad(nodeOf(i, k), tokOf(i, k), w * scr[sb + S_ADVT + i * N + k]); }
  }
  finishGradient(0u, N);
  var gn = 0.0;
${s.mlp ? '  mlpBackward(0u, N); // the gradient with respect to the weights (REINFORCE steps along it below)\n  gn = mlpGradNormSq();' : '  for (var j = 0u; j < P; j++) { let v = scr[sb + S_GRAD + j]; gn += v * v; }'}
  // 4. the rule
  clipNum = 0.0;
  clipDen = 0.0;
  let rule = u32(algo(${ALGO.rule}u));
  if (rule == 0u) {
    ${s.mlp ? 'mlpStep(); // along the policy gradient already in S_WG' : 'optimizerStep(T, 0u, N);'}
    criticStep();
  } else {
    for (var j = 0u; j < P; j++) { scr[sb + S_GRAD + j] = 0.0; }${s.mlp ? '\n    mlpClearGrad();' : ''}
    if (rule == 1u) {
      let seq = algo(${ALGO.ratioSeq}u) != 0.0;
      passes(T, 0u, N, seq, select(1.0, 1.0 / f32(N), seq), seq, false);
    } else {
      let useM = algo(${ALGO.mCorr}u) != 0.0;
      let mClip = algo(${ALGO.mClip}u);
      let geo = select(1.0, 1.0 / f32(L), algo(${ALGO.geo}u) != 0.0);
      for (var i = 0u; i < RS; i++) { scr[sb + S_M + i] = 1.0; }
      // the turn order: reverse (backward induction), forward, or a fresh random permutation
      var order: array<u32, ${s.T}>;
      let kind = u32(algo(${ALGO.order}u));
      for (var tt = 0u; tt < T; tt++) { order[tt] = select(tt, T - 1u - tt, kind == 0u); }
      if (kind == 2u) {
        for (var j = T - 1u; j > 0u; j--) {
          let q = min(u32(rand01() * f32(j + 1u)), j);
          let tmp = order[j];
          order[j] = order[q];
          order[q] = tmp;
        }
      }
      for (var tt = 0u; tt < T; tt++) {
        let t = order[tt];
        passes(t, t * L, t * L + L, true, geo, false, useM);
        if (useM) {
          refreshLogZ(t * L, t * L + L);
          for (var i = 0u; i < RS; i++) {
            var lr = 0.0;
            for (var k = t * L; k < t * L + L; k++) { lr += logpNow(i, k) - logpOld(i, k); }
            var m = scr[sb + S_M + i] * exp(lr);
            if (mClip >= 0.0) { m = min(max(m, 1.0 - mClip), 1.0 + mClip); }
            scr[sb + S_M + i] = m;
          }
        }
      }
      for (var e = 0u; e < u32(algo(${ALGO.epochs}u)); e++) { criticStep(); }
    }
  }
  // 5. KL over the visits, then the new policy's exact evaluation
  refreshLogZ(0u, N);
  for (var g = 0u; g < G; g++) {
    var kl = 0.0;
    for (var a = 0u; a < V; a++) {
      let lp = scr[sb + S_OLD + g * V + a] - scr[sb + S_LZO + g];
      let p = exp(lp);
      if (p > 0.0) { kl += p * (lp - (theta[th + g * V + a] - scr[sb + S_LZ + g])); }
    }
    scr[sb + S_GSUM + g] = kl;
  }
  var KL = 0.0;
  for (var i = 0u; i < RS; i++) {
    let w = scr[sb + S_W + i] / f32(N);
    if (w == 0.0) { continue; }
    for (var k = 0u; k < N; k++) { KL += w * scr[sb + S_GSUM + nodeOf(i, k)]; }
  }
  for (var g = 0u; g < G; g++) { scr[sb + S_GSUM + g] = 0.0; }
  let o = (r * params.K + it) * REC;
  rec[o] = KL;
  rec[o + 1u] = select(0.0, clipNum / clipDen, clipDen > 0.0);
  rec[o + 2u] = zero;
  rec[o + 3u] = sqrt(gn);
  evaluate(o);
}

fn prob(g: u32, a: u32) -> f32 { return exp(theta[th + g * V + a] - scr[sb + S_LZ + g]); }

/** Exact J, entropy, P(optimal token) per turn along the optimal path, J per context (logZ fresh). */
fn evaluate(o: u32) {
  var J = 0.0;
  var H = 0.0;
  for (var t = 0u; t < T; t++) { rec[o + 6u + t] = 0.0; }
  for (var x = 0u; x < C; x++) {
    let base = x * NP;
    scr[sb + S_REACH + base] = 1.0;
    var jx = 0.0;
    var hx = 0.0;
    for (var p = 0u; p < N; p++) {
      for (var n = OFFSET[p]; n < OFFSET[p + 1u]; n++) {
        let g = base + n;
        let rch = scr[sb + S_REACH + g];
        var h = 0.0;
        for (var a = 0u; a < V; a++) { let pa = prob(g, a); if (pa > 0.0) { h -= pa * log(pa); } }
        hx += rch * h;
        let q = n - OFFSET[p];
        if (p == N - 1u) {
          for (var a = 0u; a < V; a++) { jx += rch * prob(g, a) * tables[x * S + q * V + a]; }
        } else {
          for (var a = 0u; a < V; a++) { scr[sb + S_REACH + base + OFFSET[p + 1u] + q * V + a] = rch * prob(g, a); }
        }
      }
    }
    J += jx / f32(C);
    H += hx / f32(N * C);
    if (C > 1u) { rec[o + 6u + T + x] = jx; }
    for (var t = 0u; t < T; t++) {
      var prod = 1.0;
      for (var p = t * L; p < (t + 1u) * L; p++) {
        let g = base + itab[2u * ENUM * N + P + x * N + p];
        var mass = 0.0;
        for (var a = 0u; a < V; a++) { if (itab[2u * ENUM * N + g * V + a] != 0u) { mass += prob(g, a); } }
        prod *= mass;
      }
      rec[o + 6u + t] += prod / f32(C);
    }
  }
  rec[o + 4u] = J;
  rec[o + 5u] = H;
}

@compute @workgroup_size(${s.workgroup ?? 64})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let r = gid.x + params.first;
  if (r >= params.runs) { return; }
  run = r;
  th = r * TH;
  sb = r * SW;
  ab = r * AW;
${s.mlp ? '  mlpForwardAll(); // the logits of the weights as they are\n' : ''}  for (var it = 0u; it < params.K; it++) { iteration(r, it); }
}
`;
}
