// The WebGPU executor's kernel (WGSL): a whole exact-mode iteration of one tabular run per
// invocation, K iterations per dispatch, every run of the experiment in one dispatch. It follows
// the CPU executor step for step (src/exec/cpu/iterate.ts, rules.ts; src/exec/host/*), in f32:
//   1. θ_old ← θ; the enumeration's weights w_i = P_old(i | x)/C and log π_old per token;
//   2. per context the exact mean and variance of R (noise included); Â_i = R_i − E[R|x], divided
//      by the context's std (`group`) or √E_x Var(R|x) (`batch`) + ε; token advantage γ^(T−1−t)·Â_i;
//   3. the policy gradient at θ_old and its norm (reported);
//   4. the rule: REINFORCE (one step along it); PPU (`epochs` clipped steps on every turn, token or
//      sequence ratios); sequential (the turns one at a time in reverse or forward order, each
//      `epochs` clipped steps on its own tokens times M, then M ← M·ratio of the turn, clipped by mClip);
//   5. KL(π_old ‖ π_new) over the visits, then exact J, entropy, P(optimal token) per turn and J per
//      context of the new policy, written as one record of the iteration.
// Sizes are baked into the source (one pipeline per experiment shape).

export interface KernelShape {
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
}

/** f32 words of one run's algorithm record (ALGO_* below). */
export const ALGO_WORDS = 12;
export const ALGO = { rule: 0, ratioSeq: 1, order: 2, norm: 3, mCorr: 4, mClip: 5, geo: 6, epochs: 7, lr: 8, clip: 9, adam: 10 } as const;

/** f32 words of one iteration's record: kl, clip fraction, zero-variance share, gradient norm, J, entropy, P(opt) per turn, J per context. */
export const recordWords = (s: Pick<KernelShape, 'T' | 'contexts'>) => 6 + s.T + (s.contexts > 1 ? s.contexts : 0);

/** Words of one run's scratch: θ_old, grad (P each), logZ, logZ_old, gsum, reach (per node), w, adv, M (per sequence), mean and var (per context). */
export function scratchWords(s: KernelShape): number {
  const G = s.contexts * s.nodesPerContext;
  return 2 * G * s.V + 4 * G + 3 * s.contexts * s.S + 2 * s.contexts;
}

