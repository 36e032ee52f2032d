import { F64, I32, IMPORTED, moduleBytes, op, type Code, type Func } from './wasm-asm';
import { expFunc } from './wasm-exp';
import { logFunc } from './wasm-log';

// The loops of exact mode's PPU step (exact-ppu.ts) in WebAssembly: refreshStaleLogZ, refreshRatios,
// the token loop of clippedStep and finishAndStepSgd, each the JavaScript function's floating-point
// operations in its order (the JavaScript twins are in exact-kernel.ts). f64.min / f64.max /
// f64.abs are Math.min / Math.max / Math.abs (NaN in, NaN out; −0 below +0); exp and log are
// wasm-exp.ts and wasm-log.ts, Math.exp's and Math.log's bits.
// Addresses are byte offsets into the kernel's memory; f is the step's table (exact-ppu.ts:
// per parameter g, ρ at f + 24g, its gradient at f + 24g + 8, log π_old at f + 24g + 16).

// function indices: the imports, then exactKernelBytes' list
const EXP = IMPORTED;
const LOG = IMPORTED + 1;
const TOKENS = IMPORTED + 2;
const RATIOS = IMPORTED + 3;
const FINISH = IMPORTED + 4;
const LOGZS = IMPORTED + 5;
/** base + 8·i (i a local), or base + 4·i. */
const at8 = (base: number, i: number): Code => [op.get(base), op.get(i), op.i32(3), op.i32shl, op.i32add];
const at4 = (base: number, i: number): Code => [op.get(base), op.get(i), op.i32(2), op.i32shl, op.i32add];
const at24 = (base: number, i: number): Code => [op.get(base), op.get(i), op.i32(24), op.i32mul, op.i32add];

/** tokens(live, at, tok; eps, lo, hi, clipNum, clipDen): clippedStep's token loop; clipNum, clipDen to memory [0, 16). */
const tokens = (): Func => ({
  params: [I32, I32, I32, F64, F64, F64, F64, F64],
  results: [],
  locals: [I32, I32, F64, F64, F64, F64, I32],
  export: 'tokens',
  body: ((live, atp, tok, eps, lo, hi, num, den, end, ga, ratio, w, A, u, gs) => [
    op.block,
    op.get(live), op.i32eqz, op.brIf(0),
    op.get(atp), op.get(live), op.i32(3), op.i32shl, op.i32add, op.set(end),
    op.loop,
    op.get(atp), op.i32load(0), op.tee(ga), op.f64load(0), op.set(ratio),
    op.get(tok), op.f64load(0), op.set(w),
    op.get(tok), op.f64load(8), op.set(A),
    op.get(den), op.get(w), op.f64add, op.set(den), // clipDen += w
    op.get(ratio), op.f64(1), op.f64sub, op.f64abs, op.get(eps), op.f64gt,
    op.if, op.get(num), op.get(w), op.f64add, op.set(num), op.end, // |ρ − 1| > ε: clipNum += w
    op.get(ratio), op.get(A), op.f64mul,
    op.get(ratio), op.get(lo), op.f64max, op.get(hi), op.f64min, op.get(A), op.f64mul,
    op.f64le, op.if, // ρ·Â ≤ clip(ρ)·Â: the unclipped branch is the minimum
    op.get(tok), op.f64load(16), op.get(ratio), op.f64mul, op.set(u), // u = (w·Â)·ρ
    op.get(ga), op.get(ga), op.f64load(8), op.get(u), op.f64add, op.f64store(8), // gradient += u
    op.get(atp), op.i32load(4), op.tee(gs), op.get(gs), op.f64load(0), op.get(u), op.f64add, op.f64store(0), // gsum += u
    op.end,
    op.get(atp), op.i32(8), op.i32add, op.tee(atp),
    op.get(tok), op.i32(24), op.i32add, op.set(tok),
    op.get(end), op.i32ltS, op.brIf(0),
    op.end,
    op.end,
    op.i32(0), op.get(num), op.f64store(0),
    op.i32(0), op.get(den), op.f64store(8),
  ])(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14),
});

