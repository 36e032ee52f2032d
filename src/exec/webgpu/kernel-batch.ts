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

/**
 * WGSL: the accessors of the batch, the function that fills it (`fillBatch() -> f32`: the
 * zero-variance share), the token advantages (`tokenAdvantages()`: γ^(T−1−t)·Â_i, or GAE) and the
 * critic's step (`criticStep()`: sampled GAE only).
 */
export function batchSource(sampled: boolean): string {
  return (sampled ? SAMPLED : EXACT) + TOKENS + (sampled ? SAMPLED_GAE : EXACT_GAE);
}

// Token advantages: without GAE the rollout's Â_i with the turn discount; with GAE per token, then
// normalized per token (\`group\`: by the group's or context's reward std; \`batch\`: standardized
// over the batch's tokens, exact mode weighting them by w_i/N with the terminal noise on the last).
const TOKENS = /* wgsl */ `
fn tokenAdvantages() {
  if (code(A_ADV) != ADV_GAE && PER_TURN) {
    turnAdvantages();
    return;
  }
  if (code(A_ADV) != ADV_GAE) {
    for (var i = 0u; i < RS; i++) {
      for (var k = 0u; k < N; k++) { scr[sb + S_ADVT + i * N + k] = disc(k / L) * scr[sb + S_ADV + i]; }
    }
    return;
  }
  gaeAdvantages();
  let norm = code(A_NORM);
  if (norm == NORM_GROUP) {
    for (var i = 0u; i < RS; i++) {
      let sd = groupStd(i) + NORM_EPS;
      for (var k = 0u; k < N; k++) { scr[sb + S_ADVT + i * N + k] /= sd; }
    }
  }
  if (norm == NORM_BATCH) { standardizeTokens(); }
}
/** γ at token k: between turns (the last token of a turn), 1 within. */
fn stepDisc(k: u32) -> f32 { return select(1.0, GAMMA, (k + 1u) % L == 0u); }
`;

const EXACT = /* wgsl */ `
fn nodeOf(i: u32, k: u32) -> u32 { return itab[I_NODE + i * N + k]; }
/** The context node of rollout i's token k (what values and the critic are indexed by): its policy node, in its own context's tree when the table is shared. */
fn ctxNodeOf(i: u32, k: u32) -> u32 { return select(nodeOf(i, k), (i / S) * NP + nodeOf(i, k), SHARED); }
fn tokOf(i: u32, k: u32) -> u32 { return itab[I_TOK + i * N + k]; }

fn fillBatch() -> f32 {
  for (var i = 0u; i < RS; i++) {
    var lp = 0.0;
    for (var k = 0u; k < N; k++) { lp += logpAtOld(i, k); }
    scr[sb + S_W + i] = exp(lp) / f32(C);
  }
  var zero = 0.0;
  var sigma = 0.0;
  for (var x = 0u; x < C; x++) {
    var mean = 0.0;
    for (var s = 0u; s < S; s++) { let i = x * S + s; mean += scr[sb + S_W + i] * f32(C) * tables[RET0 + i]; }
    var vr = 0.0;
    for (var s = 0u; s < S; s++) { let i = x * S + s; let d = tables[RET0 + i] - mean; vr += scr[sb + S_W + i] * f32(C) * (d * d + tables[NVAR0 + i]); }
    scr[sb + S_MEAN + x] = mean;
    scr[sb + S_VAR + x] = vr;
    if (PER_TURN) {
      for (var t = 0u; t < T; t++) {
        var m = 0.0;
        for (var s = 0u; s < S; s++) { let i = x * S + s; m += scr[sb + S_W + i] * f32(C) * tables[TG0 + i * T + t]; }
        scr[sb + S_TM + x * T + t] = m;
      }
    }
    if (vr <= 1e-12) { zero += 1.0; }
    sigma += vr / f32(C);
  }
  sigma = sqrt(sigma);
  scr[sb + S_SIG] = sigma;
  let norm = code(A_NORM);
  if (code(A_ADV) == ADV_GAE) { return zero / f32(C); } // GAE: Â per token (tokenAdvantages); Â_i unused, as on the CPU executor
  for (var i = 0u; i < RS; i++) {
    let x = i / S;
    let d = tables[RET0 + i] - scr[sb + S_MEAN + x];
    var a = d;
    if (norm == NORM_GROUP) { a = d / (sqrt(scr[sb + S_VAR + x]) + NORM_EPS); }
    if (norm == NORM_BATCH) { a = d / (sigma + NORM_EPS); }
    scr[sb + S_ADV + i] = a;
  }
  return zero / f32(C);
}
`;

