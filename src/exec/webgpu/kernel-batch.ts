// The first half of an iteration in WGSL, by mode (kernel.ts puts it together): the batch the update
// is taken on, its weights w_i and its advantages Â_i. Both leave θ_old and log Z_old in scratch.
//
//   exact    every token sequence of every context, w_i = P_old(i | x)/C; Â_i = R_i − E[R|x],
//            divided by the context's std (`group`) or √E_x Var(R|x) (`batch`) + ε, noise included.
//   sampled  B contexts (all, or B drawn without replacement), G rollouts each sampled token by
//            token from π_old, the terminal reward with its noise; w_i = 1/(B·G); group advantages
//            (grae: R − group mean; rloo: R − mean of the others), divided by the group's std
//            (n − 1) + ε (`group`) or standardized over the batch (`batch`).
// Random numbers come from a counter-based hash (pcg4d) keyed by (seed and seed index, the run's
// stream, iteration, draw): the same run gives the same numbers in any dispatch split.

/** WGSL: the accessors of the batch and the function that fills it (`fillBatch() -> f32`: the zero-variance share). */
export function batchSource(sampled: boolean): string {
  return sampled ? SAMPLED : EXACT;
}

const EXACT = /* wgsl */ `
fn nodeOf(i: u32, k: u32) -> u32 { return itab[i * N + k]; }
fn tokOf(i: u32, k: u32) -> u32 { return itab[RS * N + i * N + k]; }

fn fillBatch() -> f32 {
  for (var i = 0u; i < RS; i++) {
    var lp = 0.0;
    for (var k = 0u; k < N; k++) { lp += logpOld(i, k); }
    scr[sb + S_W + i] = exp(lp) / f32(C);
  }
  var zero = 0.0;
  var sigma = 0.0;
  for (var x = 0u; x < C; x++) {
    var mean = 0.0;
    for (var s = 0u; s < S; s++) { let i = x * S + s; mean += scr[sb + S_W + i] * f32(C) * tables[i]; }
    var vr = 0.0;
    for (var s = 0u; s < S; s++) { let i = x * S + s; let d = tables[i] - mean; vr += scr[sb + S_W + i] * f32(C) * (d * d + tables[CS + i]); }
    scr[sb + S_MEAN + x] = mean;
    scr[sb + S_VAR + x] = vr;
    if (vr <= 1e-12) { zero += 1.0; }
    sigma += vr / f32(C);
  }
  sigma = sqrt(sigma);
  let norm = u32(algo(A_NORM));
  for (var i = 0u; i < RS; i++) {
    let x = i / S;
    let d = tables[i] - scr[sb + S_MEAN + x];
    var a = d;
    if (norm == 1u) { a = d / (sqrt(scr[sb + S_VAR + x]) + NORM_EPS); }
    if (norm == 2u) { a = d / (sigma + NORM_EPS); }
    scr[sb + S_ADV + i] = a;
  }
  return zero / f32(C);
}
`;

const SAMPLED = /* wgsl */ `
fn nodeOf(i: u32, k: u32) -> u32 { return u32(scr[sb + S_NODE + i * N + k]); }
fn tokOf(i: u32, k: u32) -> u32 { return u32(scr[sb + S_TOK + i * N + k]); }

fn fillBatch() -> f32 {
  // the contexts of this batch: all of them, or B drawn without replacement (partial Fisher–Yates)
  for (var x = 0u; x < C; x++) { scr[sb + S_CTXS + x] = f32(x); }
  if (B < C) {
    for (var j = 0u; j < B; j++) {
      let r = j + min(u32(rand01() * f32(C - j)), C - j - 1u);
      let t = scr[sb + S_CTXS + j];
      scr[sb + S_CTXS + j] = scr[sb + S_CTXS + r];
      scr[sb + S_CTXS + r] = t;
    }
  }
  for (var g0 = 0u; g0 < B; g0++) {
    let x = u32(scr[sb + S_CTXS + g0]);
    let kind = u32(tables[NOISE + 2u * x]);
    let sigma = tables[NOISE + 2u * x + 1u];
    for (var j = 0u; j < GS; j++) {
      let i = g0 * GS + j;
      scr[sb + S_W + i] = 1.0 / f32(RS);
      var q = 0u;
      for (var k = 0u; k < N; k++) {
        let g = x * NP + OFFSET[k] + q;
        let lz = scr[sb + S_LZO + g];
        let u = rand01();
        var a = 0u;
        var cum = exp(scr[sb + S_OLD + g * V] - lz);
        while (u >= cum && a < V - 1u) { a += 1u; cum += exp(scr[sb + S_OLD + g * V + a] - lz); }
        scr[sb + S_TOK + i * N + k] = f32(a);
        scr[sb + S_NODE + i * N + k] = f32(g);
        q = q * V + a;
      }
      let mean = tables[x * S + q];
      var r = mean;
      if (kind == 1u) { r = mean + sigma * randNormal(); }
      if (kind == 2u) { r = select(0.0, 1.0, rand01() < mean); }
      scr[sb + S_R + i] = r;
    }
  }
  // group advantages
  let rloo = algo(A_RLOO) != 0.0;
  let norm = u32(algo(A_NORM));
  var zero = 0.0;
  for (var g0 = 0u; g0 < B; g0++) {
    var sum = 0.0;
    for (var j = 0u; j < GS; j++) { sum += scr[sb + S_R + g0 * GS + j]; }
    let mean = sum / f32(GS);
    var ss = 0.0;
    for (var j = 0u; j < GS; j++) {
      let i = g0 * GS + j;
      let R = scr[sb + S_R + i];
      let d = R - mean;
      ss += d * d;
      scr[sb + S_ADV + i] = select(d, R - (sum - R) / f32(GS - 1u), rloo);
    }
    if (ss == 0.0) { zero += 1.0; }
    if (norm == 1u) {
      let sd = sqrt(ss / f32(GS - 1u)) + NORM_EPS;
      for (var j = 0u; j < GS; j++) { scr[sb + S_ADV + g0 * GS + j] /= sd; }
    }
  }
  if (norm == 2u) {
    var mu = 0.0;
    for (var i = 0u; i < RS; i++) { mu += scr[sb + S_ADV + i]; }
    mu /= f32(RS);
    var ss = 0.0;
    for (var i = 0u; i < RS; i++) { let d = scr[sb + S_ADV + i] - mu; ss += d * d; }
    let sd = select(0.0, sqrt(ss / f32(RS - 1u)), RS > 1u);
    for (var i = 0u; i < RS; i++) { scr[sb + S_ADV + i] = (scr[sb + S_ADV + i] - mu) / (sd + NORM_EPS); }
  }
  return zero / f32(B);
}
`;
