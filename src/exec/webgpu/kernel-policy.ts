import type { KernelShape } from './layout';

// The policy in WGSL, for kernel.ts: the softmax of each node's logits (log Z kept in scratch), the
// log-probabilities at θ_old and θ, the gradient with respect to the logits accumulated per token
// as coefficients c on ∇log π(a|n) = e_a − π(·|n) (src/exec/host/tabular.ts does the same in
// float64), and the optimizer's step: SGD, or Adam with one step count per turn (a table) or one
// for the whole network (the MLP, kernel-mlp.ts).

/** The private base of this run's node logits is `lb`; the MLP's functions are called where it has one. */
export function policySource(s: KernelShape): string {
  return SOFTMAX(s) + GRADIENT + optimizerSource(s);
}

const SOFTMAX = (s: KernelShape) => /* wgsl */ `
fn logNorm(g: u32) -> f32 {
  var m = -3.4e38;
  for (var a = 0u; a < V; a++) { m = max(m, theta[lb + g * V + a]); }
  var z = 0.0;
  for (var a = 0u; a < V; a++) { z += exp(theta[lb + g * V + a] - m); }
  return m + log(z);
}
/** logZ at the nodes of positions [p0, p1) of every context. */
fn refreshLogZ(p0: u32, p1: u32) {
${s.mlp ? '  mlpRefresh(p0, p1); // the MLP: first the logits there, if a step moved the weights since\n' : ''}  for (var x = 0u; x < CP; x++) {
    for (var n = OFFSET[p0]; n < OFFSET[p1]; n++) { let g = x * NP + n; scr[sb + S_LZ + g] = logNorm(g); }
  }
}
/** The policy's node (its row of logits) of context x's local node n: the context's own, or the one shared table's. */
fn rowOf(x: u32, n: u32) -> u32 { return select(x, 0u, SHARED) * NP + n; }
fn prob(g: u32, a: u32) -> f32 { return exp(theta[lb + g * V + a] - scr[sb + S_LZ + g]); }
fn logpAtOld(i: u32, k: u32) -> f32 {
  let g = nodeOf(i, k);
  return scr[sb + S_OLD + g * V + tokOf(i, k)] - scr[sb + S_LZO + g];
}
/**
 * log π_old of rollout i's token k, as storeLogpOld left it: the rules read it once per token per
 * pass, and it cannot change within an iteration (θ_old, log Z_old and the batch are fixed). On
 * SwiftShader each computation is four dependent gathers (node, token, logit, log Z), one read here.
 */
fn logpOld(i: u32, k: u32) -> f32 { return scr[sb + S_LPO + i * N + k]; }
fn storeLogpOld() {
  for (var i = 0u; i < RS; i++) {
    for (var k = 0u; k < N; k++) { scr[sb + S_LPO + i * N + k] = logpAtOld(i, k); }
  }
}
fn logpNow(i: u32, k: u32) -> f32 {
  let g = nodeOf(i, k);
  return theta[lb + g * V + tokOf(i, k)] - scr[sb + S_LZ + g];
}
`;

const GRADIENT = /* wgsl */ `
fn addGrad(g: u32, a: u32, c: f32) {
  scr[sb + S_GRAD + g * V + a] += c;
  scr[sb + S_GSUM + g] += c;
}
/** g[n,·] −= gsum[n]·π(·|n) at positions [p0, p1); clears gsum there. */
fn finishGradient(p0: u32, p1: u32) {
  for (var x = 0u; x < CP; x++) {
    for (var n = OFFSET[p0]; n < OFFSET[p1]; n++) {
      let g = x * NP + n;
      let s = scr[sb + S_GSUM + g];
      if (s == 0.0) { continue; }
      let lz = scr[sb + S_LZ + g];
      for (var a = 0u; a < V; a++) { scr[sb + S_GRAD + g * V + a] -= s * exp(theta[lb + g * V + a] - lz); }
      scr[sb + S_GSUM + g] = 0.0;
    }
  }
}
fn clearGradient() {
  for (var j = 0u; j < P; j++) { scr[sb + S_GRAD + j] = 0.0; }
  for (var g = 0u; g < PG; g++) { scr[sb + S_GSUM + g] = 0.0; }
}
/** Adam's moments of parameter j (this run's AD_M + j, AD_V + j) after gradient gr; returns the parameter's step up (bias corrections c1, c2). */
fn adamMove(j: u32, gr: f32, lr: f32, c1: f32, c2: f32) -> f32 {
  let m = B1 * adam[mb + AD_M + j] + (1.0 - B1) * gr;
  let v = B2 * adam[mb + AD_V + j] + (1.0 - B2) * gr * gr;
  adam[mb + AD_M + j] = m;
  adam[mb + AD_V + j] = v;
  return (lr * (m / c1)) / (sqrt(v / c2) + ADAM_EPS);
}
`;

/** optimizerStep(turn, p0, p1): θ ← θ + step on turn `turn` (T: every turn) at positions [p0, p1), the gradient cleared there. */
function optimizerSource(s: KernelShape): string {
  if (s.mlp)
    return /* wgsl */ `
fn optimizerStep(turn: u32, p0: u32, p1: u32) {
  mlpBackward(p0, p1);
  mlpStep();
}
`;
  return /* wgsl */ `
fn optimizerStep(turn: u32, p0: u32, p1: u32) {
  if (code(A_OPTIMIZER) == OPTIMIZER_SGD) { sgdStep(p0, p1); } else { adamStep(turn); }
}
fn sgdStep(p0: u32, p1: u32) {
  let lr = algo(A_LR);
  for (var x = 0u; x < CP; x++) {
    for (var j = (x * NP + OFFSET[p0]) * V; j < (x * NP + OFFSET[p1]) * V; j++) {
      theta[lb + j] += lr * scr[sb + S_GRAD + j];
      scr[sb + S_GRAD + j] = 0.0;
    }
  }
}
/** Adam on the logits of turn \`turn\` (T: every turn), each turn with its own step count. */
fn adamStep(turn: u32) {
  let lr = algo(A_LR);
  for (var t = 0u; t < T; t++) { if (turn == T || t == turn) { adam[mb + AD_K + t] += 1.0; } }
  for (var x = 0u; x < CP; x++) {
    for (var t = 0u; t < T; t++) {
      if (turn != T && t != turn) { continue; }
      let k = adam[mb + AD_K + t];
      let c1 = 1.0 - pow(B1, k);
      let c2 = 1.0 - pow(B2, k);
      for (var j = (x * NP + OFFSET[t * L]) * V; j < (x * NP + OFFSET[(t + 1u) * L]) * V; j++) {
        theta[lb + j] += adamMove(j, scr[sb + S_GRAD + j], lr, c1, c2);
        scr[sb + S_GRAD + j] = 0.0;
      }
    }
  }
}
`;
}