export function kernelSource(s: KernelShape): string {
  const G = s.contexts * s.nodesPerContext;
  const P = G * s.V;
  const R = s.contexts * s.S;
  const REC = recordWords(s);
  const off = `array<u32, ${s.N + 1}>(${s.offset.map((o) => `${o}u`).join(', ')})`;
  return /* wgsl */ `
const C = ${s.contexts}u; const V = ${s.V}u; const N = ${s.N}u; const L = ${s.L}u; const T = ${s.T}u;
const NP = ${s.nodesPerContext}u; const G = ${G}u; const P = ${P}u; const S = ${s.S}u; const RS = ${R}u;
const REC = ${REC}u; const AW = ${ALGO_WORDS}u; const SW = ${scratchWords(s)}u;
const NORM_EPS = 1e-6; const B1 = 0.9; const B2 = 0.999; const ADAM_EPS = 1e-8;
const OFFSET = ${off};
// scratch layout (per run)
const S_OLD = 0u; const S_GRAD = P; const S_LZ = 2u * P; const S_LZO = 2u * P + G; const S_GSUM = 2u * P + 2u * G;
const S_REACH = 2u * P + 3u * G; const S_W = 2u * P + 4u * G; const S_ADV = S_W + RS; const S_M = S_ADV + RS;
const S_MEAN = S_M + RS; const S_VAR = S_MEAN + C;

struct Params { runs: u32, K: u32, pad0: u32, pad1: u32 }
// tables: returns[RS], noiseVar[RS], disc[T]   itab: node[RS·N], tok[RS·N], optimal[P], path[C·N]
@group(0) @binding(0) var<storage, read> tables: array<f32>;
@group(0) @binding(1) var<storage, read> itab: array<u32>;
@group(0) @binding(2) var<storage, read> algos: array<f32>;
@group(0) @binding(3) var<storage, read_write> theta: array<f32>;
@group(0) @binding(4) var<storage, read_write> adam: array<f32>;
@group(0) @binding(5) var<storage, read_write> scr: array<f32>;
@group(0) @binding(6) var<storage, read_write> rec: array<f32>;
@group(0) @binding(7) var<uniform> params: Params;

var<private> th: u32;   // this run's θ base
var<private> sb: u32;   // this run's scratch base
var<private> ab: u32;   // this run's algorithm record base
var<private> clipNum: f32;
var<private> clipDen: f32;

fn algo(i: u32) -> f32 { return algos[ab + i]; }
fn nodeOf(i: u32, k: u32) -> u32 { return itab[i * N + k]; }
fn tokOf(i: u32, k: u32) -> u32 { return itab[RS * N + i * N + k]; }
fn disc(t: u32) -> f32 { return tables[2u * RS + t]; }

fn logNorm(g: u32) -> f32 {
  var m = -3.4e38;
  for (var a = 0u; a < V; a++) { m = max(m, theta[th + g * V + a]); }
  var z = 0.0;
  for (var a = 0u; a < V; a++) { z += exp(theta[th + g * V + a] - m); }
  return m + log(z);
}
/** logZ at the nodes of positions [p0, p1) of every context. */
fn refreshLogZ(p0: u32, p1: u32) {
  for (var x = 0u; x < C; x++) {
    for (var n = OFFSET[p0]; n < OFFSET[p1]; n++) { let g = x * NP + n; scr[sb + S_LZ + g] = logNorm(g); }
  }
}
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
  let lr = algo(${ALGO.lr}u);
  if (algo(${ALGO.adam}u) == 0.0) {
    for (var x = 0u; x < C; x++) {
      for (var j = (x * NP + OFFSET[p0]) * V; j < (x * NP + OFFSET[p1]) * V; j++) {
        theta[th + j] += lr * scr[sb + S_GRAD + j];
        scr[sb + S_GRAD + j] = 0.0;
      }
    }
    return;
  }
  let mb = (th / P) * (2u * P + T); // this run's Adam block: m[P], v[P], steps[T]
  for (var t = 0u; t < T; t++) { if (turn == T || t == turn) { adam[mb + 2u * P + t] += 1.0; } }
  for (var x = 0u; x < C; x++) {
    for (var t = 0u; t < T; t++) {
      if (turn != T && t != turn) { continue; }
      let k = adam[mb + 2u * P + t];
      let c1 = 1.0 - pow(B1, k);
      let c2 = 1.0 - pow(B2, k);
      for (var j = (x * NP + OFFSET[t * L]) * V; j < (x * NP + OFFSET[(t + 1u) * L]) * V; j++) {
        let gr = scr[sb + S_GRAD + j];
        let m = B1 * adam[mb + j] + (1.0 - B1) * gr;
        let v = B2 * adam[mb + P + j] + (1.0 - B2) * gr * gr;
        adam[mb + j] = m;
        adam[mb + P + j] = v;
        theta[th + j] += (lr * (m / c1)) / (sqrt(v / c2) + ADAM_EPS);
        scr[sb + S_GRAD + j] = 0.0;
      }
    }
  }
}
/**
 * One clipped step on Σ_i w_i·min(ρ·M·A, clip(ρ)·M·A) over tokens [k0, k1): token ratios
 * (grouped = false) or one ratio over the tokens (geo: 1 or 1/tokens), A the rollout's Â (advSeq)
 * or its token advantage at k0.
 */
fn clippedStep(turn: u32, k0: u32, k1: u32, grouped: bool, geo: f32, advSeq: bool, useM: bool) {
  let eps = algo(${ALGO.clip}u);
  refreshLogZ(k0, k1);
  for (var i = 0u; i < RS; i++) {
    let w = scr[sb + S_W + i];
    if (w == 0.0) { continue; }
    var M = 1.0;
    if (useM) { M = scr[sb + S_M + i]; }
    let adv = scr[sb + S_ADV + i];
    if (!grouped) {
      for (var k = k0; k < k1; k++) {
        let ratio = exp(logpNow(i, k) - logpOld(i, k));
        let A = disc(k / L) * adv * M;
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
    var A = disc(k0 / L) * adv * M;
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

fn iteration(r: u32, it: u32) {
  // 1. θ_old, log Z_old, the enumeration's weights
  for (var j = 0u; j < P; j++) { scr[sb + S_OLD + j] = theta[th + j]; }
  refreshLogZ(0u, N);
  for (var g = 0u; g < G; g++) { scr[sb + S_LZO + g] = scr[sb + S_LZ + g]; }
  for (var i = 0u; i < RS; i++) {
    var lp = 0.0;
    for (var k = 0u; k < N; k++) { lp += logpOld(i, k); }
    scr[sb + S_W + i] = exp(lp) / f32(C);
  }
  // 2. exact moments per context and the advantages
  var zero = 0.0;
  var sigma = 0.0;
  for (var x = 0u; x < C; x++) {
    var mean = 0.0;
    for (var s = 0u; s < S; s++) { let i = x * S + s; mean += scr[sb + S_W + i] * f32(C) * tables[i]; }
    var vr = 0.0;
    for (var s = 0u; s < S; s++) { let i = x * S + s; let d = tables[i] - mean; vr += scr[sb + S_W + i] * f32(C) * (d * d + tables[RS + i]); }
    scr[sb + S_MEAN + x] = mean;
    scr[sb + S_VAR + x] = vr;
    if (vr <= 1e-12) { zero += 1.0; }
    sigma += vr / f32(C);
  }
  sigma = sqrt(sigma);
  let norm = u32(algo(${ALGO.norm}u));
  for (var i = 0u; i < RS; i++) {
    let x = i / S;
    let d = tables[i] - scr[sb + S_MEAN + x];
    var a = d;
    if (norm == 1u) { a = d / (sqrt(scr[sb + S_VAR + x]) + NORM_EPS); }
    if (norm == 2u) { a = d / (sigma + NORM_EPS); }
    scr[sb + S_ADV + i] = a;
  }
  // 3. the policy gradient at θ_old and its norm
  for (var j = 0u; j < P; j++) { scr[sb + S_GRAD + j] = 0.0; }
  for (var g = 0u; g < G; g++) { scr[sb + S_GSUM + g] = 0.0; }
  for (var i = 0u; i < RS; i++) {
    let w = scr[sb + S_W + i];
    if (w == 0.0) { continue; }
    for (var k = 0u; k < N; k++) { addGrad(nodeOf(i, k), tokOf(i, k), w * disc(k / L) * scr[sb + S_ADV + i]); }
  }
  finishGradient(0u, N);
  var gn = 0.0;
  for (var j = 0u; j < P; j++) { let v = scr[sb + S_GRAD + j]; gn += v * v; }
  // 4. the rule
  clipNum = 0.0;
  clipDen = 0.0;
  let rule = u32(algo(${ALGO.rule}u));
  let epochs = u32(algo(${ALGO.epochs}u));
  if (rule == 0u) {
    optimizerStep(T, 0u, N);
  } else {
    for (var j = 0u; j < P; j++) { scr[sb + S_GRAD + j] = 0.0; }
    if (rule == 1u) {
      let seq = algo(${ALGO.ratioSeq}u) != 0.0;
      for (var e = 0u; e < epochs; e++) { clippedStep(T, 0u, N, seq, select(1.0, 1.0 / f32(N), seq), seq, false); }
    } else {
      let useM = algo(${ALGO.mCorr}u) != 0.0;
      let mClip = algo(${ALGO.mClip}u);
      let geo = select(1.0, 1.0 / f32(L), algo(${ALGO.geo}u) != 0.0);
      for (var i = 0u; i < RS; i++) { scr[sb + S_M + i] = 1.0; }
      for (var tt = 0u; tt < T; tt++) {
        var t = tt;
        if (algo(${ALGO.order}u) == 0.0) { t = T - 1u - tt; }
        for (var e = 0u; e < epochs; e++) { clippedStep(t, t * L, t * L + L, true, geo, false, useM); }
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
  rec[o + 2u] = zero / f32(C);
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
        let g = base + itab[2u * RS * N + P + x * N + p];
        var mass = 0.0;
        for (var a = 0u; a < V; a++) { if (itab[2u * RS * N + g * V + a] != 0u) { mass += prob(g, a); } }
        prod *= mass;
      }
      rec[o + 6u + t] += prod / f32(C);
    }
  }
  rec[o + 4u] = J;
  rec[o + 5u] = H;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let r = gid.x;
  if (r >= params.runs) { return; }
  th = r * P;
  sb = r * SW;
  ab = r * AW;
  for (var it = 0u; it < params.K; it++) { iteration(r, it); }
}
`;
}
