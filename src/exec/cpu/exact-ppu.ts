import type { Problem } from '../host/problem';
import type { Scratch } from '../host/scratch';
import { kernelOf, type ExactKernel } from './exact-kernel';

// Exact mode's PPU step with token ratios over the whole batch (PPO, GRPO: docs/math.md "Update
// rules", one chunk per epoch) under SGD: the numbers of rules.ts's clippedStep, computed by the
// shard's kernel (exact-kernel.ts). The enumeration is fixed and, within an iteration, so are each
// rollout's weight p(x)·P_old(τ|x), each token's advantage and log π_old; the kernel's tables hold
// them from the iteration's first step on: per live token (a rollout of weight ≠ 0, in
// clippedStep's order) its addresses, w, Â and w·Â (the first product of w·Â·ρ, which clippedStep
// evaluates left to right), and log π_old = θ_old − logZOld per parameter (the subtraction
// refreshRatios performs, host/ratio-cache.ts).

/** Whether exactPpuStep takes this step: a kernel on this scratch (the shard's, exact-kernel.ts), SGD, token ratios over every turn and the whole batch in one chunk, no M. */
export function exactPpuApplies(pb: Problem, sc: Scratch, M: Float64Array | null, turn: number, k0: number, k1: number, c0: number, c1: number, chunkScale: number): boolean {
  return pb.exact && pb.exp.optimizer.kind === 'sgd' && M === null && turn < 0 && k0 === 0 && k1 === pb.tree.N && c0 === 0 && c1 === sc.batch.n && chunkScale === 1 && kernelOf(sc) !== undefined;
}

/** The iteration's tables: log π_old per parameter, the batch's nodes, and the live tokens in clippedStep's order (perm[c], then k). */
function build(pb: Problem, sc: Scratch, k: ExactKernel, theta: Float64Array): number {
  // the kernel reads θ in its own memory, at theta's offset: only a run of the kernel's shard may step here
  if (theta.buffer !== k.buffer) throw new Error('exactPpuStep: θ is not in the memory of the scratch\'s kernel');
  const b = sc.batch;
  const { V, N } = pb.tree;
  const P3 = 3 * pb.params;
  const { f, at, tok } = k;
  const fByte = f.byteOffset;
  const { thetaOld, logZOld } = sc;
  for (let j = 0; j < b.nNodes; j++) {
    const n = (k.nodes[j] = b.nodes[j]);
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
      at[2 * live] = fByte + 24 * param[j];
      at[2 * live + 1] = fByte + 8 * (P3 + node[j]);
      tok[3 * live] = w;
      tok[3 * live + 1] = A;
      tok[3 * live + 2] = w * A;
      live++;
    }
  }
  return live;
}

/**
 * One optimizer step of clippedStep (rules.ts) where exactPpuApplies: log-normalizers and ratios
 * at the nodes that moved, the clipped surrogate's gradient, and finishAndStepSgd's step. Adds to
 * stats and sc.probe as clippedStep does.
 */
export function exactPpuStep(pb: Problem, theta: Float64Array, sc: Scratch, eps: number, lr: number, fresh: boolean, stats: { clipNum: number; clipDen: number }): void {
  const k = kernelOf(sc)!;
  const b = sc.batch;
  const V = pb.tree.V;
  const nNodes = b.nNodes;
  const now = sc.iterationStamp;
  if (k.builtAt !== now) {
    k.live = build(pb, sc, k, theta);
    k.builtAt = now;
  }
  // the first step on these nodes finds θ_old there: logZOld is current (clippedStep); later steps refresh the nodes that moved (refreshStaleLogZ)
  if (fresh)
    for (let j = 0; j < nNodes; j++) {
      sc.logZ[b.nodes[j]] = sc.logZOld[b.nodes[j]];
      sc.logZAt[b.nodes[j]] = now;
    }
  k.epoch(nNodes, V, theta, fresh, now, lr, eps, stats.clipNum, stats.clipDen);
  stats.clipNum = k.out[0];
  stats.clipDen = k.out[1];
  sc.probe += k.out[2];
}