/** ratios(nodes, nNodes, V, theta, f, logZ, ratiosAt, now): refreshRatios (host/ratio-cache.ts) into f. */
const ratios = (): Func => ({
  params: [I32, I32, I32, I32, I32, I32, I32, I32],
  results: [],
  locals: [I32, I32, I32, I32, F64, F64],
  export: 'ratios',
  body: ((nodes, nNodes, V, theta, f, logZ, ratiosAt, now, j, n, g, gEnd, lz, d) => [
    op.block,
    op.get(nNodes), op.i32eqz, op.brIf(0),
    op.loop,
    at4(nodes, j), op.i32load(), op.set(n),
    at4(ratiosAt, n), op.i32load(), op.get(now), op.i32ne,
    op.if,
    at4(ratiosAt, n), op.get(now), op.i32store(),
    at8(logZ, n), op.f64load(), op.set(lz),
    op.get(n), op.get(V), op.i32mul, op.tee(g), op.get(V), op.i32add, op.set(gEnd),
    op.loop,
    at8(theta, g), op.f64load(), op.get(lz), op.f64sub, at24(f, g), op.f64load(16), op.f64sub, op.set(d), // θ − lz − log π_old
    at24(f, g),
    op.get(d), op.f64(0), op.f64eq, op.ifF64, op.f64(1), op.else, op.get(d), op.call(EXP), op.end, // exp(±0) is exactly 1
    op.f64store(0),
    op.get(g), op.i32(1), op.i32add, op.tee(g), op.get(gEnd), op.i32ltS, op.brIf(0),
    op.end,
    op.end,
    op.get(j), op.i32(1), op.i32add, op.tee(j), op.get(nNodes), op.i32ltS, op.brIf(0),
    op.end,
    op.end,
  ])(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
});

/**
 * finish(nodes, nNodes, V, theta, f, gsum, logZ, probsOld, logZAt, ratiosAt, movedAt, fresh, now; lr):
 * finishAndStepSgd (host/optimizer.ts) on f's gradients and gsum; its probe to memory [16, 24).
 */
const finish = (): Func => ({
  params: [I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, F64],
  results: [],
  locals: [I32, I32, I32, I32, I32, I32, I32, F64, F64, F64, F64, F64],
  export: 'finish',
  body: ((nodes, nNodes, V, theta, f, gsum, logZ, probsOld, logZAt, ratiosAt, movedAt, fresh, now, lr, j, n, o, a, oa, moved, sAddr, s, lz, g, th, probe) => {
    /** oa = o + a; the gradient's address f + 24·oa + 8 is then at24(f, oa) with offset 8. */
    const setOa: Code = [op.get(o), op.get(a), op.i32add, op.set(oa)];
    const nextA: Code = [op.get(a), op.i32(1), op.i32add, op.tee(a), op.get(V), op.i32ltS, op.brIf(0)];
    return [
      op.block,
      op.get(nNodes), op.i32eqz, op.brIf(0),
      op.loop,
      at4(nodes, j), op.i32load(), op.set(n),
      op.get(n), op.get(V), op.i32mul, op.set(o),
      at8(gsum, n), op.tee(sAddr), op.f64load(), op.set(s),
      op.get(s), op.f64(0), op.f64ne,
      op.if, // g −= gsum·π(·|n): π_old where θ is θ_old, else exp(θ − logZ)
      op.i32(0), op.set(a),
      op.get(fresh),
      op.if,
      op.loop, setOa,
      at24(f, oa), at24(f, oa), op.f64load(8), op.get(s), at8(probsOld, oa), op.f64load(), op.f64mul, op.f64sub, op.f64store(8),
      nextA, op.end,
      op.else,
      at8(logZ, n), op.f64load(), op.set(lz),
      op.loop, setOa,
      at24(f, oa), at24(f, oa), op.f64load(8), op.get(s), at8(theta, oa), op.f64load(), op.get(lz), op.f64sub, op.call(EXP), op.f64mul, op.f64sub, op.f64store(8),
      nextA, op.end,
      op.end,
      op.get(sAddr), op.f64(0), op.f64store(),
      op.end,
      // θ += lr·g; a nonzero entry (NaN too) marks the node moved
      op.i32(0), op.set(moved), op.i32(0), op.set(a),
      op.loop, setOa,
      at24(f, oa), op.f64load(8), op.set(g),
      op.get(g), op.f64(0), op.f64ne, op.if, op.i32(1), op.set(moved), op.end,
      at8(theta, oa), at8(theta, oa), op.f64load(), op.get(lr), op.get(g), op.f64mul, op.f64add, op.tee(th), op.f64store(),
      op.get(probe), op.get(th), op.f64(0), op.f64mul, op.f64add, op.set(probe),
      at24(f, oa), op.f64(0), op.f64store(8),
      nextA, op.end,
      op.get(moved),
      op.if,
      at4(logZAt, n), op.i32(-1), op.i32store(),
      at4(ratiosAt, n), op.i32(-1), op.i32store(),
      at4(movedAt, n), op.get(now), op.i32store(),
      op.end,
      op.get(j), op.i32(1), op.i32add, op.tee(j), op.get(nNodes), op.i32ltS, op.brIf(0),
      op.end,
      op.end,
      op.i32(0), op.get(probe), op.f64store(16),
    ];
  })(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25),
});

/** logZs(nodes, nNodes, V, theta, logZ, logZAt, now): refreshStaleLogZ with logNormalizer (host/tabular.ts). */
const logZs = (): Func => ({
  params: [I32, I32, I32, I32, I32, I32, I32],
  results: [],
  locals: [I32, I32, I32, I32, F64, F64, F64],
  body: ((nodes, nNodes, V, theta, logZ, logZAt, now, j, n, o, a, m, sum, d) => [
    op.block,
    op.get(nNodes), op.i32eqz, op.brIf(0),
    op.loop,
    at4(nodes, j), op.i32load(), op.set(n),
    at4(logZAt, n), op.i32load(), op.get(now), op.i32ne,
    op.if,
    op.get(n), op.get(V), op.i32mul, op.set(o),
    // m = the largest logit (a NaN never replaces it, as `>` in JavaScript)
    op.f64(-Infinity), op.set(m), op.i32(0), op.set(a),
    op.loop,
    op.get(theta), op.get(o), op.get(a), op.i32add, op.i32(3), op.i32shl, op.i32add, op.f64load(), op.tee(d),
    op.get(m), op.f64gt, op.if, op.get(d), op.set(m), op.end,
    op.get(a), op.i32(1), op.i32add, op.tee(a), op.get(V), op.i32ltS, op.brIf(0),
    op.end,
    // Σ exp(θ − m), the largest logit's term exp(0) = 1 exactly
    op.f64(0), op.set(sum), op.i32(0), op.set(a),
    op.loop,
    op.get(theta), op.get(o), op.get(a), op.i32add, op.i32(3), op.i32shl, op.i32add, op.f64load(), op.get(m), op.f64sub, op.set(d),
    op.get(sum), op.get(d), op.f64(0), op.f64eq, op.ifF64, op.f64(1), op.else, op.get(d), op.call(EXP), op.end, op.f64add, op.set(sum),
    op.get(a), op.i32(1), op.i32add, op.tee(a), op.get(V), op.i32ltS, op.brIf(0),
    op.end,
    at8(logZ, n), op.get(m), op.get(sum), op.call(LOG), op.f64add, op.f64store(),
    at4(logZAt, n), op.get(now), op.i32store(),
    op.end,
    op.get(j), op.i32(1), op.i32add, op.tee(j), op.get(nNodes), op.i32ltS, op.brIf(0),
    op.end,
    op.end,
  ])(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
});

/**
 * epoch(nodes, nNodes, V, theta, f, gsum, logZ, probsOld, logZAt, ratiosAt, movedAt, fresh, now; lr;
 * live, at, tok; eps, lo, hi, clipNum, clipDen): one step, in one call: logZs (unless fresh: the
 * caller copied logZOld), ratios, tokens, finish.
 */
const epoch = (): Func => ({
  params: [I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, F64, I32, I32, I32, F64, F64, F64, F64, F64],
  results: [],
  locals: [],
  export: 'epoch',
  body: ((nodes, nNodes, V, theta, f, gsum, logZ, probsOld, logZAt, ratiosAt, movedAt, fresh, now, lr, live, atp, tok, eps, lo, hi, num, den) => [
    op.get(fresh), op.i32eqz,
    op.if, [nodes, nNodes, V, theta, logZ, logZAt, now].map(op.get), op.call(LOGZS), op.end,
    [nodes, nNodes, V, theta, f, logZ, ratiosAt, now].map(op.get), op.call(RATIOS),
    [live, atp, tok, eps, lo, hi, num, den].map(op.get), op.call(TOKENS),
    [nodes, nNodes, V, theta, f, gsum, logZ, probsOld, logZAt, ratiosAt, movedAt, fresh, now, lr].map(op.get), op.call(FINISH),
  ])(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21),
});

/** The module's bytes (imports memory, Math.exp and Math.log; the order fixes the indices above), made on demand: nothing is kept at load. */
export const exactKernelBytes = (): Uint8Array<ArrayBuffer> => moduleBytes([expFunc(), logFunc(), tokens(), ratios(), finish(), logZs(), epoch()]);
