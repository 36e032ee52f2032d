// The end of an iteration in WGSL, for kernel.ts: KL(π_old ‖ π_new) over the batch's visits, then
// the new policy's exact evaluation (docs/math.md, "What is measured"), as src/core/env/exact.ts's
// evaluatePolicy walks the tree: J, entropy, P(optimal token) per turn along the optimal path and
// J per context and (with γ < 1 and per-turn rewards) J_γ, written into the iteration's record at o
// (R_* offsets of layout.ts).

export const EVALUATION = /* wgsl */ `
/** KL per node into S_GSUM (cleared again after), averaged over the rollouts' visits with weights w_i / N. */
fn updateKl() -> f32 {
  for (var g = 0u; g < PG; g++) {
    var kl = 0.0;
    for (var a = 0u; a < V; a++) {
      let lp = scr[sb + S_OLD + g * V + a] - scr[sb + S_LZO + g];
      let p = exp(lp);
      if (p > 0.0) { kl += p * (lp - (theta[lb + g * V + a] - scr[sb + S_LZ + g])); }
    }
    scr[sb + S_GSUM + g] = kl;
  }
  var KL = 0.0;
  for (var i = 0u; i < RS; i++) {
    let w = scr[sb + S_W + i] / f32(N);
    if (w == 0.0) { continue; }
    for (var k = 0u; k < N; k++) { KL += w * scr[sb + S_GSUM + nodeOf(i, k)]; }
  }
  for (var g = 0u; g < PG; g++) { scr[sb + S_GSUM + g] = 0.0; }
  return KL;
}


/**
 * Context x's J, its reach-weighted entropy summed over nodes and (DISCOUNTED) its J_γ, walking the
 * tree forward: reach per context node (S_REACH), probabilities from the policy's row (rowOf),
 * each node's computed once for its entropy and its children's reach (or its leaves' returns).
 */
fn contextValue(x: u32) -> vec3<f32> {
  let base = x * NP;
  scr[sb + S_REACH + base] = 1.0;
  var jx = 0.0;
  var hx = 0.0;
  var jgx = 0.0;
  for (var p = 0u; p < N; p++) {
    for (var n = OFFSET[p]; n < OFFSET[p + 1u]; n++) {
      let g = rowOf(x, n);
      let rch = scr[sb + S_REACH + base + n];
      var pr: array<f32, V>;
      var h = 0.0;
      for (var a = 0u; a < V; a++) { let pa = prob(g, a); pr[a] = pa; if (pa > 0.0) { h -= pa * log(pa); } }
      hx += rch * h;
      let q = n - OFFSET[p];
      if (p == N - 1u) {
        for (var a = 0u; a < V; a++) {
          let w = rch * pr[a];
          jx += w * tables[RET0 + x * S + q * V + a];
          if (DISCOUNTED) { jgx += w * tables[JG0 + x * S + q * V + a]; }
        }
      } else {
        for (var a = 0u; a < V; a++) { scr[sb + S_REACH + base + OFFSET[p + 1u] + q * V + a] = rch * pr[a]; }
      }
    }
  }
  return vec3<f32>(jx, hx, jgx);
}

/** P(optimal token) of turn t in context x: the product over its positions on the optimal path of the optimal tokens' mass. */
fn optimalTurnProb(x: u32, t: u32) -> f32 {
  let xt = select(x, 0u, SHARED); // a shared table has one optimal path, on the mean table
  var prod = 1.0;
  for (var p = t * L; p < (t + 1u) * L; p++) {
    let g = xt * NP + itab[I_PATH + xt * N + p];
    var mass = 0.0;
    for (var a = 0u; a < V; a++) { if (itab[I_OPT + g * V + a] != 0u) { mass += prob(g, a); } }
    prod *= mass;
  }
  return prod;
}

/** Exact J, entropy, P(optimal token) per turn, J per context (logZ fresh) into the record at o. */
fn evaluate(o: u32) {
  var J = 0.0;
  var H = 0.0;
  var Jg = 0.0;
  for (var t = 0u; t < T; t++) { rec[o + R_POPT + t] = 0.0; }
  for (var x = 0u; x < C; x++) {
    let v = contextValue(x);
    J += v.x / f32(C);
    H += v.y / f32(N * C);
    Jg += v.z / f32(C);
    if (C > 1u) { rec[o + R_JCTX + x] = v.x; }
    for (var t = 0u; t < T; t++) { rec[o + R_POPT + t] += optimalTurnProb(x, t) / f32(C); }
  }
  rec[o + R_J] = J;
  rec[o + R_H] = H;
  if (DISCOUNTED) { rec[o + R_JG] = Jg; }
}
`;
