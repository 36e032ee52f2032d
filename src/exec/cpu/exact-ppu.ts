import type { Problem } from '../host/problem';
import type { Scratch } from '../host/scratch';
import { refreshStaleLogZ } from '../host/tabular';
import { makeTokenKernel, type TokenKernel } from './token-kernel';

// Exact mode's PPU step with token ratios over the whole batch (PPO, GRPO: docs/math.md "Update
// rules", one chunk per epoch): the same numbers as rules.ts's clippedStep, computed with fewer
// typed arrays per token. The enumeration is fixed and, within an iteration, so are each
// rollout's weight p(x)·P_old(τ|x), each token's advantage and log π_old, so the step's loop
// reads them from tables built once per iteration: per live token (a rollout of weight ≠ 0)
// its parameter and node, its weight w, its advantage Â and the product w·Â (the first product
// of w·Â·ρ, which the loop evaluates left to right). Per parameter, the ratio ρ, the gradient
// and log π_old sit side by side in one array. V8 checks a typed array's map, base and length at
// each access in a loop (host/ratio-cache.ts says why the ratios are per parameter): three
// arrays per token instead of eight is most of what this saves. Every floating-point operation
// is the one clippedStep, refreshRatios and finishAndStepSgd (host/optimizer.ts) perform, in
// the same order, so the run's numbers are the same bits.

/** The tables of one shard's scratch, in its token kernel's memory (token-kernel.ts). */
interface Tables {
  kernel: TokenKernel;
  /** Per parameter g: [3g] ρ, [3g + 1] gradient, [3g + 2] log π_old = θ_old[g] − logZOld[n]; then per node n, [3P + n] Σ of its tokens' coefficients (gsum). */
  f: Float64Array;
  /** Per live token t: [2t] the byte address of f[3g], [2t + 1] that of f[3P + n]. */
  at: Int32Array;
  /** Per live token t: [3t] w, [3t + 1] Â, [3t + 2] w·Â. */
  tok: Float64Array;
  live: number;
  /** The iteration (Scratch.iterationStamp) the token tables and log π_old belong to, or −1. */
  builtAt: number;
}

const tablesOf = new WeakMap<Scratch, Tables>();

function tables(pb: Problem, sc: Scratch): Tables {
  let t = tablesOf.get(sc);
  if (!t) {
    const n = sc.batch.n * sc.batch.N;
    const fLength = 3 * pb.params + pb.nodes;
    const F = 16; // after the loop's two outputs
    const AT = F + 8 * fLength;
    const TOK = AT + 8 * n; // 8-aligned, as F and AT are
    const kernel = makeTokenKernel(TOK + 24 * n);
    t = { kernel, f: new Float64Array(kernel.buffer, F, fLength), at: new Int32Array(kernel.buffer, AT, 2 * n), tok: new Float64Array(kernel.buffer, TOK, 3 * n), live: 0, builtAt: -1 };
    tablesOf.set(sc, t);
  }
  return t;
}

/** Whether exactPpuStep takes this step: exact mode, token ratios, SGD, the whole batch in one chunk, every turn, no M. */
export function exactPpuApplies(pb: Problem, sc: Scratch, M: Float64Array | null, turn: number, k0: number, k1: number, c0: number, c1: number, chunkScale: number): boolean {
  return pb.exact && pb.exp.optimizer.kind === 'sgd' && M === null && turn < 0 && k0 === 0 && k1 === pb.tree.N && c0 === 0 && c1 === sc.batch.n && chunkScale === 1;
}

