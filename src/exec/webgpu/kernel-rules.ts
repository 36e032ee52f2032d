import type { KernelShape } from './layout';

// The update rules in WGSL, for kernel.ts (docs/math.md, "Update rules"), step for step as the CPU
// executor's src/exec/cpu/rules.ts: REINFORCE (one step along the policy gradient already in
// S_GRAD); PPU (`epochs` passes on every turn, token or sequence ratios); sequential (the turns one
// at a time in reverse, forward or random order, each with its passes on its own tokens times M,
// then M ← M·ratio of the turn, clipped by mClip). Every pass is `minibatches` shuffled chunks in
// sampled mode (src/exec/host/schedule.ts), one chunk in exact mode.

export function rulesSource(s: KernelShape): string {
  return CLIPPED_STEP + PASSES + reinforceSource(s) + PPU + sequentialSource(s) + APPLY_RULE;
}

/**
 * One clipped step on Σ_i w_i·min(ρ·M·A, clip(ρ)·M·A) over tokens [k0, k1): token ratios
 * (tokenClippedTerm) or one ratio over the tokens (groupedClippedTerm: geo 1 or 1/tokens, A the
 * rollout's Â with advSeq, else its token advantage at k0).
 */
const CLIPPED_STEP = /* wgsl */ `
fn clipCount(w: f32, ratio: f32, eps: f32) {
  clipDen += w;
  if (abs(ratio - 1.0) > eps) { clipNum += w; }
}
fn tokenClippedTerm(i: u32, k0: u32, k1: u32, w: f32, M: f32, eps: f32) {
  for (var k = k0; k < k1; k++) {
    let ratio = exp(logpNow(i, k) - logpOld(i, k));
    let A = scr[sb + S_ADVT + i * N + k] * M;
    let clipped = min(max(ratio, 1.0 - eps), 1.0 + eps);
    clipCount(w, ratio, eps);
    if (ratio * A <= clipped * A) { addGrad(nodeOf(i, k), tokOf(i, k), w * A * ratio); }
  }
}
fn groupedClippedTerm(i: u32, k0: u32, k1: u32, w: f32, M: f32, eps: f32, geo: f32, advSeq: bool) {
  var lr = 0.0;
  for (var k = k0; k < k1; k++) { lr += logpNow(i, k) - logpOld(i, k); }
  let ratio = exp(lr * geo);
  var A = scr[sb + S_ADVT + i * N + k0] * M;
  if (advSeq) { A = scr[sb + S_ADV + i] * M; }
  let clipped = min(max(ratio, 1.0 - eps), 1.0 + eps);
  clipCount(w, ratio, eps);
  if (ratio * A <= clipped * A) {
    let coef = w * A * ratio;
    for (var k = k0; k < k1; k++) { addGrad(nodeOf(i, k), tokOf(i, k), coef); }
  }
}
fn clippedStep(turn: u32, k0: u32, k1: u32, grouped: bool, geo: f32, advSeq: bool, useM: bool, c0: u32, c1: u32, scale: f32) {
  let eps = algo(A_CLIP);
  refreshLogZ(k0, k1);
  for (var c = c0; c < c1; c++) {
    let i = u32(scr[sb + S_PERM + c]);
    let w = scr[sb + S_W + i] * scale;
    if (w == 0.0) { continue; }
    let M = select(1.0, scr[sb + S_M + i], useM);
    if (grouped) { groupedClippedTerm(i, k0, k1, w, M, eps, geo, advSeq); } else { tokenClippedTerm(i, k0, k1, w, M, eps); }
  }
  finishGradient(k0, k1);
  optimizerStep(turn, k0, k1);
}
`;