const SAMPLED = /* wgsl */ `
fn nodeOf(i: u32, k: u32) -> u32 { return u32(scr[sb + S_NODE + i * N + k]); }
fn ctxNodeOf(i: u32, k: u32) -> u32 { return select(nodeOf(i, k), u32(scr[sb + S_CTXS + i / GS]) * NP + nodeOf(i, k), SHARED); }
fn tokOf(i: u32, k: u32) -> u32 { return u32(scr[sb + S_TOK + i * N + k]); }

/** The contexts of this batch into S_CTXS: all of them, or B drawn without replacement (partial Fisher–Yates). */
fn chooseContexts() {
  for (var x = 0u; x < C; x++) { scr[sb + S_CTXS + x] = f32(x); }
  if (B < C) {
    for (var j = 0u; j < B; j++) {
      let r = j + min(u32(rand01() * f32(C - j)), C - j - 1u);
      let t = scr[sb + S_CTXS + j];
      scr[sb + S_CTXS + j] = scr[sb + S_CTXS + r];
      scr[sb + S_CTXS + r] = t;
    }
  }
}
/** Rollout i in context x, token by token from π_old (turn rewards t < T − 1 into S_TRW); returns its sequence index q. */
fn sampleTokens(i: u32, x: u32) -> u32 {
  var q = 0u;
  for (var k = 0u; k < N; k++) {
    let g = rowOf(x, OFFSET[k] + q);
    let lz = scr[sb + S_LZO + g];
    let u = rand01();
    var a = 0u;
    var cum = exp(scr[sb + S_OLD + g * V] - lz);
    while (u >= cum && a < V - 1u) { a += 1u; cum += exp(scr[sb + S_OLD + g * V + a] - lz); }
    scr[sb + S_TOK + i * N + k] = f32(a);
    scr[sb + S_NODE + i * N + k] = f32(g);
    q = q * V + a;
    // the reward of turn t < T − 1, paid after its last token, indexed by the (t+1)-turn prefix q
    if (PER_TURN && k < N - 1u && (k + 1u) % L == 0u) {
      let t = (k + 1u) / L - 1u;
      scr[sb + S_TRW + i * T + t] = tables[TT0 + x * TTS + TOFF[t] + q];
    }
  }
  return q;
}
/** The terminal reward of sequence q in context x, with the context's noise. */
fn terminalReward(x: u32, q: u32) -> f32 {
  let kind = u32(tables[NOISE + 2u * x]);
  let sigma = tables[NOISE + 2u * x + 1u];
  let mean = tables[TERM0 + x * S + q];
  if (kind == NOISE_GAUSSIAN) { return mean + sigma * randNormal(); }
  if (kind == NOISE_BERNOULLI) { return select(0.0, 1.0, rand01() < mean); }
  return mean;
}
/** Per-turn rewards: the total in the order of env.returns (terminal, then turns 1..T−1), after the rewards-to-go G_t into S_TGO. */
fn turnReturns(i: u32, r: f32) -> f32 {
  scr[sb + S_TRW + i * T + T - 1u] = r;
  var total = r;
  for (var t = 0u; t < T - 1u; t++) { total += scr[sb + S_TRW + i * T + t]; }
  var gt = r;
  scr[sb + S_TGO + i * T + T - 1u] = gt;
  for (var tt = 1u; tt < T; tt++) { let t = T - 1u - tt; gt = scr[sb + S_TRW + i * T + t] + GAMMA * gt; scr[sb + S_TGO + i * T + t] = gt; }
  return total;
}
/** Group advantages (R − mean, or RLOO), divided by the group's std with \`group\`; returns the share of groups with zero variance. */
fn groupAdvantages(norm: u32) -> f32 {
  let rloo = code(A_ADV) == ADV_RLOO;
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
    scr[sb + S_GSS + g0] = ss;
    if (norm == NORM_GROUP) {
      let sd = sqrt(ss / f32(GS - 1u)) + NORM_EPS;
      for (var j = 0u; j < GS; j++) { scr[sb + S_ADV + g0 * GS + j] /= sd; }
    }
  }
  return zero / f32(B);
}
/** σ of the raw advantages over the batch (the batch scale of per-turn advantages too). */
fn batchSigma() {
  var mu0 = 0.0;
  for (var i = 0u; i < RS; i++) { mu0 += scr[sb + S_ADV + i]; }
  mu0 /= f32(RS);
  var ss0 = 0.0;
  for (var i = 0u; i < RS; i++) { let d = scr[sb + S_ADV + i] - mu0; ss0 += d * d; }
  scr[sb + S_SIG] = select(0.0, sqrt(ss0 / f32(RS - 1u)), RS > 1u);
}
/** The advantages standardized over the batch (\`batch\`). */
fn standardizeBatch() {
  var mu = 0.0;
  for (var i = 0u; i < RS; i++) { mu += scr[sb + S_ADV + i]; }
  mu /= f32(RS);
  var ss = 0.0;
  for (var i = 0u; i < RS; i++) { let d = scr[sb + S_ADV + i] - mu; ss += d * d; }
  let sd = select(0.0, sqrt(ss / f32(RS - 1u)), RS > 1u);
  for (var i = 0u; i < RS; i++) { scr[sb + S_ADV + i] = (scr[sb + S_ADV + i] - mu) / (sd + NORM_EPS); }
}
fn fillBatch() -> f32 {
  chooseContexts();
  for (var g0 = 0u; g0 < B; g0++) {
    let x = u32(scr[sb + S_CTXS + g0]);
    for (var j = 0u; j < GS; j++) {
      let i = g0 * GS + j;
      scr[sb + S_W + i] = 1.0 / f32(RS);
      let q = sampleTokens(i, x);
      var r = terminalReward(x, q);
      scr[sb + S_TERM + i] = r;
      if (PER_TURN) { r = turnReturns(i, r); }
      scr[sb + S_R + i] = r;
    }
  }
  let norm = select(code(A_NORM), NORM_NONE, code(A_ADV) == ADV_GAE); // GAE normalizes its token advantages instead
  let zero = groupAdvantages(norm);
  if (norm != NORM_GROUP) { batchSigma(); }
  if (norm == NORM_BATCH) { standardizeBatch(); }
  return zero;
}
`;