/** The iteration's tables: log π_old per parameter and the live tokens in clippedStep's order (perm[c], then k). */
function build(pb: Problem, sc: Scratch, t: Tables): void {
  const b = sc.batch;
  const { V, N } = pb.tree;
  const P3 = 3 * pb.params;
  const { f, at, tok } = t;
  const fAt = f.byteOffset;
  const { thetaOld, logZOld } = sc;
  for (let j = 0; j < b.nNodes; j++) {
    const n = b.nodes[j];
    const lzOld = logZOld[n];
    for (let g = n * V; g < n * V + V; g++) f[3 * g + 2] = thetaOld[g] - lzOld;
  }
  const { weight, advTok, param, node } = b;
  const perm = sc.perm;
  let live = 0;
  for (let c = 0; c < b.n; c++) {
    const i = perm[c];
    const w = weight[i] * 1; // clippedStep's w = weight · chunkScale, chunkScale = 1
    if (w === 0) continue;
    for (let j = i * N; j < i * N + N; j++) {
      const A = advTok[j] * 1; // clippedStep's Â · M_i, M_i = 1
      at[2 * live] = fAt + 8 * 3 * param[j];
      at[2 * live + 1] = fAt + 8 * (P3 + node[j]);
      tok[3 * live] = w;
      tok[3 * live + 1] = A;
      tok[3 * live + 2] = w * A;
      live++;
    }
  }
  t.live = live;
  t.builtAt = sc.iterationStamp;
}

/**
 * One optimizer step of clippedStep (rules.ts) where exactPpuApplies: ratios at the nodes that
 * moved, the clipped surrogate's gradient, and the SGD step of finishAndStepSgd. Returns nothing;
 * adds to stats and sc.probe as clippedStep does.
 */
export function exactPpuStep(pb: Problem, theta: Float64Array, sc: Scratch, eps: number, lr: number, fresh: boolean, stats: { clipNum: number; clipDen: number }): void {
  const b = sc.batch;
  const V = pb.tree.V;
  const nodes = b.nodes;
  const nNodes = b.nNodes;
  const t = tables(pb, sc);
  if (t.builtAt !== sc.iterationStamp) build(pb, sc, t);
  const f = t.f;
  const { logZ, logZOld, logZAt, ratiosAt, movedAt, probsOld } = sc;
  const now = sc.iterationStamp;
  const P3 = 3 * pb.params;
  // the first step on these nodes finds θ_old there: logZOld is current (clippedStep)
  if (fresh)
    for (let j = 0; j < nNodes; j++) {
      logZ[nodes[j]] = logZOld[nodes[j]];
      logZAt[nodes[j]] = now;
    }
  else refreshStaleLogZ(theta, V, nodes, 0, nNodes, sc);
  // refreshRatios (host/ratio-cache.ts): a node's ratios stand until a step moves it
  for (let j = 0; j < nNodes; j++) {
    const n = nodes[j];
    if (ratiosAt[n] === now) continue;
    ratiosAt[n] = now;
    const lz = logZ[n];
    for (let g = n * V; g < n * V + V; g++) {
      const d = theta[g] - lz - f[3 * g + 2];
      f[3 * g] = d === 0 ? 1 : Math.exp(d); // exp(±0) is exactly 1
    }
  }
  // the clipped surrogate's gradient, token by token in clippedStep's order (token-kernel.ts)
  const k = t.kernel;
  k.run(t.live, t.at.byteOffset, t.tok.byteOffset, eps, 1 - eps, 1 + eps, stats.clipNum, stats.clipDen);
  stats.clipNum = k.out[0];
  stats.clipDen = k.out[1];
  // finishAndStepSgd: g −= gsum·π, θ += lr·g, node by node; a node with a nonzero entry moved
  let probe = 0;
  for (let j = 0; j < nNodes; j++) {
    const n = nodes[j];
    const o = n * V;
    const s = f[P3 + n];
    if (s !== 0) {
      if (fresh) for (let a = 0; a < V; a++) f[3 * (o + a) + 1] -= s * probsOld[o + a];
      else {
        const lz = logZ[n];
        for (let a = 0; a < V; a++) f[3 * (o + a) + 1] -= s * Math.exp(theta[o + a] - lz);
      }
      f[P3 + n] = 0;
    }
    let moved = false;
    for (let a = 0; a < V; a++) {
      const g = f[3 * (o + a) + 1];
      if (g !== 0) moved = true; // NaN too
      probe += (theta[o + a] += lr * g) * 0;
      f[3 * (o + a) + 1] = 0;
    }
    if (moved) {
      logZAt[n] = -1;
      ratiosAt[n] = -1;
      movedAt[n] = now;
    }
  }
  sc.probe += probe;
}