/** \`epochs\` passes over the batch on one term, each split into \`minibatches\` chunks after a shuffle. */
const PASSES = /* wgsl */ `
fn shuffleRollouts() {
  for (var j = RS - 1u; j > 0u; j--) {
    let r = min(u32(rand01() * f32(j + 1u)), j);
    let t = scr[sb + S_PERM + j];
    scr[sb + S_PERM + j] = scr[sb + S_PERM + r];
    scr[sb + S_PERM + r] = t;
  }
}
fn passes(turn: u32, k0: u32, k1: u32, grouped: bool, geo: f32, advSeq: bool, useM: bool) {
  var chunks = 1u;
  if (SAMPLED) { chunks = u32(algo(A_MINIBATCHES)); }
  let size = RS / chunks;
  for (var j = 0u; j < RS; j++) { scr[sb + S_PERM + j] = f32(j); }
  let epochs = u32(algo(A_EPOCHS));
  for (var e = 0u; e < epochs; e++) {
    if (chunks > 1u) { shuffleRollouts(); }
    for (var c = 0u; c < chunks; c++) { clippedStep(turn, k0, k1, grouped, geo, advSeq, useM, c * size, (c + 1u) * size, f32(chunks)); }
    if (turn == T) { criticStep(); } // PPU: the critic steps after each pass (sequential: after every turn)
  }
}
`;

const reinforceSource = (s: KernelShape) => /* wgsl */ `
fn reinforceUpdate() {
  ${s.mlp ? 'mlpStep(); // along the policy gradient already in S_WG' : 'optimizerStep(T, 0u, N);'}
  criticStep();
}
`;

const PPU = /* wgsl */ `
fn ppuUpdate() {
  let seq = code(A_RATIO) == RATIO_SEQUENCE;
  passes(T, 0u, N, seq, select(1.0, 1.0 / f32(N), seq), seq, false);
}
`;

const sequentialSource = (s: KernelShape) => /* wgsl */ `
/** The turn order: reverse (backward induction), forward, or a fresh random permutation. */
fn turnOrder() -> array<u32, ${s.T}> {
  var order: array<u32, ${s.T}>;
  let kind = code(A_ORDER);
  for (var tt = 0u; tt < T; tt++) { order[tt] = select(tt, T - 1u - tt, kind == ORDER_REVERSE); }
  if (kind == ORDER_RANDOM) {
    for (var j = T - 1u; j > 0u; j--) {
      let q = min(u32(rand01() * f32(j + 1u)), j);
      let tmp = order[j];
      order[j] = order[q];
      order[q] = tmp;
    }
  }
  return order;
}
/** M ← M · (turn t's ratio), clipped to [1 − mClip, 1 + mClip] when mClip ≥ 0. */
fn updateM(t: u32) {
  let mClip = algo(A_MCLIP);
  refreshLogZ(t * L, t * L + L);
  for (var i = 0u; i < RS; i++) {
    var lr = 0.0;
    for (var k = t * L; k < t * L + L; k++) { lr += logpNow(i, k) - logpOld(i, k); }
    var m = scr[sb + S_M + i] * exp(lr);
    if (mClip >= 0.0) { m = min(max(m, 1.0 - mClip), 1.0 + mClip); }
    scr[sb + S_M + i] = m;
  }
}
fn sequentialUpdate() {
  let useM = algo(A_MCORR) != 0.0;
  let geo = select(1.0, 1.0 / f32(L), code(A_TURN_RATIO) == TURN_RATIO_GEOMEAN);
  for (var i = 0u; i < RS; i++) { scr[sb + S_M + i] = 1.0; }
  let order = turnOrder();
  for (var tt = 0u; tt < T; tt++) {
    let t = order[tt];
    passes(t, t * L, t * L + L, true, geo, false, useM);
    if (useM) { updateM(t); }
  }
  for (var e = 0u; e < u32(algo(A_EPOCHS)); e++) { criticStep(); }
}
`;

/** The rule of this run's algorithm; the clip fraction counts from here. */
const APPLY_RULE = /* wgsl */ `
fn applyRule() {
  clipNum = 0.0;
  clipDen = 0.0;
  let rule = code(A_RULE);
  if (rule == RULE_REINFORCE) {
    reinforceUpdate();
    return;
  }
  clearPolicyGradient();
  if (rule == RULE_PPU) { ppuUpdate(); } else { sequentialUpdate(); }
}
`;