const EXACT_GAE = /* wgsl */ `
fn groupStd(i: u32) -> f32 { return sqrt(scr[sb + S_VAR + i / S]); }
/** V_old at every node by a backward pass over the tree; Â_i,k = Q_old − V_old. */
fn gaeAdvantages() {
  for (var x = 0u; x < C; x++) {
    let base = x * NP;
    for (var pp = 0u; pp < N; pp++) {
      let p = N - 1u - pp;
      let d = stepDisc(p);
      for (var n = OFFSET[p]; n < OFFSET[p + 1u]; n++) {
        let g = rowOf(x, n);
        let q = n - OFFSET[p];
        var v = 0.0;
        for (var a = 0u; a < V; a++) {
          let pa = exp(scr[sb + S_OLD + g * V + a] - scr[sb + S_LZO + g]);
          if (p == N - 1u) { v += pa * tables[TERM0 + x * S + q * V + a]; }
          else {
            var paid = 0.0; // the end of turn t < T − 1: its reward, indexed by the (t+1)-turn prefix q·V + a
            if (PER_TURN && (p + 1u) % L == 0u) { paid = tables[TT0 + x * TTS + TOFF[(p + 1u) / L - 1u] + q * V + a]; }
            v += pa * (paid + d * scr[sb + S_VAL + base + OFFSET[p + 1u] + q * V + a]);
          }
        }
        scr[sb + S_VAL + base + n] = v;
      }
    }
  }
  for (var i = 0u; i < RS; i++) {
    for (var k = 0u; k < N; k++) {
      var q = tables[TERM0 + i];
      if (k < N - 1u) {
        q = stepDisc(k) * scr[sb + S_VAL + ctxNodeOf(i, k + 1u)];
        if (PER_TURN && (k + 1u) % L == 0u) { q += tables[TR0 + i * T + (k + 1u) / L - 1u]; }
      }
      scr[sb + S_ADVT + i * N + k] = q - scr[sb + S_VAL + ctxNodeOf(i, k)];
    }
  }
}
fn standardizeTokens() {
  var mu = 0.0;
  for (var i = 0u; i < RS; i++) { for (var k = 0u; k < N; k++) { mu += (scr[sb + S_W + i] / f32(N)) * scr[sb + S_ADVT + i * N + k]; } }
  var v = 0.0;
  for (var i = 0u; i < RS; i++) {
    for (var k = 0u; k < N; k++) {
      let d = scr[sb + S_ADVT + i * N + k] - mu;
      v += (scr[sb + S_W + i] / f32(N)) * (d * d + select(0.0, tables[NVAR0 + i], k == N - 1u));
    }
  }
  let sd = sqrt(v);
  for (var j = 0u; j < RS * N; j++) { scr[sb + S_ADVT + j] = (scr[sb + S_ADVT + j] - mu) / (sd + NORM_EPS); }
}
fn criticStep() {}
/** Per-turn rewards: turn t's tokens get (G_t − E_old[G_t | x]) / s, s from R: 1, the context's std + ε, or √E_x Var(R|x) + ε. */
fn turnAdvantages() {
  let norm = code(A_NORM);
  for (var i = 0u; i < RS; i++) {
    let x = i / S;
    var s = 1.0;
    if (norm == NORM_GROUP) { s = sqrt(scr[sb + S_VAR + x]) + NORM_EPS; }
    if (norm == NORM_BATCH) { s = scr[sb + S_SIG] + NORM_EPS; }
    for (var k = 0u; k < N; k++) {
      let t = k / L;
      scr[sb + S_ADVT + i * N + k] = (tables[TG0 + i * T + t] - scr[sb + S_TM + x * T + t]) / s;
    }
  }
}
`;

const SAMPLED_GAE = /* wgsl */ `
fn groupStd(i: u32) -> f32 { return sqrt(scr[sb + S_GSS + i / GS] / f32(GS - 1u)); }
/** GAE(γ, λ) with the critic (kept across iterations in S_VAL); the λ-returns are the critic's targets. */
fn gaeAdvantages() {
  let lambda = algo(A_LAMBDA);
  for (var i = 0u; i < RS; i++) {
    var next = 0.0;
    var acc = 0.0;
    for (var kk = 0u; kk < N; kk++) {
      let k = N - 1u - kk;
      let d = stepDisc(k);
      let v = scr[sb + S_VAL + ctxNodeOf(i, k)];
      var r = 0.0;
      if (k == N - 1u) { r = scr[sb + S_TERM + i]; }
      else if (PER_TURN && (k + 1u) % L == 0u) { r = scr[sb + S_TRW + i * T + (k + 1u) / L - 1u]; }
      let delta = r + d * next - v;
      acc = delta + d * lambda * select(acc, 0.0, k == N - 1u);
      scr[sb + S_ADVT + i * N + k] = acc;
      scr[sb + S_TGT + i * N + k] = acc + v;
      next = v;
    }
  }
}
fn standardizeTokens() {
  let n = RS * N;
  var mu = 0.0;
  for (var j = 0u; j < n; j++) { mu += scr[sb + S_ADVT + j]; }
  mu /= f32(n);
  var ss = 0.0;
  for (var j = 0u; j < n; j++) { let d = scr[sb + S_ADVT + j] - mu; ss += d * d; }
  let sd = select(0.0, sqrt(ss / f32(n - 1u)), n > 1u);
  for (var j = 0u; j < n; j++) { scr[sb + S_ADVT + j] = (scr[sb + S_ADVT + j] - mu) / (sd + NORM_EPS); }
}
/**
 * Per-turn rewards: turn t's tokens get (G_t − the group's mean of G_t, or of the others' with rloo) / s,
 * s from R: 1, the group's std + ε, or the batch's std of the raw advantages of R + ε.
 */
fn turnAdvantages() {
  let norm = code(A_NORM);
  let rloo = code(A_ADV) == ADV_RLOO;
  for (var g0 = 0u; g0 < B; g0++) {
    for (var t = 0u; t < T; t++) {
      var sum = 0.0;
      for (var j = 0u; j < GS; j++) { sum += scr[sb + S_TGO + (g0 * GS + j) * T + t]; }
      scr[sb + S_TM + g0 * T + t] = sum;
    }
  }
  for (var i = 0u; i < RS; i++) {
    let g0 = i / GS;
    var s = 1.0;
    if (norm == NORM_GROUP) { s = sqrt(scr[sb + S_GSS + g0] / f32(GS - 1u)) + NORM_EPS; }
    if (norm == NORM_BATCH) { s = scr[sb + S_SIG] + NORM_EPS; }
    for (var t = 0u; t < T; t++) {
      let Gt = scr[sb + S_TGO + i * T + t];
      let sum = scr[sb + S_TM + g0 * T + t];
      let d = select(Gt - sum / f32(GS), Gt - (sum - Gt) / f32(GS - 1u), rloo);
      for (var k = t * L; k < t * L + L; k++) { scr[sb + S_ADVT + i * N + k] = d / s; }
    }
  }
}
/** One SGD step of the critic on ½·mean over rollouts of Σ_tokens (V − λ-return)². */
fn criticStep() {
  if (code(A_ADV) != ADV_GAE) { return; }
  var lr = algo(A_CRITIC_LR);
  if (lr < 0.0) { lr = algo(A_LR); }
  for (var j = 0u; j < RS * N; j++) { scr[sb + S_CG + ctxNodeOf(j / N, j % N)] = 0.0; }
  for (var j = 0u; j < RS * N; j++) {
    let g = ctxNodeOf(j / N, j % N); // the critic sees the context, even when the policy's table is shared
    scr[sb + S_CG + g] += (scr[sb + S_VAL + g] - scr[sb + S_TGT + j]) / f32(RS);
  }
  for (var g = 0u; g < G; g++) { scr[sb + S_VAL + g] -= lr * scr[sb + S_CG + g]; scr[sb + S_CG + g] = 0.0; }
}
`;
